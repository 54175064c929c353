"""The end of a match: its results and ranking, stored with the match's last event, then
recorded (statistics and ratings) by whichever node gets there, at once or as a follow-up."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack

from .. import followups, store
from ..accounts import kind_of
from ..errors import ApiError
from ..store import script_replies, scripts
from ..transport.reply_types import MatchRanked, MatchResults
from .book import Book
from .record import Match

log = logging.getLogger("samedeal.matches")

OnEnd = Callable[[MatchResults], Awaitable[None]]


def results(m: Match, now: int) -> MatchResults:
    """Highest total first (a player who left ranks after those who stayed); equal keys
    share a rank and the winners are the first rank."""
    started = m.meta["started_at"]
    assert started is not None, "a match that started"
    out: MatchResults = {"match": m.id, "kind": m.kind, "game": m.rules.id,
                         "variant": m.rules.variant, "seed": m.meta["seed"],
                         "commitment": m.meta["commitment"], "started_at": started,
                         "ended_at": now, "ranking": [], "winner": []}

    def entry(p: str, score: int) -> MatchRanked:
        return {"player": p, "name": m.players[p]["name"], "kind": kind_of(m.players[p]["kind"]),
                "score": score, "forfeited": m.left(p), "time_ms": now - started,
                "rank": 0, "status": "finished"}

    entries = []
    if m.state is not None:
        cards = m.turns_form.scorecards(m.state.view()["info"])
        out["scorecards"] = cards
        for k, (p, card) in enumerate(zip(m.order, cards, strict=True)):
            entries.append(entry(p, card["total"]) | {"bowler": k + 1})
    else:
        # The card after the last called: a common starter where the game scores with one
        # (its scoring names it), ignored where it does not.
        starter = m.calls[m.meta["round"]]
        out["starter"] = None
        lines: dict[str, Any] = {}
        for p in m.order:
            score, info = m.called_form.scored(m.grids[p], starter)
            out["starter"] = info.get("starter")
            lines[p] = info["lines"]
            entries.append(entry(p, score))
        out["lines"] = lines

    def key(e: MatchRanked) -> tuple[bool, int]:
        return e["forfeited"], -e["score"]

    ranking = sorted(entries, key=key)
    for i, e in enumerate(ranking):
        e["rank"] = ranking[i - 1]["rank"] if i and key(e) == key(ranking[i - 1]) else i + 1
        e["status"] = "won" if e["rank"] == 1 else "finished"
    out["ranking"] = ranking
    out["winner"] = [e["player"] for e in ranking if e["rank"] == 1]
    return out


class Ending:
    def __init__(self, book: Book, on_end: OnEnd) -> None:
        self.book = book
        self.on_end = on_end  # once per match, with its results: statistics and ratings
        self._end = script_replies.bind(book.redis, scripts.MATCH_END, script_replies.Done.of)

    async def follow_up(self, mid: str) -> followups.Outcome:
        """The due follow-up of a match whose last placement was made, or that ended: end it,
        then record it (statistics, ratings; server/followups.py)."""
        self.book.forget(mid)
        try:
            m = await self.book.load(mid)
        except ApiError:
            return followups.DONE  # the match is gone: nothing to end
        if m.meta["state"] == "ended":
            await self._record(mid, m.recorded_results())
            return followups.DONE
        if not m.running or not m.over:
            return followups.IDLE  # not over: its turn timer carries it on
        if await self.finish(mid) is not None:
            return followups.DONE
        return 0  # contended: again after a grace

    async def _record(self, mid: str, results: MatchResults) -> None:
        redis = self.book.redis
        await redis.zrem(store.DUE_MATCHES, mid)
        await self.on_end(results)
        await followups.forget(redis, store.follow_up("match", mid))

    async def finish(self, mid: str) -> MatchResults | None:
        """End the match once every placement is made: results, then ratings."""
        for _ in range(10):
            self.book.forget(mid)
            m = await self.book.load(mid)
            if m.meta["state"] == "ended":
                return m.recorded_results()
            if not m.running or not m.over:
                return None
            now = await self.book.now()
            out = results(m, now)
            event = {"type": "match.ended", "match": mid, "seed": m.meta["seed"],
                     "results": out}
            mk, _, ek = store.match_keys(mid)
            await self.book.expected.soon(store.follow_up("match", mid))  # its recording
            done = await self._end(keys=[mk, ek], args=[
                m.rev, json.dumps(out), msgpack.packb(event), *self.book.emit_args(mid),
                int(self.book.settings.replay_window * 1000)])
            if done.ok:
                self.book.forget(mid)
                try:
                    await self._record(mid, out)
                except Exception:  # the match is over either way; its recording is due
                    log.exception("recording match %s failed; a sweep does it again", mid)
                return out
        return None
