"""A change sent again because its reply was lost (a dropped connection, a node that died
after storing it), told from a real conflict.

A move, undo or resign sent with ``rev`` N names the position it was chosen at. When the
session is past N and the change stored at revision N + 1 is the one asked for, and still
stands, the request was made before: it is answered as its first sending would have been,
not refused as a conflict. An undo or another move at N + 1, or that change taken back
since, is a real conflict.

Revisions count every change and an undo takes its entry off the move list, so the list
alone can't say which revision pushed which entry; the session's undo bits (a bit per
revision, set by the CHANGE script) can. Going back from the current revision, they give the
list's length at every revision down to N + 1: the entry pushed at N + 1 is the top one then,
and it stands if the list never got shorter than that since.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

import engine

from .. import store

#: What ``entry`` answers for a change no stored entry can be: a move that can't be read.
NOTHING = ""


def entry(rules: engine.RuleSet, op: str, move: str | dict[str, Any] | None) -> str | None:
    """The move-list entry a change would push (a move's text, ``resign``), ``None`` for an
    undo, which pushes none; ``NOTHING`` for a move that can't be read."""
    if op == "undo":
        return None
    if op == "resign":
        return "resign"
    try:
        m = engine.parse_move(rules, move) if isinstance(move, str) else engine.move_from_json(
            rules, move or {})
    except engine.IllegalMove:
        return NOTHING
    return engine.move_text(rules, m)


def undone(bits: bytes, rev: int) -> bool:
    """Whether revision ``rev`` was an undo (Redis numbers a string's bits from the first
    byte's highest)."""
    byte = rev >> 3
    return byte < len(bits) and bool(bits[byte] >> (7 - (rev & 7)) & 1)


def pushed_at(rev: int, now: int, length: int, bits: bytes) -> int | None:
    """The index in the move list of the entry revision ``rev`` pushed, if it is there still;
    ``None`` if that revision was an undo or its entry was taken back since. ``now`` and
    ``length``: the session's revision and move-list length now."""
    if not 0 < rev <= now or undone(bits, rev):
        return None
    lowest = length
    for k in range(now, rev, -1):  # the length at revision k - 1, from the one at k
        length += 1 if undone(bits, k) else -1
        lowest = min(lowest, length)
    return length - 1 if lowest >= length else None


async def made(redis: Redis, sid: str, rev: int, entry: str | None) -> bool:
    """Whether the change after revision ``rev`` of session ``sid`` is stored and stands:
    the move-list entry ``entry`` (a move's text, or ``resign``) it pushed, or an undo
    (``entry`` ``None``). One consistent read of the session."""
    if entry == NOTHING:
        return False
    key, moves_key = store.session_keys(sid)
    async with redis.pipeline(transaction=True) as pipe:
        pipe.hget(key, "rev")
        pipe.lrange(moves_key, 0, -1)
        pipe.get(store.undos_key(sid))
        now, entries, bits = await pipe.execute()
    if now is None or int(now) <= rev:
        return False
    bits = bits or b""
    if entry is None:
        return undone(bits, rev + 1)
    at = pushed_at(rev + 1, int(now), len(entries), bits)
    return at is not None and entries[at].decode().partition(" ")[2] == entry
