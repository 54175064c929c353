"""What the engine does on every rule set, as JSON: a random game's legal moves, scores and
views, and a search's verdict, line and positions. Run once with the compiled modules and once
with ``SAMEDEAL_PURE_PYTHON=1`` (tests/engine/test_compiled.py): the two must be the same."""

from __future__ import annotations

import json
import random
from typing import Any

import engine
from engine.compiled import compiled
from engine.solver import Budget, solve


def probe(positions: int = 1500, plies: int = 60) -> dict[str, Any]:
    out: dict[str, Any] = {"compiled": compiled(), "rule_sets": {}}
    for rules in engine.rule_sets():
        seed = bytes.fromhex("5a")
        st, rng, game = rules.deal(seed), random.Random(7), []
        for _ in range(plies):
            legal = st.legal_moves()
            game.append([[engine.move_text(rules, m) for m in legal], st.status, st.score,
                         st.view()])
            if not legal:
                break
            st.play(rng.choice(legal))
        v = solve(rules.deal(seed), Budget(positions=positions))
        out["rule_sets"][f"{rules.id}/{rules.variant}"] = {
            "game": game, "verdict": [v.outcome.value, [engine.move_text(rules, m)
                                                         for m in v.moves], v.positions]}
    return out


if __name__ == "__main__":
    print(json.dumps(probe()))
