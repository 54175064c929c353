"""Why a move is refused, in a sentence a player understands (``Refusal``: a stable code
and the sentence): the source's rules (what may leave a pile, and how many cards at once),
the room a run needs, and which piles' cards may start an empty pile.

``Refusals`` is a base of ``RuleSet`` (engine/rules.py): the refusals asked while listing
moves (``target_refusal``, ``fill_refusal``, ``stock_refusal``) are compiled with the
rules' inner loop there; these are asked of a move a player sends, once.
"""

from __future__ import annotations

from abc import abstractmethod

from .core import MOVE, STOCK, Move, Refusal, State
from .options import Direction, Fill, Unit
from .piles import Group
from .views import Views


class Refusals(Views):
    """The refusals of a move as sent: each says why, or ``None`` for a legal move."""

    #: Per source whose unit is ``packed``: where its top card may go alone (``RuleSet``).
    lone_targets: dict[int, list[int]]

    @abstractmethod
    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        """Whether ``dst`` takes ``card`` with the ``n - 1`` cards lying on it."""

    @abstractmethod
    def stock_refusal(self, st: State) -> Refusal | None:
        """Whether the stock may be dealt now."""

    @abstractmethod
    def run_length(self, st: State, p: int) -> int:
        """How many top cards of pile ``p`` are packed by its build."""

    @abstractmethod
    def room(self, st: State, src: int, dst: int) -> tuple[int, int, int]:
        """The free cells, the other empty piles and the most cards one move may carry."""

    def refusal(self, st: State, move: Move) -> Refusal | None:
        if move.kind == MOVE:
            return self.move_refusal(st, move)
        if move.kind == STOCK:
            if not self.stock:
                return Refusal("stock.none", "this game has no stock to deal from")
            return self.stock_refusal(st)
        return self.extra_refusal(st, move)

    def extra_refusal(self, st: State, move: Move) -> Refusal | None:
        return Refusal("move.unknown", f"{self.name} has no move of the kind {move.kind!r}")

    def move_refusal(self, st: State, m: Move) -> Refusal | None:
        return self.source_refusal(st, m.src, m.dst, m.n) or self.target_refusal(
            st, m.src, m.dst, st.piles[m.src][-m.n], m.n)

    def source_refusal(self, st: State, src: int, dst: int, n: int) -> Refusal | None:
        """Whether these ``n`` cards may leave ``src`` for a pile of ``dst``'s kind.

        ``unit_sizes`` enumerates exactly the ``n`` this accepts; the tests hold them equal.
        """
        if src < 0 or dst < 0 or src == dst:
            return Refusal("move.malformed", "a move goes from one pile to another")
        sg, dg = self.pile_group[src], self.pile_group[dst]
        pile = st.piles[src]
        if sg.unit is None:
            if sg.collects:
                return Refusal("source.fixed", "completed runs stay off the table")
            return Refusal("source.fixed", f"cards in the {sg.noun} stay where they are")
        if not pile:
            return Refusal("source.empty", f"{self.pile_names[src]} is empty")
        if n > len(pile):
            return Refusal("source.short", f"{self.pile_names[src]} holds only {len(pile)} "
                           + ("card" if len(pile) == 1 else "cards"))
        if n > len(pile) - st.down[src]:
            return Refusal("source.hidden", "face-down cards can't be moved")
        if dg.collects:
            run = ("King-to-Ace" if dg.collects == 13 and sg.build is not None
                   and sg.build.direction == Direction.DOWN else f"{dg.collects}-card")
            return Refusal("target.collects", f"completed {run} runs leave the table by "
                           "themselves; no card is played there")
        if dg.kind not in sg.to:
            if sg.kind == dg.kind:
                return Refusal(
                    "target.kind", f"cards never move from one {sg.noun} to another")
            return Refusal(
                "target.kind", f"cards from the {sg.noun} can't go to the {dg.noun}")
        if n > 1:
            return self.unit_refusal(st, src, n)
        alone = self.lone_targets.get(src)  # (a ``packed`` unit's top card, off its run)
        if alone is not None and dst not in alone and self.run_length(st, src) > 1:
            return Refusal("unit.whole", "only the whole packed run can move to "
                           + ("another " if dg.kind == sg.kind else "a ") + dg.noun)
        return None

    def room_refusal(self, st: State, src: int, dst: int, n: int) -> Refusal | None:
        free, empty, limit = self.room(st, src, dst)
        if n <= limit:
            return None
        g = self.pile_group[src]

        def say() -> str:
            cells = f"{free} free cell" + ("" if free == 1 else "s")
            noun = g.noun
            if g.fill != Fill.ANY or g.fill_from:
                verb = "allows" if free == 1 else "allow"
                why = ("take only Kings" if g.fill == Fill.KING
                       else "hold no card on the way")
                return (f"only {limit} cards can move together here: {cells} {verb} that "
                        f"many one at a time (empty {noun}s {why})")
            others = f"{empty} other empty {noun}" + ("" if empty == 1 else "s")
            return (f"only {limit} cards can move together here: {cells} and {others} "
                    "allow that many one at a time")
        return Refusal("unit.room", say)

    def unit_refusal(self, st: State, src: int, n: int) -> Refusal | None:
        unit = self.pile_group[src].unit
        if unit == Unit.TOP:
            return Refusal("unit.top", "only the top card of a pile can move")
        if unit == Unit.FACEUP:
            return None
        run = self.run_length(st, src)
        if n > run:
            return Refusal("unit.unpacked", f"only packed cards move together: the top {run} "
                           + ("card is" if run == 1 else "cards are") + " packed here")
        if unit == Unit.WHOLE and n != run:
            return Refusal("unit.whole", "only the top card or the whole packed run can move")
        if unit == Unit.PACKED and n != run:
            return Refusal("unit.whole", "only the whole packed run can move, or its top card "
                           "alone to a foundation")
        return None

    def fillers(self, g: Group, refiller: int | None) -> str:
        """Why a card from elsewhere cannot start an empty pile of ``g`` (``fill_from``)."""
        nouns = " or ".join(f"the {self.pile_group[self.by_kind[k][0]].noun}'s top card"
                            for k in g.fill_from if k in self.by_kind)
        when = ("" if refiller is None
                else f"once the {self.pile_group[refiller].noun} is empty, ")
        return f"{when}only {nouns} can fill an empty {g.noun}"
