"""Races: creating, joining and following them to their results."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from .accounts import Accounts
from .errors import SdkError
from .following import Following
from .messages import Race, Results, Session
from .state import RaceState

RECHECK = 5.0  # seconds a race's follower waits for news before following the race again


class Races(Accounts, Following):
    """Races: a seat in one, its events, your session in it and its results."""

    # ----- races ---------------------------------------------------------------------------

    def _me(self) -> str:
        if not self.player:
            raise SdkError("not connected with a token: who am I?")
        return str(self.player["id"])

    async def create_race(self, game: str, variant: str, seats: int, *,
                          start: str | None = None, time_limit: int | None = None,
                          countdown: int | None = None, join: bool = True) -> Race:
        """A new race; with ``join`` you take a seat and follow its events from there.
        Never re-sent after a drop (it would make a second race): ``ConnectionLost``."""
        msg: dict[str, Any] = {"type": "race.create", "game": game, "variant": variant,
                               "seats": seats, "join": join}
        for key, value in (("start", start), ("time_limit", time_limit),
                           ("countdown", countdown)):
            if value is not None:
                msg[key] = value
        return Race.from_raw(await self.request(msg, None))

    async def join_race(self, race: str) -> Race:
        """Take a seat; the race's events follow, and your ``session`` when it starts."""
        async def recover() -> dict[str, Any] | None:
            summary = await self.race(race)
            if summary.entrant(self._me()) is None:
                return None
            await self.subscribe_race(race)
            return summary.raw
        return Race.from_raw(await self.request({"type": "race.join", "race": race}, recover))

    async def leave_race(self, race: str) -> Race:
        async def recover() -> dict[str, Any] | None:
            summary = await self.race(race)
            return summary.raw if summary.entrant(self._me()) is None else None
        return Race.from_raw(await self.request({"type": "race.leave", "race": race}, recover))

    async def start_race(self, race: str) -> Race:
        """Start a race you created (at least two entrants)."""
        async def recover() -> dict[str, Any] | None:
            summary = await self.race(race)
            return summary.raw if summary.state != "open" else None
        return Race.from_raw(await self.request({"type": "race.start", "race": race}, recover))

    async def rematch_race(self, race: str) -> Race:
        """Ask for a rematch of an ended race you were in, or accept one: the same entrants on
        a new deal (docs/protocol.md#rematches). The reply is the new race, with your seat in
        it; asking again is harmless, so it is re-sent after a drop."""
        async def recover() -> dict[str, Any] | None:
            again = await self.request({"type": "race.rematch", "race": race})
            await self.subscribe_race(str(again["race"]))
            return again
        return Race.from_raw(await self.request({"type": "race.rematch", "race": race},
                                                recover))

    async def subscribe_race(self, race: str, after: int | None = None) -> RaceState:
        """Follow a race's events. ``after``: the last ``seq`` you saw (missed events are
        replayed, or a summary resyncs you); left out, the client resumes from the last event
        it saw itself, or asks for the whole summary. Returns once the server has sent the
        catch-up (and your ``session`` if you are an entrant of a started race)."""
        rs = self._races.setdefault(race, RaceState(race))
        if after is not None:
            rs.seq = after
        await self._subscribe("race.subscribe", "race", race, rs.seq)
        return rs

    async def unsubscribe_race(self, race: str) -> None:
        self._races.pop(race, None)
        await self.request({"type": "race.unsubscribe", "race": race})

    def race_state(self, race: str) -> RaceState | None:
        """What the client knows of a race it follows (``None`` if it does not)."""
        return self._races.get(race)

    async def wait_race_session(self, race: str, timeout: float | None = None
                                ) -> Session | None:
        """Your session in a race you joined, once it has started (``None`` if the race ended
        without one reaching you, e.g. a deal with no move at all)."""
        rs = self._races.setdefault(race, RaceState(race))
        await self._wait_race(race, lambda: rs.session is not None or rs.over, timeout)
        return rs.session

    async def wait_race_end(self, race: str, timeout: float | None = None) -> Results:
        """Wait for the race to end, then its results (ranking and revealed seed)."""
        rs = self._races.get(race)
        if rs is None:
            rs = await self.subscribe_race(race)
        await self._wait_race(race, lambda: rs.over, timeout)
        return await self.race_results(race)

    async def _wait_race(self, race: str, done: Callable[[], bool],
                         timeout: float | None) -> None:
        """Wait for ``done``, which the race's own events decide. With no news for
        ``RECHECK`` seconds, follow the race once more (``race.subscribe`` from the last event
        seen: the events missed and, in a started race, your session are sent again), in case
        this connection was never following it (a seat taken over REST or another connection);
        from then on its events alone: nothing is read again and again while a race is quiet
        (a reconnection follows it again by itself)."""
        async def loop() -> None:
            followed = False
            while not done():
                try:
                    await self.wait_for(done, None if followed else RECHECK)
                except TimeoutError:
                    await self.subscribe_race(race)
                    followed = True

        await asyncio.wait_for(loop(), timeout)

