"""Best-first search: the most advanced position met so far is expanded next.

The depth-first search (``search.py``) wins most deals in a few thousand positions, but
when its first choices were wrong it can spend any budget under them. This search looks
at every open position at once and expands the one with the most cards on the
foundations and the fewest face down or blocked (``promise``), the newest first among
equals, so a wrong early choice costs only the positions under it that look promising.

It tries the same moves (``moves.Chooser``) and keys positions the same way
(``position.key_maker``), so it is as sound: every position it meets is kept in the table,
and when none is left open every reachable position was searched. Narrowed
(``narrow=True``) it tries fewer moves, finds most wins much sooner, and proves nothing
when it runs dry, unless it had no move to leave out. The winning line is read
back through each position's parent. A position waiting in the queue is kept as a few
bytes (``pack``) and made a ``State`` again when expanded (``unpack``).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..cards import RANK, SUIT, card
from ..core import PLAYING, STOCK, WON, Move, State
from ..options import Direction, SuitRule, Unit
from ..rules import FOUNDATION, RESERVE, TABLEAU, RuleSet
from .moves import Chooser
from .position import SEP, key_maker
from .verdict import Outcome, Verdict

#: Pile kinds played from the top only, where a card lying on one of lower rank has to
#: move before that one can go home: such a card counts as blocked in ``promise``.
BLOCKING_KINDS = (TABLEAU, RESERVE)
#: What each card lying on the card its suit's foundation needs next costs in ``promise``.
BURIED = 2
#: No card is needed next where ``promise`` does not count what lies on it.
NONE_NEEDED = (-1, -1, -1, -1)


def promise(rules: RuleSet) -> Callable[[State], int]:
    """How far along a position is: three per card on a foundation, less one per card face
    down and one per card **blocked** (lying above a card of lower rank in a pile of
    ``BLOCKING_KINDS``: one the foundations take later). Declared by pile kind, by the deal
    and by the foundations' building rule; where they wrap from King to Ace, ranks count from
    their base once it is known (Shamrocks easy: 16 of 20 deals decided within 10 s with ranks
    from the Ace, 19 from the base).

    Why: in an open game the blocked cards are what guides the search (best first won 20 of
    20 Eight Off deals in 17,000 positions in all with them, 15 in 180,000 without). Where
    cards lie face down the face-down count guides it, and blocked cards count only in
    piles whose cards leave one at a time (``Unit.TOP``: Baker's Dozen, where a blocked card
    has to move before the card under it): counting them in Klondike's columns, whose runs
    move whole, lost wins the face-down count alone found in a second. There, where the
    foundations build up in suit (from the Ace, or from a base once it is known), each card
    lying on the card its suit needs next costs ``BURIED`` more (Baker's Dozen: 11 and 11
    deals of 20 won within 10 s without it, 13 and 15 with it); in an open game that cost
    Fortress 4 of its 20.
    """
    founds = tuple(rules.by_kind.get(FOUNDATION, ()))
    dealt_down = any(g.down for g in rules.groups)
    blocking = tuple(p for p, g in enumerate(rules.pile_group) if g.kind in BLOCKING_KINDS
                     and (not dealt_down or g.unit == Unit.TOP))
    build = rules.pile_group[founds[0]].build if founds else None
    needs = (dealt_down and bool(blocking) and build is not None
             and build.direction == Direction.UP and build.suit == SuitRule.SAME
             and (build.wrap or rules.base == 1))
    wraps = build is not None and build.wrap

    def score(st: State) -> int:
        piles = st.piles
        # Ranks as the foundations take them: from their base, where it may be any rank.
        base = st.vars.get("base", 0) if wraps else 1
        shift = 14 - base if wraps and base else 0
        needed: list[int] | tuple[int, ...] = NONE_NEEDED  # by suit: its foundation's next card
        if needs and base:
            needed = [card(base, suit) for suit in range(4)]
            for f in founds:
                pile = piles[f]
                if pile:
                    top = pile[-1]
                    nxt = -1 if len(pile) == 13 else card(RANK[top] % 13 + 1, SUIT[top])
                    needed[SUIT[top]] = nxt
        blocked = buried = 0
        for p in blocking:
            pile = piles[p]
            low = 14
            for i, c in enumerate(pile):
                r = (RANK[c] + shift - 1) % 13 + 1
                if r > low:
                    blocked += 1
                elif r < low:
                    low = r
                if needed[SUIT[c]] == c:
                    buried += len(pile) - 1 - i
        return (3 * sum(len(piles[f]) for f in founds) - sum(st.down) - blocked
                - BURIED * buried)

    return score


#: A position waiting to be expanded: its piles' cards, between two piles the key's
#: separator (no card is ``SEP``); its face-down counts; its vars.
Packed = tuple[bytes, bytes, tuple[tuple[str, int], ...]]
END = bytes((SEP,))


def pack(st: State) -> Packed:
    """A position in about a hundred bytes, for the queue. Made and read back with the bytes'
    own join and split, it costs about a third of a ``State.snapshot`` and its restore,
    which also carry what one rule set's search never needs (its id, the seed, the move
    count)."""
    return END.join(map(bytes, st.piles)), bytes(st.down), tuple(st.vars.items())


def unpack(start: State, packed: Packed) -> State:
    """The position ``pack`` kept, as a ``State`` of ``start``'s rule set and deal, with
    no history."""
    cards, down, vars = packed
    return State(start.rules, start.seed, [list(p) for p in cards.split(END)], list(down),
                 dict(vars), start.competitive)


def read_line(parents: Mapping[object, tuple[object, Any] | None], k: object,
              decode: Callable[[Any], Move] | None = None) -> tuple[Move, ...]:
    """The moves from the start to the position keyed ``k``, read back through ``parents``
    (each position's parent's key and the move from there; ``None`` at the start), each
    made a ``Move`` by ``decode`` where the search keeps its moves otherwise (a board's)."""
    out: list[Move] = []
    step = parents[k]
    while step is not None:
        k, m = step
        out.append(m if decode is None else decode(m))
        step = parents[k]
    return tuple(reversed(out))


def best_first(start: State, cap: int | None, deadline: float | None,
               progress: Callable[[int], None] | None = None,
               next_report: float | None = None, narrow: bool = False) -> Verdict:
    """Search from ``start`` (left unchanged) until a win, a proof of loss, ``cap``
    positions or the ``deadline`` (``time.perf_counter``); ``progress(positions)`` is
    called about once a second, first at ``next_report``. ``narrow``: try only the moves
    of ``Chooser(narrow=True)``; such a search answers won or unknown, and lost only when
    it had no move to leave out."""
    t0 = time.perf_counter()
    next_report = t0 + 1.0 if next_report is None else next_report
    rules = start.rules
    chooser = Chooser(rules, narrow=narrow, start=start)
    key = key_maker(rules)
    talon = bool(chooser.talon)
    score = promise(rules)
    parents: dict[object, tuple[object, Move] | None] = {}
    st = start.copy()
    root = key(st)
    parents[root] = None

    def verdict(outcome: Outcome, moves: tuple[Move, ...] = (), complete: bool = False) -> Verdict:
        return Verdict(outcome, moves, len(parents), time.perf_counter() - t0, None, complete)

    made = 0
    frontier: list[tuple[int, int, Packed, object, bool]] = [(0, 0, pack(st), root, False)]
    while frontier:
        if cap is not None and len(parents) >= cap:
            return verdict(Outcome.UNKNOWN)
        _, _, packed, here, dealt = heapq.heappop(frontier)
        st = unpack(start, packed)
        quick = chooser.legal_after_deal(st) if dealt else None
        legal = quick if quick is not None else st.legal_moves()  # with the status
        if quick is None and st.status != PLAYING:
            if st.status == WON:  # judged when expanded: one position's status, not each child's
                return verdict(Outcome.WON, read_line(parents, here))
            continue
        for m in chooser.moves(st, legal, dealt):
            st.push(m)
            by_deal = talon and m.kind == STOCK
            k: object = (key(st), True) if by_deal else key(st)
            if k not in parents:
                parents[k] = (here, m)
                made += 1
                heapq.heappush(frontier, (-score(st), -made, pack(st), k, by_deal))
                if cap is not None and len(parents) >= cap:
                    return verdict(Outcome.UNKNOWN)
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    return verdict(Outcome.UNKNOWN)
                if progress is not None and now >= next_report:
                    next_report = now + 1.0
                    progress(len(parents))
            st.pop()
    if chooser.dropped:  # a narrowed search left moves out: it proves nothing
        return verdict(Outcome.UNKNOWN)
    return verdict(Outcome.LOST, complete=True)
