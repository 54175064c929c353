"""Matches: party games for a few players on one deal, in the forms the rule sets declare
(their description's ``match``): ``turns``, one deal the players take turns on (Bowling), and
``called``, every player placing the same called card in their own grid (Poker Square,
Cribbage Square).

A match is open (taking seats) -> running -> ended. Every change is one Lua script that also
numbers the match's event and publishes it, as a race's. ``Matches`` wires the parts, each
with one job: reading (book), seats, the turns loop, the called-card rounds, the turn timer,
presence, what each viewer may see (views) and the end (results).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from redis.asyncio import Redis

import engine

from .. import followups, store
from ..accounts import Player
from ..config import Settings
from ..errors import ApiError
from ..races.rematch import Rematches
from ..sessions import parse
from ..transport.messages import MatchCreate
from ..transport.reply_types import Match as MatchPayload
from ..transport.reply_types import MatchResults, MatchTranscript, Yours
from . import views
from .book import Book
from .presence import Presence
from .record import MESSAGES, TURNS, Match, refused
from .results import Ending, OnEnd
from .rounds import Rounds
from .seats import Seats, full
from .timers import Timers
from .turns import Turns

__all__ = ["Match", "Matches"]


class Matches:
    def __init__(self, redis: Redis, settings: Settings, on_end: OnEnd) -> None:
        self.redis = redis
        self.rematches = Rematches(redis, settings)
        self.book = Book(redis, settings)
        self.timers = Timers(self.book)
        self.ending = Ending(self.book, on_end)
        self.presence = Presence(self.book, self.timers.schedule)
        self.seats = Seats(self.book, self.timers.schedule, self.presence.count)
        self.turns = Turns(self.book, self.ending.finish, self.timers.schedule)
        self.rounds = Rounds(self.book, self.ending.finish, self.timers.schedule)

    async def load(self, mid: str) -> Match:
        return await self.book.load(mid)

    # ----- what players see ------------------------------------------------------------

    async def summary(self, mid: str, viewer: str | None = None) -> MatchPayload:
        return views.summary(await self.book.load(mid), viewer)

    def own(self, m: Match, pid: str) -> Yours | None:
        return views.own(m, pid)

    async def list_open(self, limit: int = 50) -> list[MatchPayload]:
        """The newest open matches first, as races (``Races.list_open``)."""
        out = []
        for mid in await self.redis.zrevrange(store.OPEN_MATCHES, 0, limit - 1):
            with contextlib.suppress(ApiError):
                s = await self.summary(store.text(mid))
                if s["state"] == "open":
                    out.append(s)
        return out

    async def transcript(self, mid: str) -> MatchTranscript:
        return await views.transcript(self.redis, await self.book.load(mid))

    # ----- seats -----------------------------------------------------------------------

    async def create(self, player: Player, body: MatchCreate,
                     present: bool = False) -> MatchPayload:
        mid = await self.seats.create(player, body)
        if body.get("join", True):
            return await self.join(player, mid, present)
        return await self.summary(mid, player.id)

    async def rematch(self, player: Player, mid: str, present: bool = False
                      ) -> MatchPayload:
        """The same players on a new deal (server/races/rematch.py): the caller takes a seat in it;
        the reply is the new match's summary, with ``rematch_of``."""
        m = await self.book.load(mid)
        if player.id not in m.players:
            raise ApiError("match.not_player", "only the match's players can ask for a rematch")
        if m.meta["state"] != "ended":
            raise ApiError("match.not_over", "a rematch can be asked for once the match is over")
        body = {"game": m.rules.id, "variant": m.rules.variant, "seats": len(m.order),
                "start": m.meta["start"], "turn_time": m.meta["turn_time"],
                "grace": m.meta["grace"]}

        async def make() -> str:
            return await self.seats.create(player, body, rematch_of=m)

        async def drop(new: str) -> None:
            await self.redis.delete(*store.match_keys(new))

        new = await self.rematches.claim("match", mid, list(store.match_keys(mid)), player,
                                         m.meta.get("rematch"), make, drop, refused)
        self.book.forget(mid)
        try:
            return await self.join(player, new, present)
        except ApiError as e:
            if e.code != "match.joined":
                raise
            return await self.summary(new, player.id)  # asked again, or accepted after asking

    async def join(self, player: Player, mid: str, present: bool = False) -> MatchPayload:
        seq = await self.seats.join(player, mid, present)
        return await self.summary(mid, player.id) | {"joined_seq": seq}

    async def leave(self, player: Player, mid: str) -> MatchPayload:
        """Before the start: give up the seat. After: leave for good, forfeiting the rest."""
        m = await self.book.load(mid)
        if m.meta["state"] == "running" and player.id in m.players:
            await self._change(mid, player.id, None)
        else:
            await self.seats.give_up(player, mid)
        return await self.summary(mid, player.id)

    async def start(self, player: Player, mid: str) -> MatchPayload:
        await self.seats.start(player, mid)
        return await self.summary(mid, player.id)

    # ----- play ------------------------------------------------------------------------

    async def move(self, player: Player, mid: str, move: str | dict[str, Any]) -> MatchPayload:
        """A player's placement, stored and announced before this returns."""
        await self._change(mid, player.id, move)
        return await self.summary(mid, player.id)

    async def _place(self, m: Match, pid: str, mv: engine.Move | None, by: str) -> bool:
        """``pid``'s placement (``None``: they leave), by the player or the timer, in the
        match's form; ``False`` if the match changed meanwhile."""
        if m.kind == TURNS:
            return await self.turns.play(m, m.order.index(pid), mv, by)
        return await self.rounds.play(m, pid, mv, by)

    async def _change(self, mid: str, pid: str, move: str | dict[str, Any] | None) -> None:
        """Place ``move`` for ``pid``, or (``None``) take them out of the match for good; tried
        again on a fresh read when another node changed the match meanwhile."""
        async with self.book.lock(mid):
            for _ in range(3):
                m = await self.book.load(mid)
                if pid not in m.players:
                    raise ApiError("match.not_player", MESSAGES["match.not_player"])
                if move is None and (not m.running or m.left(pid)):
                    return  # over, or gone already: nothing to leave
                if not m.running:
                    raise ApiError("match.not_running", MESSAGES["match.not_running"])
                if m.left(pid):
                    raise ApiError("match.left", MESSAGES["match.left"])
                mv = parse(m.rules, move) if move is not None else None
                if await self._place(m, pid, mv, pid):
                    return
                self.book.forget(mid)
            raise ApiError("conflict", "the match kept changing; try again")

    # ----- the turn timer and presence -------------------------------------------------

    async def timeout(self, mid: str) -> None:
        """The timer's placement for everyone the match still waits for, if it is due."""
        async with self.book.lock(mid):
            m = await self.book.load(mid)
            now = await self.book.now()
            due = self.timers.due_at(m, now)
            if due is None or due > now:
                await self.timers.schedule(m)
                return
            for pid in m.awaited():
                if m.kind == TURNS:
                    assert m.state is not None
                    mv = m.turns_form.timer_move(m.state)
                else:
                    m = await self.book.load(mid)
                    if pid not in m.awaited():
                        continue
                    mv = m.called_form.timer_move(m.grids[pid])
                await self._place(m, pid, mv, "timer")

    async def run_timers(self, stop: asyncio.Event) -> None:
        await self.timers.run(stop, self.timeout)

    async def present(self, mid: str, pid: str, delta: int, ledger: bool = True) -> None:
        await self.presence.present(mid, pid, delta, ledger)

    async def beat(self, stop: asyncio.Event) -> None:
        await self.presence.beat(stop)

    async def leave_nodes(self) -> None:
        await self.presence.leave_nodes()

    # ----- the end ---------------------------------------------------------------------

    async def follow_up(self, mid: str) -> followups.Outcome:
        """A match's due follow-up: a start left half-done by a node that died (a full
        match not started yet, or a running one's timer never set), then its end."""
        with contextlib.suppress(ApiError):  # gone: the ending says so
            self.book.forget(mid)
            m = await self.book.load(mid)
            if full(m):
                await self.seats.begin(mid)
            elif m.running:
                await self.seats.after_start(m)
        return await self.ending.follow_up(mid)

    async def finish(self, mid: str) -> MatchResults | None:
        return await self.ending.finish(mid)
