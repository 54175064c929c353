"""Hints in practice games: the next move to play, as the server's solver or its heuristic
sees it (docs/protocol.md#hints). Asking changes nothing in the game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .connection import Connection
from .messages import _build


@dataclass
class Hint:
    """A ``suggestion``: ``move`` in notation, as in ``Session.legal`` (``None`` when no legal
    move is left); ``source`` ``solver`` (the next move of a winning line the server's solver
    found; ``line_left`` moves left in it, this one included), ``heuristic`` (a likely move;
    ``lost`` when the search proved that no line from here wins) or ``none``; ``rev`` the
    session revision it is for; ``hints`` the session's count."""

    session: str
    rev: int
    move: str | None
    source: str
    hints: int = 0
    line_left: int | None = None
    score: int | None = None
    lost: bool = False
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Hint:
        return _build(cls, raw)


class Hints(Connection):
    """``hint(session)``."""

    async def hint(self, session_id: str) -> Hint:
        """The next move to play in a practice game of yours (or an unranked replay of a
        revealed daily deal); not played. Refused with ``hint.not_allowed`` in races, ranked
        daily attempts and matches, ``game.over`` once the game is over, ``rate.limited``
        past your hint allowance: raised at once with its ``retry_after`` (not retried, so
        that the pause never holds back your moves). Safe to send again after a dropped
        connection: it changes nothing."""
        return Hint.from_raw(await self.request({"type": "hint", "session": session_id},
                                                rate_retry=False))
