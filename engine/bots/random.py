"""The simplest bot that can play: a uniformly random legal move. A baseline for the others,
and seedable, so a run can be repeated exactly on the same deals."""

from __future__ import annotations

import random
from typing import Any

from . import Bot


class RandomBot(Bot):
    """Picks any legal move at random; ``seed`` (any int or string) makes its choices
    repeatable."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        return self.rng.choice(legal)
