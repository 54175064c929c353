"""Matches (docs/protocol.md#matches): several players on one deal, taking turns or each on
their own board with the same card called to all."""

from __future__ import annotations

from typing import Any

from .following import Following
from .messages import Match
from .state import MatchState


class Matches(Following):
    """Matches: seats, your moves, and your latest position from the events."""

    # ----- matches (docs/protocol.md#matches) ------------------------------------------------

    async def create_match(self, game: str, variant: str, seats: int, *,
                           turn_time: int | None = None, grace: int | None = None,
                           start: str | None = None, join: bool = True) -> Match:
        msg: dict[str, Any] = {"type": "match.create", "game": game, "variant": variant,
                               "seats": seats, "join": join}
        for key, value in (("turn_time", turn_time), ("grace", grace), ("start", start)):
            if value is not None:
                msg[key] = value
        return Match.from_raw(await self.request(msg, None))

    async def join_match(self, match: str) -> Match:
        return Match.from_raw(await self.request({"type": "match.join", "match": match}, None))

    async def leave_match(self, match: str) -> Match:
        return Match.from_raw(await self.request({"type": "match.leave", "match": match},
                                                 None))

    async def start_match(self, match: str) -> Match:
        return Match.from_raw(await self.request({"type": "match.start", "match": match},
                                                 None))

    async def rematch_match(self, match: str) -> Match:
        """Ask for a rematch of an ended match you played in, or accept one: the same players
        on a new deal (docs/protocol.md#rematches); the reply is the new match, with your
        seat in it (its events follow: a ``match.rematched`` event is how the others hear)."""
        async def recover() -> dict[str, Any] | None:
            again = await self.request({"type": "match.rematch", "match": match})
            await self.subscribe_match(str(again["match"]))
            return again
        return Match.from_raw(await self.request({"type": "match.rematch", "match": match},
                                                 recover))

    async def match(self, match: str) -> Match:
        return Match.from_raw(await self.request({"type": "match.get", "match": match}))

    async def subscribe_match(self, match: str, after: int | None = None) -> MatchState:
        ms = self._matches.setdefault(match, MatchState(match))
        if after is not None:
            ms.seq = after
        await self._subscribe("match.subscribe", "match", match, ms.seq)
        return ms

    async def unsubscribe_match(self, match: str) -> None:
        self._matches.pop(match, None)
        await self.request({"type": "match.unsubscribe", "match": match})

    async def match_move(self, match: str, move: str | dict[str, Any]) -> Match:
        """Play your move in a match; the reply (``match.ack``) is the match after it. Not
        re-sent after a drop (``ConnectionLost``): re-subscribe and read your ``match.you``
        instead."""
        return Match.from_raw(await self.request(
            {"type": "match.move", "match": match, "move": move}, None))

    def match_state(self, match: str) -> MatchState | None:
        return self._matches.get(match)

