"""Ratings: openskill's Plackett-Luce model, per rule set, humans and bots apart.

A rating is a belief about skill: ``mu`` and its uncertainty ``sigma``; boards order by the
cautious ``ordinal`` (mu - 3 sigma), which rises as a player's results pile up. After a race
the humans are rated against the humans and the bots against the bots, each group by its
place in the race ranking (shared ranks are ties); a group of one changes nothing.

A race against a server-run bot (server/botrace/__init__.py) touches neither: its human is rated
against the bot's fixed rating (one per strength: a known opponent), on a board of its own,
``botratings/<game>/<variant>``, so that a rating among people never moves by playing a bot.

Each rating board's entries hash is the ratings' home: one WATCHed transaction per group reads
and rewrites it, so two races ending at once cannot lose an update. The same transaction notes
the result's id in the hash (``RATED``: the last few), so a result rated again (its follow-up
done twice, server/followups.py) changes nothing. A copy goes to each player's profile.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce
from redis.asyncio import Redis
from redis.exceptions import WatchError

import engine

from .. import store
from . import Boards, board_keys

ORDINAL_MAX = 1000.0  # the board key is (ORDINAL_MAX - ordinal) in millionths
RATED, RATED_KEPT = "~rated", 256  # a field no player id takes; ids of the last results rated


def rating_board(rules: engine.RuleSet, kind: str) -> str:
    return f"rating:{rules.id}:{rules.variant}:{kind}"


def bot_rating_board(rules: engine.RuleSet) -> str:
    """Humans' ratings from races against server-run bots."""
    return f"botrating:{rules.id}:{rules.variant}:human"


class Ratings:
    def __init__(self, redis: Redis, boards: Boards) -> None:
        self.redis = redis
        self.boards = boards
        self.model = PlackettLuce()

    async def update(self, rules: engine.RuleSet, ranking: Sequence[Mapping[str, Any]],
                     result: str = "") -> None:
        """Rate a race's or match's ranking; once per ``result`` id, however often called."""
        for kind in ("human", "bot"):
            group = [e for e in ranking if e.get("kind", "human") == kind]
            if len(group) >= 2:
                await self._rate(rules, kind, group, result)

    async def update_against_bot(self, rules: engine.RuleSet,
                                 ranking: Sequence[Mapping[str, Any]],
                                 result: str, bot: str, bot_rating: tuple[float, float]) -> None:
        """A race against the server-run ``bot``: its humans rated against the bot's fixed
        ``bot_rating`` (mu, sigma), on the ``botratings`` board alone; the bot's own
        rating never changes."""
        if any(e["player"] == bot for e in ranking) and len(ranking) >= 2:
            await self._rate(rules, "human", ranking, result, bot_rating_board(rules),
                             "botrating", {bot: bot_rating})

    async def _rate(self, rules: engine.RuleSet, kind: str, group: Sequence[Mapping[str, Any]],
                    result: str, board: str = "", field: str = "rating",
                    fixed: dict[str, tuple[float, float]] | None = None) -> None:
        """Rate ``group`` on ``board`` (the rating board of ``kind`` by default), its
        entrants in ``fixed`` at their given rating, neither read nor written; ``field``:
        the profile's copy, ``field:game/variant``."""
        board = board or rating_board(rules, kind)
        fixed = fixed or {}
        _, entries = board_keys(board)
        pids = [e["player"] for e in group]
        while True:
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(entries)
                    *raws, rated = await pipe.hmget(entries, [*pids, RATED])
                    seen = store.text(rated).split()
                    if result and result in seen:
                        mine = {pid: {k: v for k, v in json.loads(raw).items()
                                      if k in ("mu", "sigma", "ordinal", "races")}
                                for pid, raw in zip(pids, raws, strict=True) if raw}
                        break  # rated already: the profiles' copies below, again
                    olds = [json.loads(raw) if raw else None for raw in raws]
                    olds = [{"mu": fixed[pid][0], "sigma": fixed[pid][1], "races": 0}
                            if pid in fixed else o for pid, o in zip(pids, olds, strict=True)]
                    teams = [[self.model.rating(o["mu"], o["sigma"]) if o
                              else self.model.rating()] for o in olds]
                    new = self.model.rate(teams, ranks=[e["rank"] for e in group])
                    now_ms = int(time.time() * 1000)
                    pipe.multi()  # type: ignore[no-untyped-call]  # redis-py's
                    mine = {}
                    for e, old, [r] in zip(group, olds, new, strict=True):
                        if e["player"] in fixed:
                            continue
                        ordinal = r.ordinal()
                        mine[e["player"]] = {
                            "mu": round(r.mu, 4), "sigma": round(r.sigma, 4),
                            "ordinal": round(ordinal, 4),
                            "races": (old["races"] if old else 0) + 1}
                        key = round((ORDINAL_MAX - max(-ORDINAL_MAX, min(ORDINAL_MAX, ordinal)))
                                    * 1e6)
                        await self.boards.put(board, e["player"], key, now_ms,
                                              {"name": e["name"], **mine[e["player"]]},
                                              replace=True, client=pipe)
                    if result:
                        pipe.hset(entries, RATED, " ".join([result, *seen][:RATED_KEPT]))
                    await pipe.execute()
                except WatchError:
                    continue
            break
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid, rating in mine.items():
                pipe.hset(store.player_key(pid), f"{field}:{rules.id}/{rules.variant}",
                          json.dumps(rating))
            await pipe.execute()
