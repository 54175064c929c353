"""Graceful shutdown: on SIGTERM a node first hands its players over, then lets uvicorn stop.

Uvicorn alone would close every WebSocket at once, mid-move. Instead the node stops taking new
sockets (503, so the load balancer tries another node) and reports itself not ready, lets each
socket finish the message it is handling, tells it to reconnect (a ``reconnect`` message, then
close code 1012, "service restart"), and only then passes the signal on to uvicorn. Clients
land on another node and resume from their last event; every move acknowledged before the
close is already in Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("samedeal")

RESTART = 1012  # WebSocket close code: service restart
NOTICE = {"type": "reconnect",
          "message": "this server is restarting: reconnect and resume where you were"}


#: The sockets left open whose place is logged, at most.
LOGGED = 5


class Restartable(Protocol):
    #: the task serving the socket: where it waits is logged if it outlives the drain
    task: asyncio.Task[Any] | None

    async def restart(self) -> None: ...


def waiting_at(task: asyncio.Task[Any]) -> str:
    """Where ``task`` waits: its chain of awaits, outermost first, as ``module:line function``
    (a suspended coroutine's own stack is its first frame only)."""
    frames: list[str] = []
    awaited: Any = task.get_coro()
    while awaited is not None and len(frames) < 40:
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
        if frame is None:
            break
        module = frame.f_globals.get("__name__", "?")
        frames.append(f"{module}:{frame.f_lineno} {frame.f_code.co_name}")
        awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    return " > ".join(frames) or repr(task)


class Drain:
    def __init__(self, timeout: float = 10.0) -> None:
        self.timeout = timeout
        self.draining = False
        self.sockets: set[Restartable] = set()
        self._gone = asyncio.Event()

    def opened(self, socket: Restartable) -> None:
        self.sockets.add(socket)
        self._gone.clear()

    def closed(self, socket: Restartable) -> None:
        self.sockets.discard(socket)
        if not self.sockets:
            self._gone.set()

    async def run(self) -> None:
        """Hand every open socket over; give up waiting after ``timeout`` seconds (uvicorn then
        closes what is left)."""
        self.draining = True
        count = len(self.sockets)
        log.warning("draining: telling %d socket(s) to reconnect elsewhere", count)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.timeout):
                await asyncio.gather(*(s.restart() for s in list(self.sockets)))
                if self.sockets:
                    await self._gone.wait()
        left = list(self.sockets)
        log.warning("drained: %d socket(s) left open", len(left))
        for socket in left[:LOGGED]:  # what holds it: the bug to find
            if socket.task is not None:
                log.warning("a socket left open waits at %s", waiting_at(socket.task))

    def on_sigterm(self) -> Callable[[], None]:
        """Run :meth:`run` when SIGTERM arrives, then pass the signal on to the handler that
        was there (uvicorn's); returns the undo. A second SIGTERM passes on at once."""
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        loop = asyncio.get_running_loop()
        previous = signal.getsignal(signal.SIGTERM)
        task: asyncio.Task[None] | None = None

        def pass_on(signum: int) -> None:
            if callable(previous):
                previous(signum, None)

        async def drain_then_pass_on(signum: int) -> None:
            try:
                await self.run()
            finally:
                pass_on(signum)

        def start(signum: int) -> None:
            nonlocal task
            if task is None:
                task = loop.create_task(drain_then_pass_on(signum))
            else:
                pass_on(signum)

        def handler(signum: int, frame: Any) -> None:
            loop.call_soon_threadsafe(start, signum)

        signal.signal(signal.SIGTERM, handler)

        def undo() -> None:
            signal.signal(signal.SIGTERM, previous)

        return undo
