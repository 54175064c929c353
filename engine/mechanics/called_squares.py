"""What Poker Square and Cribbage Square share for called-card matches, where every player
places the same called card in their own grid."""

from __future__ import annotations

from typing import Any

from ..core import MOVE, PLAYING, IllegalMove, Move, State
from ..options import MatchKind
from ..piles import GRID, WASTE, MatchMode
from ..rules import RuleSet


class Squares(RuleSet):
    match = MatchMode(MatchKind.CALLED, (2, 8))

    def finished(self, st: State) -> bool:
        return all(st.piles[g] for g in self.by_kind[GRID])

    def timer_move(self, st: State) -> Move:
        """The placement a match's turn timer makes for a player who let the time run out:
        on the waste if it has room, else in the first empty cell (docs/rules/poker-square.md)."""
        if st.status != PLAYING:
            raise IllegalMove("game.over", f"the game is over ({st.status})")
        s = self.stock_pile
        for w in self.by_kind.get(WASTE, ()):
            if len(st.piles[w]) < self.pile_group[w].capacity:
                return Move(MOVE, s, w)
        return Move(MOVE, s, next(g for g in self.by_kind[GRID] if not st.piles[g]))

    def scored(self, st: State, starter: int = -1) -> tuple[int, dict[str, Any]]:
        """The score and its line-by-line account, with the match's own starter where the
        game has one (a called-card match's starter is common to all, not each player's
        next card); ``-1``: before the starter is known."""
        return self.score(st), self.info(st)
