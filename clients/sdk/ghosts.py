"""Ghost races (docs/protocol.md#ghost-races): create one, list the open ones, enter one and
play your run while the earlier entrants' recorded runs are replayed to you as
``ghost.progress`` events, then read the results (the seed and every transcript once the
ghost race is revealed).

These are functions over a ``Client``, not methods of it::

    run = await ghosts.enter(client, ghost_id)
    async for step in run.progress():  # or play run.session with clients.sdk.play
        print(step.name, step.moves, step.score)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, cast

from .client import Client
from .messages import Event, Session
from .payloads import Ghost


@dataclass
class GhostProgress:
    """An earlier entrant's run moved, at the same moment of its run as yours is now: the
    fields of a race's ``race.progress``, never a card."""

    ghost: str
    race: str  # their run's race
    player: str
    name: str
    offset: int  # ms from the start of their run (and of yours)
    moves: int
    score: float
    cards: int
    status: str
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> GhostProgress:
        return cls(str(raw["ghost"]), str(raw["race"]), str(raw["player"]),
                   str(raw.get("name", "")), int(raw["offset"]), int(raw["moves"]),
                   raw["score"], int(raw["cards"]), str(raw["status"]), raw)


class GhostRun:
    """Your run in a ghost race: ``session`` to play (with ``Client.move`` or
    ``clients.sdk.play.play_session``) and the ghosts' progress as it comes (``progress``).
    Made by ``enter``; ``resume`` after a reconnection starts the replay again where your run
    stands."""

    def __init__(self, client: Client, ghost: str) -> None:
        self.client = client
        self.ghost = ghost
        self._queue: asyncio.Queue[GhostProgress] = asyncio.Queue()
        client.listeners.append(self._offer)

    def _take(self, entry: dict[str, Any]) -> None:
        self.summary: Ghost = entry["ghost"]
        self.race: str = str(entry["race"])
        self.session: Session = self.client._note_session(entry["session"])

    def _offer(self, event: Event) -> None:
        if event.type == "ghost.progress" and event.raw.get("ghost") == self.ghost:
            self._queue.put_nowait(GhostProgress.from_raw(event.raw))

    async def resume(self) -> Session:
        """Enter again: the same run (one attempt each), its session as it stands, and the
        ghosts replayed from where your run is."""
        self._take(await self.client.request({"type": "ghost.enter", "ghost": self.ghost}))
        return self.session

    async def next(self, timeout: float | None = None) -> GhostProgress:
        """The next ghost step (``TimeoutError`` after ``timeout`` s)."""
        return await asyncio.wait_for(self._queue.get(), timeout)

    async def progress(self) -> AsyncIterator[GhostProgress]:
        """Every ghost step, in order, until you stop iterating or ``close``."""
        while True:
            yield await self.next()

    def close(self) -> None:
        """Stop collecting the ghosts' steps."""
        with contextlib.suppress(ValueError):
            self.client.listeners.remove(self._offer)


async def create(client: Client, game: str, variant: str, *, open_for: int | None = None,
                 cap: int | None = None, time_limit: int | None = None,
                 countdown: int | None = None) -> Ghost:
    """A new ghost race (its summary): open ``open_for`` s (default a day) or until ``cap``
    entrants (default 100); each run lasts up to ``time_limit`` s (default 600). Never re-sent
    after a drop (it would make a second one)."""
    msg: dict[str, Any] = {"type": "ghost.create", "game": game, "variant": variant}
    for key, value in (("open_for", open_for), ("cap", cap), ("time_limit", time_limit),
                       ("countdown", countdown)):
        if value is not None:
            msg[key] = value
    return cast(Ghost, await client.request(msg, None))


async def enter(client: Client, ghost: str) -> GhostRun:
    """Enter (once) and start your run; entering again while it is in progress resumes it
    (``ServerError`` ``ghost.entered`` once it is over, ``ghost.closed`` when it takes no
    more entrants)."""
    run = GhostRun(client, ghost)  # listening first: a step may come right after the reply
    try:
        run._take(await client.request({"type": "ghost.enter", "ghost": ghost}))
    except BaseException:
        run.close()
        raise
    return run


async def get(client: Client, ghost: str) -> Ghost:
    """A ghost race: its ranking, ``to_beat``, and once ``state`` is ``revealed`` its
    ``seed`` and ``transcripts``."""
    return cast(Ghost, await client._rest("GET", f"/ghosts/{ghost}"))


async def list_open(client: Client) -> list[Ghost]:
    """The open ghost races, newest first (at most 50)."""
    return list((await client._rest("GET", "/ghosts"))["ghosts"])
