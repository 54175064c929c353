"""SameDeal's rules engine: pure, synchronous, deterministic; no I/O, no globals beyond the
registry of rule sets (and the finder of its compiled modules, engine/compiled.py), and no
clock but the solver's: a search reads one only for a budget given in seconds and for its
progress reports (docs/solver.md, "What it answers"); a budget of positions alone is deterministic.

    >>> import engine
    >>> game = engine.get("klondike", "easy")
    >>> st = game.deal(bytes.fromhex("00"))
    >>> move = st.legal_moves()[0]
    >>> st.play(move); st.undo() == move
    True
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from . import compiled

# Before the first of the compiled modules is imported: the finder decides which file it is.
if compiled.FINDER not in sys.meta_path:
    sys.meta_path.insert(0, compiled.FINDER)

from .core import FINISHED, LOST, PLAYING, WON, IllegalMove, Move, Refusal, State, restore_into
from .deal import commitment, shuffled_deck, verify
from .notation import move_from_json, move_json, move_text, parse_move
from .registry import UnknownGame, get, register, rule_sets
from .rules import RuleSet

__all__ = [
    "FINISHED", "LOST", "PLAYING", "WON", "IllegalMove", "Move", "Refusal", "RuleSet", "State",
    "UnknownGame", "commitment", "get", "move_from_json", "move_json", "move_text",
    "parse_move", "register", "replay", "restore", "rule_sets", "shuffled_deck", "verify",
]


def restore(data: bytes) -> State:
    """The state saved by ``State.snapshot``."""
    return restore_into(get, data)


def replay(game: str, variant: str, seed: bytes, moves: Iterable[Move | str],
           competitive: bool = False, players: int | None = None) -> State:
    """Deal from ``seed`` and re-check every move; raises ``IllegalMove`` at the first bad one."""
    rules = get(game, variant)
    st = rules.deal(seed, competitive, players)
    for m in moves:
        move = parse_move(rules, m) if isinstance(m, str) else m
        if move.kind == "resign":
            st.resign()
        else:
            st.play(move)
    return st
