"""Bots: a bot is a class with one method, ``choose``; the SDK's runner does the rest
(connecting, joining, timing, reconnecting)."""

from __future__ import annotations

from typing import Any


class Bot:
    """Subclass and implement ``choose``. ``view`` is the session payload's view (the piles as
    the player sees them, never a face-down card); ``legal`` is every legal move now, in move
    notation (docs/notation.md). Return one of ``legal``. ``choose`` may also be ``async``."""

    name = "bot"

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        raise NotImplementedError
