"""What a bot knows of a rule set: its description (the catalog entry, ``GET /api/v1/games``,
docs/protocol.md), read into the few facts a general bot plays by. How moves are made
(``play``), how each group's piles are drawn (``rows``: a grid's width, a pin's row) and which
piles lie over which (``covered_by``). A bot never names a game: it looks at these."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any


def letters(name: str) -> str:
    """A pile name's kind letters (``t`` of ``t12``): the notation's prefixes (docs/notation.md)."""
    return name.rstrip("0123456789")


def number(name: str) -> int:
    digits = name[len(letters(name)):]
    return int(digits) if digits else 0


class Layout:
    """A rule set's description, or nothing known (``Layout()``): then every group is one row
    and a grid is guessed square, and no pile covers another."""

    def __init__(self, rules: dict[str, Any] | None = None) -> None:
        self.rules: dict[str, Any] = dict(rules or {})
        self.key = (str(self.rules.get("id", "")), str(self.rules.get("variant", "")))
        #: "build" (cards go from pile to pile) or "remove" (cards are taken off together)
        self.play = str(self.rules.get("play", "build"))
        self.groups: list[dict[str, Any]] = [g for g in self.rules.get("layout") or []
                                             if isinstance(g, dict)]
        self.kind_of: dict[str, str] = {}
        self.covered_by: dict[str, list[str]] = {}
        self._rows: dict[str, list[list[str]]] = {}
        for g in self.groups:
            piles = [str(p) for p in g.get("piles") or []]
            rows = [[str(p) for p in row] for row in g.get("rows") or [piles]]
            for pile in piles:
                self.kind_of[pile] = str(g.get("kind", ""))
                self._rows[pile] = rows
            for pile, over in (g.get("covered_by") or {}).items():
                self.covered_by[str(pile)] = [str(p) for p in over]

    @property
    def known(self) -> bool:
        return bool(self.groups)

    def describes(self, view: dict[str, Any]) -> bool:
        """Whether this is the rule set the view is a game of (a view that does not say is
        taken to be of the rule set the bot was told)."""
        if "game" not in view:
            return self.known
        return self.known and self.key == (str(view.get("game", "")),
                                           str(view.get("variant", "")))

    def counts(self) -> Counter[str]:
        """How many piles of each kind (``tableau``, ``foundation``, ``stock``, ...)."""
        return Counter(self.kind_of.values())

    def rows(self, pile: str, piles: dict[str, Any] | None = None) -> list[list[str]]:
        """The rows, top to bottom, of the group ``pile`` is drawn in. Unknown: the view's piles
        of its letters, in a square (or as near as whole rows allow)."""
        if pile in self._rows:
            return self._rows[pile]
        same = sorted((n for n in piles or {} if letters(n) == letters(pile)), key=number)
        width = max(1, math.isqrt(len(same)))
        return [same[i:i + width] for i in range(0, len(same), width)]

    def where(self, pile: str, piles: dict[str, Any] | None = None) -> tuple[int, int]:
        """(row, column) of a pile in its group's drawing; (0, 0) for a pile not in it."""
        for r, row in enumerate(self.rows(pile, piles)):
            if pile in row:
                return r, row.index(pile)
        return 0, 0

    def covering_group(self) -> list[list[str]]:
        """The rows of the group whose piles lie over one another (``[]``: none does)."""
        for pile in self.covered_by:
            return self.rows(pile)
        return []
