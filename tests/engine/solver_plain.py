"""A plain exhaustive search to hold the solver to: every legal move, no safe moves, no
pruning, no ordering, no symmetry; a position is its exact piles, face-down counts and vars.

The one thing it shares with the solver is leaving out an endless stock's pass number (it
only counts: without that, turning the stock would make new positions for ever)."""

from __future__ import annotations

import math
import time

import engine
from engine.core import PLAYING, WON


def exact_key(st: engine.State) -> object:
    stock = st.rules.stock
    vars = dict(st.vars)
    if stock is not None and stock.passes == 0:
        vars.pop("pass", None)
    return (tuple(map(tuple, st.piles)), tuple(st.down), tuple(sorted(vars.items())))


def plain_search(st: engine.State, cap: int, seconds: float = math.inf) -> bool | None:
    """Whether a win is reachable from ``st`` (left unchanged); ``None`` past ``cap``
    positions or ``seconds``. Tests leave the seconds out: ended by its cap alone, the
    answer never depends on how busy the machine is."""
    deadline = time.perf_counter() + seconds
    st = st.copy()
    seen = {exact_key(st)}
    stack = [list(st.legal_moves())]
    if st.status == WON:
        return True
    while stack:
        moves = stack[-1]
        if not moves:
            stack.pop()
            if stack:
                st.pop()
            continue
        st.push(moves.pop())
        k = exact_key(st)
        if k in seen:
            st.pop()
            continue
        seen.add(k)
        if len(seen) > cap or time.perf_counter() > deadline:
            return None
        legal = st.legal_moves()
        if st.status == WON:
            return True
        if st.status != PLAYING:
            st.pop()
            continue
        stack.append(legal)
    return False
