"""A map of facts fixed for good (stored once in Redis: a day's beacon, a day's par), kept
in a process for the ``limit`` most recently kept or read (``[]``, not ``get``). The days
and rule sets they are keyed by come from requests, so without a limit a client asking
about day after day would grow the map for as long as the process runs; one dropped costs a
Redis read again."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Remembered(OrderedDict[K, V]):
    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def __getitem__(self, key: K) -> V:
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)
