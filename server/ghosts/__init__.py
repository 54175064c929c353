"""Ghost races: one secret deal, entrants who play it one after another, each against the
recorded runs of those who played before.

A ghost race is open (entrants come in) -> closed (its time is up or its cap of entrants is
reached: no one else comes in; runs in progress play on within their time limit) ->
revealed (the last run has ended: the seed and every transcript are public). Each entrant's
run is a one-seat race (server/races/__init__.py) on the ghost race's seed, so a run has a live
race's rules: one attempt, competitive undo, its time limit, its moves on the ordinary session path.
When a run ends its progress timeline is worked out from its move log (the server's times)
and kept in Redis, and its result goes on the ghost race's board (``ghost/<id>``), which
publishes the change to its live watchers. Opening, entering, closing and revealing are each
one Lua script on the ghost race's keys, so two nodes never do one twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from typing import Any

import msgpack
from redis.asyncio import Redis

import engine
from engine.core import WON

from .. import store
from ..accounts import Player, new_id
from ..boards import Boards, order_key
from ..config import Settings
from ..errors import ApiError
from ..races import Races
from ..races.record import Terms
from ..sessions import Sessions, foundation_cards, rules_for, session_payload
from ..store import scripts
from ..transport.messages import GhostCreate
from ..transport.reply_types import Ghost, GhostEntry, GhostTranscript, Race, RaceResults
from .record import GhostRecord, board_key, ghost_keys, read, run_id

#: What a ghost race's creator may leave out: open a day, a hundred entrants, runs of ten
#: minutes, three seconds from entering to the first move.
DEFAULTS: dict[str, int] = {"open_for": 86400, "cap": 100, "time_limit": 600, "countdown": 3}
DEALING_MS = 10_000  # how long one request may take to deal a run before another takes over
LIST_MAX = 50  # ghost races listed at once, newest first
BOARD_TOP = 100  # the ranking a summary shows
GHOSTS_SHOWN = 20  # the earlier runs replayed to an entrant at most: the best ones
OPEN, DUE, CLOSING = "sd:ghosts:open", "sd:ghosts:due", "sd:ghosts:closing"

MESSAGES = {
    "ghost.unknown": "there is no such ghost race",
    "ghost.closed": "the ghost race is closed to new entrants",
    "ghost.entered": "you have played this ghost race already: one attempt each",
}


# Enter. KEYS: ghost, entrants, events; ARGV: player, entrant json, payload of ghost.closed,
# window, chan. Returns {1, closed now (0/1)}, {2, the entrant's json} when entered before,
# or {0, why}.
ENTER = scripts._EMIT + """
local g = redis.call('HMGET', KEYS[1], 'state', 'closes_at', 'cap')
if not g[1] then return {0, 'ghost.unknown'} end
local mine = redis.call('HGET', KEYS[2], ARGV[1])
if mine then return {2, mine} end
if g[1] ~= 'open' or now_ms() >= tonumber(g[2]) then return {0, 'ghost.closed'} end
local n = redis.call('HLEN', KEYS[2])
if n >= tonumber(g[3]) then return {0, 'ghost.closed'} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[1], 'entrants', n + 1)
if n + 1 < tonumber(g[3]) then return {1, 0} end
redis.call('HSET', KEYS[1], 'state', 'closed', 'closed_at', now_ms())
emit(KEYS[1], KEYS[3], ARGV[5], ARGV[3], tonumber(ARGV[4]))
return {1, 1}
"""

# Close an open ghost race whose time is up. KEYS: ghost, events; ARGV: payload, window,
# chan. Returns 1 when this call closed it, else 0.
CLOSE = scripts._EMIT + """
local g = redis.call('HMGET', KEYS[1], 'state', 'closes_at')
if g[1] ~= 'open' or now_ms() < tonumber(g[2]) then return 0 end
redis.call('HSET', KEYS[1], 'state', 'closed', 'closed_at', now_ms())
emit(KEYS[1], KEYS[2], ARGV[3], ARGV[1], tonumber(ARGV[2]))
return 1
"""

# Reveal a closed ghost race. KEYS: ghost, events; ARGV: payload, window, chan. Returns 1 when
# this call revealed it, else 0.
REVEAL = scripts._EMIT + """
if redis.call('HGET', KEYS[1], 'state') ~= 'closed' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'revealed', 'revealed_at', now_ms())
emit(KEYS[1], KEYS[2], ARGV[3], ARGV[1], tonumber(ARGV[2]))
return 1
"""


def timeline(rules: engine.RuleSet, seed: bytes, starts_at: int, moves: list[str],
             times: list[int]) -> list[list[Any]]:
    """A run's progress as its rivals could have seen it: [ms from the run's start, moves,
    score, cards on the foundations, status] after each entry of its move log (an undo took
    its move out of the log: the run as it stands). Public fields only, never a card."""
    st = rules.deal(seed, competitive=True)
    out: list[list[Any]] = []
    for text, t in zip(moves, times, strict=True):
        if text == "resign":
            st.resign()
        else:
            st.push(engine.parse_move(rules, text))
        out.append([max(0, t - starts_at), st.ply, st.score, foundation_cards(st), st.status])
    return out


class Ghosts:
    def __init__(self, redis: Redis, settings: Settings, sessions: Sessions, races: Races,
                 boards: Boards) -> None:
        self.redis = redis
        self.settings = settings
        self.sessions = sessions
        self.races = races
        self.boards = boards
        self._enter = store.script(redis, ENTER)
        self._close = store.script(redis, CLOSE)
        self._reveal = store.script(redis, REVEAL)

    # ----- reading ----------------------------------------------------------------------

    async def _ghost(self, gid: str) -> GhostRecord:
        gk, ek, _, tk = ghost_keys(gid)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(gk)
            pipe.hgetall(ek)
            pipe.hkeys(tk)
            meta, entrants, recorded = await pipe.execute()
        if not meta:
            raise ApiError("ghost.unknown", f"there is no ghost race {gid[:40]!r}")
        return read(gid, meta, entrants, recorded)

    async def exists(self, gid: str) -> bool:
        return bool(await self.redis.exists(ghost_keys(gid)[0]))

    async def revealed(self, gid: str) -> bool:
        return store.text(await self.redis.hget(ghost_keys(gid)[0], "state")) == "revealed"

    async def summary(self, gid: str) -> Ghost:
        """What anyone may see: the ranking so far and the ghost to beat; the seed and the
        transcripts only once revealed."""
        g = await self._ghost(gid)
        rules = engine.get(g["game"], g["variant"])
        page = await self.boards.page(board_key(gid), 0, BOARD_TOP)
        ranking = page.entries if page else []
        out: Ghost = {
            "ghost": g["ghost"], "game": g["game"], "variant": g["variant"], "name": rules.name,
            "scoring": rules.scoring.value, "creator": g["creator"], "state": g["state"],
            "commitment": g["commitment"], "created": g["created"],
            "closes_at": g["closes_at"], "closed_at": g.get("closed_at"),
            "revealed_at": g.get("revealed_at"), "cap": g["cap"],
            "time_limit": g["time_limit"], "countdown": g["countdown"],
            "entrants": g["entrants"], "finished": len(g["recorded"]), "board": f"ghost/{gid}",
            "ranking": ranking, "to_beat": ranking[0] if ranking else None}
        if g["state"] == "revealed":
            out["seed"] = g["seed"]
            out["transcripts"] = await self._transcripts(g)
        return out

    async def _transcripts(self, g: GhostRecord) -> list[GhostTranscript]:
        out: list[GhostTranscript] = []
        for pid, info in sorted(g["entrant_info"].items(), key=lambda kv: kv[1]["entered"]):
            sid = f"{run_id(g['ghost'], pid)}.{pid}"
            try:
                t = await self.sessions.transcript(sid, reveal=True)
            except ApiError:
                continue  # entered, never dealt (the node failed in between): no run
            out.append({"player": pid, "name": info["name"], "session": sid,
                        "moves": t["moves"], "times": t["times"], "status": t["status"],
                        "score": t["score"]})
        return out

    async def list_open(self, limit: int = LIST_MAX) -> list[Ghost]:
        """The newest open ghost races first, at most ``limit``."""
        out = []
        for gid in await self.redis.zrevrange(OPEN, 0, limit - 1):
            try:
                s = await self.summary(store.text(gid))
            except ApiError:
                continue
            if s["state"] == "open":
                out.append(s)
        return out

    # ----- changing ---------------------------------------------------------------------

    async def create(self, player: Player, body: GhostCreate) -> Ghost:
        rules = rules_for(body["game"], body["variant"])
        if rules.players[0] > 1:
            raise ApiError("game.unknown", f"{rules.name} is not a one-player game")
        open_for = body.get("open_for", DEFAULTS["open_for"])
        cap = body.get("cap", DEFAULTS["cap"])
        time_limit = body.get("time_limit", DEFAULTS["time_limit"])
        countdown = body.get("countdown", DEFAULTS["countdown"])
        gid = new_id("g")
        seed = os.urandom(32)
        now = await store.now_ms(self.redis)
        closes = now + open_for * 1000
        await self.redis.hset(ghost_keys(gid)[0], mapping={
            "game": rules.id, "variant": rules.variant, "creator": player.id, "state": "open",
            "seed": seed.hex(), "commitment": engine.commitment(seed), "created": now,
            "closes_at": closes, "cap": cap, "time_limit": time_limit, "countdown": countdown,
            "entrants": 0, "seq": 0})
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(OPEN, {gid: now})
            pipe.zadd(DUE, {gid: closes})
            await pipe.execute()
        return await self.summary(gid)

    def _closed_event(self, gid: str, why: str) -> bytes:
        packed: bytes = msgpack.packb({"type": "ghost.closed", "ghost": gid, "why": why})
        return packed

    async def enter(self, player: Player, gid: str) -> GhostEntry:
        """Enter once; entering again while the run is in progress resumes it (another node,
        a new socket). The reply: the ghost race, the run's race and session."""
        gk, ek, evk, _ = ghost_keys(gid)
        info = {"name": player.name, "kind": player.kind,
                "entered": await store.now_ms(self.redis)}
        out = await self._enter(keys=[gk, ek, evk], args=[
            player.id, json.dumps(info), self._closed_event(gid, "cap"),
            self.settings.event_window, store.channel(gid)])
        code = int(out[0])
        if code == 0:
            why = store.text(out[1])
            raise ApiError(why, MESSAGES[why])
        if code == 1 and int(out[1]):
            await self._closed(gid)
        g = await self._ghost(gid)
        rid = run_id(gid, player.id)
        race = await self._run(player, g, rid, resuming=code == 2)
        session = await self.sessions.load(f"{rid}.{player.id}")
        return {"ghost": await self.summary(gid), "race": rid,
                "joined_seq": race["seq"], "session": session_payload(session)}

    async def _run(self, player: Player, g: GhostRecord, rid: str,
                   resuming: bool) -> Race:
        """The entrant's run, dealt (or finished dealing, after a node failed part-way) and
        started; a run already over refuses with ``ghost.entered``."""
        race = await self._dealt(player, g, rid, resuming)
        if race["state"] == "open":
            if resuming and g["state"] != "open":  # dealt, never started, and now closed
                raise ApiError("ghost.closed", MESSAGES["ghost.closed"])
            if await self.revealed(g["ghost"]):  # its dealing outlasted DEALING_MS
                raise ApiError("ghost.closed", "your run was not dealt before the ghost race's "
                               "seed was revealed: it can no longer be played")
            with contextlib.suppress(ApiError):  # another request may have started it
                await self.races.begin(rid)
            return await self.races.summary(rid)
        mine = race["entrants"][0].get("status", "playing") if race["entrants"] else "playing"
        if resuming and (race["state"] == "ended" or mine != "playing"):
            raise ApiError("ghost.entered", MESSAGES["ghost.entered"])
        return race

    async def _dealt(self, player: Player, g: GhostRecord, rid: str,
                     resuming: bool) -> Race:
        """The run's race, made once: by whoever claims its making (SET NX, for a while, so
        a node failing half-way leaves it to the next request); the others wait for it. Its
        one seat is the entrant's before the race exists, so nobody else can take it."""
        claim = f"sd:{{{g['ghost']}}}:dealing:{player.id}"
        for _ in range(100):
            with contextlib.suppress(ApiError):
                return await self.races.summary(rid)
            if resuming and g["state"] != "open":  # entered, never dealt, and now closed
                raise ApiError("ghost.closed", MESSAGES["ghost.closed"])
            if await self.redis.set(claim, 1, nx=True, px=DEALING_MS):
                body: Terms = {"game": g["game"], "variant": g["variant"], "seats": 1,
                               "start": "manual", "time_limit": g["time_limit"],
                               "countdown": g["countdown"]}
                seat = json.dumps({"name": player.name, "kind": player.kind})
                await self.redis.hset(store.race_keys(rid)[1], player.id, seat)
                await self.races.open_run(player, body, rid, bytes.fromhex(g["seed"]),
                                          g["ghost"])
                return await self.races.summary(rid)
            await asyncio.sleep(0.1)
        raise ApiError("conflict", "your run is being dealt; try again")

    async def replay(self, gid: str, pid: str) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
        """What ``pid``'s run shows of the runs recorded before it: (its start, server ms;
        [(server ms, a ghost.progress event)] in time order): the best ``GHOSTS_SHOWN`` of
        the runs recorded so far by those who entered before ``pid`` (runs still in
        progress have no timeline yet)."""
        g = await self._ghost(gid)
        me = g["entrant_info"].get(pid)
        rid = run_id(gid, pid)
        starts = await self.redis.hget(store.race_keys(rid)[0], "starts_at")
        if me is None or starts is None:
            return 0, []
        start = int(starts)
        raw = {store.text(k): v for k, v in
               (await self.redis.hgetall(ghost_keys(gid)[3])).items()}
        page = await self.boards.page(board_key(gid), 0, BOARD_TOP)
        rank = {e["player"]: e["rank"] for e in page.entries} if page else {}
        earlier = sorted((other for other, info in g["entrant_info"].items()
                          if other != pid and other in raw and info["entered"] <= me["entered"]),
                         key=lambda other: rank.get(other, BOARD_TOP + 1))
        plan: list[tuple[int, dict[str, Any]]] = []
        for other in earlier[:GHOSTS_SHOWN]:  # the best of them
            info, value = g["entrant_info"][other], raw[other]
            for offset, moves, score, cards, status in json.loads(value):
                plan.append((start + offset, {
                    "type": "ghost.progress", "ghost": gid, "race": run_id(gid, other),
                    "player": other, "name": info["name"], "offset": offset, "moves": moves,
                    "score": score, "cards": cards, "status": status}))
        plan.sort(key=lambda p: p[0])
        return start, plan

    async def run_over(self, results: RaceResults) -> None:
        """A run ended (server/races/__init__.py's end, or its follow-up after a node failed): its
        timeline and its place on the board, then perhaps the reveal. Idempotent. A run that
        ended after the seed was revealed is not ranked: the reveal waits for every run in
        progress, so it was dealt or started only then (its dealing took longer than
        ``DEALING_MS``), with the seed public."""
        gid, rid = results["ghost"], results["race"]
        revealed = store.text(await self.redis.hget(ghost_keys(gid)[0], "revealed_at"))
        if revealed and results["ended_at"] >= int(revealed):
            return
        rules = engine.get(results["game"], results["variant"])
        for e in results["ranking"]:
            pid = e["player"]
            t = await self.sessions.transcript(f"{rid}.{pid}", reveal=True)
            assert t["seed"] is not None  # revealed
            line = timeline(rules, bytes.fromhex(t["seed"]), results["starts_at"], t["moves"],
                            t["times"])
            resigned = bool(e.get("resigned"))
            key = order_key(e["status"] == WON, e["score"], rules.scoring == "low",
                            e.get("tie_break", 0), e["time_ms"], e["moves"], resigned)
            details = {"name": e["name"], "kind": e["kind"], "status": e["status"],
                       "score": e["score"], "moves": e["moves"], "time_ms": e["time_ms"],
                       "resigned": resigned, "race": rid}
            finished = results["starts_at"] + e["time_ms"]
            await self.redis.hset(ghost_keys(gid)[3], pid, json.dumps(line))
            await self.boards.put(board_key(gid), pid, key, finished, details)
        await self.settle(gid)

    # ----- closing ----------------------------------------------------------------------

    async def _closed(self, gid: str) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(OPEN, gid)
            pipe.zrem(DUE, gid)
            pipe.zadd(CLOSING, {gid: await store.now_ms(self.redis)})
            await pipe.execute()

    async def settle(self, gid: str) -> None:
        """Reveal a closed ghost race once no run is left to play or to record."""
        try:
            g = await self._ghost(gid)
        except ApiError:
            await self.redis.zrem(CLOSING, gid)
            return
        if g["state"] == "open":
            return
        if g["state"] == "closed":
            now = await store.now_ms(self.redis)
            for pid, info in g["entrant_info"].items():
                state = store.text(await self.redis.hget(
                    store.race_keys(run_id(gid, pid))[0], "state"))
                if state == "running" or (state == "ended" and pid not in g["recorded"]):
                    return  # still playing, or its end not yet recorded (its follow-up is due)
                if state in ("", "open") and now - info["entered"] < DEALING_MS:
                    return  # entered just now (the entry that closed it): its run is being
                    # dealt and started; past that, a closed ghost's undealt run never is
            gk, _, evk, _ = ghost_keys(gid)
            event = msgpack.packb({"type": "ghost.revealed", "ghost": gid, "seed": g["seed"]})
            await self._reveal(keys=[gk, evk], args=[event, self.settings.event_window,
                                                     store.channel(gid)])
        await self.redis.zrem(CLOSING, gid)

    async def sweep(self) -> None:
        """Every node's sweep: close the ghost races whose time is up (the script lets one
        node do it), then reveal those whose last run has ended."""
        now = await store.now_ms(self.redis)
        for raw in await self.redis.zrangebyscore(DUE, 0, now):
            gid = store.text(raw)
            gk, _, evk, _ = ghost_keys(gid)
            await self._close(keys=[gk, evk], args=[self._closed_event(gid, "time"),
                                                   self.settings.event_window,
                                                   store.channel(gid)])
            if store.text(await self.redis.hget(gk, "state")) != "open":
                await self._closed(gid)
        for raw in await self.redis.zrange(CLOSING, 0, -1):
            await self.settle(store.text(raw))
