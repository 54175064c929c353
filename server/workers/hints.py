"""The solver's side of a hint, in the hint process pool: engine work only, no I/O.

The search is CPU work (up to ``hint_seconds``): run on the event loop it would stall every
socket of the node, so the app factory makes a pool of ``hint_workers`` processes for it
(server/workers) and the lifespan shuts it down.
"""

from __future__ import annotations

import engine
from engine.hints import Source, hint, visited
from engine.solver import Budget


def ready() -> bool:
    """Run once at startup so the first player's hint does not wait for a process to start
    and import the engine."""
    return True


def search(snapshot: bytes, moves: list[str], positions: int, seconds: float
           ) -> tuple[Source, list[str], int | None, bool]:
    """The hint from the position ``snapshot`` (``State.snapshot``) reached by ``moves`` (the
    game's, in notation, from its deal): its source, and the moves in notation (the solver's
    whole line from here, or the one likely move; none when no useful move is left), a scored
    game's score at the end of the line, and whether the search proved the position lost."""
    st = engine.restore(snapshot)
    rules = st.rules
    played = [engine.parse_move(rules, m) for m in moves]
    h = hint(st, Budget(positions=positions, seconds=seconds), played[-1] if played else None,
             visited(rules.deal(st.seed), played, st))
    line = h.line or ((h.move,) if h.move is not None else ())
    return h.source, [engine.move_text(rules, m) for m in line], h.score, h.lost
