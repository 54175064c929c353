"""Which kind of board a board is, against a player who holds two accounts (docs/fairness.md,
"What each format guarantees"): **live** when everyone on it was dealt the deal at the same
instant, so nobody could play it first to scout it (races and what is made of races: arenas,
rematches, challenges, bot races, ratings; the daily's live edition); **open** when each entry
was dealt whenever its player started (the all-day daily and the boards that sum it up, ghost
races), so a second account could play the deal first."""

from __future__ import annotations

from typing import Literal

Format = Literal["live", "open"]

#: The first part of a live board's public name; every other board is open.
LIVE_BOARDS = frozenset({"live", "arena", "ratings", "botratings"})


def board_format(public: str) -> Format:
    """``public`` is a board's public name (``daily/2026-12-02/klondike/easy``); a league's
    board is the kind of the public board it ranks the members on."""
    parts = public.split("/")
    head = parts[2] if parts[0] == "league" and len(parts) > 2 else parts[0]
    return "live" if head in LIVE_BOARDS else "open"
