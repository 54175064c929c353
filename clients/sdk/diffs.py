"""Protocol v2's acks (docs/protocol.md#protocol-v2): an ack carries what changed since the
previous revision; the client rebuilds the whole session payload from the one it had."""

from __future__ import annotations

from typing import Any

#: sessions whose latest payload the client keeps (a bot may play thousands of games)
KEPT_SESSIONS = 256
#: what a v2 ack carries besides the session payload's own fields
ACK_ONLY = frozenset({"changes", "seq", "cards"})


def apply(before: dict[str, Any] | None, ack: dict[str, Any]) -> dict[str, Any] | None:
    """The whole ack (``type``, ``id``, ``seq`` and ``cards`` kept) given the payload of the
    session the client had; ``None`` when that is not the revision before the ack's (the
    client then reads the session). A whole ack is returned as it is."""
    if "changes" not in ack:
        return ack
    if before is None or before.get("rev") != ack["rev"] - 1:
        return None
    out = {**before, **{k: v for k, v in ack.items() if k != "changes"}}
    changes = ack["changes"]
    out["view"] = {**before["view"], **changes,
                   "piles": {**before["view"]["piles"], **changes.get("piles", {})}}
    return out


def payload(message: dict[str, Any]) -> dict[str, Any]:
    """A session payload as kept between acks: without the message's own fields."""
    return {k: v for k, v in message.items() if k not in ACK_ONLY and k not in ("type", "id")}
