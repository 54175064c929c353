"""``make bench``'s solver section: a small sample in the same run as its baseline.

Klondike easy's deals against the issue's target (decided within 10 s of one core), and for
every rule set the solver's positions per second beside the engine's own random play, moves
per second, on the same core: the solver's inner loop is the engine's moves, so the ratio
says what the search costs on top of them; and beside the same search in pure Python (the
compiled engine's baseline). The whole winnability table is bench/winnability.py.

The search's own cost is measured against the engine's alone: the depth-first search's
calls to the engine (play a move, take it back, list the legal moves, list the talon's after
a deal) are recorded and made again with nothing else, on the same positions, so the ratio
is what the search adds (its key, its table, its choice of moves) to the engine it runs on:
how much faster it could be made without making the engine faster.

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
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import engine
from bench.common import ROOT, Section, Target, fmt, median
from bench.winnability import judge, seed
from engine.compiled import PURE_ENV
from engine.core import Move, State
from engine.rules import RuleSet
from engine.solver.moves import Chooser
from engine.solver.search import Search, collector_paused

TARGET_SECONDS = 10.0  # the per-deal budget for "decided"
RATE_POSITIONS = 20_000  # the search each rule set's positions a second are measured over
RATE_DEALS = 50
FLOOR_ROUNDS = 3

#: The engine's calls a depth-first search makes, as recorded: play, take back, list the
#: legal moves, list the talon's moves after a deal.
PUSH, POP, LEGAL, AFTER_DEAL = range(4)
Call = tuple[int, Move | None]  # (what, the move played)


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
    is the same search whichever engine runs it and however busy the machine is (a search
    bounded by time takes its turns at other points: one 2-second search per rule set
    varied by a factor of 1.5 between two runs)."""
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


@contextmanager
def recording(calls: list[Call]) -> Iterator[None]:
    """``State.push``, ``pop``, ``legal_moves`` and ``Chooser.legal_after_deal`` wrapped,
    while it lasts, to add each call to ``calls`` (the classes' own attributes, so compiled
    callers see the wrappers too)."""
    push, pop, legal, after = State.push, State.pop, State.legal_moves, Chooser.legal_after_deal

    def push_(st: State, m: Move) -> None:
        calls.append((PUSH, m))
        push(st, m)

    def pop_(st: State) -> Move:
        calls.append((POP, None))
        return pop(st)

    def legal_(st: State) -> list[Move]:
        calls.append((LEGAL, None))
        return legal(st)

    def after_(ch: Chooser, st: State) -> list[Move] | None:
        calls.append((AFTER_DEAL, None))
        return after(ch, st)

    State.push, State.pop, State.legal_moves = push_, pop_, legal_  # type: ignore[method-assign]
    Chooser.legal_after_deal = after_  # type: ignore[method-assign]
    try:
        yield
    finally:
        State.push, State.pop, State.legal_moves = push, pop, legal  # type: ignore[method-assign]
        Chooser.legal_after_deal = after  # type: ignore[method-assign]


def fresh(key: str) -> RuleSet:
    """The rule set as a new object, so that no answer its hooks keep (the circular-column
    end rule's, engine/mechanics) carries over from one measurement to the next."""
    game, variant = key.split("/")
    return type(engine.get(game, variant))(variant)


def depth_first(key: str, positions: int, calls: list[list[Call]] | None = None,
                ) -> list[tuple[int, int, float]]:
    """The depth-first search alone (no turns) on deals 0, 1, ..., each with the positions
    still wanted, until ``positions`` in all: (deal, positions, CPU seconds) for each; with
    ``calls``, each deal's calls to the engine are recorded there too."""
    out: list[tuple[int, int, float]] = []
    done = 0
    for i in range(RATE_DEALS):
        if done >= positions:
            break
        st = fresh(key).deal(seed(i))
        log: list[Call] = []
        with recording(log) if calls is not None else nullcontext(), collector_paused():
            t0 = time.process_time()
            v = Search(st, None).run(positions - done)
            cpu = time.process_time() - t0
        if calls is not None:
            calls.append(log)
        out.append((i, v.positions, cpu))
        done += v.positions
    return out


def replay(key: str, i: int, calls: list[Call]) -> tuple[float, State]:
    """CPU seconds of the engine alone making ``calls`` again from deal ``i``, and the
    state it leaves."""
    st = fresh(key).deal(seed(i)).copy()  # as the search plays on a copy
    push, pop, legal = st.push, st.pop, st.legal_moves
    after = Chooser(st.rules).legal_after_deal
    with collector_paused():
        t0 = time.process_time()
        for what, m in calls:
            if what == PUSH:
                push(m)  # type: ignore[arg-type]
            elif what == POP:
                pop()
            elif what == LEGAL:
                legal()
            else:
                after(st)
        return time.process_time() - t0, st


def floor(keys: list[str], positions: int) -> dict[str, tuple[int, float, float]]:
    """Each rule set's depth-first search against the engine alone on the same positions,
    the two measured by turns, ``FLOOR_ROUNDS`` times: (positions, the search's positions
    per CPU second, the engine's), medians."""
    out = {}
    for key in keys:
        calls: list[list[Call]] = []
        recorded = depth_first(key, positions, calls)  # the same searches every round
        deals, n = [i for i, _, _ in recorded], sum(p for _, p, _ in recorded)
        searched, alone = [], []
        for _ in range(FLOOR_ROUNDS):
            runs = depth_first(key, positions)
            searched.append(sum(cpu for _, _, cpu in runs))
            alone.append(sum(replay(key, i, log)[0] for i, log in zip(deals, calls, strict=True)))
        out[key] = (n, n / median(searched), n / median(alone))
    return out


def run(quick: bool = False) -> Section:
    keys = [r.key for r in engine.rule_sets()]
    klondike = [judge("klondike/easy", i, None, TARGET_SECONDS)
                for i in range(10 if quick else 100)]
    decided = [d for d in klondike if d.outcome != "U"]
    times = sorted(d.cpu if d.outcome != "U" else math.inf for d in klondike)
    med = times[len(times) // 2]
    positions = 2_000 if quick else RATE_POSITIONS
    pure = pure_rates(keys, positions)
    solver = solver_rates(keys, positions)
    alone = floor(keys, positions)
    rows: list[list[Any]] = []
    rates: dict[str, tuple[float, ...]] = {}
    for key in keys:
        engine_rate = play_rate(key, 500 if quick else 3000)
        _, searched, bare = alone[key]
        rates[key] = (solver[key], engine_rate, pure[key], searched, bare)
        rows.append([f"`{key}`", f"{solver[key]:,.0f}", f"{pure[key]:,.0f}",
                     fmt(solver[key] / pure[key]) if pure[key] else "-",
                     f"{engine_rate:,.0f}",
                     fmt(solver[key] / engine_rate) if engine_rate else "-",
                     f"{searched:,.0f}", f"{bare:,.0f}", f"{searched / bare:.0%}"])
    share_decided = len(decided) / len(klondike)
    median_text = f"{med:.2f} s" if math.isfinite(med) else "over 10 s"
    speedups = sorted(solver[k] / pure[k] for k in keys if pure[k])
    shares = [alone[k][1] / alone[k][2] for k in keys]
    targets = [
        Target("Klondike easy: at least 98% of deals decided within 10 s of one core",
               f"{share_decided:.0%} of {len(klondike)} deals", share_decided >= 0.98),
        Target("Klondike easy: median under 0.5 s", median_text, med < 0.5),
    ]
    method = (
        f"Klondike easy deals 0-{len(klondike) - 1} (seed i as four big-endian bytes), each "
        f"solved with {TARGET_SECONDS:g} s; decided: won or proved lost; the median counts an "
        "undecided deal as slower than any. Then for every rule set: the solver's distinct "
        f"positions per CPU second over {positions:,} positions of deals 0, 1, ... (each "
        f"searched with the positions still wanted, at most {RATE_DEALS} deals: the same "
        "search for both engines, however busy the machine), with the engine's compiled "
        "inner loop (engine/compiled.py; the Klondike deals too) and in pure Python (the "
        "baseline: the same source, in a process of its own, in the same run), beside the "
        "engine's own random play (validated moves per CPU second, legal moves listed before "
        "each, compiled) on the same core in the same run: the search is the engine's moves "
        "plus its table and its key, so that ratio is what searching costs over playing. "
        f"Compiled over pure Python: median {fmt(median(speedups) if speedups else 0)}x. "
        "Last, the depth-first search alone (no turns) over the same positions, against the "
        "engine alone on them: its calls to the engine (play, take back, list the legal "
        "moves, list the talon's after a deal), recorded, then made again with nothing else; "
        f"the two by turns, {FLOOR_ROUNDS} rounds, "
        "medians. The engine's share of the search's time bounds what savings in the search "
        "alone can give: a search that cost nothing beyond its engine would be faster by at "
        f"most its inverse (median share {median(shares):.0%}). The whole winnability table "
        "is docs/winnability.md (`python -m bench.winnability`).")
    return Section("Solver", method,
                   ["rule set", "solver positions/s", "pure Python positions/s",
                    "compiled / pure", "engine play moves/s", "solver / play",
                    "depth first positions/s", "engine alone, same positions/s",
                    "engine's share"], rows,
                   targets, raw={"klondike": [d.__dict__ for d in klondike],
                                 "rates": rates, "median": median(times[:len(decided)] or [0])})


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
