"""What the store's scripts (server/store/scripts.py) answer, by name.

A Lua script answers with a flat array: ``{1, ...}`` when it made its change, ``{0, why, ...}``
when it refused (``why`` is an error code, or ``conflict``: the caller read something that
changed meanwhile). Each script's answer is decoded here, once, into a small record, so callers
read ``reply.seq`` rather than ``reply[3]``; ``bind`` gives a script that answers with its
record.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from redis.asyncio import Redis

from .. import store

log = logging.getLogger("samedeal.store")
R = TypeVar("R")
Raw = Any  # what a script's EVALSHA returns: ints, bytes and nested arrays


def _text(value: Raw) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _refusal(raw: Sequence[Raw]) -> tuple[str, str]:
    """``why`` and ``detail`` of a ``{0, why[, detail]}`` answer."""
    return _text(raw[1]), _text(raw[2]) if len(raw) > 2 else ""


@dataclass(frozen=True)
class Done:
    """A script that answers ``{1, seq}`` (the event it published) or ``{0, why}``: LEAVE,
    START and END of races, MATCH_LEAVE, MATCH_START and MATCH_END."""

    ok: bool
    why: str = ""
    seq: int = 0

    @classmethod
    def of(cls, raw: Sequence[Raw]) -> Done:
        if raw[0] != 1:
            return cls(False, _refusal(raw)[0])
        return cls(True, seq=int(raw[1]))


@dataclass(frozen=True)
class Changed:
    """CHANGE: a session's move stored (``rev``, at the store's ``now``); in a race also the
    event's ``seq`` and how many entrants are ``done`` of ``entrants``. ``first``: this change
    ended the game for the first time. Refused: ``why`` and its ``detail`` (the revision for a
    conflict, ms to wait for ``race.not_started``)."""

    ok: bool
    why: str = ""
    detail: str = ""
    rev: int = 0
    now: int = 0
    seq: int = 0
    done: int = 0
    entrants: int = 0
    first: bool = False

    @classmethod
    def of(cls, raw: Sequence[Raw]) -> Changed:
        if raw[0] != 1:
            why, detail = _refusal(raw)
            return cls(False, why, detail)
        _, rev, now, seq, done, entrants, first = raw
        return cls(True, rev=int(rev), now=int(now), seq=int(seq), done=int(done),
                   entrants=int(entrants), first=int(first) == 1)

    @property
    def everyone_done(self) -> bool:
        """A race entrant's change after which every entrant is done."""
        return self.done >= self.entrants


@dataclass(frozen=True)
class Opened:
    """OPEN: whether the session was created; else the existing one's ``status``."""

    created: bool
    status: str = ""

    @classmethod
    def of(cls, raw: Raw) -> Opened:
        return cls(True) if raw == 1 else cls(False, _text(raw))


@dataclass(frozen=True)
class Closed:
    """CLOSE: a daily attempt closed to moves; ``exists`` false when it is gone. ``last`` is
    the last move's entry ("<server ms> <move>", "" for none)."""

    status: str
    created: int
    finished_at: int | None
    last: str

    @property
    def exists(self) -> bool:
        return bool(self.status)

    @property
    def last_at(self) -> int | None:
        """The server ms of the last move, ``None`` before any."""
        return int(self.last.partition(" ")[0]) if self.last else None

    @classmethod
    def of(cls, raw: Sequence[Raw]) -> Closed:
        status, created, finished, last = map(_text, raw)
        return cls(status, int(created) if created else 0,
                   int(finished) if finished else None, last)


@dataclass(frozen=True)
class Seated:
    """JOIN and MATCH_JOIN: a seat taken, ``seated`` of ``seats``, by the event ``seq``."""

    ok: bool
    why: str = ""
    seated: int = 0
    seats: int = 0
    seq: int = 0

    @property
    def full(self) -> bool:
        return self.seated >= self.seats

    @classmethod
    def of(cls, raw: Sequence[Raw]) -> Seated:
        if raw[0] != 1:
            return cls(False, _refusal(raw)[0])
        return cls(True, seated=int(raw[1]), seats=int(raw[2]), seq=int(raw[3]))


@dataclass(frozen=True)
class Rematched:
    """REMATCH: the ``rematch`` recorded on the old race or match; ``seq`` is the event that
    announced it when this request recorded it, 0 when an earlier one had."""

    ok: bool
    why: str = ""
    rematch: str = ""
    seq: int = 0

    @property
    def first(self) -> bool:
        return self.seq > 0

    @classmethod
    def of(cls, raw: Sequence[Raw]) -> Rematched:
        if raw[0] != 1:
            return cls(False, _refusal(raw)[0])
        return cls(True, rematch=_text(raw[1]), seq=int(raw[2]))


@dataclass(frozen=True)
class Moved:
    """MATCH_MOVE: a Bowling move stored, the match now at ``rev``, by the event ``seq``."""

    ok: bool
    why: str = ""
    rev: int = 0
    seq: int = 0

    @classmethod
    def of(cls, raw: Sequence[Raw]) -> Moved:
        if raw[0] != 1:
            return cls(False, _refusal(raw)[0])
        return cls(True, rev=int(raw[1]), seq=int(raw[2]))


@dataclass(frozen=True)
class Placed:
    """MATCH_PLACE: a called card placed (or a player out) by the event ``seq``; ``outcome``
    ``wait`` (others still to place), ``round`` (the next card called) or ``last`` (the
    match's end is due)."""

    ok: bool
    why: str = ""
    seq: int = 0
    outcome: str = ""

    @property
    def last(self) -> bool:
        return self.outcome == "last"

    @classmethod
    def of(cls, raw: Sequence[Raw]) -> Placed:
        if raw[0] != 1:
            return cls(False, _refusal(raw)[0])
        return cls(True, seq=int(raw[1]), outcome=_text(raw[2]))


@dataclass(frozen=True)
class Streak:
    """STREAK (server/boards/records.py): the streak's ``days`` now and the ``best`` ever. Decoded
    with ``of`` rather than bound: it also runs inside a pipeline, answered at its end."""

    days: int
    best: int

    @classmethod
    def of(cls, raw: Sequence[Raw]) -> Streak:
        days, best = raw
        return cls(int(days), int(best))


def changed(raw: Raw) -> bool:
    """MATCH_HERE: whether the player's presence changed (1: now away, 2: back; 0: no)."""
    return int(raw) != 0


def claimed(raw: Raw) -> int:
    """CLAIM: the stamp of the follow-up's latest expectation when this node took it over (0
    if it has none), else -1."""
    return int(raw)


def settled(raw: Raw) -> bool:
    """SETTLE: whether the follow-up was settled (not expected again since its claim)."""
    return int(raw) == 1


class Bound(Generic[R]):
    """A script that answers with its record; with ``durable_wait`` (seconds), only once a
    replica has its writes too, or that long has passed (the ``durable`` setting)."""

    def __init__(self, redis: Redis, lua: str, decode: Callable[[Raw], R],
                 durable_wait: float | None = None) -> None:
        self.redis = redis
        self._run = store.script(redis, lua)
        self._decode = decode
        self._wait_ms = None if durable_wait is None else int(durable_wait * 1000)

    async def __call__(self, keys: list[str], args: list[Any] | None = None) -> R:
        if self._wait_ms is None:
            return self._decode(await self._run(keys=keys, args=args or []))
        answer, replicas = await store.durably(self.redis, self._run, keys, args or [],
                                               self._wait_ms)
        if replicas < 1:
            log.warning("no replica acknowledged a change to %s within %d ms; acknowledged "
                        "anyway", keys[0], self._wait_ms)
        return self._decode(answer)


def bind(redis: Redis, lua: str, decode: Callable[[Raw], R],
         durable_wait: float | None = None) -> Bound[R]:
    return Bound(redis, lua, decode, durable_wait)
