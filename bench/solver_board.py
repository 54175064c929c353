"""``make bench``'s solver board section: the engine's calls of a search against the same
calls on the solver's board (engine/solver/board.py), for every rule set a board plays.

The depth-first search's calls to the engine are recorded as bench/solver.py records them
(play, take back, list the legal moves with the status, list the talon's moves after a
deal), then made again on the engine alone and on a board, by turns, the same calls on the
same positions; each play is followed by the position's key, as in the search (the engine's
``position.key_maker``, the board's ``Board.key``). The ratio is how much faster the
position itself is as C data: what a search on the board could gain, before its own costs.
"""

from __future__ import annotations

import time

import engine
from bench.common import Section, fmt, median
from bench.solver import AFTER_DEAL, LEGAL, POP, PUSH, Call, depth_first, fresh, replay
from bench.winnability import seed
from engine.solver.board import Board, plain
from engine.solver.moves import Chooser
from engine.solver.position import key_maker
from engine.solver.search import collector_paused

POSITIONS = 20_000
ROUNDS = 3


def keying(key: str, i: int, calls: list[Call]) -> float:
    """CPU seconds of the engine's key at each position the calls play to."""
    st = fresh(key).deal(seed(i)).copy()
    keyed = key_maker(st.rules)
    with collector_paused():
        spent = 0.0
        for what, m in calls:
            if what == PUSH:
                st.push(m)  # type: ignore[arg-type]
                t0 = time.process_time()
                keyed(st)
                spent += time.process_time() - t0
            elif what == POP:
                st.pop()
    return spent


def on_board(key: str, i: int, calls: list[Call]) -> tuple[float, Board]:
    """CPU seconds of a board making ``calls`` from deal ``i``, each play keyed, and the
    board it leaves."""
    st = fresh(key).deal(seed(i)).copy()
    board = Board(st)
    talon = bytes(Chooser(st.rules).talon_sources or ())
    encoded = [(what, Board.encode(m) if m is not None else 0) for what, m in calls]
    play, undo, legal, moves, key_ = board.play, board.undo, board.legal, board.moves, board.key
    useful = board.useful
    with collector_paused():
        t0 = time.process_time()
        for what, m in encoded:
            if what == PUSH:
                play(m)
                key_()
            elif what == POP:
                undo()
            elif what == LEGAL:
                legal()
            elif what == AFTER_DEAL:
                [x for x in moves(talon) if useful(x)]
        return time.process_time() - t0, board


def run(quick: bool = False) -> Section:
    keys = [r.key for r in engine.rule_sets() if plain(r)]
    positions = 2_000 if quick else POSITIONS
    rows = []
    raw = {}
    for key in keys:
        calls: list[list[Call]] = []
        deals = [i for i, _, _ in depth_first(key, positions, calls)]
        on_e, on_b = [], []
        for _ in range(ROUNDS):
            on_e.append(sum(replay(key, i, log)[0] + keying(key, i, log)
                            for i, log in zip(deals, calls, strict=True)))
            on_b.append(sum(on_board(key, i, log)[0] for i, log in zip(deals, calls, strict=True)))
        n = sum(len(log) for log in calls)
        e, b = median(on_e), median(on_b)
        raw[key] = {"calls": n, "engine": on_e, "board": on_b}
        rows.append([f"`{key}`", f"{n:,}", f"{n / e:,.0f}", f"{n / b:,.0f}", fmt(e / b)])
    method = (
        f"For each rule set a board plays (engine/solver/board.py `plain`): the depth-first "
        f"search's calls to the engine over {positions:,} positions of deals 0, 1, ... "
        "(play, take back, list the legal moves with the status, list the talon's moves after "
        "a deal; bench/solver.py records them), made again on the engine alone and on a "
        "board, each play followed by the position's key; "
        f"{ROUNDS} rounds by turns, CPU time, medians; both compiled.")
    return Section("Solver board", method,
                   ["rule set", "calls", "engine calls/s", "board calls/s", "board / engine"],
                   rows, raw=raw)
