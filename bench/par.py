"""Par against the search's line (docs/daily.md, Par): ``python -m bench.par [--deals N]
[--jobs J] [--hints] [RULE_SET ...]``.

For deals 0 .. N-1 of each rule set played to a win, the line the daily job's budget finds
(``engine.winnable.POSITIONS``), its length with the detours cut alone, and its par
(``engine.solver.par.par_line``), each replayed to a win; prints a row a rule set: the
lines won, the median and the longest lengths, the median and least ratio of par to the
detours alone, and the CPU seconds par took (median, most).

``--hints``: the same for hints (docs/solver.md, Hints). Deals 900 .. 900+N-1, each played
5 to 30 random moves in, are given a hint with the server's default positions (not its
seconds, so that the line is the same on any machine); for each solver hint, the search's
own line against the hint's, and the hint's CPU seconds.
A measurement, not a timed assertion.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import engine
from engine.core import PLAYING
from engine.hints import SOLVER, hint
from engine.rules import Scoring
from engine.solver import Budget, Outcome, solve
from engine.solver.par import detours, par_line, wins
from engine.winnable import POSITIONS
from server.config import Settings

#: Per line: the length it is measured against (detours cut, or the search's own line for a
#: hint), the shorter one (par, the hint's), and the CPU seconds that took.
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


#: The server's default hint positions, without its seconds, so that the search's line is
#: the hint's own before it is made short.
HINT_BUDGET = Budget(positions=Settings.hint_positions)


def hint_position(rules: engine.RuleSet, i: int) -> engine.State:
    """The ``i``-th position hints are measured at: deal 900 + ``i`` played 5 to 30 random
    moves in (fewer where the game ends first: then it is over)."""
    rng = random.Random(i)
    st = rules.deal((900 + i).to_bytes(4, "big"))
    for _ in range(rng.randint(5, 30)):
        if st.status != PLAYING:
            break
        st.play(rng.choice(st.legal_moves()))
    return st


def hint_lines(key: str, deals: int) -> tuple[str, list[Row]]:
    """Per solver hint: the search's line, the hint's, and the hint's CPU seconds."""
    rules = engine.get(*key.split("/"))
    out: list[Row] = []
    for i in range(deals):
        st = hint_position(rules, i)
        if st.status != PLAYING:
            continue
        t0 = time.process_time()
        h = hint(st, HINT_BUDGET)
        took = time.process_time() - t0
        if h.source == SOLVER and h.score is None:
            raw = solve(st, HINT_BUDGET).moves
            if not wins(st, h.line):
                raise AssertionError(f"{key} deal {900 + i}: the hint's line does not win")
            out.append((len(raw), len(h.line), took))
    return key, out


def row(key: str, rows: list[Row]) -> str:
    if not rows:
        return f"| `{key}` | 0 | - | - | - | - | - | - |"
    ratios = [p / c for c, p, _ in rows]
    return (f"| `{key}` | {len(rows)} | {statistics.median(c for c, _, _ in rows):g} | "
            f"{statistics.median(p for _, p, _ in rows):g} | "
            f"{max(c for c, _, _ in rows)} → {max(p for _, p, _ in rows)} | "
            f"{statistics.median(ratios):.2f} | {min(ratios):.2f} | "
            f"{statistics.median(t for *_, t in rows):.2f} / {max(t for *_, t in rows):.2f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.par")
    parser.add_argument("keys", nargs="*", metavar="RULE_SET", help="game/variant (all)")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--hints", action="store_true", help="hints rather than par")
    args = parser.parse_args(argv)
    keys = args.keys or [r.key for r in engine.rule_sets() if r.scoring != Scoring.POINTS]
    if args.hints:
        print("| rule set | solver hints | search's line | hint's line | longest | "
              "hint / search | least | hint CPU s |")
    else:
        print("| rule set | won | detours cut | par | longest | par / detours cut | least "
              "| CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    every: list[Row] = []
    measure = hint_lines if args.hints else lines
    with ProcessPoolExecutor(args.jobs) as pool:
        for key, rows in pool.map(measure, keys, [args.deals] * len(keys)):
            print(row(key, rows), flush=True)
            every += rows
    print(row("all", every))


if __name__ == "__main__":
    main()
