"""Bots: a bot is a class with one method, ``choose``; the SDK's runner does the rest
(connecting, joining, timing, reconnecting, and telling the bot the rules with ``learn``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class Bot(ABC):
    """Subclass and implement ``choose``. ``view`` is the session payload's view (the piles as
    the player sees them, never a face-down card); ``legal`` is every legal move now, in move
    notation (docs/notation.md). Return one of ``legal``. ``choose`` may also be ``async``.
    A subclass without ``choose`` can't be made, so a typo shows at once, not mid-race."""

    name = "bot"
    #: the description of the rule set being played (its catalog entry), once ``learn`` ran
    rules: dict[str, Any] | None = None

    def learn(self, rules: dict[str, Any]) -> None:
        """Called before a game with its rule set's description (``GET /api/v1/games/{game}/
        {variant}``: how moves are made, how piles are drawn, which cover which), so a bot
        can play by the layout without knowing any game by name. Kept in ``rules``."""
        self.rules = rules

    @abstractmethod
    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        """The move to play now: one of ``legal``."""
