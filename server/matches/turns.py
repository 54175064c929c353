"""The turns loop: one deal the players take turns on (Bowling), one state for the whole
match, one move list (``<server ms> <player index> <move>|forfeit``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import msgpack

import engine
from engine.core import State

from .. import store
from ..errors import ApiError
from ..store import script_replies, scripts
from ..transport import events
from . import lanes
from .record import Match, refused

if TYPE_CHECKING:
    from .book import Book

FORFEIT = "forfeit"


def replay(m: Match, entries: list[bytes], since: Match | None = None) -> None:
    """Rebuild the match's one state from its move list; from ``since`` (the same match read
    before, the list being append-only) when its state holds a beginning of the list, so
    that a node plays only the moves made since it last read the match: a node reading the
    match after each of another node's moves then pays for one move, not the whole match."""
    rules = m.rules
    old = since.state if since is not None else None
    if (since is not None and old is not None and old.ply == since.entries_ply
            and since.entries <= len(entries) and since.seed == m.seed):
        st = old.copy()
        m.state, m.bowled, m.frame_start = st, list(since.bowled), since.frame_start
        first = since.entries
    else:
        st = rules.deal(m.seed, competitive=True, players=m.meta["players"])
        m.state = st
        lanes.settle(m)
        first = 0
    for entry in entries[first:]:
        _, who, text = entry.decode().split(" ", 2)
        if text == FORFEIT:
            m.turns_form.forfeit(st, int(who))
        else:
            m.bowled.append(lanes.about_to_bowl(st, text))
            st.push(engine.parse_move(rules, text))
        lanes.settle(m)
    m.entries, m.entries_ply = len(entries), st.ply


def refuse(st: State, mv: engine.Move, player: int | None) -> None:
    """A player's own move the rules refuse (the timer's never are)."""
    why = st.refusal(mv, player)
    if why is not None:
        raise ApiError(why.code, why.message)


class Turns:
    def __init__(self, book: Book, finish: Callable[[str], Awaitable[object]],
                 schedule: Callable[[Match], Awaitable[None]]) -> None:
        self.book = book
        self.finish = finish  # the match's end, once its last move is made
        self.schedule = schedule  # the turn timer, after any other move
        self._move = script_replies.bind(book.redis, scripts.MATCH_MOVE, script_replies.Moved.of,
                                         book.settings.move_wait)

    async def play(self, m: Match, k: int, mv: engine.Move | None, by: str) -> bool:
        """Player ``k``'s card (``None``: they leave); ``False`` if the match changed
        meanwhile."""
        st = m.state
        assert st is not None
        rules = m.rules
        pid = m.order[k]
        complete = lanes.complete(st)
        bowled = None
        event: dict[str, Any]
        if mv is None:
            m.turns_form.forfeit(st, k)
            entry = f"{k} {FORFEIT}"
            event = {"type": "match.forfeit", "match": m.id, "player": pid}
        else:
            if by != "timer":
                refuse(st, mv, k)
            text = engine.move_text(rules, mv)
            bowled = lanes.about_to_bowl(st, text)
            st.push(mv)
            entry = f"{k} {text}"
            event = {"type": "match.moved", "match": m.id, "player": pid, "bowler": k + 1,
                     "move": text, "by": "timer" if by == "timer" else "player"}
        now = await self.book.now()
        deadline = now + m.meta["turn_time"] * 1000
        old, start = m.meta.copy(), m.frame_start
        if bowled is not None:
            m.bowled.append(bowled)
        lanes.settle(m)
        # A card that keeps the bowler's turn in a frame others are still to bowl is no event:
        # how many cards a frame took is the bowler's alone until it is complete. Everyone
        # else hears of the turn once, when it passes (or the match ends).
        private = (mv is not None and not st.over and lanes.complete(st) == complete
                   and st.turn == k)
        turn_deadline = lanes.turn_deadline(m) if private else deadline
        m.meta |= {"shown_at": now, "deadline": deadline, "turn_deadline": turn_deadline}
        payload = b""
        if not private:
            view, turn = lanes.public(m)
            event |= {"view": view, "turn": turn}
            if lanes.complete(st) > complete:  # a frame every player still in has bowled
                event["frames"] = lanes.frames(m, complete + 1)
            elif mv is not None and not st.over:
                # The turn passes within a frame others are still to bowl: the last pin is
                # the bowler's alone; everyone else is told only that the turn passed
                # (events.seen_by).
                event |= {"to": [pid], "others": {"move": None}}
            payload = msgpack.packb(event)
        mk, _, ek = store.match_keys(m.id)
        if st.over:  # this move ends the match
            await self.book.expected.soon(store.follow_up("match", m.id))
        moved = await self._move(keys=[mk, store.match_moves(m.id), ek], args=[
            m.rev, entry, payload, *self.book.emit_args(m.id), now, deadline,
            pid if mv is None else "", turn_deadline, events.own_step(pid)])
        if not moved.ok:
            st.pop()
            m.meta, m.frame_start = old, start
            if bowled is not None:
                m.bowled.pop()
            if moved.why == "conflict":
                return False
            raise refused(moved.why)
        m.meta["rev"], m.meta["seq"] = moved.rev, moved.seq
        m.entries, m.entries_ply = m.entries + 1, st.ply
        if private:
            m.meta["steps"] += 1
        if mv is None:
            m.meta["out"] |= {pid}
        if st.over:
            await self.finish(m.id)
        else:
            await self.schedule(m)
        return True
