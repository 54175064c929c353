"""The node's worker processes (hint searches, analyses, the winnable-daily job, the daily's
integrity signal): CPU work kept off the event loop, in pools that belong to the node alone.

What a process runs lives in a module that imports the engine and nothing of the server's I/O
(``hints.py``, ``analyses.py`` here; ``engine.winnable``, ``server.fairplay.integrity``): a
spawned process imports the module of the function it is handed, and with it that module's
package, so a worker beside its feature's module paid for Redis, Starlette and the rest at
every start, three times what the engine costs it.

Processes are started by ``spawn``: a fork of a process running an event loop, threads and
Redis connections would copy them mid-flight. Each one dies with the node, even one killed
by SIGKILL before its lifespan could stop the pool (``PR_SET_PDEATHSIG``, on Linux), and
ignores the terminal's Ctrl-C: that interrupt reaches every process of the foreground group,
and is the node's to act on (it stops its pools); a worker that took it printed a traceback
of its own for each. It is blocked from the moment the process is made (the mask is
inherited), as the standard library's resource tracker does: a Ctrl-C while a worker was
still importing its first modules, before it could ignore it, was a fatal error on screen.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1


def pool(workers: int, nice: int = 0) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, started at its first task, each ``nice`` steps behind
    the node for the CPU."""
    return ProcessPoolExecutor(max(1, workers), mp_context=_DEAF,
                               initializer=start, initargs=(os.getpid(), nice))


class _DeafProcess(multiprocessing.context.SpawnProcess):
    """A spawned process made with Ctrl-C blocked, so it never sees one before it ignores it."""

    def start(self) -> None:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


class _DeafContext(multiprocessing.context.SpawnContext):
    Process = _DeafProcess


_DEAF = _DeafContext()


def start(parent: int, nice: int) -> None:
    """In each pool process, first: Ctrl-C left to the node, death with it, the niceness."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # ignored from now on
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the node died before the line above
        os._exit(0)
    if nice:
        os.nice(nice)


def stop(executor: ProcessPoolExecutor) -> None:
    """End the pool now: tasks waiting are dropped, the processes terminated (work under way
    is of no use to a node going down), and the pool's own thread waited for. Left running,
    that thread raced the interpreter's exit, whose hook for it then wrote to a pipe the thread
    had just closed: a traceback as a stopped node exited (Python 3.11)."""
    for p in list((getattr(executor, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            p.terminate()
    executor.shutdown(wait=True, cancel_futures=True)
