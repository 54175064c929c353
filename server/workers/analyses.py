"""The engine's side of a post-game analysis, in the analysis process pool: engine work only,
no I/O.

An analysis searches every position of a game (up to ``analysis_total`` positions in all): run
on the event loop it would stall every socket of the node, so server/analyses runs it in a pool
of its own, niced behind the game traffic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import engine
from engine.analysis import analyse as judge

if TYPE_CHECKING:  # the types only: a worker imports nothing of the server's I/O
    from ..transport.reply_types import Analysis


def analyse(game: str, variant: str, seed_hex: str, moves: list[str], competitive: bool,
            positions: int, total: int) -> Analysis:
    """The analysis of the game dealt from ``seed_hex`` and played by ``moves`` (notation, a
    final ``resign`` allowed), as JSON: budgets in positions only, so every node makes the
    same one."""
    rules = engine.get(game, variant)
    done = judge(rules, bytes.fromhex(seed_hex), moves, competitive=competitive,
                 positions=positions, total=total)
    return cast("Analysis", done.to_json())
