"""Python's cyclic garbage collector paused around work that makes many small objects and
keeps none of them in a cycle: the solver's searches (their tables) and the greedy bot's
sampled searches (their memos). Each pass of the collector would walk them all, and all
else the process holds, for nothing: about a tenth of a Klondike search's time, and in a
process holding much else (a server, a test run) most of a Pyramid bot move's."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The collector off for the block, and after it as it was before."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


__all__ = ["paused"]
