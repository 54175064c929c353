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

    # Each place with a card: its name, rank, its bit in the covering or the reserve mask, and
    # the places covering it as a mask (it is free once they are all removed).
    places = [(group.names[k], pyr[k], 1 << k, 0, sum(1 << q for q in cover[k] if pyr[q]))
              for k in range(size) if pyr[k]]
    places += [(reserve[i], r, 0, 1 << i, 0) for i, r in enumerate(res) if r]
    # A removal: the piles it takes from, its bits in the two masks, whether it takes the
    # first waste's card and the second's top card.
    Removal = tuple[list[str], int, int, bool, bool]
    Free = list[tuple[str, int, int, int, list[Removal]]]

    #: The free cards of the covering group and the reserve, by the two masks, each with the
    #: removals it makes alone or with a later one of them: the same for every waste.
    free_by_masks: dict[tuple[int, int], Free] = {}

    def free_cards(pm: int, rm: int) -> Free:
        free = free_by_masks.get((pm, rm))
        if free is not None:
            return free
        cards = [(name, r, pb, rb) for name, r, pb, rb, over in places
                 if not (pm & pb or rm & rb) and pm & over == over]
        free = []
        for i, (name, r, pb, rb) in enumerate(cards):
            own: list[Removal] = [([name], pb, rb, False, False)] if r == 13 else []
            own += [([name, other], pb | ob, rb | orb, False, False)
                    for other, o, ob, orb in cards[i + 1:] if r + o == 13]
            free.append((name, r, pb, rb, own))
        free_by_masks[pm, rm] = free
        return free

    #: ``pairs`` by the cards in sight, the same whatever the stock's order and place: the
    #: searches of every sample ask them again and again.
    known: dict[tuple[int, int, int, int], list[Removal]] = {}

    def pairs(st: PState) -> list[Removal]:
        """The removals in sight, lone Kings and pairs to 13, in the order of the cards: the
        covering group's, the reserve's, then the wastes'."""
        pm, rm, _, c1, c2 = st
        top2 = c2[-1] if c2 else 0
        sight = (pm, rm, c1, top2)
        out = known.get(sight)
        if out is not None:
            return out
        out = []
        for name, r, pb, rb, own in free_cards(pm, rm):
            out += own
            if c1 and r + c1 == 13:
                out.append(([name, "w1"], pb, rb, True, False))
            if top2 and r + top2 == 13:
                out.append(([name, "w2"], pb, rb, False, True))
        if c1 == 13:
            out.append((["w1"], 0, 0, True, False))
        if c1 and top2 and c1 + top2 == 13:
            out.append((["w1", "w2"], 0, 0, True, True))
        if top2 == 13:
            out.append((["w2"], 0, 0, False, True))
        known[sight] = out
        return out

    def remove(st: PState, removal: Removal) -> PState:
        pm, rm, i, c1, c2 = st
        _, pb, rb, first, second = removal
        return pm | pb, rm | rb, i, 0 if first else c1, c2[:-1] if second else c2

    total = sum(1 for r in pyr if r) + sum(1 for r in res if r)

    def cleared(st: PState) -> int:
        return st[0].bit_count() + st[1].bit_count()

    start: PState = (0, 0, 0, w1[-1] if w1 else 0, tuple(w2))
    order = {n: i for i, n in enumerate(piles)}
    cands: dict[str, PState | None] = {}
    for removal in pairs(start):
        names = removal[0]
        text = "+".join(sorted(names, key=order.__getitem__))
        text = text if len(names) > 1 else text + "+"
        if text in legal:
            cands[text] = remove(start, removal)
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
        pm, rm, i, c1, c2 = st
        best = pm.bit_count() + rm.bit_count()
        budget[0] -= 1
        if best < total and budget[0] > 0:
            # ``remove`` and ``flip`` written out: this is most of a bot's move in Pyramid.
            for _, pb, rb, first, second in pairs(st):
                got = most((pm | pb, rm | rb, i, 0 if first else c1, c2[:-1] if second else c2))
                if got > best:
                    best = got
                    if best == total:
                        break
            if best < total and i < len(stock):
                got = most((pm, rm, i + 1, stock[i], (*c2, c1) if c1 else c2))
                if got > best:
                    best = got
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
