"""Arenas: scheduled events on one rule set. From its start, every ``interval`` a new deal is
dealt as a race among the arena's players (server/races/__init__.py: a secret seed whose commitment
is published, revealed when the round's race ends); points per finish place go on the arena's
board (``arena/<id>``), and the winner is announced at the end. A repeating arena makes its next
occurrence when it ends.

No node owns an arena: every node's sweep (``run_due``) moves each due arena on, and every step
is decided in Redis and may be done again by any node after a crash, so a round is dealt once
and a node dying at any moment leaves no gap:

1. claim round ``n`` (``CLAIM``: the arena records the round's race id once, a deterministic
   ``r<arena>-<n>``);
2. make that race with the arena's players as entrants, unless it exists (``scripts.OPEN``-like
   ``ROUND_RACE``: the first writer's seed is the round's);
3. start it (``Races.begin``: the race's own START script, once);
4. announce it (``ANNOUNCE``: ``arena.round`` published once per round).

At the end: every round's race over and its points on the board (``Boards.add`` counts a race
once), then ``END`` records the winner and publishes ``arena.ended`` once; then the next
occurrence (its id claimed once with ``NEXT``, made unless it exists), and only then is the arena
taken off the active set, so a sweep finding an ended arena still there finishes the job.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
from redis.asyncio import Redis

import engine
from engine.core import WON

from .. import store
from ..accounts import Player, new_id
from ..boards import Boards
from ..config import Settings
from ..errors import ApiError
from ..races import Races
from ..sessions import rules_for
from ..store import scripts
from ..transport.reply_types import Arena, RaceResults, Ranked
from .record import ArenaRecord, read

log = logging.getLogger("samedeal.arenas")

#: Scheduled and running arenas (and ended ones whose last steps are still to do), by start ms.
ACTIVE = "sd:arenas"
#: Ended and cancelled arenas, by end ms.
ENDED = "sd:arenas:ended"
#: Points per round: the first three places among the entrants who played the deal to its end
#: (won, or finished with a score), then every other such entrant; an entrant whose game ended
#: with no move left (lost) after playing at least one move; the rest (resigned, still playing
#: when the round closed, never moved) score nothing.
PLACES = (5, 4, 3)
FINISHED, PLAYED = 2, 1
ARENA_ID = re.compile(r"a[a-z2-9]{12}")
LIVE = ("scheduled", "running")


def arena_keys(aid: str) -> tuple[str, str, str]:
    """The arena's hash, its players (id -> name and kind) and its rounds' race ids, on one
    Cluster shard."""
    return f"sd:{{arena:{aid}}}", f"sd:{{arena:{aid}}}:players", f"sd:{{arena:{aid}}}:rounds"


def arena_channel(aid: str) -> str:
    """Where the arena's ``arena.round`` and ``arena.ended`` events are published."""
    return f"sd:{{arena:{aid}}}:ev"


def board_key(aid: str) -> str:
    return f"arena:{aid}"


def round_race(aid: str, n: int) -> str:
    return f"r{aid}-{n}"


def points(entry: Ranked) -> int:
    """An entrant's points for a round, from their line of the race's ranking (``PLACES``)."""
    if entry.get("resigned"):
        return 0
    status = entry["status"]
    if status in (WON, "finished"):
        rank = entry["rank"]
        return PLACES[rank - 1] if rank <= len(PLACES) else FINISHED
    if status == "lost" and entry["moves"] > 0:
        return PLAYED
    return 0


# Join a live arena. KEYS: arena, players; ARGV: player, info json, most players, now ms.
# A sealed arena (the daily's live edition) takes nobody from its start on: its one round is
# dealt to those already in, and a later join could be a second account told the deal.
JOIN = """
local a = redis.call('HMGET', KEYS[1], 'state', 'sealed', 'starts_at')
local state = a[1]
if not state then return 'arena.unknown' end
if state ~= 'scheduled' and state ~= 'running' then return 'arena.not_running' end
if a[2] == '1' and (state ~= 'scheduled' or tonumber(ARGV[4]) >= tonumber(a[3])) then
  return 'arena.started'
end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 'ok' end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[3]) then return 'arena.full' end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 'ok'
"""

# Claim round n of a live arena once. KEYS: arena, rounds; ARGV: n, its race id.
# Returns 1 when this call claimed it, 0 when it (or a later round) was claimed before.
CLAIM = """
local a = redis.call('HMGET', KEYS[1], 'state', 'round')
if a[1] ~= 'scheduled' and a[1] ~= 'running' then return 0 end
if tonumber(a[2] or '-1') >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'state', 'running', 'round', ARGV[1], 'current', ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[2])
return 1
"""

# Make a round's race unless it exists. KEYS: race, entrants; ARGV: how many field-value pairs
# of the race, those pairs, then the entrants' id-info pairs. Returns 1 when made.
ROUND_RACE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local n = tonumber(ARGV[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 2, 1 + 2 * n))
if #ARGV > 1 + 2 * n then redis.call('HSET', KEYS[2], unpack(ARGV, 2 + 2 * n, #ARGV)) end
return 1
"""

# Announce round n once. KEYS: arena; ARGV: n, payload, channel. Returns 1 when published now.
ANNOUNCE = scripts.PUBLISHES + """
if redis.call('HSETNX', KEYS[1], 'announced:' .. ARGV[1], 1) == 0 then return 0 end
redis.call(PUBLISH, ARGV[3], ARGV[2])
return 1
"""

# End a live arena once: its winner recorded, arena.ended published. KEYS: arena; ARGV: state
# ('ended' or 'cancelled'), winner json, ended ms, payload, channel. Returns 1 when ended now.
END = scripts.PUBLISHES + """
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'scheduled' and state ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'winner', ARGV[2], 'ended_at', ARGV[3])
redis.call(PUBLISH, ARGV[5], ARGV[4])
return 1
"""

# The id of an ended arena's next occurrence: the one recorded, or the candidate, once.
# KEYS: arena; ARGV: candidate.
NEXT = """
redis.call('HSETNX', KEYS[1], 'next', ARGV[1])
return redis.call('HGET', KEYS[1], 'next')
"""


class Arenas:
    def __init__(self, redis: Redis, settings: Settings, races: Races, boards: Boards) -> None:
        self.redis = redis
        self.settings = settings
        self.races = races
        self.boards = boards
        self._join = store.script(redis, JOIN)
        self._claim = store.script(redis, CLAIM)
        self._round_race = store.script(redis, ROUND_RACE)
        self._announce = store.script(redis, ANNOUNCE)
        self._end = store.script(redis, END)
        self._next = store.script(redis, NEXT)
        self._open = store.script(redis, scripts.OPEN)
        #: An arena ``kind`` -> what puts its rounds' results on its board (wired by the app
        #: factory); an arena of no kind scores points per place (``PLACES``).
        self.scorers: dict[str, Callable[[str, RaceResults], Awaitable[None]]] = {}

    # ----- reading ----------------------------------------------------------------------

    async def _arena(self, aid: str) -> ArenaRecord:
        if not ARENA_ID.fullmatch(aid):
            raise ApiError("arena.unknown", "there is no such arena")
        hk, pk, rk = arena_keys(aid)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(hk)
            pipe.hgetall(pk)
            pipe.lrange(rk, 0, -1)
            meta, players, rounds = await pipe.execute()
        if not meta:
            raise ApiError("arena.unknown", "there is no such arena")
        return read(aid, meta, players, rounds)

    @staticmethod
    def _summary(a: ArenaRecord, viewer: str | None = None) -> Arena:
        """What anyone may see of an arena: never a seed (each round's race reveals its own)."""
        out: Arena = {
            "arena": a["arena"], "name": a["name"], "game": a["game"], "variant": a["variant"],
            "state": a["state"], "starts_at": a["starts_at"], "ends_at": a["ends_at"],
            "duration": a["duration"], "interval": a["interval"], "repeat": a["repeat"],
            "created": a["created"], "ended_at": a["ended_at"], "next": a["next"],
            "repeat_of": a["repeat_of"], "round": a["round"], "current": a["current"],
            "rounds": a["rounds"],
            "players": [{"player": pid, "name": info["name"], "kind": info["kind"]}
                        for pid, info in sorted(a["players"].items())],
            "winner": json.loads(a["winner"]) if a["winner"] else None,
            "board": f"arena/{a['arena']}",
            "points": {"places": list(PLACES), "finished": FINISHED, "played": PLAYED}}
        if viewer is not None:
            out["joined"] = viewer in a["players"]
        return out

    async def summary(self, aid: str, viewer: str | None = None) -> Arena:
        return self._summary(await self._arena(aid), viewer)

    async def listing(self, viewer: str | None = None, limit: int = 50) -> list[Arena]:
        """Upcoming and running arenas, soonest first."""
        out = []
        for raw in await self.redis.zrange(ACTIVE, 0, limit - 1):
            try:
                a = await self._arena(store.text(raw))
            except ApiError:
                continue
            if a["state"] in LIVE and not a["kind"]:  # a feature lists its own kind
                out.append(self._summary(a, viewer))
        return out

    # ----- players ----------------------------------------------------------------------

    async def join(self, player: Player, aid: str) -> Arena:
        """Play every round dealt from now on; joining again changes nothing."""
        await self._arena(aid)  # arena.unknown for an id that is not one
        hk, pk, _ = arena_keys(aid)
        info = json.dumps({"name": player.name, "kind": player.kind})
        why = store.text(await self._join(keys=[hk, pk], args=[
            player.id, info, self.settings.arena_players, await store.now_ms(self.redis)]))
        if why != "ok":
            raise ApiError(why, MESSAGES.get(why, why))
        return await self.summary(aid, player.id)

    async def leave(self, player: Player, aid: str) -> Arena:
        """Play no more rounds (a round under way plays on); the points stay on the board."""
        a = await self._arena(aid)
        if player.id not in a["players"]:
            raise ApiError("arena.not_player", MESSAGES["arena.not_player"])
        await self.redis.hdel(arena_keys(aid)[1], player.id)
        return await self.summary(aid, player.id)

    # ----- operators --------------------------------------------------------------------

    async def create(self, body: dict[str, Any], repeat_of: str | None = None) -> Arena:
        rules = rules_for(body["game"], body["variant"])
        if rules.players[0] > 1:
            raise ApiError("game.unknown", f"{rules.name} is not a one-player game")
        duration, interval = body["duration"], body["interval"]
        repeat = body.get("repeat", 0)
        if interval > duration:
            raise ApiError("message.invalid", "'interval' is at most 'duration'")
        if repeat and repeat < duration:
            raise ApiError("message.invalid", "'repeat' is 0 (none) or at least 'duration'")
        now = await store.now_ms(self.redis)
        starts = body.get("starts_at") or now
        aid = new_id("a")
        await self.make(aid, {
            "name": body.get("name") or rules.name, "game": rules.id, "variant": rules.variant,
            "starts_at": starts, "duration": duration, "interval": interval, "repeat": repeat,
            "created": now, "repeat_of": repeat_of or ""})
        return await self.summary(aid)

    async def make(self, aid: str, fields: dict[str, Any]) -> None:
        """The arena made unless it exists, then listed (again: that is harmless). Whole
        rounds only: its end is its start plus as many intervals as fit its duration. Other
        features make theirs here too (server/daily/live.py): a ``seed`` field deals that
        seed instead of a random one, and a ``kind`` field scores its rounds by the scorer
        registered for it (``scorers``) instead of by points."""
        rounds = max(1, fields["duration"] // fields["interval"])
        fields = {**fields, "ends_at": fields["starts_at"] + rounds * fields["interval"] * 1000,
                  "state": "scheduled", "round": -1}
        flat = [x for kv in fields.items() for x in kv]
        await self._open(keys=[arena_keys(aid)[0]], args=flat)
        await self.redis.zadd(ACTIVE, {aid: fields["starts_at"]})

    async def cancel(self, aid: str) -> Arena:
        """No more rounds and no next occurrence; a round under way plays on; no winner."""
        a = await self._arena(aid)
        event = {"type": "arena.ended", "arena": aid, "winner": None, "cancelled": True}
        await self._end(keys=[arena_keys(aid)[0]], args=[
            "cancelled", "", await store.now_ms(self.redis), msgpack.packb(event),
            arena_channel(aid)])
        await self._retire(aid, a["ends_at"])
        return await self.summary(aid)

    async def _retire(self, aid: str, at: int) -> None:
        """Off the active set; the arena's records (``at``, ms: its end) are kept as long as
        its board, ``daily_board_days``, then go with it."""
        keep = self.settings.daily_board_days * 86400
        now = await store.now_ms(self.redis)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(ENDED, {aid: at})
            pipe.zrem(ACTIVE, aid)
            for key in arena_keys(aid):
                pipe.expireat(key, max(at, now) // 1000 + keep)
            pipe.zremrangebyscore(ENDED, 0, now - keep * 1000)  # their records are gone
            await pipe.execute()

    # ----- the sweep --------------------------------------------------------------------

    async def run_due(self) -> None:
        """Move every arena whose start has come one step on (any node, any number at once)."""
        now = await store.now_ms(self.redis)
        for raw in await self.redis.zrangebyscore(ACTIVE, 0, now):
            aid = store.text(raw)
            try:
                await self._advance(aid, now)
            except ApiError as e:
                log.warning("arena %s: %s", aid, e.message)

    async def _advance(self, aid: str, now: int) -> None:
        try:
            a = await self._arena(aid)
        except ApiError:
            await self.redis.zrem(ACTIVE, aid)
            return
        if a["state"] == "cancelled":
            await self._retire(aid, a["ends_at"])
            return
        if a["state"] == "ended":
            await self._after_end(a, now)
            return
        if now >= a["ends_at"]:
            await self._finish(a, now)
            return
        due = (now - a["starts_at"]) // (a["interval"] * 1000)
        if due > a["round"]:
            # An outage longer than an interval skips the rounds whose time has passed: the
            # latest one due is dealt, never two at once.
            hk, _, rk = arena_keys(aid)
            await self._claim(keys=[hk, rk], args=[due, round_race(aid, due)])
            a = await self._arena(aid)
        current = a["current"]
        if current and a["round"] not in a["announced"]:
            await self._deal(a, current, now)

    async def _deal(self, a: ArenaRecord, rid: str, now: int) -> None:
        """Make, start and announce the current round's race ``rid``: each step once, whoever
        does it."""
        aid, n = a["arena"], a["round"]
        rules = engine.get(a["game"], a["variant"])
        seed = bytes.fromhex(a["seed"]) if a["seed"] else os.urandom(32)
        countdown = self.settings.arena_countdown
        round_ends = a["starts_at"] + (n + 1) * a["interval"] * 1000
        time_limit = max(1, math.ceil((round_ends - now) / 1000) - countdown)
        fields: dict[str, Any] = {
            "game": rules.id, "variant": rules.variant, "seats": len(a["players"]),
            "start": "manual", "time_limit": time_limit, "countdown": countdown,
            "creator": aid, "state": "open", "seed": seed.hex(),
            "commitment": engine.commitment(seed), "created": now, "seq": 0, "arena": aid,
            "round": n}
        entrants = [x for pid, info in a["players"].items() for x in (pid, json.dumps(info))]
        rk, ek, _ = store.race_keys(rid)
        await self._round_race(keys=[rk, ek], args=[
            len(fields), *[x for kv in fields.items() for x in kv], *entrants])
        await self.races.begin(rid)
        race = await self.races.summary(rid)
        event = {"type": "arena.round", "arena": aid, "round": n, "race": rid,
                 "commitment": race["commitment"], "starts_at": race["starts_at"],
                 "ends_at": race["ends_at"],
                 "sessions": {e["player"]: e["session"] for e in race["entrants"]
                              if "session" in e}}
        await self._announce(keys=[arena_keys(aid)[0]], args=[
            n, msgpack.packb(event), arena_channel(aid)])

    async def scored(self, results: RaceResults) -> None:
        """A race ended: if it was an arena's round, its entrants' points go on the arena's
        board (once per race, however often this runs)."""
        aid = results.get("arena")
        if not aid:
            return
        kind = store.text(await self.redis.hget(arena_keys(aid)[0], "kind") or b"")
        if kind in self.scorers:
            await self.scorers[kind](aid, results)
            return
        expire = 0
        with_ends = await self.redis.hget(arena_keys(aid)[0], "ends_at")
        if with_ends is not None:
            expire = int(with_ends) // 1000 + self.settings.daily_board_days * 86400
        for e in results["ranking"]:
            await self.boards.add(board_key(aid), e["player"], points(e), e["status"] == WON,
                                  results["ended_at"], {"name": e["name"], "kind": e["kind"]},
                                  results["race"], expire)

    async def _finish(self, a: ArenaRecord, now: int) -> None:
        """The arena's time is up: once every round's race is over and scored, the winner."""
        for rid in a["rounds"]:
            try:
                race = await self.races.summary(rid)
            except ApiError:
                continue  # claimed, never made: no round
            if race["state"] == "open":
                continue  # made, never started (its dealer died past the end): no round
            results = await self.races.finish(rid)
            if results is None:
                return  # the last round plays on: the end waits for it
            await self.scored(results)
        page = await self.boards.page(board_key(a["arena"]), 0, 1)
        top = page.entries[0] if page and page.entries else None
        winner = None if top is None else {
            k: top.get(k) for k in ("player", "name", "kind", "points")}
        event = {"type": "arena.ended", "arena": a["arena"], "winner": winner,
                 "cancelled": False}
        await self._end(keys=[arena_keys(a["arena"])[0]], args=[
            "ended", json.dumps(winner) if winner else "", now, msgpack.packb(event),
            arena_channel(a["arena"])])
        await self._after_end(await self._arena(a["arena"]), now)

    async def _after_end(self, a: ArenaRecord, now: int) -> None:
        """The next occurrence of a repeating arena (once), then off the active set."""
        if a["repeat"]:
            step = a["repeat"] * 1000
            starts = a["starts_at"] + step
            span = a["ends_at"] - a["starts_at"]
            while starts + span <= now:  # a long outage: the next occurrence still to come
                starts += step
            nid = store.text(await self._next(keys=[arena_keys(a["arena"])[0]],
                                              args=[new_id("a")]))
            await self.make(nid, {"name": a["name"], "game": a["game"], "variant": a["variant"],
                                  "duration": a["duration"], "interval": a["interval"],
                                  "repeat": a["repeat"], "starts_at": starts, "created": now,
                                  "repeat_of": a["arena"]})
        await self._retire(a["arena"], a["ended_at"] or now)


MESSAGES = {
    "arena.unknown": "there is no such arena",
    "arena.not_running": "that arena is over",
    "arena.not_player": "you are not in that arena",
    "arena.full": "that arena is full",
    "arena.started": "that arena has dealt its round: it takes no one now",
}
