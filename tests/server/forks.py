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

    def start(self, env: dict[str, str] | None = None,
              url: str | None = None) -> tuple[Node, int]:
        """A node on ``url`` (the Redis given first by default) with ``env`` over every
        node's settings, once it answers (or, started to stop at a crash point, once its
        first sweep reached it)."""
        with self._starting:
            self.count += 1
            port, log = free_port(), self.logs / f"node{self.count}.log"
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({"port": port, "url": url or self.url,
                                              "env": {**self.env, **(env or {})},
                                              "log": str(log)}) + "\n")
            self.proc.stdin.flush()
            with self._said:
                assert self._said.wait_for(lambda: self._started, 60), "no fork"
                pid = self._started.pop()
            self.pids.append(pid)
        node = Node(f"http://127.0.0.1:{port}", pid, log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, httpx.HTTPError):
                if answers(f"{node.url}/healthz") == 200:
                    return node, pid
            with self._said:
                if self.ended.get(pid) == EXIT_CODE:  # its first sweep reached its crash point
                    return node, pid
            time.sleep(0.05)
        raise RuntimeError(f"a forked node did not come up: {log.read_text()[-2000:]}")

    def status(self, pid: int, timeout: float) -> int | None:
        """``pid``'s exit status if it ends within ``timeout`` s, else None: it runs on."""
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
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.kill()
        self.proc.wait(10)
