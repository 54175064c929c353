"""Protocol v2's acks: what changed since the revision the client had, not the whole session.

A v2 ack of a move, undo or resign carries the fields of the session payload that changed
since the previous revision, and of the view only ``changes``: the piles that changed (each
whole: its ``down`` count and face-up cards) and the other view fields that changed. A field
left out is unchanged. When the client's revision is not the previous one (it never had
this session on this socket, another tab moved meanwhile, the process no longer has the
previous payload) the ack is the whole payload, as in v1. Both are built from the payloads
``session_payload`` builds, so a diff can name only what a full view would show.
See docs/protocol.md "Protocol v2".
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from .accounts import Player
from .api import Services, changed
from .sessions import foundation_cards, session_payload

#: session payload fields that never change within a session: a diff leaves them out
FIXED = frozenset({"session", "mode", "commitment", "created", "race", "daily"})


async def ack(sv: Services, player: Player, body: dict[str, Any], op: str,
              known: int | None) -> dict[str, Any]:
    """The v2 reply to ``op`` (move, undo, resign); ``known``: the revision of the session
    this socket was last sent. A race session's ack also carries ``seq``, the number of the
    ``race.progress`` event its change made (the mover's socket is not sent that event: the
    ack stands in its place), and ``cards`` (as in that event)."""
    t0 = time.perf_counter()
    cached = sv.sessions.cached(body["session"])
    before = cached.shown if cached is not None else None
    s = await changed(sv, player, body, op)
    if known is not None and before is not None and before["rev"] == known == s.rev - 1:
        # the view built from the piles the change touched, not every pile again
        after = session_payload(s, s.state.view_after(before["view"], s.moved))
        out = diff(before, after, [s.rules.pile_names[p] for p in s.moved])
    else:
        out = session_payload(s)
    if s.race:
        out["seq"] = s.progress_seq
        out["cards"] = foundation_cards(s.state)
    sv.metrics.moved(op, time.perf_counter() - t0)
    return out


def diff(before: dict[str, Any], after: dict[str, Any],
         piles: Iterable[str] | None = None) -> dict[str, Any]:
    """``after`` as the changes from ``before``, which must be the previous revision's
    payload of the same session; else ``after`` whole. ``piles``: the only piles that may
    have changed (default: any)."""
    if before["session"] != after["session"] or before["rev"] != after["rev"] - 1:
        return after
    if before.keys() - after.keys() or before["view"].keys() - after["view"].keys():
        return after  # a field that went away: a diff cannot say it
    out: dict[str, Any] = {"session": after["session"], "rev": after["rev"]}
    old, new = before["view"], after["view"]
    changes: dict[str, Any] = {}
    names = new["piles"] if piles is None else piles
    changed = {name: new["piles"][name] for name in names
               if old["piles"].get(name) != new["piles"][name]}
    if changed:
        changes["piles"] = changed
    for k, v in new.items():
        if k != "piles" and old.get(k) != v:
            changes[k] = v
    out["changes"] = changes
    for k, v in after.items():
        if k not in FIXED and k not in ("rev", "view") and before.get(k) != v:
            out[k] = v
    return out

