"""The private redis-server that ``samedeal serve`` runs when it is given no Redis URL, so a
default install keeps its accounts, boards, transcripts and daily secret across restarts.

It is an ordinary redis-server, a child of the ``samedeal serve`` process, kept in one data
directory: the append-only file (AOF, fsynced every second), its log and a Unix socket that only
this user may open (no TCP port), so nothing else on the machine reaches it. The child dies with
its parent (``PR_SET_PDEATHSIG``: a SIGKILLed server takes it down, and SIGTERM lets Redis
finish its AOF), and a lock on the directory, held by both, keeps a second server off the same
data until both are gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

#: Where Debian's package puts it, for a PATH without /usr/bin (a service's minimal PATH).
FALLBACK = "/usr/bin/redis-server"
INSTALL = "install it with `apt-get install redis-server` (or run `make serve`, which does)"
SOCKET, LOCK, LOG = "redis.sock", "samedeal.lock", "redis.log"
#: The longest path a Unix socket may have on Linux (sun_path is 108 bytes with its NUL).
SOCKET_PATH_MAX = 107
PR_SET_PDEATHSIG = 1
#: Seconds to wait for a lock still held by a previous server's redis-server finishing its
#: shutdown, and for a new redis-server to accept connections (loading the AOF does not count).
LOCK_WAIT_S, START_WAIT_S, STOP_WAIT_S = 10.0, 30.0, 60.0


class Refused(Exception):
    """The private redis-server cannot run: one sentence saying why and what to do."""


def find(named: str = "") -> str:
    """The redis-server to run: ``named`` if given, else the one on $PATH, else Debian's
    (``FALLBACK``); ``Refused`` with how to install it when there is none."""
    if named:
        if os.access(named, os.X_OK) and os.path.isfile(named):
            return named
        raise Refused(f"there is no redis-server at {named}: {INSTALL}, or name another one")
    exe = shutil.which("redis-server")
    if exe is None and os.access(FALLBACK, os.X_OK):
        exe = FALLBACK
    if exe is None:
        raise Refused(f"redis-server is not installed: {INSTALL}, or give --redis-url")
    return exe


def answers(sock: Path) -> bool:
    """Something accepts connections on the Unix socket ``sock`` (a live redis-server)."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(1.0)
        try:
            s.connect(str(sock))
        except OSError:
            return False
    return True


def ready(sock: Path) -> bool:
    """Redis on ``sock`` answers PING with PONG (not an error such as LOADING)."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(1.0)
        try:
            s.connect(str(sock))
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
        except OSError:
            return False


def lock(data: Path) -> int:
    """An exclusive lock on the data directory, held until this process and its redis-server
    are both gone; ``Refused`` if another server holds it."""
    fd = os.open(data / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            # A live server answers on the socket: refuse now. Otherwise a killed server's
            # redis-server is most likely still writing its AOF: give it a moment.
            if answers(data / SOCKET) or time.monotonic() > deadline:
                os.close(fd)
                raise Refused(f"another samedeal serve is using {data}: stop it first, or give "
                              "another --data-dir") from None
            time.sleep(0.1)


def die_with_parent(parent: int) -> Callable[[], None]:
    """For ``preexec_fn``: the child gets SIGTERM when the thread that started it ends (the
    main thread of ``samedeal serve``: the process's life), even by SIGKILL."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork

    def arrange() -> None:
        if prctl(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
            os._exit(1)
        if os.getppid() != parent:  # the parent died before prctl: nobody would stop us
            os._exit(1)

    return arrange


def command(exe: str, data: Path) -> list[str]:
    """redis-server's arguments: the AOF only (RDB snapshots off: the AOF, with its RDB
    preamble, is the record, and a second copy would only fork and write more), fsynced
    before each answer (``everysec`` may answer a write it has not yet handed to the system
    while an fsync is slow, so even a killed redis-server could lose it), no TCP port, a
    socket only this user may open, protected mode."""
    return [exe, "--dir", str(data), "--port", "0", "--unixsocket", str(data / SOCKET),
            "--unixsocketperm", "700", "--protected-mode", "yes", "--appendonly", "yes",
            "--appendfsync", "always", "--save", "", "--logfile", str(data / LOG),
            "--daemonize", "no"]


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM: Redis writes out and fsyncs its AOF, then exits."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_ready(proc: subprocess.Popen[bytes], sock: Path, log: Path) -> None:
    """Until Redis answers PONG: it may take a while loading a large AOF (it answers LOADING
    meanwhile), but must accept connections within ``START_WAIT_S``."""
    deadline = time.monotonic() + START_WAIT_S
    while not ready(sock):
        if proc.poll() is not None:
            tail = log.read_text(errors="replace").strip().splitlines()[-3:] if log.exists() \
                else []
            raise Refused(f"redis-server stopped at its start (exit code {proc.returncode}; "
                          f"its log, {log}, ends: {' / '.join(tail) or 'nothing'})")
        if not answers(sock) and time.monotonic() > deadline:
            raise Refused(f"redis-server did not start within {START_WAIT_S:g} s (see {log})")
        time.sleep(0.05)


class Private:
    """A running private redis-server: its URL, and whether it died under the server (which
    then has no store: a watching thread sends the process SIGTERM, so the server stops as on
    Ctrl-C and ``samedeal serve`` can say why)."""

    def __init__(self, proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
        self.proc, self.url, self.log = proc, url, log
        self.died = threading.Event()
        self._stopping = False
        threading.Thread(target=self._watch, name="redis-server watch", daemon=True).start()

    def _watch(self) -> None:
        self.proc.wait()
        if not self._stopping:
            self.died.set()
            os.kill(os.getpid(), signal.SIGTERM)

    def stop(self) -> None:
        self._stopping = True
        stop(self.proc)


@contextlib.contextmanager
def running(data_dir: str | Path, exe: str) -> Iterator[Private]:
    """A private redis-server on ``data_dir`` (created) while the block runs."""
    data = Path(data_dir).resolve()
    data.mkdir(mode=0o700, parents=True, exist_ok=True)
    sock = data / SOCKET
    if len(os.fsencode(sock)) > SOCKET_PATH_MAX:
        raise Refused(f"the data directory's path is too long for a Unix socket ({sock}): give "
                      "a shorter --data-dir")
    fd = lock(data)
    try:
        if answers(sock):  # a redis-server someone started by hand on our directory
            raise Refused(f"a redis-server already answers on {sock}: stop it first, or give "
                          "another --data-dir")
        sock.unlink(missing_ok=True)  # stale, from a crash: nobody else holds the lock
        proc = subprocess.Popen(command(exe, data), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                pass_fds=(fd,), start_new_session=True,  # not Ctrl-C's target
                                preexec_fn=die_with_parent(os.getpid()))
        try:
            wait_ready(proc, sock, data / LOG)
        except BaseException:
            stop(proc)
            raise
        # redis-py unquotes the path: a directory may have spaces or a "?" in its name
        private = Private(proc, f"unix://{quote(str(sock))}?db=0", data / LOG)
        try:
            yield private
        finally:
            private.stop()
    finally:
        os.close(fd)
