"""Piles covering piles, cards removed together: the best run of removals in sight, and
each removal tried against stock orders sampled from the unseen cards. The covering comes
from the description's ``covered_by``."""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .cards import Piles, rank
from .layout import Layout, letters


class Covering:
    """The covering group as the searches index it: its piles top row first, each one's row,
    and the positions of the piles lying over each (``covered_by``)."""

    def __init__(self, layout: Layout) -> None:
        rows = layout.covering_group()
        self.names = [name for row in rows for name in row]
        self.index = {name: k for k, name in enumerate(self.names)}
        self.rows = len(rows)
        self.row = [r for r, row in enumerate(rows) for _ in row]
        self.cover = [tuple(self.index[q] for q in layout.covered_by.get(name, ())
                            if q in self.index) for name in self.names]


def cover_scores(view: dict[str, Any], legal: list[str], layout: Layout) -> dict[str, float]:
    """Search the removals possible without the stock (every card there is in sight) and
    play the first of the line that clears the most covering and reserve cards, the higher
    rows counting a little more; waste-only pairs when nothing else; the stock last."""
    piles: Piles = view["piles"]
    group = Covering(layout)
    if any(name not in piles for name in group.names):
        return {}
    size, cover = len(group.names), group.cover
    pyr = [piles[name]["up"][-1] if piles[name]["up"] else "" for name in group.names]
    reserve = sorted((n for n in piles if letters(n) == "r"), key=lambda n: int(n[1:]))
    res = [piles[n]["up"][-1] if piles[n]["up"] else "" for n in reserve]
    w1 = list(piles.get("w1", {"up": []})["up"])
    w2 = list(piles.get("w2", {"up": []})["up"])
    budget = [30000]

    def cards(state: tuple[int, int, int, int]) -> list[tuple[str, str, float]]:
        """The available cards: (pile name, card, worth of clearing it)."""
        pm, rm, n1, n2 = state
        out: list[tuple[str, str, float]] = []
        for k in range(size):
            if pyr[k] and not pm >> k & 1 and all(not pyr[q] or pm >> q & 1 for q in cover[k]):
                out.append((group.names[k], pyr[k], 10.0 + (group.rows - group.row[k])))
        for i, c in enumerate(res):
            if c and not rm >> i & 1:
                out.append((reserve[i], c, 9.0))
        if n1:
            out.append(("w1", w1[n1 - 1], 0.5))
        if n2:
            out.append(("w2", w2[n2 - 1], 0.5))
        return out

    def apply(state: tuple[int, int, int, int], names: Iterable[str]) -> tuple[int, ...]:
        pm, rm, n1, n2 = state
        for name in names:
            if name == "w1":
                n1 -= 1
            elif name == "w2":
                n2 -= 1
            elif name in group.index:
                pm |= 1 << group.index[name]
            else:
                rm |= 1 << reserve.index(name)
        return pm, rm, n1, n2

    def removals(state: tuple[int, int, int, int]) -> list[tuple[list[str], float]]:
        avail = cards(state)
        out = []
        for i, (a, ca, wa) in enumerate(avail):
            if rank(ca) == 13:
                out.append(([a], wa))
            for b, cb, wb in avail[i + 1:]:
                if rank(ca) + rank(cb) == 13:
                    out.append(([a, b], wa + wb))
        return out

    memo: dict[tuple[int, ...], float] = {}

    def best(state: tuple[int, int, int, int]) -> float:
        if state in memo:
            return memo[state]
        budget[0] -= 1
        value = 0.0
        if budget[0] > 0:
            for names, worth in removals(state):
                value = max(value, worth + best(apply(state, names)))  # type: ignore[arg-type]
        memo[state] = value
        return value

    start = (0, 0, len(w1), len(w2))
    order = {n: i for i, n in enumerate(list(piles))}
    out: dict[str, float] = {}
    for names, worth in removals(start):
        text = "+".join(sorted(names, key=order.__getitem__))
        text = text if len(names) > 1 else text + "+"
        if text in legal:
            out[text] = 1000 + 10 * (worth + best(apply(start, names)))  # type: ignore[arg-type]
    return out


COVER_SAMPLES = 6
COVER_BUDGET = 150


def cover_sampled(view: dict[str, Any], legal: list[str], layout: Layout) -> dict[str, float]:
    """Score every removal and the stock by the cards left on average over stock orders drawn
    (with a fixed seed) from the cards not in sight, each solved as if that order were known."""
    piles: Piles = view["piles"]
    group = Covering(layout)
    if len(legal) < 2 or not group.names or any(name not in piles for name in group.names):
        return {}
    size, cover = len(group.names), group.cover
    pyr = [rank(piles[name]["up"][-1]) if piles[name]["up"] else 0 for name in group.names]
    reserve = sorted((n for n in piles if letters(n) == "r"), key=lambda n: int(n[1:]))
    res = [rank(piles[n]["up"][-1]) if piles[n]["up"] else 0 for n in reserve]
    w1 = [rank(c) for c in piles.get("w1", {"up": []})["up"]]
    w2 = [rank(c) for c in piles.get("w2", {"up": []})["up"]]
    seen = Counter(rank(c) for p in piles.values() for c in p["up"])
    unseen = [r for r in range(1, 14) for _ in range(4 - seen[r])]
    rng = random.Random(zlib.crc32(repr(sorted(piles.items())).encode()))
    PState = tuple[int, int, int, int, tuple[int, ...]]  # covering, reserve, next, w1, w2

    # Each place with a card: its bit, name, rank, and the places covering it as a mask (it is
    # free once they are all removed).
    places = [(k, group.names[k], pyr[k], sum(1 << q for q in cover[k] if pyr[q]))
              for k in range(size) if pyr[k]]

    def avail(st: PState) -> list[tuple[str, int]]:
        pm, rm, _, c1, c2 = st
        out = [(name, r) for k, name, r, over in places
               if not pm >> k & 1 and pm & over == over]
        out += [(reserve[i], c) for i, c in enumerate(res) if c and not rm >> i & 1]
        if c1:
            out.append(("w1", c1))
        if c2:
            out.append(("w2", c2[-1]))
        return out

    pile_bit = {name: 1 << k for name, k in group.index.items()}
    reserve_bit = {name: 1 << i for i, name in enumerate(reserve)}

    def remove(st: PState, names: Iterable[str]) -> PState:
        pm, rm, i, c1, c2 = st
        for name in names:
            if name == "w1":
                c1 = 0
            elif name == "w2":
                c2 = c2[:-1]
            elif name in pile_bit:
                pm |= pile_bit[name]
            else:
                rm |= reserve_bit[name]
        return pm, rm, i, c1, c2

    #: ``pairs`` by the cards in sight, the same whatever the stock's order and place: the
    #: searches of every sample ask them again and again.
    known: dict[tuple[int, int, int, int], list[list[str]]] = {}

    def pairs(st: PState) -> list[list[str]]:
        pm, rm, _, c1, c2 = st
        sight = (pm, rm, c1, c2[-1] if c2 else 0)
        out = known.get(sight)
        if out is not None:
            return out
        a = avail(st)
        at: dict[int, list[int]] = {}  # where each rank is in ``a``
        for j, (_, r) in enumerate(a):
            at.setdefault(r, []).append(j)
        out = []
        for i, (n1, r1) in enumerate(a):
            if r1 == 13:
                out.append([n1])
            for j in at.get(13 - r1, ()):
                if j > i:
                    out.append([n1, a[j][0]])
        known[sight] = out
        return out

    total = sum(1 for r in pyr if r) + sum(1 for r in res if r)

    def cleared(st: PState) -> int:
        return st[0].bit_count() + st[1].bit_count()

    start: PState = (0, 0, 0, w1[-1] if w1 else 0, tuple(w2))
    order = {n: i for i, n in enumerate(piles)}
    cands: dict[str, PState | None] = {}
    for names in pairs(start):
        text = "+".join(sorted(names, key=order.__getitem__))
        text = text if len(names) > 1 else text + "+"
        if text in legal:
            cands[text] = remove(start, names)
    if "s" in legal:
        cands["s"] = None
    stock: list[int] = []
    memo: dict[PState, int] = {}
    budget = [COVER_BUDGET]

    def flip(st: PState) -> PState | None:
        pm, rm, i, c1, c2 = st
        if i >= len(stock):
            return None
        return pm, rm, i + 1, stock[i], (*c2, c1) if c1 else c2

    def most(st: PState) -> int:
        """The most cards this stock order lets the player clear."""
        known_best = memo.get(st)
        if known_best is not None:
            return known_best
        best = cleared(st)
        budget[0] -= 1
        if best < total and budget[0] > 0:
            for names in pairs(st):
                best = max(best, most(remove(st, names)))
                if best == total:
                    break
            nxt = flip(st)
            if best < total and nxt is not None:
                best = max(best, most(nxt))
        memo[st] = best
        return best

    out = {m: 0.0 for m in cands}
    for _ in range(COVER_SAMPLES):
        rng.shuffle(unseen)
        stock[:] = unseen
        memo.clear()
        for m, st in cands.items():
            budget[0] = COVER_BUDGET
            after = flip(start) if st is None else st
            got = cleared(start) if after is None else most(after)
            out[m] += got + (5 if got == total else 0)
    return {m: 1000 + 10 * v for m, v in out.items()}
