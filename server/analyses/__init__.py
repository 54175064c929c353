"""Post-game analysis: every position along the line a game was played judged by the solver
(won with moves to go, proved lost, unknown; for a scored game the best score still reachable)
and its turning point (engine/analysis.py), computed once and kept with the game.

Who may see one is decided by the operation (server/api.py ``analysis``), by the rule of the
game's transcript: a practice game's to its player once it is over; a race's, a ranked daily
attempt's, a ghost race's runs and a match player's game (``<match>.<player>``: a one-player
game on the match's deal, a called-card grid or a bowler's frames) to anyone once their moves
are public, and to no one before, not even their player. This module only
computes and keeps.

**Computed once, kept.** The analysis of session ``S`` is stored beside its moves
(``sd:{S}:analysis``, a race entry's ``sd:{R}:analysis:P``: the session's hash tag, kept for
good as the session is) with the revision it judged and when; a practice game taken back and
played on is judged again at its new end.

**The queue.** ``sd:{analysis}:queue`` is a sorted set of sessions to judge, scored by when any
node may take one: a session asked for at 0 (first), one queued by an event (a race's end, a
day's reveal) at the time it was queued. Every node's job claims the lowest due one (``CLAIM``
moves it a lease ahead, so no other node takes it), renews the lease while the engine works,
stores the result and drops it. A node killed mid-job stops renewing: once the lease lapses,
another node's job takes the session. The engine runs in the node's analysis pool
(``analysis_workers`` processes, niced), one analysis per process at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import date, timedelta
from typing import TypedDict, cast

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .. import store, workers
from ..boards import board_keys
from ..config import Settings
from ..daily import attempt_id, daily_rule_sets, day_of
from ..errors import ApiError
from ..loops import drain
from ..matches.record import CALLED
from ..metrics import Metrics
from ..transport.reply_types import Analysis, AnalysisReply, MatchResults, RaceResults
from ..workers import analyses as analysis_worker

log = logging.getLogger("samedeal.analyses")

QUEUE = "sd:{analysis}:queue"
#: How soon a caller told ``pending`` should ask again.
RETRY_MS = 1000
#: Days a day's "its board entries are queued" mark is kept.
MARK_S = 7 * 86400


class Kept(TypedDict):
    """An analysis as kept: the game's revision it judged, when (ms), and the analysis."""

    rev: int
    at: int
    analysis: Analysis

# KEYS: the queue. ARGV: the session. Ask for it first, unless a node is judging it now (its
# score is a lease ahead of the store's clock). 1 queued, 0 under way.
ASK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) > now then return 0 end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
return 1
"""
# KEYS: the queue. ARGV: the lease (ms). The lowest due session, now held a lease ahead; or
# nothing due.
CLAIM = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, 1)
if #due == 0 then return false end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), due[1])
return due[1]
"""


def day_mark(day: date) -> str:
    """Set once a revealed day's board entries are queued."""
    return f"sd:analysis:day:{day.isoformat()}"


def match_refusal(mid: str) -> ApiError:
    """Why a match as a whole has no analysis: the engine judges one player's line."""
    return ApiError("analysis.match", "a match is analysed per player: ask for "
                    f"{mid[:40]}.<player id>, one player's game")


def own_line(entries: list[bytes], bowler: int) -> list[bytes]:
    """One bowler's entries of a turns match's move list (``t who move``), up to a forfeit:
    a bowler's frames are dealt from the same per-frame decks as a solo game's, so their own
    placements are a one-player game on the match's deal."""
    out = []
    for e in entries:
        t, who, text = store.text(e).split(" ", 2)
        if int(who) == bowler:
            if text == "forfeit":
                break
            out.append(f"{t} {text}".encode())
    return out


class Analyses:
    def __init__(self, redis: Redis, settings: Settings, metrics: Metrics,
                 clock: Callable[[], Awaitable[int]]) -> None:
        self.redis = redis
        self.settings = settings
        self.clock = clock  # the daily challenge's clock: which days are revealed
        self.counted = metrics.analyses
        self._pool: ProcessPoolExecutor | None = None
        self._ask = store.script(redis, ASK)
        self._claim = store.script(redis, CLAIM)
        self._marked: set[date] = set()  # revealed days whose entries this node saw queued

    # -- serving ---------------------------------------------------------------------------

    async def meta(self, sid: str) -> dict[str, str]:
        """Session ``sid``'s fields (player, status, rev, daily, competitive...), without
        rebuilding its game. A match player's game (``<match>.<player>``) has
        ``match`` and ``ended``; a match's own id is refused with why."""
        raw = await self.redis.hgetall(store.session_keys(sid)[0])
        if raw:
            return {store.text(k): store.text(v) for k, v in raw.items()}
        mid, _, pid = sid.partition(".")
        kind, state = (store.text(v) for v in await self.redis.hmget(
            store.match_keys(mid)[0], "kind", "state"))
        if kind and not pid:
            raise match_refusal(mid)
        if kind and await self.redis.hexists(store.match_keys(mid)[1], pid):
            placed = len((await self._game(sid))[1])
            return {"player": pid, "match": mid, "ended": str(int(state == "ended")),
                    "status": "finished" if state == "ended" else "playing",
                    "rev": str(placed)}
        raise ApiError("session.unknown", f"there is no session {sid[:40]!r}")

    async def stored(self, sid: str, rev: int) -> Analysis | None:
        """The analysis kept for ``sid`` at revision ``rev``, if there is one."""
        raw = await self.redis.get(store.analysis_key(sid))
        if raw is None:
            return None
        kept = cast(Kept, json.loads(raw))  # as the job kept it: the engine's analysis
        return kept["analysis"] if kept["rev"] == rev else None

    async def serve(self, sid: str, rev: int) -> AnalysisReply:
        """The reply to a caller allowed to see it: ready, or pending (asked for first)."""
        done = await self.stored(sid, rev)
        if done is not None:
            self.counted.labels("ready").inc()
            # tests/server/test_analysis.py holds it to the schema, field by field
            return {"session": sid, "state": "ready", "analysis": done}
        if not self.settings.analysis:
            raise ApiError("analysis.off", "this server does not analyse games")
        await self._ask(keys=[QUEUE], args=[sid])
        self.counted.labels("pending").inc()
        return {"session": sid, "state": "pending", "retry_ms": RETRY_MS}

    # -- what the events queue ---------------------------------------------------------------

    async def queue(self, sids: list[str]) -> None:
        """Judge these sessions in the background, after any asked for (already queued:
        left where they are), unless games are judged only when asked for."""
        if sids and self.settings.analysis and self.settings.analysis_ahead:
            now = await store.now_ms(self.redis)
            await self.redis.zadd(QUEUE, dict.fromkeys(sids, now), nx=True)

    async def match_ended(self, results: MatchResults) -> None:
        """A match's players' games: a called-card player's grid, a bowler's frames."""
        await self.queue([f"{results['match']}.{e['player']}" for e in results["ranking"]])

    async def race_ended(self, results: RaceResults) -> None:
        """A race's entrants' games (a ghost race's run too: served once it is revealed)."""
        await self.queue([f"{results['race']}.{e['player']}" for e in results["ranking"]])

    async def queue_revealed(self) -> int:
        """A sweep job: the ranked attempts on the boards of each recent day now revealed,
        queued once (a day's mark is set after they are, so a node dying between leaves
        them to the next sweep); how many."""
        if not (self.settings.analysis and self.settings.analysis_ahead):
            return 0
        today = day_of(await self.clock())
        queued = 0
        self._marked &= {today - timedelta(2), today - timedelta(1)}
        for day in (today - timedelta(2), today - timedelta(1)):
            if day in self._marked or not await self.redis.exists(
                    store.daily_reveal(day.isoformat())):
                continue
            if not await self.redis.exists(day_mark(day)):
                sids = await self._entries(day)
                await self.queue(sids)
                queued += len(sids)
                await self.redis.set(day_mark(day), len(sids), ex=MARK_S)
            self._marked.add(day)
        return queued

    async def _entries(self, day: date) -> list[str]:
        """The day's ranked attempts on its boards, humans' and bots'."""
        rule_sets = daily_rule_sets()
        async with self.redis.pipeline(transaction=False) as pipe:
            for rules in rule_sets:
                for kind in ("human", "bot"):
                    name = f"daily:{day.isoformat()}:{rules.id}:{rules.variant}:{kind}"
                    pipe.zrange(board_keys(name)[0], 0, -1)
            lists = await pipe.execute()
        out = []
        for i, members in enumerate(lists):
            rules = rule_sets[i // 2]
            out += [attempt_id(day, rules, store.text(m).partition(":")[2]) for m in members]
        return out

    # -- the job -----------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Every node: drain the queue, ``analysis_workers`` at a time, until ``stop``."""
        if not self.settings.analysis:
            return

        async def stopping() -> None:  # an analysis under way is dropped at once
            await stop.wait()
            self.close()

        await asyncio.gather(stopping(), *(self._drain(stop)
                                           for _ in range(max(1, self.settings.analysis_workers))))

    async def _drain(self, stop: asyncio.Event) -> None:
        await drain(stop, self.step, self.settings.sweep_interval, log, "analysis")

    async def step(self) -> bool:
        """Claim the next due session and judge it; whether there was one."""
        lease = int(self.settings.analysis_lease * 1000)
        got = await self._claim(keys=[QUEUE], args=[lease])
        if not got:
            return False
        sid = store.text(got)
        renew = asyncio.create_task(self._renew(sid))
        try:
            await self.judge(sid)
        finally:
            renew.cancel()
        return True

    async def judge(self, sid: str) -> None:
        """Judge session ``sid`` as stored now (unless its analysis is kept already), keep
        it, and take it off the queue."""
        meta, entries = await self._game(sid)
        if meta and await self.stored(sid, int(meta["rev"])) is None:
            moves = [store.text(e).partition(" ")[2] for e in entries]
            try:
                judged = await self._in_pool(meta, moves)
            except Exception:  # the engine refused this game: not tried again until asked
                log.exception("analysis of a %s/%s game failed", meta["game"], meta["variant"])
                await self.redis.zrem(QUEUE, sid)
                return
            if judged is None:
                return  # the pool broke: left claimed, so judged again after the lease
            at = await store.now_ms(self.redis)  # when: a second computation would show
            kept: Kept = {"rev": int(meta["rev"]), "at": at, "analysis": judged}
            await self.redis.set(store.analysis_key(sid), json.dumps(kept))
            self.counted.labels("computed").inc()
        await self.redis.zrem(QUEUE, sid)

    async def _game(self, sid: str) -> tuple[dict[str, str], list[bytes]]:
        """A session's fields and move-list entries, as stored now; a match player's game
        (``<match>.<player>``: a called-card grid, a bowler's frames) as such a session, final
        once the match ended; nothing for what is neither."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(store.session_keys(sid)[0])
            pipe.lrange(store.session_keys(sid)[1], 0, -1)
            raw, entries = await pipe.execute()
        if raw:
            return {store.text(k): store.text(v) for k, v in raw.items()}, entries
        mid, _, pid = sid.partition(".")
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(store.match_keys(mid)[0])
            pipe.hkeys(store.match_keys(mid)[1])
            pipe.lrange(store.match_moves(mid, pid), 0, -1)  # a called-card player's own
            pipe.lrange(store.match_moves(mid), 0, -1)  # a turns match's one list
            raw, players, own, shared = await pipe.execute()
        meta = {store.text(k): store.text(v) for k, v in raw.items()}
        players = [store.text(p) for p in players]
        if not meta.get("kind") or pid not in players:
            return {}, []
        if meta["kind"] == CALLED:
            entries = own
        else:  # the bowling order, as the match's book sorts it
            order = sorted(players, key=lambda p: int(meta.get(f"seat:{p}", 0)))
            entries = own_line(shared, order.index(pid))
        return {"game": meta["game"], "variant": meta["variant"], "seed": meta["seed"],
                "competitive": "1", "rev": str(len(entries))}, entries

    async def _in_pool(self, meta: dict[str, str], moves: list[str]) -> Analysis | None:
        """The game judged in the node's pool; None if the pool broke (the engine's refusal
        is raised)."""
        if self._pool is None:
            settings = self.settings
            self._pool = workers.pool(settings.analysis_workers, nice=settings.analysis_nice)
        pool = self._pool
        try:
            out: Analysis = await asyncio.get_running_loop().run_in_executor(
                pool, analysis_worker.analyse, meta["game"], meta["variant"],
                meta["seed"], moves, meta.get("competitive") == "1",
                self.settings.analysis_positions, self.settings.analysis_total)
        except BrokenProcessPool:  # a worker died (killed, out of memory), or the node stops
            if pool is self._pool:
                log.warning("the analysis pool broke: starting a new one")
                workers.stop(pool)
                self._pool = None
            return None
        return out

    async def _renew(self, sid: str) -> None:
        """Keep the claim while the engine works (it may take a while)."""
        lease = int(self.settings.analysis_lease * 1000)
        while True:
            await asyncio.sleep(self.settings.analysis_lease / 3)
            # Redis away: tried again; past the lease another node takes the session.
            with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
                now = await store.now_ms(self.redis)
                await self.redis.zadd(QUEUE, {sid: now + lease}, xx=True)

    def close(self) -> None:
        """End the pool (an analysis under way is dropped: its claim lapses)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            workers.stop(pool)
