"""What a search is given (a ``Budget``) and what it answers (a ``Verdict``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from ..core import Move


class Outcome(StrEnum):
    """``won``: the moves win. ``lost``: proved, every position reachable was searched.
    ``unknown``: the budget ran out first. ``best``: a game scored by points, not won or
    lost: the best score found and the moves that reach it."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"
    BEST = "best"


@dataclass(frozen=True)
class Budget:
    """How much a search may spend: positions and/or seconds (``None``: no cap).

    With neither cap a search runs until it is decided, which may be never in practice.
    """

    positions: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.positions is not None and self.positions < 1:
            raise ValueError("a budget of positions is 1 or more")
        if self.seconds is not None and not (self.seconds > 0 and math.isfinite(self.seconds)):
            raise ValueError("a budget of seconds is a positive number")


@dataclass(frozen=True)
class Verdict:
    """A search's answer.

    ``moves``: from the given position, the winning line (``won``) or the line to the best
    score (``best``); empty otherwise. ``score``: the score at the end of that line (``best``),
    else ``None``. ``complete``: every reachable position was searched, so ``lost`` is proved
    and a ``best`` score is the best there is. ``positions``: distinct positions searched.
    """

    outcome: Outcome
    moves: tuple[Move, ...]
    positions: int
    seconds: float
    score: int | None = None
    complete: bool = False

    @property
    def decided(self) -> bool:
        """Won, proved lost, or a best score proved best."""
        return self.outcome in (Outcome.WON, Outcome.LOST) or self.complete
