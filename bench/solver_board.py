"""``make bench``'s solver board section: the searches on a board
(engine/solver/board_search.py, board_best.py) against the same searches on the engine's
state, for every rule set a board plays.

Each pair is the same search, position for position (tests/engine/test_board_search.py),
so over the same deals and the same positions the ratio of their positions a second is
what the board gives, nothing else: the same work, done on the position as C data.
"""

from __future__ import annotations

import time

import engine
from bench.common import Section, fmt, median
from bench.solver import RATE_DEALS, fresh
from bench.winnability import seed
from engine.solver import bestfirst, board_best
from engine.solver.board import plain
from engine.solver.board_search import BoardSearch
from engine.solver.search import Search, collector_paused

POSITIONS = 100_000
ROUNDS = 3


def searched(key: str, positions: int, board: bool, best: bool = False) -> tuple[int, float]:
    """The depth-first search alone (``best``: best first alone) on deals 0, 1, ..., each
    with the positions still wanted, until ``positions`` in all (at most ``RATE_DEALS``
    deals): positions and CPU seconds, on a board or on the state."""
    done, cpu = 0, 0.0
    for i in range(RATE_DEALS):
        if done >= positions:
            break
        st = fresh(key).deal(seed(i))
        with collector_paused():
            t0 = time.process_time()
            if best:
                v = (board_best.best_first if board else bestfirst.best_first)(
                    st, positions - done, None)
            else:
                v = (BoardSearch if board else Search)(st, None).run(positions - done)
            cpu += time.process_time() - t0
        done += v.positions
    return done, cpu


def run(quick: bool = False) -> Section:
    keys = [r.key for r in engine.rule_sets() if plain(r)]
    positions = 5_000 if quick else POSITIONS
    rows = []
    raw = {}
    for key in keys:
        row: list[str] = [f"`{key}`"]
        for best in (False, True):
            on_state, on_board = [], []
            for _ in range(ROUNDS):
                n, cpu = searched(key, positions, board=False, best=best)
                on_state.append(cpu)
                n_board, cpu = searched(key, positions, board=True, best=best)
                on_board.append(cpu)
                assert n_board == n  # the same search
            s, b = median(on_state), median(on_board)
            raw[f"{key} {'best first' if best else 'depth first'}"] = {
                "positions": n, "state": on_state, "board": on_board}
            row += [f"{n / s:,.0f}", f"{n / b:,.0f}", fmt(s / b)]
        rows.append(row)
    method = (
        "For each rule set a board plays (engine/solver/board.py `plain`): the depth-first "
        f"search alone, then best first alone, over {positions:,} positions of deals 0, 1, "
        f"... (each searched with the positions still wanted, at most {RATE_DEALS} deals), "
        "on the engine's state (`Search`, `bestfirst.best_first`) and on a board "
        "(`BoardSearch`, `board_best.best_first`): the same searches, position for position "
        f"(tests/engine/test_board_search.py); by turns, {ROUNDS} rounds, CPU time, "
        "medians, both compiled.")
    return Section("Solver board", method,
                   ["rule set", "depth first on the state, positions/s",
                    "on a board, positions/s", "board / state",
                    "best first on the state, positions/s", "on a board, positions/s",
                    "board / state"], rows, raw=raw)
