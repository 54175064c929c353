"""Rematches: the same entrants (of a race) or players (of a match) again, on a new deal.

Any of them may ask once it is over. The first request makes the new race or match (the same
rule set and settings, a new secret seed, its commitment published as usual, not listed among
the open ones, only the old entrants invited) and records it on the old one in one script, so
that Redis decides between two nodes asking at once; that script also announces it on the old
one's channel (``race.rematched``/``match.rematched``). Every later request gets the same new id.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import msgpack
from redis.asyncio import Redis

from .. import store
from ..accounts import Player
from ..config import Settings
from ..errors import ApiError
from ..store import script_replies, scripts

#: The refusal for someone who was not in the old race or match.
NOT_IN = {"race": "race.not_entrant", "match": "match.not_player"}


class Rematches:
    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self._claim = script_replies.bind(redis, scripts.REMATCH,
                                          script_replies.Rematched.of)

    async def claim(self, kind: str, eid: str, keys: list[str], player: Player,
                    recorded: str | None, make: Callable[[], Awaitable[str]],
                    drop: Callable[[str], Awaitable[None]],
                    refuse: Callable[[str], ApiError]) -> str:
        """The id of ``eid``'s rematch: ``recorded`` already, else a new one from ``make``,
        unless another request recorded its own first (then ours is dropped unseen)."""
        if recorded:
            return recorded
        candidate = await make()
        event = {"type": f"{kind}.rematched", kind: eid, "rematch": candidate,
                 "by": player.public()}
        got = await self._claim(keys=keys, args=[
            player.id, candidate, msgpack.packb(event), self.settings.event_window,
            store.channel(eid), int(self.settings.replay_window * 1000), kind, NOT_IN[kind]])
        if not got.ok or got.rematch != candidate:
            await drop(candidate)
        if not got.ok:
            raise refuse(got.why)
        return got.rematch
