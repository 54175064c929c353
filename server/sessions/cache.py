"""The game states a process keeps, so a move on a game in play is checked without
rebuilding its state from Redis (a deal and a replay of its move list).

What the cache saves is that replay, and only for games still being played: a finished game
is dropped at once, and a game nobody moved in for ``cache_idle`` seconds is dropped at the
next store (a player coming back costs one replay). ``cache_size`` caps it besides, least
recently used first, so a burst of games can never hold more than that many states.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import Session


class SessionCache:
    def __init__(self, size: int, idle: float) -> None:
        self.size = size
        self.idle = idle
        #: session id -> (the session, when it was last used, monotonic); oldest use first
        self._kept: OrderedDict[str, tuple[Session, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def peek(self, sid: str) -> Session | None:
        """The session if kept, its last use unchanged."""
        kept = self._kept.get(sid)
        return kept[0] if kept is not None else None

    def use(self, sid: str) -> Session | None:
        """The session if kept, marked as used now."""
        kept = self._kept.get(sid)
        if kept is None:
            return None
        self._kept[sid] = (kept[0], time.monotonic())
        self._kept.move_to_end(sid)
        return kept[0]

    def keep(self, s: Session) -> None:
        """Keep a game in play (a finished one is dropped), then drop the idle and the
        least recently used past ``size``."""
        if s.state.over:
            self._kept.pop(s.id, None)
            return
        now = time.monotonic()
        self._kept[s.id] = (s, now)
        self._kept.move_to_end(s.id)
        kept = self._kept
        while kept and (len(kept) > self.size or next(iter(kept.values()))[1] < now - self.idle):
            kept.popitem(last=False)

    def drop(self, sid: str) -> None:
        self._kept.pop(sid, None)
