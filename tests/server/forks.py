"""Nodes forked by tests/server/forked_nodes.py, and how each ended: for tests that start many
nodes, or must start them at a moment of their choosing (the forking process has imported the
server, so a node is up in a fraction of a second). Its methods block: a test calls them in
threads, several nodes at once."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from server.crash_points import EXIT_CODE
from tests.conftest import NODE_STOP_SECONDS, PATIENCE, ROOT, answers, free_port

from .client import Node


class Forks:
    """The forking process, started at once; ``env``: every node's settings."""

    def __init__(self, url: str, logs: Path, env: dict[str, str]) -> None:
        self.url = url
        self.logs = logs
        self.env = env
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.server.forked_nodes"],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.ended: dict[int, int] = {}
        self.pids: list[int] = []  # every node started and not yet seen ended
        self.count = 0
        self._starting = threading.Lock()  # one start asked at a time: its answer is next
        self._said = threading.Condition()
        self._started: list[int] = []
        self._ready = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            said = json.loads(line)
            with self._said:
                if "ended" in said:
                    self.ended[said["ended"]] = said["code"]
                elif "ready" in said:
                    self._ready = True
                else:
                    self._started.append(said["started"])
                self._said.notify_all()

    def ready(self) -> None:
        """Once the forking process has imported the server: a node starts in a fork."""
        with self._said:
            assert self._said.wait_for(lambda: self._ready, PATIENCE), "no forking process"

    def fork(self, url: str, env: dict[str, str], log: Path,
             whole: bool = False) -> tuple[int, int]:
        """A node forked on ``url`` with ``env`` (over every node's settings; ``whole``: its
        whole environment), writing to ``log``: its port and pid, at once."""
        with self._starting:
            port = free_port()
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({"port": port, "url": url, "whole": whole,
                                              "env": env if whole else {**self.env, **env},
                                              "log": str(log)}) + "\n")
            self.proc.stdin.flush()
            with self._said:
                assert self._said.wait_for(lambda: self._started, 60), "no fork"
                pid = self._started.pop()
            self.pids.append(pid)
        return port, pid

    def start(self, env: dict[str, str] | None = None,
              url: str | None = None) -> tuple[Node, int]:
        """A node on ``url`` (the Redis given first by default) with ``env`` over every
        node's settings, once it answers (or, started to stop at a crash point, once its
        first sweep reached it)."""
        with self._starting:
            self.count += 1
            log = self.logs / f"node{self.count}.log"
        port, pid = self.fork(url or self.url, env or {}, log)
        node = Node(f"http://127.0.0.1:{port}", pid, log)
        self.up(node, crash_ok=True)
        return node, pid

    def up(self, node: Node, crash_ok: bool = False) -> None:
        """Once ``node`` answers (``crash_ok``: or it stopped at its crash point); a node that
        ends otherwise, or does not answer within a minute, fails with its log's end."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, httpx.HTTPError):
                if answers(f"{node.url}/healthz") == 200:
                    return
            with self._said:
                code = self.ended.get(node.pid)
            if code is not None and crash_ok and code == EXIT_CODE:
                return  # its first sweep reached its crash point
            if code is not None:
                raise RuntimeError(f"the server exited ({code}): {node.log.read_text()[-2000:]}")
            time.sleep(0.05)
        raise RuntimeError(f"a forked node did not come up: {node.log.read_text()[-2000:]}")

    def status(self, pid: int, timeout: float | None) -> int | None:
        """``pid``'s exit status if it ends within ``timeout`` s (None: however long it
        takes), else None: it runs on."""
        with self._said:
            self._said.wait_for(lambda: pid in self.ended, timeout)
            return self.ended.get(pid)

    def end(self, pid: int, timeout: float) -> int:
        """How ``pid`` ended: its exit status (killed if it still runs after ``timeout``)."""
        with self._said:
            if not self._said.wait_for(lambda: pid in self.ended, timeout):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                self._said.wait_for(lambda: pid in self.ended, 30)
            self.pids.remove(pid)
            return self.ended.pop(pid)

    def stop(self, pid: int) -> int:
        """``pid`` stopped as an operator stops a node (SIGTERM: it drains), and its status."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        return self.end(pid, NODE_STOP_SECONDS)

    def close(self) -> None:
        """Every node still running killed, then the forking process."""
        for pid in self.pids:
            if pid not in self.ended:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self.proc.kill()
        self.proc.wait(10)


class ForkedProcess:
    """A forked node seen as ``subprocess.Popen`` sees a process (``pid``, ``poll``, ``wait``,
    signals, ``returncode``), for code written for nodes started as commands."""

    def __init__(self, forks: Forks, pid: int) -> None:
        self.forks = forks
        self.pid = pid
        self.returncode: int | None = None
        self.args = ["forked node"]

    def poll(self) -> int | None:
        return self.wait_for(0)

    def wait(self, timeout: float | None = None) -> int:
        code = self.wait_for(timeout)
        if code is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return code

    def wait_for(self, timeout: float | None) -> int | None:
        if self.returncode is None:
            self.returncode = self.forks.status(self.pid, timeout)
            if self.returncode is not None and self.pid in self.forks.pids:
                self.forks.pids.remove(self.pid)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
