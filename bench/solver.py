"""``make bench``'s solver section: the solver's targets, each beside a baseline measured in
the same run.

Klondike, both variants (the step search, docs/solver.md): deals 0-999 each searched with 10
s (one deal a core), against the issue's targets (99% decided, median at most 10 ms, a
million positions a second). Beside them, in the same run: the search over the engine's
moves (``depth.py`` and its turns, on a board: the search that played Klondike before the
step search) on the first 100 deals with 1 s each, and the engine's own random play, moves
a second. Then for every rule set the solver's positions a second, compiled and in pure
Python (the same source), beside the engine's own random play on the same core. The whole
winnability table is bench/winnability.py.

``python -m bench.solver --rates POSITIONS [RULE_SET ...]`` prints the positions per second
alone (JSON): the pure-Python figures are measured so, in a process of their own.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import engine
from bench.common import CORES, ROOT, Section, Target, fmt, median
from bench.winnability import Deal, judge, seed
from engine.compiled import PURE_ENV
from engine.rules import RuleSet
from engine.solver import state_board
from engine.solver.search import SCHEDULE, by_moves

TARGET_SECONDS = 10.0  # the per-deal budget for "decided"
DEALS = 1_000
BASELINE_DEALS, BASELINE_SECONDS = 100, 1.0
RATE_POSITIONS = 20_000  # the search each rule set's positions a second are measured over
RATE_DEALS = 50


def play_rate(key: str, moves: int) -> float:
    """The engine's own random play on this rule set, validated moves per second."""
    game, variant = key.split("/")
    rules = engine.get(game, variant)
    rng = random.Random(key)
    done, spent, i = 0, 0.0, 0
    while done < moves:
        st = rules.deal(seed(10_000 + i))
        i += 1
        t0 = time.process_time()
        while not st.over and done < moves:
            legal = st.legal_moves()
            if not legal:
                break
            st.play(rng.choice(legal))
            done += 1
        spent += time.process_time() - t0
    return done / spent if spent else 0.0


def solver_rates(keys: list[str], positions: int) -> dict[str, float]:
    """The solver's distinct positions per CPU second on each rule set: deals 0, 1, ...
    each searched with a budget of the positions still wanted, until ``positions`` in all
    (at most ``RATE_DEALS`` deals). A budget of positions, not seconds, so that the figure
    is the same search whichever engine runs it and however busy the machine is."""
    out = {}
    for key in keys:
        done, cpu = 0, 0.0
        for i in range(RATE_DEALS):
            if done >= positions:
                break
            d = judge(key, i, positions - done, None)
            done += d.positions
            cpu += d.cpu
        out[key] = done / cpu if cpu else 0.0
    return out


def pure_rates(keys: list[str], positions: int) -> dict[str, float]:
    """``solver_rates`` of the pure-Python engine, in a process of its own (a process
    imports the engine's modules compiled or not once: engine/compiled.py)."""
    out = subprocess.run([sys.executable, "-m", "bench.solver", "--rates", str(positions),
                          *keys], env=os.environ | {PURE_ENV: "1"}, capture_output=True,
                         text=True, check=True, cwd=ROOT)
    rates: dict[str, float] = json.loads(out.stdout)
    return rates


def fresh(key: str) -> RuleSet:
    """The rule set as a new object, so that no answer its hooks keep (the circular-column
    end rule's, engine/mechanics) carries over from one measurement to the next."""
    game, variant = key.split("/")
    return type(engine.get(game, variant))(variant)


def over_the_moves(key: str, i: int, seconds: float) -> Deal:
    """Deal ``i`` solved by the search over the engine's moves (its turns, on a board), as
    Klondike was before the step search."""
    return judge(key, i, None, seconds, by_moves)


def with_steps(key: str, i: int, seconds: float) -> Deal:
    return judge(key, i, None, seconds)


def deals(key: str, count: int, seconds: float, baseline: bool = False) -> list[Deal]:
    """Deals 0 .. count-1 of ``key``, each with ``seconds``, one a core."""
    with ProcessPoolExecutor(CORES) as pool:
        return list(pool.map(over_the_moves if baseline else with_steps, [key] * count,
                             range(count), [seconds] * count, chunksize=4))


def summary(got: list[Deal]) -> tuple[float, float, float]:
    """The share decided, the median CPU seconds (an undecided deal slower than any) and
    the positions per CPU second over all of them."""
    times = sorted(d.cpu if d.outcome != "U" else math.inf for d in got)
    decided = sum(d.outcome != "U" for d in got) / len(got)
    cpu = sum(d.cpu for d in got)
    return decided, times[len(times) // 2], sum(d.positions for d in got) / cpu if cpu else 0.0


def klondike(quick: bool) -> tuple[list[Target], list[list[Any]], dict[str, Any]]:
    count = 60 if quick else DEALS
    base_count = 20 if quick else BASELINE_DEALS
    targets, rows, raw = [], [], {}
    for variant in ("easy", "difficult"):
        key = f"klondike/{variant}"
        got = deals(key, count, TARGET_SECONDS)
        base = deals(key, base_count, BASELINE_SECONDS, baseline=True)
        decided, med, rate = summary(got)
        b_decided, b_med, b_rate = summary(base)
        play = play_rate(key, 20_000)
        first = summary(got[:base_count])
        med_text = f"{med * 1000:.1f} ms" if math.isfinite(med) else "over 10 s"
        targets += [
            Target(f"Klondike {variant}: at least 99% of {count:,} deals decided within 10 s "
                   "of one core", f"{decided:.1%}", decided >= 0.99),
            Target(f"Klondike {variant}: median at most 10 ms", med_text, med <= 0.010),
            Target(f"Klondike {variant}: at least 1,000,000 positions a second",
                   f"{rate:,.0f} ({fmt(rate / play)}x the engine's own moves a second)",
                   rate >= 1_000_000),
        ]
        rows.append([f"`{key}`", f"{count:,}", f"{decided:.1%}", med_text, f"{rate:,.0f}",
                     f"{first[0]:.0%}", f"{b_decided:.0%}",
                     f"{b_med * 1000:.0f} ms" if math.isfinite(b_med) else "over 1 s",
                     f"{b_rate:,.0f}", f"{play:,.0f}"])
        raw[key] = {"deals": [d.__dict__ for d in got], "baseline": [d.__dict__ for d in base],
                    "play": play}
    return targets, rows, raw


def run(quick: bool = False) -> list[Section]:
    targets, krows, kraw = klondike(quick)
    kmethod = (
        f"Klondike deals 0-{(60 if quick else DEALS) - 1} (seed i as four big-endian bytes), "
        f"each solved with {TARGET_SECONDS:g} s of wall time, one deal a core ({CORES} cores); "
        "decided: won or proved lost; times are CPU seconds; the median counts an undecided "
        "deal as slower than any; positions a second: all the deals' positions over all their "
        "CPU time. Each win's line replayed through the engine. The baselines, in the same "
        f"run: the first {BASELINE_DEALS if not quick else 20} deals solved by the search over "
        f"the engine's moves (its turns, `{len(SCHEDULE)}` of them, on a board: the search "
        f"that played Klondike before the step search) with {BASELINE_SECONDS:g} s each, and "
        "the engine's own random play (validated moves a CPU second, its legal moves listed "
        "before each).")
    krows_section = Section(
        "Solver: Klondike", kmethod,
        ["rule set", "deals", "decided within 10 s", "median", "positions/s",
         "the same, first deals", "baseline: decided within 1 s", "baseline median",
         "baseline positions/s", "engine play moves/s"], krows, targets, raw=kraw)
    keys = [r.key for r in engine.rule_sets()]
    positions = 2_000 if quick else RATE_POSITIONS
    pure = pure_rates(keys, positions)
    solver = solver_rates(keys, positions)
    rows: list[list[Any]] = []
    rates: dict[str, tuple[float, ...]] = {}
    for key in keys:
        engine_rate = play_rate(key, 500 if quick else 3000)
        rates[key] = (solver[key], engine_rate, pure[key])
        rows.append([f"`{key}`", f"{solver[key]:,.0f}", f"{pure[key]:,.0f}",
                     fmt(solver[key] / pure[key]) if pure[key] else "-",
                     f"{engine_rate:,.0f}",
                     fmt(solver[key] / engine_rate) if engine_rate else "-",
                     "state" if isinstance(state_board.board_for(engine.get(
                         *key.split("/")).deal(seed(0))), state_board.StateBoard) else "board"])
    speedups = sorted(solver[k] / pure[k] for k in keys if pure[k])
    method = (
        "For every rule set: the solver's distinct positions per CPU second over "
        f"{positions:,} positions of deals 0, 1, ... (each searched with the positions still "
        f"wanted, at most {RATE_DEALS} deals: the same search for both engines, however busy "
        "the machine), with the engine's compiled inner loop (engine/compiled.py) and in pure "
        "Python (the baseline: the same source, in a process of its own, in the same run), "
        "beside the engine's own random play (validated moves per CPU second, legal moves "
        "listed before each, compiled) on the same core in the same run. A step search's "
        "position (Klondike) is a key of 64 bits; the others' positions are played on a board, "
        "or through the engine's state where the rule set has rules of its own (last column). "
        f"Compiled over pure Python: median {fmt(median(speedups) if speedups else 0)}x. The "
        "whole winnability table is docs/winnability.md (`python -m bench.winnability`).")
    return [krows_section, Section(
        "Solver", method,
        ["rule set", "solver positions/s", "pure Python positions/s", "compiled / pure",
         "engine play moves/s", "solver / play", "played on"], rows, raw={"rates": rates})]


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.solver", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("keys", nargs="*", help="rule sets as game/variant (default: all)")
    p.add_argument("--rates", type=int, metavar="POSITIONS", required=True,
                   help="print each rule set's solver positions per CPU second over "
                   "POSITIONS positions (JSON)")
    args = p.parse_args()
    keys = args.keys or [r.key for r in engine.rule_sets()]
    print(json.dumps(solver_rates(keys, args.rates)))


if __name__ == "__main__":
    main()
