"""Seats: creating a match, taking and giving up seats while it is open, and its start."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import msgpack
from redis.typing import EncodableT, FieldT

import engine
from engine.cards import TEXT

from .. import store
from ..accounts import Player, new_id
from ..errors import ApiError
from ..sessions import rules_for
from ..store import script_replies, scripts
from . import lanes
from .book import Book
from .record import DEFAULTS, MESSAGES, TURNS, Match, matched, refused


class Seats:
    def __init__(self, book: Book, schedule: Callable[[Match], Awaitable[None]],
                 count: Callable[[str, str, int], Awaitable[None]]) -> None:
        self.book = book
        self.schedule = schedule  # the first turn's timer, at the start
        self.count = count  # this node's presence ledger (a socket that joins follows)
        redis = book.redis
        self._join = script_replies.bind(redis, scripts.MATCH_JOIN, script_replies.Seated.of)
        self._leave = script_replies.bind(redis, scripts.MATCH_LEAVE, script_replies.Done.of)
        self._start = script_replies.bind(redis, scripts.MATCH_START, script_replies.Done.of)

    async def create(self, player: Player, body: Mapping[str, Any],
                     rematch_of: Match | None = None) -> str:
        """A new open match; its id. Listed among the open matches, unless it is the rematch
        of the (ended) match ``rematch_of``: then only its players may join."""
        rules = rules_for(body["game"], body["variant"])
        form = rules.match
        if form is None:
            raise ApiError("match.game", f"{rules.name} is not played as a match: matches are "
                           f"for {', '.join(matched())}; race the other games")
        least, most = form.seats
        if not least <= body["seats"] <= most:
            raise ApiError("message.invalid", f"a {rules.name} match has {least} to {most} seats")
        opts = DEFAULTS | {k: v for k, v in body.items() if k in DEFAULTS}
        mid = new_id("m")
        seed = os.urandom(32)
        now = await self.book.now()
        fields: dict[FieldT, EncodableT] = {
            "kind": form.kind, "game": rules.id, "variant": rules.variant,
            "seats": body["seats"], "start": opts["start"], "turn_time": opts["turn_time"],
            "grace": opts["grace"],
            "creator": player.id, "state": "open", "seed": seed.hex(),
            "commitment": engine.commitment(seed), "created": now, "seq": 0, "rev": 0}
        if rematch_of is not None:
            fields["rematch_of"] = rematch_of.id
            fields |= {f"invited:{pid}": 1 for pid in rematch_of.players}
        await self.book.redis.hset(store.match_keys(mid)[0], mapping=fields)
        if rematch_of is None:
            await self.book.redis.zadd(store.OPEN_MATCHES, {mid: now})
        return mid

    async def join(self, player: Player, mid: str, present: bool = False) -> int:
        """Take a seat; ``present``: the joining socket follows the match from now on, so the
        player is not counted away if their join fills the match and starts it. The number
        of the event that seated them. A seat that fills a match that starts when full starts
        it: that start is expected on the due set first (the script refuses the seat as
        'filling' until it is), and the joiner's retry starts it too."""
        mk, pk, ek = store.match_keys(mid)
        event = {"type": "match.joined", "match": mid, "player": player.public()}
        info = json.dumps({"name": player.name, "kind": player.kind})
        expected = 0
        for _ in range(2):
            seated = await self._join(keys=[mk, pk, ek], args=[
                player.id, info, msgpack.packb(event), *self.book.emit_args(mid), int(present),
                expected])
            if seated.why != "filling":
                break
            await self.book.expected.soon(store.follow_up("match", mid))  # its start
            expected = 1
        if seated.why == "match.joined":
            m = await self.book.load(mid)
            if full(m):  # the request that filled it died before starting it
                with contextlib.suppress(ApiError):  # another node may have started it
                    await self.begin(mid)
                return int(m.meta["seq"])
        if not seated.ok:
            raise refused(seated.why)
        if present:
            await self.count(mid, player.id, 1)
        m = await self.book.load(mid)
        if seated.full and m.meta["start"] == "full":
            with contextlib.suppress(ApiError):  # another node may have started it
                await self.begin(mid)
        return seated.seq

    async def give_up(self, player: Player, mid: str) -> None:
        """Give up the seat before the start."""
        mk, pk, ek = store.match_keys(mid)
        event = {"type": "match.left", "match": mid, "player": player.id}
        left = await self._leave(keys=[mk, pk, ek], args=[
            player.id, msgpack.packb(event), *self.book.emit_args(mid)])
        if not left.ok:
            raise refused(left.why)

    async def start(self, player: Player, mid: str) -> None:
        """The creator starts the match before every seat is taken."""
        m = await self.book.load(mid)
        if m.meta["creator"] != player.id:
            raise ApiError("match.not_creator", "only the match's creator can start it")
        if m.meta["state"] != "open":
            raise ApiError("match.not_open", MESSAGES["match.not_open"])
        least = m.form.seats[0]
        if len(m.players) < least:
            raise ApiError("match.too_few", f"a {m.rules.name} match needs at least {least} "
                           f"player{'s' if least > 1 else ''} to start")
        await self.begin(mid)

    async def begin(self, mid: str) -> None:
        for _ in range(5):
            m = await self.book.load(mid)
            now = await self.book.now()
            deadline = now + m.meta["turn_time"] * 1000
            m.meta |= {"state": "running", "started_at": now, "shown_at": now,
                       "deadline": deadline, "players": len(m.order), "round": 0}
            order = [{"player": p, **m.players[p]} for p in m.order]
            event: dict[str, Any] = {"type": "match.started", "match": mid, "kind": m.kind,
                                     "order": order, "started_at": now}
            if m.kind == TURNS:
                m.state = m.rules.deal(m.seed, competitive=True, players=len(m.order))
                lanes.settle(m)
                view, turn = lanes.public(m)
                event |= {"view": view, "turn": turn}
            else:
                event |= {"round": 0, "card": TEXT[m.calls[0]], "deadline": deadline}
            mk, pk, ek = store.match_keys(mid)
            # What follows the start (off the open list, the first turn's timer) is due
            # first, so a node dying after it leaves it to a sweep (Matches.follow_up).
            due = store.follow_up("match", mid)
            stamp = await self.book.expected.soon(due)
            started = await self._start(keys=[mk, pk, ek], args=[
                msgpack.packb(event), *self.book.emit_args(mid), now, deadline, *m.order])
            self.book.forget(mid)
            if started.ok:
                await self.after_start(await self.book.load(mid))
                await self.book.expected.met(due, stamp)
                return
            if started.why != "conflict":
                raise refused(started.why)
        raise ApiError("conflict", "the match's players kept changing; try again")

    async def after_start(self, m: Match) -> None:
        """What follows a start, done again by a sweep if its node died: off the open list,
        the turn timer set. Both idempotent."""
        await self.book.redis.zrem(store.OPEN_MATCHES, m.id)
        await self.schedule(m)


def full(m: Match) -> bool:
    """An open match that starts when full, every seat taken: its start is due."""
    return (m.meta["state"] == "open" and m.meta["start"] == "full"
            and len(m.players) >= int(m.meta["seats"]))
