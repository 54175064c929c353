"""Columns discarding one rank up or down onto a single pile: the longest chain of plays,
and each play tried against stock orders sampled from the unseen cards."""

from __future__ import annotations

import random
import zlib
from collections import Counter
from typing import Any

from .cards import Piles, parse, rank
from .layout import Layout, letters


def one_discard(layout: Layout) -> bool:
    """Columns discarding onto one pile, with a stock and nothing else: where a chain of
    discards may run one rank up or down (``GreedyBot.by_one`` checks it as the game goes)."""
    counts = layout.counts()
    return (layout.play == "build" and counts["foundation"] == 1 and counts["stock"] == 1
            and set(counts) == {"tableau", "foundation", "stock"})


def chain_scores(view: dict[str, Any], legal: list[str], kings_close: bool = False
                 ) -> dict[str, float]:
    """Play the column card that starts the longest chain of plays from the columns; among
    equal chains, the one from the longest column. The stock only when no card fits."""
    piles: Piles = view["piles"]
    names = sorted((n for n in piles if letters(n) == "t"), key=lambda n: int(n[1:]))
    cols = [list(piles[n]["up"]) for n in names]
    budget = [20000]

    def fits(card: int, top: int) -> bool:
        return abs(card - top) == 1 and not (kings_close and top == 13)

    seen = Counter(rank(c) for name in piles if letters(name) in "tf"
                   for c in piles[name]["up"])
    unseen = {r: 4 - seen[r] for r in range(1, 14)}

    def chain(heights: tuple[int, ...], top: int) -> float:
        """The longest chain of column plays onto ``top`` (x100), then how many unseen
        cards would continue from where it ends (the stock's chances)."""
        budget[0] -= 1
        best = float(sum(unseen.get(r, 0) for r in (top - 1, top + 1) if fits(r, top)))
        if budget[0] <= 0:
            return best
        for c, h in enumerate(heights):
            if h and fits(rank(cols[c][h - 1]), top):
                hs = (*heights[:c], h - 1, *heights[c + 1:])
                best = max(best, 100 + chain(hs, rank(cols[c][h - 1])))
        return best

    out: dict[str, float] = {}
    heights = tuple(len(c) for c in cols)
    for move in legal:
        kind, ps, _ = parse(move)
        if kind != "move" or letters(ps[0]) != "t":
            continue
        c = names.index(ps[0])
        card = rank(cols[c][-1])
        hs = (*heights[:c], heights[c] - 1, *heights[c + 1:])
        out[move] = 1000 + chain(hs, card) + heights[c]
    return out


CHAIN_SAMPLES = 6  # stock orders drawn from the unseen cards
CHAIN_BUDGET = 400  # positions searched per sample


def chain_sampled(view: dict[str, Any], legal: list[str], kings_close: bool = False
                  ) -> dict[str, float]:
    """When more than one column card fits, play the one that clears the most cards on
    average over stock orders drawn (with a fixed seed) from the cards not in sight, each
    solved as if that order were known: the whole tableau is face up, only the stock is not."""
    piles: Piles = view["piles"]
    plays = [m for m in legal if parse(m)[0] == "move" and letters(parse(m)[1][0]) == "t"]
    if len(plays) < 2:
        return {}
    names = sorted((n for n in piles if letters(n) == "t"), key=lambda n: int(n[1:]))
    cols = [tuple(rank(c) for c in piles[n]["up"]) for n in names]
    seen = Counter(rank(c) for n in piles if letters(n) in "tf" for c in piles[n]["up"])
    unseen = [r for r in range(1, 14) for _ in range(4 - seen[r])]
    rng = random.Random(zlib.crc32(repr(sorted(piles.items())).encode()))

    def fits(card: int, top: int) -> bool:
        return not top or (abs(card - top) == 1 and not (kings_close and top == 13))

    stock: list[int] = []
    memo: dict[tuple[tuple[int, ...], int, int], int] = {}
    budget = [CHAIN_BUDGET]

    def left(hs: tuple[int, ...], top: int, i: int) -> int:
        """The fewest column cards the sampled stock order can leave."""
        key = (hs, top, i)
        if key in memo:
            return memo[key]
        best = sum(hs)
        budget[0] -= 1
        if best and budget[0] > 0:
            for c, h in enumerate(hs):
                if h and fits(cols[c][h - 1], top):
                    best = min(best, left((*hs[:c], h - 1, *hs[c + 1:]), cols[c][h - 1], i))
                    if not best:
                        break
            if best and i < len(stock):
                best = min(best, left(hs, stock[i], i + 1))
        memo[key] = best
        return best

    out = {m: 0.0 for m in plays}
    for _ in range(CHAIN_SAMPLES):
        rng.shuffle(unseen)
        stock[:] = unseen
        memo.clear()
        heights = tuple(len(c) for c in cols)
        for m in plays:
            c = names.index(parse(m)[1][0])
            hs = (*heights[:c], heights[c] - 1, *heights[c + 1:])
            budget[0] = CHAIN_BUDGET  # each play gets the same search
            rest = left(hs, cols[c][-1], 0)
            out[m] -= rest + (0 if rest else -5)  # a win counts extra
    return {m: 1000 + v for m, v in out.items()}
