"""A redis-server a test starts for itself, to pause (SIGSTOP), resume or start late: the
session's shared one (``redis_url`` in tests/conftest.py) must keep serving the others."""

from __future__ import annotations

import shutil
import signal
import subprocess
from pathlib import Path

from tests.conftest import wait_for


def start(port: int, work: Path, aof: bool = False) -> subprocess.Popen[bytes]:
    """redis-server on ``port`` (loopback), once it answers PING: nothing on disk, or with
    ``aof`` every write in an AOF in ``work`` before it is answered, so a redis-server killed
    and started again on ``work`` has every write it answered."""
    exe = shutil.which("redis-server")
    assert exe is not None, "redis-server is not installed"
    disk = ["--appendonly", "yes", "--appendfsync", "always"] if aof else ["--appendonly", "no"]
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             *disk, "--dir", str(work)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def up() -> bool:
        ping = ["redis-cli", "-p", str(port), "ping"]
        return subprocess.run(ping, capture_output=True, timeout=5).stdout.strip() == b"PONG"

    wait_for(up, "redis-server")
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGCONT)  # a paused process would not act on SIGTERM
    proc.terminate()
    proc.wait(10)
