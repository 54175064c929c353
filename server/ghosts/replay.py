"""A socket's side of a ghost race: the earlier entrants' recorded runs replayed to it as
``ghost.progress`` events, each at the moment of the entrant's own run at which it happened
in its run (both measured from each run's start, by the store's clock).

The schedule is read from Redis when the run is entered or resumed (server/ghosts/__init__.py
``Ghosts.replay``), so a socket on any node, after any restart, replays the same. On resuming,
each ghost's latest step already past is sent at once, the later ones at their moments.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import store

if TYPE_CHECKING:
    from ..api import Services

log = logging.getLogger("samedeal.ghosts")

Push = Callable[[dict[str, Any]], None]


class Replays:
    """The replays running for one socket, by ghost race: one each, the newest kept."""

    def __init__(self) -> None:
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def start(self, sv: Services, push: Push, gid: str, pid: str) -> None:
        old = self.tasks.pop(gid, None)
        if old is not None:
            old.cancel()
        task = asyncio.create_task(replay(sv, push, gid, pid))
        self.tasks[gid] = task
        task.add_done_callback(lambda t: self.tasks.pop(gid, None) if
                               self.tasks.get(gid) is t else None)

    def stop(self) -> None:
        """The socket closed: every replay ends."""
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()


async def replay(sv: Services, push: Push, gid: str, pid: str) -> None:
    try:
        _, plan = await sv.ghosts.replay(gid, pid)
        now = await store.now_ms(sv.redis)
    except Exception:  # the store away: the client resumes by entering again
        log.info("ghost race %s: the replay could not be read", gid, exc_info=True)
        return
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    past: dict[str, dict[str, Any]] = {}
    for due, event in plan:
        if due > now:
            break
        past[event["player"]] = event
    for event in past.values():  # where each ghost stands now
        push(event)
    for due, event in plan:
        if due <= now:
            continue
        wait = (due - now) / 1000 - (loop.time() - t0)
        if wait > 0:
            await asyncio.sleep(wait)
        with contextlib.suppress(Exception):
            push(event)
