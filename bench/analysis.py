"""What a game's analysis costs (engine/analysis.py), per rule set: the CPU a server's
background worker spends on each finished game.

``python -m bench analysis`` (a section of bench/results.md). For every rule set, games of
random legal moves (a careless player's, up to 200 moves, dealt from seeds 0, 1, ...) and one
game played along the solver's won line where the deal's search finds one: each analysed with
the server's default budgets, its CPU seconds and positions searched. Beside them, the
baseline: 100,000 engine moves of Klondike easy (bench/daily_job.py's), in the same run.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import engine
from engine.analysis import analyse
from engine.solver import Budget, Outcome, solve

from .common import Section, Target, fmt, median
from .daily_job import baseline

MOST = 200
KLONDIKE = ("klondike/easy", "klondike/difficult")


def careless(rules: engine.RuleSet, seed: bytes, k: int) -> list[str]:
    st = rules.deal(seed)
    rnd = random.Random(k)
    moves = []
    while not st.over and len(moves) < MOST:
        m = rnd.choice(st.legal_moves())
        st.play(m)
        moves.append(engine.move_text(rules, m))
    return moves


def one(key: str, games: int) -> dict[str, Any]:
    """The rule set's games analysed: CPU seconds and positions of each."""
    game, variant = key.split("/")
    rules = engine.get(game, variant)
    lines = [(bytes([k]), careless(rules, bytes([k]), k)) for k in range(games)]
    v = solve(rules.deal(bytes([0])), Budget(positions=50_000))
    if v.outcome is Outcome.WON:
        lines.append((bytes([0]), [engine.move_text(rules, m) for m in v.moves]))
    out = []
    for seed, moves in lines:
        t0 = time.process_time()
        a = analyse(rules, seed, moves)
        out.append({"seconds": time.process_time() - t0, "positions": a.searched,
                    "moves": len(a.moves), "status": a.status,
                    "unknown": sum(1 for p in a.positions if p.verdict is Outcome.UNKNOWN)})
    return {"key": key, "games": out}


def run(quick: bool = False) -> Section:
    keys = [r.key for r in engine.rule_sets() if r.players[0] == 1]
    if quick:
        keys = [k for k in keys if k in KLONDIKE or k.startswith(("golf", "pyramid"))]
    base = baseline()
    with ProcessPoolExecutor(2) as pool:
        results = list(pool.map(one, keys, [1 if quick else 2] * len(keys)))
    rows, every = [], []
    for r in results:
        secs = [g["seconds"] for g in r["games"]]
        every += secs
        rows.append([f"`{r['key']}`", len(secs), fmt(median(secs)), fmt(max(secs)),
                     f"{median([g['positions'] for g in r['games']]):,.0f}",
                     sum(g["unknown"] for g in r["games"])])
    klondike = [g["seconds"] for r in results if r["key"] in KLONDIKE for g in r["games"]]
    rows.append(["baseline: 100,000 engine moves (Klondike easy)", "", fmt(base), "", "", ""])
    targets = [Target(
        "A Klondike game analysed in about a second of CPU at most",
        f"median {fmt(median(klondike))} s, most {fmt(max(klondike))} s",
        max(klondike) <= 1.0,
        note=f"every rule set: median {fmt(median(every))} s, most {fmt(max(every))} s a game "
             f"({max(every) / base:.0f} times the baseline)")]
    return Section(
        "Analysis: CPU per finished game",
        "Each rule set's games of random legal moves (up to 200 moves) and a game along the "
        "solver's won line, analysed with the server's budgets (engine/analysis.py: 50,000 "
        "positions a position searched, 1,000,000 a game), two processes at once. CPU seconds "
        "per game; positions searched (median); positions left unknown in all.",
        ["rule set", "games", "CPU s (median)", "CPU s (most)", "positions (median)",
         "unknown positions"],
        rows, targets, {"results": results, "baseline": base})
