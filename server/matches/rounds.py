"""The called-card rounds: every player has their own grid, the same card is called to all,
and the next one is called once everyone still placing has placed this one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import msgpack

import engine
from engine.cards import TEXT

from .. import store
from ..errors import ApiError
from ..store import script_replies, scripts
from .record import Match, refused
from .turns import refuse

if TYPE_CHECKING:
    from .book import Book


def replay(m: Match, moves: dict[str, list[bytes]]) -> None:
    """Rebuild each player's grid from their own move list (``<server ms> <move>``)."""
    for p, entries in moves.items():
        m.grids[p] = st = m.rules.deal(m.seed, competitive=True)
        for entry in entries:
            st.push(engine.parse_move(m.rules, entry.decode().partition(" ")[2]))


class Rounds:
    def __init__(self, book: Book, finish: Callable[[str], Awaitable[object]],
                 schedule: Callable[[Match], Awaitable[None]]) -> None:
        self.book = book
        self.finish = finish  # the match's end, once the last card is placed
        self.schedule = schedule  # the turn timer, after any other placement
        self._place = script_replies.bind(book.redis, scripts.MATCH_PLACE, script_replies.Placed.of,
                                          book.settings.move_wait)

    async def play(self, m: Match, pid: str, mv: engine.Move | None, by: str) -> bool:
        """A called-card player's placement (``None``: they leave); ``False`` if the round
        changed meanwhile."""
        st = m.grids[pid]
        rules = m.rules
        rnd = m.meta["round"]
        event: dict[str, Any]
        if mv is not None:
            if pid in m.meta["full"]:
                raise ApiError("match.done", "your grid is full: the match ends when every "
                               "grid is")
            if pid not in m.awaited():
                left = len(m.awaited())
                raise ApiError("match.wait", f"you have placed this card: wait for the next "
                               f"one ({left} player{'s' if left != 1 else ''} still to place)")
            if by != "timer":
                refuse(st, mv, None)
            st.push(mv)
            score, info = m.called_form.scored(st)
            event = {
                "type": "match.placed", "match": m.id, "player": pid, "round": rnd,
                "by": "timer" if by == "timer" else "player", "score": score,
                "lines": info["lines"], "done": m.called_form.finished(st)}
        else:
            event = {"type": "match.forfeit", "match": m.id, "player": pid}
        now = await self.book.now()
        deadline = now + m.meta["turn_time"] * 1000
        nxt = {"type": "match.card", "match": m.id, "round": rnd + 1,
               "card": TEXT[m.calls[rnd + 1]], "deadline": deadline}
        mk, _, ek = store.match_keys(m.id)
        window, chan = self.book.emit_args(m.id)
        full = mv is not None and m.called_form.finished(st)
        if full or mv is None:  # the match ends in the round where the last grid fills
            await self.book.expected.soon(store.follow_up("match", m.id))
        placed = await self._place(
            keys=[mk, store.match_moves(m.id, pid), ek], args=[
                "place" if mv is not None else "forfeit", pid, rnd,
                engine.move_text(rules, mv) if mv is not None else "", msgpack.packb(event),
                msgpack.packb(nxt), int(full), window, chan, now, deadline])
        if mv is not None:
            st.pop()  # the cache is dropped below either way; keep the state as it was
        self.book.forget(m.id)
        if not placed.ok:
            if placed.why == "conflict":
                return False
            raise refused(placed.why)
        if placed.last:
            await self.finish(m.id)
        else:
            await self.schedule(await self.book.load(m.id))
        return True
