"""Bots: a bot is a class with one method, ``choose``; the SDK's runner does the rest
(connecting, joining, timing, reconnecting)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class Bot(ABC):
    """Subclass and implement ``choose``. ``view`` is the session payload's view (the piles as
    the player sees them, never a face-down card); ``legal`` is every legal move now, in move
    notation (docs/notation.md). Return one of ``legal``. ``choose`` may also be ``async``.
    A subclass without ``choose`` can't be made, so a typo shows at once, not mid-race."""

    name = "bot"

    @abstractmethod
    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        """The move to play now: one of ``legal``."""
