"""The comparison of tests/engine/test_solver_lost.py, wide: many more positions and a larger
plain search, for after a change to what the search leaves out (docs/solver.md, How it is
checked). Too slow for ``make test``: about 11 minutes on two cores with 20 seeds.

    python -m tests.engine.wide_check --seeds 20 --seconds 3 --jobs 2 [RULE_SET ...]

``--first K`` starts at seed K, so that a run after another checks positions it did not.

Prints each rule set's count of positions compared and every disagreement with the moves
that reach its position from the deal (``engine.replay`` takes them back there); exits 1
if there was one.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import engine
from engine.rules import Scoring
from engine.solver import Budget, Outcome, solve
from tests.engine.solver_plain import plain_search
from tests.engine.test_solver_lost import few_left

CAP = 300_000


def check(key: str, seeds: range, seconds: float,
          cap: int = CAP) -> tuple[str, int, list[str], float]:
    """(``key``, positions compared, disagreements, seconds taken) on the positions of
    ``few_left`` (three a seed) of ``key``'s rule set, for each of ``seeds``; each search
    stops at ``cap`` positions or ``seconds``."""
    t0 = time.perf_counter()
    rules = engine.get(*key.split("/"))
    compared = 0
    wrong: list[str] = []
    for seed in seeds:
        for st in few_left(rules, seed):
            truth = plain_search(st, cap, seconds)
            if truth is None:
                continue
            v = solve(st, Budget(positions=cap, seconds=seconds))
            if v.outcome == Outcome.UNKNOWN:
                continue
            compared += 1
            if (v.outcome == Outcome.WON) != truth:
                moves = " ".join(engine.move_text(rules, m) for m in st.history)
                wrong.append(f"{rules.key} seed {st.seed.hex()}: the solver says "
                             f"{v.outcome.value}, the plain search {'won' if truth else 'lost'}"
                             f" after {moves}")
    return key, compared, wrong, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.wide_check")
    parser.add_argument("keys", nargs="*", metavar="RULE_SET", help="game/variant (all)")
    parser.add_argument("--seeds", type=int, default=20, help="how many seeds")
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--seconds", type=float, default=3.0, help="per search")
    parser.add_argument("--positions", type=int, default=CAP, help="per search")
    parser.add_argument("--jobs", type=int, default=1, help="rule sets checked at once")
    args = parser.parse_args(argv)
    keys = args.keys or [r.key for r in engine.rule_sets() if r.scoring != Scoring.POINTS]
    n = len(keys)
    seeds = range(args.first, args.first + args.seeds)
    bad = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for key, compared, wrong, secs in pool.map(check, keys, [seeds] * n,
                                                   [args.seconds] * n, [args.positions] * n):
            for line in wrong:
                print(line, flush=True)
            bad += len(wrong)
            print(f"{key}: {compared} positions compared, {len(wrong)} disagree ({secs:.1f} s)",
                  flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
