"""Columns with a stock and one waste pile: a plan a few moves ahead over the cards in sight
and the stock's order once it has gone round."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import RANKS, SUITS, rank, red
from .layout import Layout


def stock_and_waste(layout: Layout) -> bool:
    """Columns built from a stock turned onto one waste pile, with four foundations (one a
    suit) and nothing else to hold cards (no reserve, no cells): the column planner's layout."""
    counts = layout.counts()
    return (layout.play == "build" and counts["stock"] == 1 and counts["waste"] == 1
            and counts["foundation"] == 4 and counts["tableau"] >= 1
            and set(counts) == {"tableau", "foundation", "stock", "waste"})


HIDDEN = "??"  # a column card turned up during a plan: unknown, so nothing moves it or onto it

Cols = tuple[tuple[int, tuple[str, ...]], ...]
KState = tuple[Cols, tuple[int, ...], tuple[str, ...], int]  # columns, foundations, cycle, waste


#: Per card (either case) its rank and colour as one number, and the number of the cards it
#: may lie on (a rank higher, the other colour): whether a card builds on another is one
#: comparison, asked millions of times a game. An unknown card lies on nothing and takes
#: nothing.
_KIND = {r + s: 2 * rank(r + s) + red(r + s)
         for r in RANKS + RANKS.lower() for s in SUITS + SUITS.upper()}
_ON = {c: 2 * (k // 2 + 1) + 1 - k % 2 for c, k in _KIND.items()}
#: Per card its foundation (by suit) and rank.
_HOME = {c: (SUITS.index(c[1].lower()), rank(c)) for c in _KIND}
_KIND[HIDDEN], _ON[HIDDEN] = -1, -2


def column_value(state: KState) -> float:
    """What a position is worth: face-down cards dominate (the deepest columns first), then
    foundation cards, then cards gone from the stock and empty columns."""
    cols, found, cycle, _ = state
    return (-1000 * sum(d for d, _ in cols) - 10 * sum(d * d for d, _ in cols)
            + 60 * sum(found) - len(cycle) + 20 * sum(1 for d, up in cols if not d and not up))


class ColumnPlanner:
    """A bounded depth-first search over what the player knows: the columns' face-up cards, the
    foundations and, once the stock has gone round, the whole stock in its order (the waste and
    the stock keep one cyclic order: turning over and drawing never change it). A waste card
    deeper in the cycle is one macro move: draw until it is on top, then play it. It plans as
    if columns build down in alternating colours, only Kings fill a space and foundations
    build up in suit; only a planned move that is legal is played."""

    def __init__(self, draw: int, redeal: bool, known: bool, budget: int = 2500,
                 depth: int = 5) -> None:
        self.draw, self.redeal, self.known = draw, redeal, known
        self.budget, self.depth = budget, depth
        self.open = False  # every column card face up

    def reachable(self, cycle: tuple[str, ...], pos: int) -> list[tuple[int, int]]:
        """(waste size, presses of the stock) for every waste top the stock can bring up."""
        out = [(pos, 0)] if pos else []
        if not self.known:
            return out
        seen, p, presses, n = {pos}, pos, 0, len(cycle)
        while True:
            if p == n:
                if not self.redeal or not n:
                    break
                p = 0
            else:
                p = min(p + self.draw, n)
            presses += 1
            if p in seen:
                break
            seen.add(p)
            if p:
                out.append((p, presses))
        return out

    def moves(self, state: KState) -> Iterable[tuple[tuple[str, str, int, int], KState, float]]:
        """(move: source, target, count, presses; the position after it; its cost)."""
        cols, found, cycle, pos = state

        def fits_found(card: str) -> int:
            home = _HOME.get(card)  # (none for an unknown card)
            if home is None:
                return -1
            return home[0] if found[home[0]] + 1 == home[1] else -1

        def with_found(s: int) -> tuple[int, ...]:
            return (*found[:s], found[s] + 1, *found[s + 1:])

        def safe(card: str) -> bool:
            if self.open:
                return True  # nothing is face down any more: no builder is needed
            r = rank(card)
            other = [found[i] for i in range(4) if (SUITS[i] in "dh") != red(card)]
            return r <= 2 or min(other) >= r - 1

        def set_col(cs: Cols, i: int, down: int, up: tuple[str, ...]) -> Cols:
            if not up and down:
                down, up = down - 1, (HIDDEN,)
            return (*cs[:i], (down, up), *cs[i + 1:])

        # column tops to the foundations
        for i, (down, up) in enumerate(cols):
            if up and (s := fits_found(up[-1])) >= 0:
                after = (set_col(cols, i, down, up[:-1]), with_found(s), cycle, pos)
                yield (f"t{i + 1}", "f", 1, 0), after, 0 if safe(up[-1]) else 70
        tops = [_KIND[up[-1]] if up else None for _, up in cols]  # a card lies on its _ON
        # waste cards, on top or deeper in the cycle
        for p, presses in self.reachable(cycle, pos):
            card = cycle[p - 1]
            rest, cost = (*cycle[:p - 1], *cycle[p:]), 0.5 * presses
            if (s := fits_found(card)) >= 0:
                yield ("w", "f", 1, presses), (cols, with_found(s), rest, p - 1), cost + (
                    0 if safe(card) else 70)
            for j, (down, up) in enumerate(cols):
                if _ON[card] == tops[j] or (not up and not down and rank(card) == 13):
                    after = (set_col(cols, j, down, (*up, card)), found, rest, p - 1)
                    yield ("w", f"t{j + 1}", 1, presses), after, cost
        # runs between columns: a whole run (to turn a card up or empty the column), or the run
        # over a card that can then go to a foundation
        for i, (down, up) in enumerate(cols):
            for k in range(len(up)):
                if up[k] == HIDDEN or (k and fits_found(up[k - 1]) < 0):
                    continue
                # a King from an empty column's bottom: pointless
                kings_only = k == 0 and not down and rank(up[0]) == 13
                on = _ON[up[k]]
                for j, (d2, up2) in enumerate(cols):
                    if j == i:
                        continue
                    if up2:
                        if on != tops[j]:
                            continue
                    elif d2 or rank(up[k]) != 13 or kings_only:
                        continue
                    cs = set_col(cols, i, down, up[:k])
                    cs = set_col(cs, j, d2, (*up2, *up[k:]))
                    yield (f"t{i + 1}", f"t{j + 1}", len(up) - k, 0), (cs, found, cycle, pos), 0

    def plan(self, state: KState) -> tuple[tuple[str, str, int, int] | None, float]:
        """The first move of the best line found and how much it gains (0: nothing better)."""
        self.open = not any(d for d, _ in state[0])
        base = column_value(state)
        best: list[Any] = [None, 0.0]
        nodes = [self.budget]
        explored: dict[KState, int] = {}

        def dfs(s: KState, depth: int, cost: float, first: tuple[str, str, int, int]) -> None:
            gain = column_value(s) - base - cost
            if gain > best[1] + 1e-9:
                best[0], best[1] = first, gain
            if depth == 0 or nodes[0] <= 0 or explored.get(s, -1) >= depth:
                return
            explored[s] = depth
            nodes[0] -= 1
            for _, after, c in self.moves(s):
                dfs(after, depth - 1, cost + c, first)

        children = list(self.moves(state))
        for depth in range(1, self.depth + 1):  # deepening: the short lines are all seen
            explored.clear()
            for move, after, c in children:
                dfs(after, depth - 1, c, move)
            if nodes[0] <= 0:
                break
        return best[0], best[1]
