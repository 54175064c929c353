"""Par against the search's line (docs/daily.md, Par): ``python -m bench.par [--deals N]
[--jobs J] [RULE_SET ...]``.

For deals 0 .. N-1 of each rule set played to a win, the line the daily job's budget finds
(``engine.winnable.POSITIONS``), its length with the detours cut alone, and its par
(``engine.solver.par.par_line``), each replayed to a win; prints a row a rule set: the
lines won, the median lengths, the median and least ratio of par to the detours alone, and
the CPU seconds par took (median, most). A measurement, not a timed assertion.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import engine
from engine.rules import Scoring
from engine.solver import Budget, Outcome, solve
from engine.solver.par import detours, par_line, wins
from engine.winnable import POSITIONS

#: Per won deal: the detours-cut length, par, and par's CPU seconds.
Row = tuple[int, int, float]


def lines(key: str, deals: int) -> tuple[str, list[Row]]:
    rules = engine.get(*key.split("/"))
    out: list[Row] = []
    for i in range(deals):
        start = rules.deal(i.to_bytes(4, "big"))
        v = solve(start, Budget(positions=POSITIONS))
        if v.outcome != Outcome.WON:
            continue
        cut = detours(start, v.moves)
        t0 = time.process_time()
        par = par_line(start, v.moves)
        took = time.process_time() - t0
        if not (wins(start, par) and len(par) <= len(cut)):
            raise AssertionError(f"{key} deal {i}: par {len(par)} does not win or is longer")
        out.append((len(cut), len(par), took))
    return key, out


def row(key: str, rows: list[Row]) -> str:
    if not rows:
        return f"| `{key}` | 0 | - | - | - | - | - |"
    ratios = [p / c for c, p, _ in rows]
    return (f"| `{key}` | {len(rows)} | {statistics.median(c for c, _, _ in rows):g} | "
            f"{statistics.median(p for _, p, _ in rows):g} | {statistics.median(ratios):.2f} | "
            f"{min(ratios):.2f} | {statistics.median(t for *_, t in rows):.2f} / "
            f"{max(t for *_, t in rows):.2f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.par")
    parser.add_argument("keys", nargs="*", metavar="RULE_SET", help="game/variant (all)")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    keys = args.keys or [r.key for r in engine.rule_sets() if r.scoring != Scoring.POINTS]
    print("| rule set | won | detours cut | par | par / detours cut | least | CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    every: list[Row] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for key, rows in pool.map(lines, keys, [args.deals] * len(keys)):
            print(row(key, rows), flush=True)
            every += rows
    print(row("all", every))


if __name__ == "__main__":
    main()
