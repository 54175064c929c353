"""``make bench``'s solver board section: the searches over the engine's moves
(engine/solver/depth.py, bestfirst.py) on a ``Board`` against the same searches played
through the engine's state (``state_board.StateBoard``), for every rule set a board plays.

Each pair is the same search, position for position (tests/engine/test_depth.py), so over
the same deals and the same positions the ratio of their positions a second is what the
board gives, nothing else: the same work, done on the position as C data. Where a rule set
ends a game by a rule of its own (Baker's Dozen, Fortress, ...: ``board.ASKED``), a search's
board does not ask that rule, which is most of what the board saves there, and may go into
a few dead ends the state's search leaves out: about the same positions, not the same.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

import engine
from bench.common import Section, fmt, median
from bench.solver import RATE_DEALS, fresh
from bench.winnability import seed
from engine.solver import state_board
from engine.solver.bestfirst import best_first
from engine.solver.board import Layout, plain
from engine.solver.depth import DepthFirst
from engine.solver.search import collector_paused

POSITIONS = 100_000
ROUNDS = 3


@contextmanager
def through_the_state() -> Iterator[None]:
    """The searches play through the engine's state, whatever the rule set."""
    real = state_board.board_for
    state_board.board_for = state_board.StateBoard
    try:
        yield
    finally:
        state_board.board_for = real


def searched(key: str, positions: int, board: bool, best: bool = False) -> tuple[int, float]:
    """The depth-first search alone (``best``: best first alone) on deals 0, 1, ..., each
    with the positions still wanted, until ``positions`` in all (at most ``RATE_DEALS``
    deals): positions and CPU seconds, on a board or on the state."""
    done, cpu = 0, 0.0
    for i in range(RATE_DEALS):
        if done >= positions:
            break
        st = fresh(key).deal(seed(i))
        with collector_paused(), nullcontext() if board else through_the_state():
            t0 = time.process_time()
            if best:
                v = best_first(st, positions - done, None)
            else:
                v = DepthFirst(st, None).run(positions - done)
            cpu += time.process_time() - t0
        done += v.positions
    return done, cpu


def run(quick: bool = False) -> Section:
    keys = [r.key for r in engine.rule_sets() if plain(r)]
    positions = 5_000 if quick else POSITIONS
    rows = []
    raw = {}
    for key in keys:
        asks = Layout(engine.get(*key.split("/"))).asks
        row: list[str] = [f"`{key}`"]
        for best in (False, True):
            on_state, on_board = [], []
            for _ in range(ROUNDS):
                n, cpu = searched(key, positions, board=False, best=best)
                on_state.append(cpu)
                n_board, cpu = searched(key, positions, board=True, best=best)
                on_board.append(cpu)
                assert n_board == n or asks  # the same search
            rate, rate_board = n / median(on_state), n_board / median(on_board)
            raw[f"{key} {'best first' if best else 'depth first'}"] = {
                "positions": n, "positions on a board": n_board, "state": on_state,
                "board": on_board}
            row += [f"{rate:,.0f}", f"{rate_board:,.0f}", fmt(rate_board / rate)]
        rows.append(row)
    method = (
        "For each rule set a board plays (engine/solver/board.py `plain`): the depth-first "
        f"search alone, then best first alone, over {positions:,} positions of deals 0, 1, "
        f"... (each searched with the positions still wanted, at most {RATE_DEALS} deals), "
        "played through the engine's state (`StateBoard`) and on a board (`Board`): the same "
        "searches, position for position "
        "(tests/engine/test_depth.py), but where a rule set ends a game by a rule of "
        "its own (`board.ASKED`), which a search's board does not ask: there a few more "
        f"positions, dead ends. By turns, {ROUNDS} rounds, CPU time, medians, both compiled.")
    return Section("Solver board", method,
                   ["rule set", "depth first on the state, positions/s",
                    "on a board, positions/s", "board / state",
                    "best first on the state, positions/s", "on a board, positions/s",
                    "board / state"], rows, raw=raw)
