"""What players see of a rule set: its entry in the catalog (``describe``: the layout's
geometry, labels and words a server, bot or renderer learns everything from) and the view
of a position (the piles' face-up cards and the public facts beside them).

``Views`` is a base of ``RuleSet`` (engine/rules.py) holding the declarations the catalog
describes. Plain Python, not compiled with the engine's inner loop: a view is made once a
reply, never in a search.
"""

import math
from typing import Any, ClassVar, NotRequired, TypedDict

from .cards import RANK_NAMES, TEXT
from .core import State, Status
from .options import Base, Deals, Fan, Play, Scoring
from .piles import TABLEAU, WASTE, Group, MatchMode, Stock


class PileView(TypedDict):
    """A pile as players see it: how many cards lie face down, and the face-up ones."""

    down: int
    up: list[str]


class View(TypedDict):
    """What a player sees of a position: face-down cards are counts, never cards. The
    server's reply schema states the same fields (its ``VIEW``); ``info`` holds the public
    facts a rule set adds (``Views.info``). (This module's annotations are evaluated, not
    postponed: Python 3.11 counts a postponed ``NotRequired`` key as required.)"""

    game: str
    variant: str
    status: Status
    score: float
    moves: int
    piles: dict[str, PileView]
    info: NotRequired[dict[str, Any]]


class Views:
    """The declarations a catalog entry describes, the entry, and a position's view."""

    id: ClassVar[str]
    name: ClassVar[str]
    variants: ClassVar[tuple[str, ...]] = ("easy", "difficult")
    players: ClassVar[tuple[int, int]] = (1, 1)
    scoring: ClassVar[Scoring] = Scoring.TRADITIONAL
    target: ClassVar[int | None] = None  # the score that wins a score-only game
    summary: ClassVar[str] = ""
    #: The variants a front door offers a newcomer first (the catalog's ``featured``).
    featured: ClassVar[tuple[str, ...]] = ()

    base: int | Base = 1  # the foundations' base rank: a rank, or one found in play
    stock: Stock | None = None
    #: How the game is played: ``build`` (cards move from pile to pile, "t3:4-t5") or
    #: ``remove`` (cards leave together, "p22+p28", so a renderer selects cards).
    play: ClassVar[Play] = Play.BUILD
    #: The match it can be played as (``None``: none).
    match: ClassVar[MatchMode | None] = None

    # Set by ``RuleSet.__init__`` from the declarations.
    variant: str
    groups: tuple[Group, ...]
    pile_names: list[str]
    pile_group: list[Group]
    by_kind: dict[str, list[int]]

    def view(self, st: State, player: int | None = None) -> View:
        piles = {name: _pile_view(st, p) for p, name in enumerate(self.pile_names)}
        return self._facts(st, piles)

    def view_after(self, st: State, before: View, piles: set[int]) -> View:
        """The view, from the one before a change that touched ``piles`` alone."""
        names = self.pile_names
        changed = {names[p]: _pile_view(st, p) for p in piles}
        return self._facts(st, {**before["piles"], **changed})

    def _facts(self, st: State, piles: dict[str, PileView]) -> View:
        """The view: the game's name, the status, the piles, the public facts."""
        out: View = {"game": self.id, "variant": self.variant, "status": st.status,
                     "score": st.score, "moves": st.ply, "piles": piles}
        info = self.info(st)
        if info:
            out["info"] = info
        return out

    def info(self, st: State) -> dict[str, Any]:
        """Public facts beside the piles: the base rank, the stock pass, per-line scores."""
        out: dict[str, Any] = {}
        base = st.vars.get("base")
        if base is not None and self.base != 1:
            out["base"] = RANK_NAMES[base] if base else None
        if "pass" in st.vars:
            out["pass"] = st.vars["pass"]
            out["passes"] = self.stock.passes if self.stock else 0
        return out

    def covered_by(self) -> dict[int, tuple[int, ...]]:
        """Piles blocked until other piles are empty (a pyramid's lower cards): for renderers
        and bots, and for the rules of the games that remove cards (``Matching.available``)."""
        return {}

    def shown(self, g: Group) -> int:
        """How many top cards of a pile a renderer fans out (0: all): a waste the stock deals
        several cards onto shows the last deal's cards, one dealt card at a time just the top."""
        if g.kind == WASTE and self.stock is not None and self.stock.to == Deals.WASTE:
            return self.stock.draw
        return 0

    def band_width(self) -> int:
        """Card widths the top band needs to stay one line: its piles with a gap of 0.12 card
        between piles and 0.24 between groups (docs/web.md), a right fan's shown cards closed
        up to 0.4 card each (a fan showing all its cards: three of them)."""
        top = [g for g in self.groups if g.area == "top"]
        need = sum(g.count + 0.12 * (g.count - 1) for g in top) + 0.24 * max(len(top) - 1, 0)
        need += sum(0.4 * ((self.shown(g) or 3) - 1) for g in top if g.fan == Fan.RIGHT)
        # A board `width` cards wide has 1.12 * width - 0.12 card widths inside its padding.
        return math.ceil((need + 0.12) / 1.12 - 0.05)

    def describe(self) -> dict[str, Any]:
        """The registry entry: what a lobby lists, and everything a server, bot or renderer
        knows of the rule set (docs/protocol.md, "The catalog"): none of them names a game."""
        covers = self.covered_by()
        width = max([4, self.band_width()]
                    + [g.drawn_width() for g in self.groups if g.area == "main"])
        layout = []
        for g in self.groups:
            entry: dict[str, Any] = {
                "kind": g.kind,
                "piles": [g.name(i) for i in range(g.count)],
                "fan": g.fan or ("down" if g.kind == TABLEAU else "none"),
                "capacity": g.capacity,
                "label": g.heading,
                "word": g.noun,
                "area": g.area,
                "rows": g.drawn_rows(),
                "align": g.align,
                "fill": g.fill,
                "show": self.shown(g),
            }
            names = set(entry["piles"])
            blocked = {self.pile_names[p]: [self.pile_names[q] for q in over]
                       for p, over in covers.items() if self.pile_names[p] in names and over}
            if blocked:
                entry["covered_by"] = blocked
            layout.append(entry)
        return {
            "id": self.id,
            "variant": self.variant,
            "name": self.name,
            "players": list(self.players),
            "scoring": self.scoring,
            "target": self.target,
            "summary": self.summary,
            "featured": self.variant in self.featured,
            "play": self.play,
            "match": (None if self.match is None else
                      {"kind": self.match.kind, "seats": list(self.match.seats)}),
            "width": width,
            "layout": layout,
        }


def _pile_view(st: State, p: int) -> PileView:
    """One pile as players see it: how many cards lie face down, and the face-up ones."""
    down = st.down[p]
    return {"down": down, "up": [TEXT[c] for c in st.piles[p][down:]]}
