"""Protocol v2's acks: what changed since the revision the client had, not the whole session.

A v2 ack of a move, undo or resign carries the fields of the session payload that changed
since the previous revision, and of the view only ``changes``: the piles that changed (each
whole: its ``down`` count and face-up cards) and the other view fields that changed. A field
left out is unchanged. When the client's revision is not the previous one (it never had
this session on this socket, another tab moved meanwhile, the process no longer has the
previous payload) the ack is the whole payload, as in v1. The changes are built from the
piles the change touched (the engine's ``moved_piles``, ``view_after``) and the payload the
session last built, so a diff can name only what a full view would show.
See docs/protocol.md "Protocol v2".
"""

from __future__ import annotations

import time
from typing import Any, cast

from ..accounts import Player
from ..api import Change, Services, changed
from ..sessions import Session, live_fields, session_payload
from .reply_types import Ack, AckChanges
from .reply_types import Session as SessionPayload


async def ack(sv: Services, player: Player, body: dict[str, Any], op: str,
              known: int | None) -> Ack:
    """The v2 reply to ``op`` (move, undo, resign); ``known``: the revision of the session
    this socket was last sent. A race session's ack also carries ``seq``, the number of the
    ``race.progress`` event its change made (the mover's socket is not sent that event: the
    ack stands in its place), and ``cards`` (as in that event). A change made before (sent
    again: ``repeated``) is answered whole, with neither: this sending made no event."""
    t0 = time.perf_counter()
    cached = sv.sessions.cached(body["session"])
    before = cached.shown if cached is not None else None
    s, repeated = await changed(sv, player, cast(Change, body), op)  # checked: op's schema
    out: Ack | None = None
    if repeated:
        out = whole(s)
        out["repeated"] = True
        return out
    if known is not None and before is not None and before["rev"] == known == s.rev - 1:
        out = changes_since(s, before)
    if out is None:
        out = whole(s)
    if s.race:
        out["seq"] = s.progress_seq
        out["cards"] = s.cards
    sv.metrics.moved(op, time.perf_counter() - t0)
    return out


def whole(s: Session) -> Ack:
    """The session payload as an ack (the schema's first form of one): a dict built for
    this reply, which the ack adds to."""
    return cast(Ack, session_payload(s))


def changes_since(s: Session, before: SessionPayload) -> Ack | None:
    """The ack of the change from ``before`` (the payload of the revision before it) to the
    session now: the piles the change touched, whole, and every other field that changed.
    ``None`` when a field went away (a diff cannot say that: the ack is then whole)."""
    view = s.state.view_after(before["view"], s.moved)
    old = before["view"]
    if old.keys() - view.keys():
        return None
    live = live_fields(s)
    if "seed" in before and "seed" not in live:
        return None
    names = s.rules.pile_names
    changes: AckChanges = {}
    piles = {names[p]: view["piles"][names[p]] for p in sorted(s.moved)
             if view["piles"][names[p]] != old["piles"][names[p]]}
    if piles:
        changes["piles"] = piles
    # The view's fields besides its piles that a change may change.
    if view["status"] != old["status"]:
        changes["status"] = view["status"]
    if view["score"] != old["score"]:
        changes["score"] = view["score"]
    if view["moves"] != old["moves"]:
        changes["moves"] = view["moves"]
    if "info" in view and view["info"] != old.get("info"):
        changes["info"] = view["info"]
    out: Ack = {"session": s.id, "rev": s.rev, "changes": changes}
    if live["legal"] != before["legal"]:
        out["legal"] = live["legal"]
    if live["safe"] != before["safe"]:
        out["safe"] = live["safe"]
    if live["can_undo"] != before["can_undo"]:
        out["can_undo"] = live["can_undo"]
    if "seed" in live and live["seed"] != before.get("seed"):
        out["seed"] = live["seed"]
    s.shown = {**before, "rev": s.rev, "view": view, **live}
    return out
