"""The README's first command on a fresh clone, as a newcomer runs it: ``make serve`` makes the
virtual environment, installs SameDeal and compiles the engine (saying so first, with the time
it usually takes), then serves; Ctrl-C stops it with one line. A real clone, a real make, a
real server; the time from the command to a ready server is printed in the run's output (it
is a figure to read, not a limit: a busy machine takes longer).

The C is compiled unoptimised (``CFLAGS=-O0``, which setup.py lets win): what is tested is the
path, and the suite's own environment was built by the same make target with the README's
flags, so this compile only repeats it at half its CPU."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, answers, free_port, wait_for

#: A busy two-core machine compiling the engine from nothing.
FIRST_RUN_SECONDS = 900


def test_the_first_make_serve_on_a_fresh_clone_serves_and_stops_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clone = tmp_path / "samedeal"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    port = free_port()
    log = tmp_path / "make.log"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SAMEDEAL_", "VIRTUAL_ENV", "MAKE"))}
    env["SAMEDEAL_DAILY_WINNABLE"] = "false"  # no background solving while it is timed
    env["CFLAGS"] = "-O0"
    began = time.monotonic()
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            ["make", "serve", f"ARGS=serve --port {port} --data-dir {tmp_path / 'data'}"],
            cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def ready() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"make serve exited: {log.read_text()[-3000:]}")
            try:
                return answers(f"http://127.0.0.1:{port}/healthz") == 200
            except httpx.HTTPError:
                return False

        wait_for(ready, "the first make serve", FIRST_RUN_SECONDS)
        took = time.monotonic() - began
        with capsys.disabled():
            print(f"\nfirst `make serve` on a fresh clone: {took:.0f} s to a ready server "
                  "(C unoptimised)")
        said = log.read_text()
        assert said.startswith("python3 -m venv"), said[:500]
        assert "compiling the engine's inner loop" in said.split("pip install -q -e")[0], said[:800]
        assert said.count("SameDeal on http://") == 1, said
        assert "Traceback" not in said and "ERROR" not in said, said[-3000:]

        before = len(said)
        os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C reaches the whole job
        proc.wait(60)
        after = log.read_text()[before:]
        assert [line for line in after.splitlines() if line.strip()] == [
            line for line in after.splitlines() if "Finished server process" in line], after
        assert after.count("Finished server process") == 1, after
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
