"""Engine throughput per rule set: validated ``play``, ``legal_moves``, snapshot and restore.

Every engine loop is timed beside the identical loop calling a no-op, in the same process on
the same pinned core, so the ratio is the engine's own cost whatever else the machine is doing.
"""

from __future__ import annotations

import gc
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import engine
from bench.common import Section, Target, fmt, median
from engine import Move, RuleSet, State
from engine.solver.search import collector_paused

SEEDS = 8
MAX_MOVES = 300
RUNS = 5
QUICK_SEEDS = 4
QUICK_MAX_MOVES = 150
QUICK_RUNS = 3
QUICK_KEYS = ("klondike/easy", "klondike/difficult", "spiderette/easy", "gaps/easy")
GOAL_PLAYS = 50_000.0
PLAYOUT_SEED = 20240601

Playout = tuple[bytes, list[Move]]


def _noop2(st: Any, m: Any) -> None:
    """Stands in for ``State.play``: the same call shape, no engine work."""


def _noop1(x: Any) -> None:
    """Stands in for the one-argument engine calls (legal_moves, snapshot, restore)."""


@contextmanager
def _one_core() -> Iterator[int | None]:
    """Pin to one core so 'per core' means what it says and the two loops share a cache."""
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    old = os.sched_getaffinity(0)
    if len(old) < 2:
        yield None
        return
    cpu = 1 if 1 in old else max(old)
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, old)


@contextmanager
def _no_gc() -> Iterator[None]:
    """A collection landing in one run but not its twin would be noise, not engine cost."""
    gc.collect()
    with collector_paused():
        yield


def playouts(rules: RuleSet, seeds: Sequence[bytes], max_moves: int) -> list[Playout]:
    """Random legal games, fixed by seed, so every run and every machine replays the same
    moves."""
    rng = random.Random(f"{PLAYOUT_SEED}/{rules.key}")
    out: list[Playout] = []
    for seed in seeds:
        st = rules.deal(seed)
        moves: list[Move] = []
        while len(moves) < max_moves and not st.over:
            legal = st.legal_moves()
            if not legal:
                break
            m = rng.choice(legal)
            st.play(m)
            moves.append(m)
        out.append((seed, moves))
    return out


def _time_play(fn: Callable[[Any, Any], None], rules: RuleSet, games: list[Playout]) -> float:
    """Seconds for ``fn(state, move)`` over every recorded move; the deals are not timed."""
    states = [rules.deal(seed) for seed, _ in games]
    pairs = [(st, moves) for st, (_, moves) in zip(states, games, strict=True)]
    with _no_gc():
        t0 = time.perf_counter()
        for st, moves in pairs:
            for m in moves:
                fn(st, m)
        return time.perf_counter() - t0


def _time_each(fn: Callable[[Any], Any], items: list[Any]) -> float:
    """Seconds for ``fn(item)`` over ``items``, nothing else in the loop."""
    with _no_gc():
        t0 = time.perf_counter()
        for x in items:
            fn(x)
        return time.perf_counter() - t0


def positions(rules: RuleSet, games: list[Playout]) -> list[bytes]:
    """A snapshot of each position a move was chosen in (so every one is still playing)."""
    snaps: list[bytes] = []
    for seed, moves in games:
        st = rules.deal(seed)
        for m in moves:
            snaps.append(st.snapshot())
            st.push(m)
    return snaps


def measure(rules: RuleSet, seeds: Sequence[bytes], max_moves: int,
            runs: int) -> dict[str, Any]:
    """All figures for one rule set; each engine run is paired with its no-op run."""
    games = playouts(rules, seeds, max_moves)
    n_moves = sum(len(m) for _, m in games)
    snaps = positions(rules, games)
    play_s: list[float] = []
    play0_s: list[float] = []
    legal_s: list[float] = []
    legal0_s: list[float] = []
    snap_s: list[float] = []
    snap0_s: list[float] = []
    rest_s: list[float] = []
    rest0_s: list[float] = []
    generated = 0
    legal_moves = State.legal_moves
    snapshot = State.snapshot
    restore = engine.restore
    for _ in range(runs):
        play0_s.append(_time_play(_noop2, rules, games))
        play_s.append(_time_play(State.play, rules, games))
        # Fresh states each run: a cached status must not make later runs cheaper.
        states = [restore(b) for b in snaps]
        legal0_s.append(_time_each(_noop1, states))
        legal_s.append(_time_each(legal_moves, states))
        generated = sum(len(st.legal_moves()) for st in states)
        snap0_s.append(_time_each(_noop1, states))
        snap_s.append(_time_each(snapshot, states))
        rest0_s.append(_time_each(_noop1, snaps))
        rest_s.append(_time_each(restore, snaps))
    n_pos = len(snaps)

    def rate(n: int, xs: list[float]) -> float:
        t = median(xs)
        return n / t if t > 0 else float("nan")

    def ratio(xs: list[float], base: list[float]) -> float:
        b = median(base)
        return median(xs) / b if b > 0 else float("nan")

    return {
        "games": len(games),
        "moves": n_moves,
        "positions": n_pos,
        "games_over": sum(1 for seed, m in games if len(m) < max_moves),
        "mean_legal_moves": generated / n_pos if n_pos else float("nan"),
        "play_per_s": rate(n_moves, play_s),
        "noop_play_per_s": rate(n_moves, play0_s),
        "play_vs_noop": ratio(play_s, play0_s),
        "legal_moves_per_s": rate(n_pos, legal_s),
        "noop_legal_per_s": rate(n_pos, legal0_s),
        "legal_vs_noop": ratio(legal_s, legal0_s),
        "snapshot_per_s": rate(n_pos, snap_s),
        "noop_snapshot_per_s": rate(n_pos, snap0_s),
        "restore_per_s": rate(n_pos, rest_s),
        "noop_restore_per_s": rate(n_pos, rest0_s),
        "bytes_per_snapshot": sum(map(len, snaps)) / n_pos if n_pos else float("nan"),
        "seconds": {"play": play_s, "noop_play": play0_s, "legal_moves": legal_s,
                    "noop_legal": legal0_s, "snapshot": snap_s, "noop_snapshot": snap0_s,
                    "restore": rest_s, "noop_restore": rest0_s},
    }


def run(quick: bool = False) -> Section:
    """Measure every rule set (a few in quick mode, a smoke check only)."""
    n_seeds = QUICK_SEEDS if quick else SEEDS
    max_moves = QUICK_MAX_MOVES if quick else MAX_MOVES
    runs = QUICK_RUNS if quick else RUNS
    seeds = [bytes([i]) * 8 for i in range(n_seeds)]
    every = engine.rule_sets()
    chosen = [r for r in every if r.key in QUICK_KEYS] if quick else every
    results: dict[str, dict[str, Any]] = {}
    t0 = time.perf_counter()
    with _one_core() as cpu:
        for rules in chosen:
            results[rules.key] = measure(rules, seeds, max_moves, runs)
    wall = time.perf_counter() - t0

    rows: list[list[Any]] = []
    for key, r in results.items():
        rows.append([key, fmt(r["play_per_s"]), fmt(r["legal_moves_per_s"]),
                     fmt(r["snapshot_per_s"]), fmt(r["restore_per_s"]),
                     fmt(r["bytes_per_snapshot"]), fmt(r["play_vs_noop"]),
                     fmt(r["legal_vs_noop"])])
    if results:
        def base(k: str) -> str:
            return fmt(median([r[k] for r in results.values()]))

        rows.append(["no-op baseline (median over rule sets)", base("noop_play_per_s"),
                     base("noop_legal_per_s"), base("noop_snapshot_per_s"),
                     base("noop_restore_per_s"), "", "1", "1"])

    targets: list[Target] = []
    for key in ("klondike/easy", "klondike/difficult"):
        if key in results:
            r = results[key]
            met = r["play_per_s"] >= GOAL_PLAYS
            targets.append(Target(
                goal=f"engine play >= {GOAL_PLAYS:,.0f} validated moves/s per core ({key})",
                measured=f"{fmt(r['play_per_s'])} moves/s ({fmt(r['play_vs_noop'])}x no-op)",
                met=met,
                note=("quick mode: few positions, smoke check only; " if quick else "")
                + f"median of {runs} runs over {r['moves']} moves from {r['games']} playouts",
            ))

    method = (
        f"For each rule set, {n_seeds} fixed seeds are dealt (one player) and played out by "
        f"picking a random legal move with a fixed random.Random until the game is over or "
        f"{max_moves} moves; that preparation is not timed. play/s: replaying every recorded "
        f"move with State.play (which validates each move) from fresh deals, the deals made "
        f"before the clock starts. legal_moves/s: State.legal_moves once at every position a "
        f"move was chosen in, on states restored from snapshots before the clock starts (fresh "
        f"each run, so no cached status carries over). snapshot/s and restore/s: "
        f"State.snapshot and engine.restore over the same positions; bytes/snapshot is their "
        f"mean length. Baseline: each loop is timed again, identical but calling a no-op "
        f"function with the same arguments, alternating with the engine run; the 'vs no-op' "
        f"columns are engine time per call over no-op time per call. Each figure is the median "
        f"of {runs} runs, timed with time.perf_counter with the garbage collector disabled "
        f"during each timed loop, in one process pinned to "
        + (f"core {cpu}" if cpu is not None else "whatever core the OS chose (one core only)")
        + f". {len(results)} rule sets took {wall:.0f} s in all."
    )
    return Section(
        title="Engine: moves, move generation, snapshots per rule set",
        method=method,
        columns=["rule set", "play/s", "legal_moves/s", "snapshot/s", "restore/s",
                 "bytes/snapshot", "play vs no-op (x)", "legal_moves vs no-op (x)"],
        rows=rows,
        targets=targets,
        raw={"quick": quick, "runs": runs, "seeds": [s.hex() for s in seeds],
             "max_moves": max_moves, "cpu": cpu, "wall_seconds": wall,
             "goal_plays_per_s": GOAL_PLAYS, "rule_sets": results},
    )
