"""What the winnable-daily job costs (docs/fairness.md, Winnable daily deals):
``python -m bench.daily_job [--days N] [--first DAY] [--jobs J] [RULE_SET ...]``.

For each of N sample days (a fixed secret, the days from 2026-01-01 or ``--first``), every
rule set the rule covers has its candidates judged as the server's job judges them
(``engine.winnable.judge``: the published budget of positions, up to the cap, par for the
one won), one after the other, in worker processes. Prints a row a rule set (candidates
judged, CPU seconds: median and most over the days) and, per day, the CPU seconds of all
rule sets together: the figure the target is about (at most 60 CPU seconds a day); and how
many of the days of a rule set got a deal proved winnable (the rest fall back to candidate
0).
``--raw`` writes every candidate's verdict, positions, line and par beside its CPU seconds:
two runs' files compared show a change to the search left every verdict as it was.

Beside it, the baseline measured in the same run: the CPU seconds this machine takes to
play 100,000 engine moves (``State.play`` of Klondike easy, random legal moves), so that a
day's cost can be compared between machines as a ratio. A measurement, not a timed
assertion.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date, timedelta
from pathlib import Path

import engine
from engine import winnable
from engine.core import PLAYING

SECRET = bytes(32)  # a fixed day secret: the same candidates on every run
FIRST = date(2026, 1, 1)


Judged = tuple[str, float, dict[str, object]]


def one_day(key: str, day: date) -> tuple[str, date, int, float, list[Judged]]:
    """Judge ``key``'s candidates for ``day`` as the job does: (rule set, day, candidates
    judged, CPU seconds, each candidate's verdict, CPU seconds and ``Judged.json``)."""
    game, variant = key.split("/")
    each: list[Judged] = []
    for k in range(winnable.CAP):
        seed = winnable.candidate_seed(SECRET, day, game, variant, None, k)
        t0 = time.process_time()
        judged = winnable.judge(game, variant, seed, winnable.POSITIONS)
        each.append((judged.verdict, time.process_time() - t0, judged.json()))
        if judged.verdict == "won":
            break
    return key, day, len(each), sum(t for _, t, _ in each), each


def baseline(moves: int = 100_000) -> float:
    """CPU seconds to play ``moves`` random legal moves of Klondike easy with ``State.play``
    (the choices made before the clock starts)."""
    rules = engine.get("klondike", "easy")
    games: list[tuple[bytes, list[engine.Move]]] = []
    rng = random.Random(1)
    total = 0
    seed = 0
    while total < moves:
        st = rules.deal(seed.to_bytes(4, "big"))
        line = []
        while st.status == PLAYING and len(line) < 200:
            m = rng.choice(st.legal_moves())
            st.play(m)
            line.append(m)
        games.append((seed.to_bytes(4, "big"), line))
        total += len(line)
        seed += 1
    t0 = time.process_time()
    for s, line in games:
        st = rules.deal(s)
        for m in line:
            st.play(m)
    return (time.process_time() - t0) * moves / total


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.daily_job", description=__doc__)
    p.add_argument("--days", type=int, default=3)
    p.add_argument("--first", type=date.fromisoformat, default=FIRST,
                   help=f"the first day (default {FIRST}): --first 2026-01-07 --days 1 for one")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--raw", help="write each candidate's verdict, CPU seconds, positions, "
                   "line and par here (JSON)")
    p.add_argument("rule_sets", nargs="*")
    args = p.parse_args()
    keys = args.rule_sets or [r.key for r in engine.rule_sets() if winnable.applies(r)]
    days = [args.first + timedelta(days=i) for i in range(args.days)]
    base = baseline()
    with ProcessPoolExecutor(args.jobs) as pool:
        work = [pool.submit(one_day, key, day) for day in days for key in keys]
        results = [w.result() for w in work]
    print(f"baseline: 100,000 engine moves (Klondike easy) in {base:.2f} CPU s")
    print("| rule set | candidates (median, most) | CPU s (median, most) |")
    print("| --- | ---: | ---: |")
    for key in keys:
        mine = [r for r in results if r[0] == key]
        counts = [r[2] for r in mine]
        cpu = [r[3] for r in mine]
        print(f"| `{key}` | {statistics.median(counts):g}, {max(counts)} | "
              f"{statistics.median(cpu):.2f}, {max(cpu):.2f} |")
    totals = [sum(r[3] for r in results if r[1] == day) for day in days]
    for day, total in zip(days, totals, strict=True):
        print(f"{day}: {total:.1f} CPU s in all ({total / base:.0f} times the baseline)")
    print(f"median day: {statistics.median(totals):.1f} CPU s")
    won = sum(1 for r in results if r[4][-1][0] == "won")
    print(f"certified winnable: {won} of {len(results)} days of a rule set")
    if args.raw:
        Path(args.raw).write_text(json.dumps(
            [[key, day.isoformat(), each] for key, day, _, _, each in results]))


if __name__ == "__main__":
    main()
