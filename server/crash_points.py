"""A test hook, off unless the ``crash_at`` setting names a point: the process exits at once
(``os._exit``, no cleanup, as a kill -9 ends it) at the N-th store call of a named operation,
just before the call is sent or just after its reply arrived and before its caller sees it
(the change made, its answer lost). Tests stop a real node at every store call of a request
in turn and check that nothing is left half-done (tests/server/test_crash_points.py).

Production never sets it. The link (server/store/link.py) asks it about every command on one
Redis: single commands and scripts on the link, commands and pipelines on redis-py's pool.
The operation is the WebSocket request being handled (server/transport/ws.py), or one job of a
node's sweep, named ``sweep.<its qualified name>`` (``sweep.Arenas.run_due``: server/app.py);
calls are counted per request or per run of the job, from 1.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

#: The exit status of a node stopped at its crash point.
EXIT_CODE = 86

#: The operation being handled and how many store calls it made so far.
_counting: ContextVar[list[str | int] | None] = ContextVar("samedeal_crash_count",
                                                           default=None)


@contextlib.contextmanager
def operation(kind: str) -> Iterator[None]:
    """Count the store calls made while handling one ``kind`` request."""
    token = _counting.set([kind, 0])
    try:
        yield
    finally:
        _counting.reset(token)


@dataclass(frozen=True)
class CrashAt:
    """``<operation>:<N>:before`` or ``<operation>:<N>:after``."""

    operation: str
    call: int
    after: bool

    @classmethod
    def parse(cls, spec: str) -> CrashAt:
        kind, call, when = spec.rsplit(":", 2)
        if when not in ("before", "after") or int(call) < 1:
            raise ValueError(f"crash_at is <operation>:<N>:before|after, not {spec!r}")
        return cls(kind, int(call), when == "after")

    def before(self) -> int:
        """A store call is about to be sent: its number in the operation (0 outside it)."""
        count = _counting.get()
        if count is None or count[0] != self.operation:
            return 0
        count[1] = n = int(count[1]) + 1
        if n == self.call and not self.after:
            os._exit(EXIT_CODE)
        return n

    def answered(self, n: int) -> None:
        """The reply of call ``n`` arrived."""
        if n == self.call and self.after:
            os._exit(EXIT_CODE)
