"""The solver's side of a hint, in the hint process pool: engine work only, no I/O.

The search is CPU work (up to ``hint_seconds``): run on the event loop it would stall every
socket of the node, so the app factory makes a pool of ``hint_workers`` processes for it and
the lifespan shuts it down. Processes are started by ``spawn``: a fork of a process running
an event loop, threads and Redis connections would copy them mid-flight.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor

import engine
from engine.hints import hint, visited
from engine.solver import Budget

PR_SET_PDEATHSIG = 1


def pool(workers: int) -> ProcessPoolExecutor:
    """The hint pool; its processes start at the first search (or ``ready``), each dying
    with the node (``die_with``), however it ends."""
    return ProcessPoolExecutor(max(1, workers), mp_context=multiprocessing.get_context("spawn"),
                               initializer=die_with, initargs=(os.getpid(),))


def die_with(parent: int) -> None:
    """In each pool process: a SIGTERM when the node's process dies (``PR_SET_PDEATHSIG``, on
    Linux), even killed (SIGKILL) before its lifespan could stop the pool."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the node died before the line above
        os._exit(0)


def stop(executor: ProcessPoolExecutor) -> None:
    """End the pool now: searches waiting are dropped and the processes terminated (a search
    under way is of no use to a node going down)."""
    procs = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        with contextlib.suppress(Exception):
            p.terminate()


def ready() -> bool:
    """Run once at startup so the first player's hint does not wait for a process to start
    and import the engine."""
    return True


def search(snapshot: bytes, moves: list[str], positions: int, seconds: float
           ) -> tuple[str, list[str], int | None, bool]:
    """The hint from the position ``snapshot`` (``State.snapshot``) reached by ``moves`` (the
    game's, in notation, from its deal): its source, and the moves in notation (the solver's
    whole line from here, or the one likely move; none when no useful move is left), a scored
    game's score at the end of the line, and whether the search proved the position lost."""
    st = engine.restore(snapshot)
    rules = st.rules
    played = [engine.parse_move(rules, m) for m in moves]
    h = hint(st, Budget(positions=positions, seconds=seconds), played[-1] if played else None,
             visited(rules.deal(st.seed), played, st))
    line = h.line or ((h.move,) if h.move is not None else ())
    return h.source, [engine.move_text(rules, m) for m in line], h.score, h.lost
