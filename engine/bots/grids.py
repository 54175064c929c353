"""Grids: where to place the card turned (a hand in each row and column, a pin), which gap
to fill, which row to slide; each grid's shape from its group's ``rows``."""

from __future__ import annotations

from typing import Any

from .cards import Piles, rank
from .layout import Layout, letters


def placement_score(view: dict[str, Any], dst: str, card: str, layout: Layout) -> float:
    piles: Piles = view["piles"]
    if not card:
        return 20  # a blind fill (a card placed face down): neutral
    kd = letters(dst)
    if kd == "p":  # a pin: an empty one close to where the rank belongs
        if piles[dst]["up"]:
            return 10
        pin = int(dst[1:])
        return 100 - abs(pin - (1 + (rank(card) - 1) * 9 / 12)) * 5
    if kd == "b" or kd == "w":
        return 1  # a discard or a ball: only when nothing fits
    if kd != "g":
        return 0
    row, col = layout.where(dst, piles)
    score = 5.0
    cells = [(r, c, name) for r, line in enumerate(layout.rows(dst, piles))
             for c, name in enumerate(line)]
    for r, c, name in cells:
        if (r == row) == (c == col) or name not in piles or not piles[name]["up"]:
            continue
        other = piles[name]["up"][-1]
        if rank(other) == rank(card):
            score += 6
        if r == row and other[1] == card[1]:
            score += 2
        if c == col and abs(rank(other) - rank(card)) <= 2:
            score += 1
    return score


def gap_score(piles: Piles, src: str, dst: str, layout: Layout) -> float:
    """Extend a row's run from its Two; never break one; keep gaps away from Kings."""
    rows = layout.rows(src, piles)
    (ir, ic), (jr, jc) = layout.where(src, piles), layout.where(dst, piles)

    def run_length(row: int) -> int:
        length, suit = 0, None
        for k, name in enumerate(rows[row]):
            cell = piles[name]["up"]
            if not cell or rank(cell[-1]) != k + 2 or (suit and cell[-1][1] != suit):
                break
            suit = cell[-1][1]
            length = k + 1
        return length

    score = 0.0
    if jc == run_length(jr):
        score += 500
    if ic < run_length(ir):
        score -= 800
    left = piles[rows[ir][ic - 1]]["up"] if ic else []
    if left and rank(left[-1]) == 13:
        score -= 50
    return score


def shift_score(piles: Piles, row_name: str, direction: str, layout: Layout) -> float:
    """Slide a row where vertical threes (or at least pairs) of a rank line up afterwards."""
    first = min((n for n in piles if letters(n) == "g"), key=lambda n: int(n[1:]), default="g1")
    lines = layout.rows(first, piles)
    width = max((len(line) for line in lines), default=1)
    row = int(row_name[1:]) - 1
    grid = [piles[n]["up"][-1] if piles[n]["up"] else "" for line in lines for n in line]
    line = grid[row * width:(row + 1) * width]
    line = (["", *line[:-1]]) if direction == "right" else ([*line[1:], ""])
    grid[row * width:(row + 1) * width] = line
    rows = len(grid) // width
    score = 0.0
    for c in range(width):
        col = [grid[r * width + c] for r in range(rows)]
        for r in range(rows - 1):
            if col[r] and col[r + 1] and col[r][0] == col[r + 1][0]:
                score += 30
                if r + 2 < rows and col[r + 2] and col[r + 2][0] == col[r][0]:
                    score += 1000
    return score
