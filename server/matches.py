"""Matches: Bowling for one to four bowlers taking turns on one deal, and the called-card
party games (Poker Square, Cribbage Square) for two to eight players placing the same called
card in their own grids.

A match is open (taking seats) -> running -> ended. Every change is one Lua script that also
numbers the match's event and publishes it, as a race's. Turn timers are one sorted set of
deadlines that every node watches; whichever node finds a deadline passed makes the timer's
placement, and the scripts' revision and round checks let only one of them do it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import weakref
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

import engine
from engine.cards import TEXT
from engine.core import State

from . import lanes, store
from .accounts import Player, new_id
from .config import Settings
from .errors import ApiError
from .sessions import parse, rules_for

log = logging.getLogger("samedeal.matches")

BOWLING = "bowling"
CALLED = ("poker-square", "cribbage-square")
DEFAULTS = {"start": "full", "turn_time": 30, "grace": 60, "join": True}
INTS = ("seats", "turn_time", "grace", "created", "seq", "rev", "started_at", "shown_at",
        "deadline", "ended_at", "round", "placed", "active", "filling", "players")
PUBLIC = ("match", "kind", "game", "variant", "seats", "start", "turn_time", "grace",
          "creator", "state", "commitment", "created", "started_at", "ended_at", "seq", "rev")

OnEnd = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class Match:
    """A match as Redis has it at revision ``rev``, with its game states rebuilt."""

    id: str
    meta: dict[str, Any]
    players: dict[str, dict[str, str]]  # player id -> name, kind
    order: list[str]  # seat order: bowling order, and the order scores are listed in
    rules: engine.RuleSet
    seed: bytes
    calls: list[int]  # the deal in the order its cards are called (called-card games)
    state: State | None = None  # Bowling: the whole match in one state
    grids: dict[str, State] = field(default_factory=dict)  # called-card: each player's
    bowled: list[lanes.Bowled] = field(default_factory=list)  # Bowling: every card, in order

    @property
    def kind(self) -> str:
        return self.meta["kind"]

    @property
    def rev(self) -> int:
        return self.meta.get("rev", 0)

    @property
    def running(self) -> bool:
        return self.meta["state"] == "running"

    def flag(self, name: str, pid: str) -> bool:
        return bool(self.meta.get(f"{name}:{pid}"))

    def away_since(self, pid: str) -> int | None:
        at = self.meta.get(f"away:{pid}")
        return int(at) if at else None

    @property
    def over(self) -> bool:
        """Every placement made: the bowling is over, or every grid is full (or left)."""
        if self.state is not None:
            return self.state.over
        return self.meta["state"] != "open" and self.meta["active"] <= 0

    def awaited(self) -> list[str]:
        """The players whose placement the match waits for now."""
        if not self.running:
            return []
        if self.state is not None:
            return [] if self.state.over else [self.order[self.state.turn]]
        return [p for p in self.order if not self.flag("out", p) and not self.flag("full", p)
                and len(self.grids[p].history) == self.meta["round"]]

    def called(self) -> int | None:
        """The card called now (called-card games), ``None`` once every grid is full."""
        if self.state is not None or not self.running:
            return None
        return self.calls[self.meta["round"]]


async def pause(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep up to ``seconds``; whether ``stop`` was set meanwhile (then at once). A loop
    that ends by this flag ends even if a cancellation was swallowed by a store call."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


def _decode(raw: dict[bytes, bytes]) -> dict[str, Any]:
    out: dict[str, Any] = {k.decode(): v.decode() for k, v in raw.items()}
    for k in INTS:
        if k in out:
            out[k] = int(out[k])
    return out


class Matches:
    def __init__(self, redis: Redis, settings: Settings, on_end: OnEnd) -> None:
        self.redis = redis
        self.settings = settings
        self.on_end = on_end  # once per match, with its results: statistics and ratings
        self._cache: OrderedDict[str, Match] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._join = store.script(redis, store.MATCH_JOIN)
        self._leave = store.script(redis, store.MATCH_LEAVE)
        self._start = store.script(redis, store.MATCH_START)
        self._move = store.script(redis, store.MATCH_MOVE)
        self._place = store.script(redis, store.MATCH_PLACE)
        self._here = store.script(redis, store.MATCH_HERE)
        self._end = store.script(redis, store.MATCH_END)
        #: this process, for the presence ledger: a node that dies cannot take its sockets'
        #: presence back, so the others do it once its heartbeat stops (``keep_presence``)
        self.node = new_id("n")
        self._here_now: Counter[tuple[str, str]] = Counter()  # this node's ledger, in memory
        self._beating = False

    def lock(self, mid: str) -> asyncio.Lock:
        lock = self._locks.get(mid)
        if lock is None:
            lock = self._locks[mid] = asyncio.Lock()
        return lock

    # ----- reading ----------------------------------------------------------------------

    async def load(self, mid: str) -> Match:
        """The match as Redis has it now; the cached one when no event came since."""
        mk, pk, _ = store.match_keys(mid)
        cached = self._cache.get(mid)
        if cached is not None:
            state, seq = await self.redis.hmget(mk, "state", "seq")  # every change's event
            if state is not None and state.decode() == cached.meta["state"] and (
                    int(seq or 0) == cached.meta["seq"]):
                self._cache.move_to_end(mid)
                return cached
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(mk)
            pipe.hgetall(pk)
            pipe.lrange(store.match_moves(mid), 0, -1)
            raw, players, bowled = await pipe.execute()
        if not raw:
            raise ApiError("match.unknown", f"there is no match {mid[:40]!r}")
        meta = _decode(raw)
        infos = {k.decode(): json.loads(v) for k, v in players.items()}
        order = sorted(infos, key=lambda p: int(meta.get(f"seat:{p}", 0)))
        rules = engine.get(meta["game"], meta["variant"])
        seed = bytes.fromhex(meta["seed"])
        s = rules.stock_pile
        m = Match(mid, meta, infos, order, rules, seed, rules.deal(seed).piles[s][::-1])
        if meta["state"] != "open":
            if meta["kind"] == BOWLING:
                m.state = self._bowling(m, bowled)
            else:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for p in order:
                        pipe.lrange(store.match_moves(mid, p), 0, -1)
                    lists = await pipe.execute()
                for p, entries in zip(order, lists, strict=True):
                    m.grids[p] = st = rules.deal(seed, competitive=True)
                    for entry in entries:
                        st.push(engine.parse_move(rules, entry.decode().partition(" ")[2]))
        self._cache[mid] = m
        self._cache.move_to_end(mid)
        while len(self._cache) > self.settings.cache_size:
            self._cache.popitem(last=False)
        return m

    @staticmethod
    def _bowling(m: Match, entries: list[bytes]) -> State:
        rules = m.rules
        st = rules.deal(m.seed, competitive=True, players=m.meta["players"])
        for entry in entries:
            _, bowler, text = entry.decode().split(" ", 2)
            if text == "forfeit":
                rules.forfeit(st, int(bowler))  # type: ignore[attr-defined]
            else:
                m.bowled.append(lanes.about_to_bowl(st, text))
                st.push(engine.parse_move(rules, text))
        return st

    async def summary(self, mid: str, viewer: str | None = None) -> dict[str, Any]:
        return self._summary(await self.load(mid), viewer)

    def _summary(self, m: Match, viewer: str | None = None) -> dict[str, Any]:
        """What anyone may see of a match (never a card not yet everyone's: server/lanes.py
        for Bowling), and as ``you`` what only the viewer may: a called-card player's grid,
        the bowler's own lane on their turn."""
        meta = m.meta
        out: dict[str, Any] = {k: meta.get(k) for k in PUBLIC}
        out["match"] = m.id
        out["name"] = m.rules.name
        out["players"] = [{
            "player": p, **m.players[p], "seat": i + 1 if meta["state"] != "open" else None,
            "away": m.away_since(p) is not None and meta["state"] == "running",
            "forfeited": m.flag("out", p)} for i, p in enumerate(m.order)]
        if meta["state"] == "open":
            return out
        if m.state is not None:
            out |= lanes.public(m)
            out["frames"] = lanes.frames(m)
            lane = lanes.own(m, viewer) if viewer else None
            if lane is not None:
                out["you"] = lane
        else:
            out["round"] = meta["round"]
            card = m.called()
            out["card"] = TEXT[card] if card is not None else None
            out["deadline"] = meta["deadline"] if card is not None else None
            out["scores"] = {p: self._line_scores(m, p) for p in m.order}
            if viewer in m.grids:
                out["you"] = self.own_grid(m, viewer)
        if meta["state"] == "ended":
            out["seed"] = meta["seed"]
            out["results"] = json.loads(meta["results"])
        return out

    def own(self, m: Match, pid: str) -> dict[str, Any] | None:
        """What only this player may see: a called-card player's grid, or the bowler's lane
        on their turn; ``None`` when there is nothing of theirs to show."""
        if m.meta["state"] == "open":
            return None
        if m.state is not None:
            return lanes.own(m, pid)
        return self.own_grid(m, pid) if pid in m.grids else None

    def _line_scores(self, m: Match, pid: str) -> dict[str, Any]:
        """A player's running score line by line, as everyone sees it: before the end with no
        starter (the next card is not shown before everyone has placed)."""
        st = m.grids[pid]
        score, info = m.rules.scored(st, self._starter(m))  # type: ignore[attr-defined]
        return {"score": score, "lines": info["lines"], "placed": len(st.history),
                "done": m.flag("full", pid), "waiting": pid in m.awaited()}

    def _starter(self, m: Match) -> int:
        """Cribbage Square's common starter, shown once the match is over; else none (-1)."""
        if m.meta["state"] != "ended" or m.rules.id != "cribbage-square":
            return -1
        return m.calls[m.meta["round"]]

    def own_grid(self, m: Match, pid: str) -> dict[str, Any]:
        """A called-card player's own grid. Their state has already turned up the next card
        once they placed this one; it stays hidden until everyone has placed."""
        st = m.grids[pid]
        view = st.view()
        waiting = pid in m.awaited()
        s = m.rules.pile_names[m.rules.stock_pile]
        view["piles"][s] = {"down": len(st.piles[m.rules.stock_pile]) - int(waiting),
                            "up": [TEXT[st.piles[m.rules.stock_pile][-1]]] if waiting else []}
        view["score"], view["info"] = m.rules.scored(st, self._starter(m))  # type: ignore[attr-defined]
        if m.running:
            view["status"] = "finished" if m.flag("full", pid) else "playing"
        legal = [engine.move_text(m.rules, mv) for mv in st.legal_moves()] if waiting else []
        return {"view": view, "legal": legal, "waiting": waiting, "as_of": m.meta["seq"]}

    async def list_open(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest open matches first, as races (``Races.list_open``)."""
        out = []
        for mid in await self.redis.zrevrange(store.OPEN_MATCHES, 0, limit - 1):
            with contextlib.suppress(ApiError):
                s = await self.summary(mid.decode())
                if s["state"] == "open":
                    out.append(s)
        return out

    async def transcript(self, mid: str) -> dict[str, Any]:
        """Every placement with its server time, the seed and the results: public once the
        match is over, so anyone can replay it on the engine."""
        m = await self.load(mid)
        if m.meta["state"] != "ended":
            raise ApiError("match.not_over", "the transcript is published when the match ends")
        out: dict[str, Any] = {k: m.meta.get(k) for k in ("kind", "game", "variant", "seed",
                                                          "commitment", "started_at",
                                                          "ended_at")}
        out["match"] = mid
        out["order"] = [{"player": p, **m.players[p]} for p in m.order]
        out["results"] = json.loads(m.meta["results"])
        if m.kind == BOWLING:
            entries = await self.redis.lrange(store.match_moves(mid), 0, -1)
            moves = []
            for e in entries:
                t, bowler, text = e.decode().split(" ", 2)
                moves.append({"t": int(t), "bowler": int(bowler) + 1,
                              "player": m.order[int(bowler)], "move": text})
            out["moves"] = moves
        else:
            async with self.redis.pipeline(transaction=False) as pipe:
                for p in m.order:
                    pipe.lrange(store.match_moves(mid, p), 0, -1)
                lists = await pipe.execute()
            out["moves"] = {p: [{"t": int(t), "move": text} for t, _, text in
                                (e.decode().partition(" ") for e in entries)]
                            for p, entries in zip(m.order, lists, strict=True)}
        return out

    # ----- seats ------------------------------------------------------------------------

    async def create(self, player: Player, body: dict[str, Any],
                     present: bool = False) -> dict[str, Any]:
        rules = rules_for(body["game"], body["variant"])
        if rules.id == BOWLING:
            kind, lo, hi = BOWLING, 1, 4
        elif rules.id in CALLED:
            kind, lo, hi = "called", 2, 8
        else:
            raise ApiError("match.game", "matches are for Bowling, Poker Square and Cribbage "
                           "Square; race the other games")
        if not lo <= body["seats"] <= hi:
            raise ApiError("message.invalid", f"a {rules.name} match has {lo} to {hi} seats")
        opts = DEFAULTS | {k: v for k, v in body.items() if k in DEFAULTS}
        mid = new_id("m")
        seed = os.urandom(32)
        now = await store.now_ms(self.redis)
        await self.redis.hset(store.match_keys(mid)[0], mapping={
            "kind": kind, "game": rules.id, "variant": rules.variant, "seats": body["seats"],
            "start": opts["start"], "turn_time": opts["turn_time"], "grace": opts["grace"],
            "creator": player.id, "state": "open", "seed": seed.hex(),
            "commitment": engine.commitment(seed), "created": now, "seq": 0, "rev": 0})
        await self.redis.zadd(store.OPEN_MATCHES, {mid: now})
        if opts["join"]:
            return await self.join(player, mid, present)
        return await self.summary(mid, player.id)

    async def _script(self, script: Any, keys: list[str], args: list[Any]) -> list[Any]:
        result = await script(keys=keys, args=args)
        if result[0] != 1:
            code = result[1].decode()
            raise ApiError(code, MESSAGES.get(code, code))
        return result

    def _emit_args(self, mid: str) -> tuple[int, str]:
        return self.settings.event_window, store.channel(mid)

    async def join(self, player: Player, mid: str, present: bool = False) -> dict[str, Any]:
        """Take a seat; ``present``: the joining socket follows the match from now on, so the
        player is not counted away if their join fills the match and starts it."""
        mk, pk, ek = store.match_keys(mid)
        event = {"type": "match.joined", "match": mid, "player": player.public()}
        info = json.dumps({"name": player.name, "kind": player.kind})
        result = await self._script(self._join, [mk, pk, ek], [
            player.id, info, msgpack.packb(event), *self._emit_args(mid), int(present)])
        if present:
            await self._ledger(mid, player.id, 1)
        seated, seats = int(result[1]), int(result[2])
        m = await self.load(mid)
        if seated >= seats and m.meta["start"] == "full":
            with contextlib.suppress(ApiError):  # another node may have started it
                await self._begin(mid)
        return await self.summary(mid, player.id) | {"joined_seq": int(result[3])}

    async def leave(self, player: Player, mid: str) -> dict[str, Any]:
        """Before the start: give up the seat. After: leave for good, forfeiting the rest."""
        m = await self.load(mid)
        if m.meta["state"] == "running" and player.id in m.players:
            await self._change(mid, player.id, None)
            return await self.summary(mid, player.id)
        mk, pk, ek = store.match_keys(mid)
        event = {"type": "match.left", "match": mid, "player": player.id}
        await self._script(self._leave, [mk, pk, ek], [
            player.id, msgpack.packb(event), *self._emit_args(mid)])
        return await self.summary(mid, player.id)

    async def start(self, player: Player, mid: str) -> dict[str, Any]:
        m = await self.load(mid)
        if m.meta["creator"] != player.id:
            raise ApiError("match.not_creator", "only the match's creator can start it")
        if m.meta["state"] != "open":
            raise ApiError("match.not_open", MESSAGES["match.not_open"])
        least = 1 if m.kind == BOWLING else 2
        if len(m.players) < least:
            raise ApiError("match.too_few", f"a {m.rules.name} match needs at least {least} "
                           f"player{'s' if least > 1 else ''} to start")
        await self._begin(mid)
        return await self.summary(mid, player.id)

    async def _begin(self, mid: str) -> None:
        for _ in range(5):
            m = await self.load(mid)
            now = await store.now_ms(self.redis)
            deadline = now + m.meta["turn_time"] * 1000
            m.meta |= {"state": "running", "started_at": now, "shown_at": now,
                       "deadline": deadline, "players": len(m.order), "round": 0}
            order = [{"player": p, **m.players[p]} for p in m.order]
            event: dict[str, Any] = {"type": "match.started", "match": mid, "kind": m.kind,
                                     "order": order, "started_at": now}
            if m.kind == BOWLING:
                m.state = m.rules.deal(m.seed, competitive=True, players=len(m.order))
                event |= lanes.public(m)
            else:
                event |= {"round": 0, "card": TEXT[m.calls[0]], "deadline": deadline}
            mk, pk, ek = store.match_keys(mid)
            result = await self._start(keys=[mk, pk, ek], args=[
                msgpack.packb(event), *self._emit_args(mid), now, deadline, *m.order])
            self._cache.pop(mid, None)
            if result[0] == 1:
                await self.redis.zrem(store.OPEN_MATCHES, mid)
                await self._schedule(await self.load(mid))
                return
            code = result[1].decode()
            if code != "conflict":
                raise ApiError(code, MESSAGES.get(code, code))
        raise ApiError("conflict", "the match's players kept changing; try again")

    # ----- play -------------------------------------------------------------------------

    async def move(self, player: Player, mid: str, move: str | dict[str, Any]) -> dict[str, Any]:
        """A player's placement, stored and announced before this returns."""
        await self._change(mid, player.id, move)
        return await self.summary(mid, player.id)

    async def _change(self, mid: str, pid: str, move: str | dict[str, Any] | None) -> None:
        """Place ``move`` for ``pid``, or (``None``) take them out of the match for good; tried
        again on a fresh read when another node changed the match meanwhile."""
        async with self.lock(mid):
            for _ in range(3):
                m = await self.load(mid)
                if pid not in m.players:
                    raise ApiError("match.not_player", MESSAGES["match.not_player"])
                if move is None and (not m.running or m.flag("out", pid)):
                    return  # over, or gone already: nothing to leave
                if not m.running:
                    raise ApiError("match.not_running", MESSAGES["match.not_running"])
                if m.flag("out", pid):
                    raise ApiError("match.left", MESSAGES["match.left"])
                mv = parse(m.rules, move) if move is not None else None
                if m.kind == BOWLING:
                    done = await self._bowl(m, m.order.index(pid), mv, pid)
                else:
                    done = await self._call(m, pid, mv, pid)
                if done:
                    return
                self._cache.pop(mid, None)
            raise ApiError("conflict", "the match kept changing; try again")

    def _refuse(self, st: State, mv: engine.Move, bowler: int | None) -> None:
        why = st.refusal(mv, bowler)
        if why is not None:
            raise ApiError(why.code, why.message)

    async def _bowl(self, m: Match, k: int, mv: engine.Move | None, by: str) -> bool:
        """Bowler ``k``'s card (``None``: they leave); ``False`` if the match changed meanwhile."""
        st = m.state
        assert st is not None
        rules = m.rules
        pid = m.order[k]
        complete = lanes.complete(st)
        bowled = None
        if mv is None:
            rules.forfeit(st, k)  # type: ignore[attr-defined]
            entry, event = f"{k} forfeit", {"type": "match.forfeit", "match": m.id,
                                            "player": pid}
        else:
            if by != "timer":
                self._refuse(st, mv, k)
            text = engine.move_text(rules, mv)
            bowled = lanes.about_to_bowl(st, text)
            st.push(mv)
            entry = f"{k} {text}"
            event = {"type": "match.moved", "match": m.id, "player": pid, "bowler": k + 1,
                     "move": text, "by": "timer" if by == "timer" else "player"}
        now = await store.now_ms(self.redis)
        deadline = now + m.meta["turn_time"] * 1000
        old = dict(m.meta)
        m.meta |= {"shown_at": now, "deadline": deadline}
        if bowled is not None:
            m.bowled.append(bowled)
        event |= lanes.public(m)
        if lanes.complete(st) > complete:  # a frame every bowler still in has bowled
            event["frames"] = lanes.frames(m, complete + 1)
        mk, _, ek = store.match_keys(m.id)
        result = await self._move(keys=[mk, store.match_moves(m.id), ek, store.DUE], args=[
            m.rev, entry, msgpack.packb(event), *self._emit_args(m.id), now, deadline,
            pid if mv is None else "", store.follow_up("match", m.id) if st.over else "",
            self._grace_ms])
        if result[0] != 1:
            st.pop()
            m.meta = old
            if bowled is not None:
                m.bowled.pop()
            return self._changed(result)
        m.meta["rev"], m.meta["seq"] = int(result[1]), int(result[2])
        if mv is None:
            m.meta[f"out:{pid}"] = "1"
        if st.over:
            await self.finish(m.id)
        else:
            await self._schedule(m)
        return True

    async def _call(self, m: Match, pid: str, mv: engine.Move | None, by: str) -> bool:
        """A called-card player's placement (``None``: they leave); ``False`` if the round
        changed meanwhile."""
        st = m.grids[pid]
        rules = m.rules
        rnd = m.meta["round"]
        if mv is not None:
            if m.flag("full", pid):
                raise ApiError("match.done", "your grid is full: the match ends when every "
                               "grid is")
            if pid not in m.awaited():
                left = len(m.awaited())
                raise ApiError("match.wait", f"you have placed this card: wait for the next "
                               f"one ({left} player{'s' if left != 1 else ''} still to place)")
            if by != "timer":
                self._refuse(st, mv, None)
            st.push(mv)
            score, info = rules.scored(st)  # type: ignore[attr-defined]
            event: dict[str, Any] = {
                "type": "match.placed", "match": m.id, "player": pid, "round": rnd,
                "by": "timer" if by == "timer" else "player", "score": score,
                "lines": info["lines"], "done": rules.finished(st)}
        else:
            event = {"type": "match.forfeit", "match": m.id, "player": pid}
        now = await store.now_ms(self.redis)
        deadline = now + m.meta["turn_time"] * 1000
        nxt = {"type": "match.card", "match": m.id, "round": rnd + 1,
               "card": TEXT[m.calls[rnd + 1]], "deadline": deadline}
        mk, _, ek = store.match_keys(m.id)
        window, chan = self._emit_args(m.id)
        result = await self._place(keys=[mk, store.match_moves(m.id, pid), ek, store.DUE], args=[
            "place" if mv is not None else "forfeit", pid, rnd,
            engine.move_text(rules, mv) if mv is not None else "", msgpack.packb(event),
            msgpack.packb(nxt), int(mv is not None and rules.finished(st)), window, chan, now,
            deadline, store.follow_up("match", m.id), self._grace_ms])
        if mv is not None:
            st.pop()  # the cache is dropped below either way; keep the state as it was
        self._cache.pop(m.id, None)
        if result[0] != 1:
            return self._changed(result)
        if result[2] == b"last":
            await self.finish(m.id)
        else:
            await self._schedule(await self.load(m.id))
        return True

    @staticmethod
    def _changed(result: list[Any]) -> bool:
        """``False`` for a conflict (try again on a fresh read); any other refusal raises."""
        code = result[1].decode()
        if code == "conflict":
            return False
        raise ApiError(code, MESSAGES.get(code, code))

    # ----- the turn timer and presence --------------------------------------------------

    def due_at(self, m: Match, now: int) -> int | None:
        """When the timer places for the players the match waits for: at the turn's deadline;
        later while one of them is away within the grace period; at a quick pace
        (``absent_pace``) once all of them have been away longer than that."""
        awaited = m.awaited()
        if not awaited:
            return None
        due = m.meta["deadline"]
        grace = m.meta["grace"] * 1000
        ends = [a + grace for a in map(m.away_since, awaited) if a is not None]
        if ends and max(ends) > now:
            return max(due, max(ends))
        if ends and len(ends) == len(awaited):
            pace = int(self.settings.absent_pace * 1000)
            return min(due, max(m.meta["shown_at"], *ends) + pace)
        return due

    async def _schedule(self, m: Match) -> None:
        due = self.due_at(m, await store.now_ms(self.redis))
        if due is None:
            await self.redis.zrem(store.DUE_MATCHES, m.id)
        else:
            await self.redis.zadd(store.DUE_MATCHES, {m.id: due})

    async def timeout(self, mid: str) -> None:
        """The timer's placement for everyone the match still waits for, if it is due."""
        async with self.lock(mid):
            m = await self.load(mid)
            now = await store.now_ms(self.redis)
            due = self.due_at(m, now)
            if due is None or due > now:
                await self._schedule(m)
                return
            for pid in m.awaited():
                if m.kind == BOWLING:
                    assert m.state is not None
                    mv = m.rules.timer_move(m.state)  # type: ignore[attr-defined]
                    await self._bowl(m, m.state.turn, mv, "timer")
                else:
                    m = await self.load(mid)
                    if pid in m.awaited():
                        mv = m.rules.timer_move(m.grids[pid])  # type: ignore[attr-defined]
                        await self._call(m, pid, mv, "timer")

    async def run_timers(self, stop: asyncio.Event) -> None:
        """Every node, until ``stop``: sleep until the earliest deadline (at most
        ``sweep_interval``), then make the due placements. Nodes may overlap; the scripts let
        one placement through. A failing store only delays the timers."""
        while not stop.is_set():
            try:
                first = await self.redis.zrange(store.DUE_MATCHES, 0, 0, withscores=True)
                now = await store.now_ms(self.redis)
                wait = self.settings.sweep_interval
                if first:
                    wait = min(wait, max(0.0, (first[0][1] - now) / 1000))
                if await pause(stop, max(wait, 0.02)):
                    return
                now = await store.now_ms(self.redis)
                for mid in await self.redis.zrangebyscore(store.DUE_MATCHES, 0, now):
                    try:
                        await self.timeout(mid.decode())
                    except ApiError as e:  # a move or another node's timer came first
                        log.debug("the turn timer for match %s was refused: %s", mid, e.code)
                    except Exception:
                        log.exception("the turn timer failed for match %s", mid)
            except (RedisConnectionError, RedisTimeoutError) as e:  # one line, not a trace
                log.warning("the match timers could not reach the store (%s); trying again", e)
                if await pause(stop, self.settings.sweep_interval):
                    return
            except Exception:
                log.exception("the match timers could not read the store; trying again")
                if await pause(stop, self.settings.sweep_interval):
                    return

    async def present(self, mid: str, pid: str, delta: int, ledger: bool = True) -> None:
        """A player's socket started (+1) or stopped (-1) following the match; ``ledger``:
        this node's own sockets (not a dead node's, taken back by ``keep_presence``)."""
        if ledger:
            await self._ledger(mid, pid, delta)
        mk, _, ek = store.match_keys(mid)
        away = {"type": "match.away", "match": mid, "player": pid}
        back = {"type": "match.back", "match": mid, "player": pid}
        changed = await self._here(keys=[mk, ek], args=[
            pid, delta, msgpack.packb(away), msgpack.packb(back), *self._emit_args(mid)])
        if changed:
            self._cache.pop(mid, None)
            with contextlib.suppress(ApiError):
                await self._schedule(await self.load(mid))

    async def _ledger(self, mid: str, pid: str, delta: int) -> None:
        self._here_now[mid, pid] += delta
        if self._here_now[mid, pid] <= 0:
            del self._here_now[mid, pid]
        key = store.node_presence(self.node)
        if await self.redis.hincrby(key, f"{mid} {pid}", delta) <= 0:
            await self.redis.hdel(key, f"{mid} {pid}")

    async def keep_presence(self) -> None:
        """Every sweep: this node's heartbeat; and a node silent past ``node_timeout`` (killed,
        its sockets gone without a word) has its players' presence taken back, by whichever
        node claims it first."""
        now = await store.now_ms(self.redis)
        if await self.redis.zadd(store.NODES, {self.node: now}) and self._beating:
            # Taken for dead (stalled past the timeout, or cut off from Redis): its players'
            # presence was taken back, so count what this node's sockets still follow again.
            log.warning("node %s was taken for dead: counting its players present again",
                        self.node)
            for (mid, pid), count in list(self._here_now.items()):
                del self._here_now[mid, pid]
                await self.present(mid, pid, count)
        self._beating = True
        dead = await self.redis.zrangebyscore(
            store.NODES, 0, now - int(self.settings.node_timeout * 1000))
        for raw in dead:
            node = raw.decode()
            if not await self.redis.zrem(store.NODES, node):
                continue  # another node claimed it
            key = store.node_presence(node)
            for entry, count in (await self.redis.hgetall(key)).items():
                mid, _, pid = entry.decode().partition(" ")
                with contextlib.suppress(ApiError):
                    await self.present(mid, pid, -int(count), ledger=False)
                await self.redis.hdel(key, entry)
            log.warning("node %s stopped beating: its match presence was taken back", node)

    async def leave_nodes(self) -> None:
        """A clean stop: this node's sockets have closed (their presence with them)."""
        await self.redis.zrem(store.NODES, self.node)

    # ----- the end ----------------------------------------------------------------------

    @property
    def _grace_ms(self) -> int:
        return int(self.settings.followup_grace * 1000)

    async def follow_up(self, mid: str) -> bool:
        """The due follow-up of a match whose last placement was made, or that ended: end it,
        then record it (statistics, ratings; server/followups.py). ``True`` once done."""
        self._cache.pop(mid, None)
        try:
            m = await self.load(mid)
        except ApiError:
            return True  # the match is gone: nothing to end
        if m.meta["state"] == "ended":
            await self._record(mid, json.loads(m.meta["results"]))
            return True
        if not m.running or not m.over:
            return True  # not over: its turn timer carries it on
        return await self.finish(mid) is not None

    async def _record(self, mid: str, results: dict[str, Any]) -> None:
        await self.redis.zrem(store.DUE_MATCHES, mid)
        await self.on_end(results)
        await self.redis.zrem(store.DUE, store.follow_up("match", mid))

    async def finish(self, mid: str) -> dict[str, Any] | None:
        """End the match once every placement is made: results, then ratings."""
        for _ in range(10):
            self._cache.pop(mid, None)
            m = await self.load(mid)
            if m.meta["state"] == "ended":
                return json.loads(m.meta["results"])
            if not m.running or not m.over:
                return None
            now = await store.now_ms(self.redis)
            results = self._results(m, now)
            event = {"type": "match.ended", "match": mid, "seed": m.meta["seed"],
                     "results": results}
            mk, _, ek = store.match_keys(mid)
            result = await self._end(keys=[mk, ek, store.DUE], args=[
                m.rev, json.dumps(results), msgpack.packb(event), *self._emit_args(mid),
                store.follow_up("match", mid), self._grace_ms,
                int(self.settings.replay_window * 1000)])
            if result[0] == 1:
                self._cache.pop(mid, None)
                try:
                    await self._record(mid, results)
                except Exception:  # the match is over either way; its recording is due
                    log.exception("recording match %s failed; a sweep does it again", mid)
                return results
        return None

    def _results(self, m: Match, now: int) -> dict[str, Any]:
        """Highest total first (a player who left ranks after those who stayed); equal keys
        share a rank and the winners are the first rank."""
        out: dict[str, Any] = {"match": m.id, "kind": m.kind, "game": m.rules.id,
                               "variant": m.rules.variant, "seed": m.meta["seed"],
                               "commitment": m.meta["commitment"],
                               "started_at": m.meta["started_at"], "ended_at": now}
        entries = []
        if m.state is not None:
            bowlers = m.state.view()["info"]["bowlers"]
            out["scorecards"] = bowlers
            for p, b in zip(m.order, bowlers, strict=True):
                entries.append({"player": p, "bowler": b["bowler"], "score": b["total"]})
        else:
            starter = m.calls[m.meta["round"]]
            out["starter"] = TEXT[starter] if m.rules.id == "cribbage-square" else None
            out["lines"] = {}
            for p in m.order:
                score, info = m.rules.scored(m.grids[p], starter)  # type: ignore[attr-defined]
                out["lines"][p] = info["lines"]
                entries.append({"player": p, "score": score})
        for e in entries:
            e |= {"name": m.players[e["player"]]["name"],
                  "kind": m.players[e["player"]]["kind"],
                  "forfeited": m.flag("out", e["player"]),
                  "time_ms": now - m.meta["started_at"]}

        def key(e: dict[str, Any]) -> tuple[bool, int]:
            return e["forfeited"], -e["score"]

        ranking = sorted(entries, key=key)
        for i, e in enumerate(ranking):
            e["rank"] = ranking[i - 1]["rank"] if i and key(e) == key(ranking[i - 1]) else i + 1
            e["status"] = "won" if e["rank"] == 1 else "finished"
        out["ranking"] = ranking
        out["winner"] = [e["player"] for e in ranking if e["rank"] == 1]
        return out


MESSAGES = {
    "match.unknown": "there is no such match",
    "match.not_open": "the match has already started",
    "match.joined": "you are already in that match",
    "match.full": "the match is full",
    "match.not_player": "you are not playing in that match",
    "match.not_running": "the match is not being played",
    "match.left": "you have left that match",
    "match.wait": "wait for the next card",
    "conflict": "the match changed meanwhile; try again",
}
