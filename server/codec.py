"""The two wire encodings of one schema: JSON (text frames) and msgpack (binary frames)."""

from __future__ import annotations

import json
from typing import Any

import msgpack

from .errors import ApiError

JSON, MSGPACK = "json", "msgpack"
#: WebSocket subprotocols, best first, and the encoding each selects. The v2 ones (acks that
#: carry what changed, docs/protocol.md "Protocol v2") come first: a client offering both
#: versions gets v2.
SUBPROTOCOLS = {"samedeal.v2.msgpack": MSGPACK, "samedeal.v2.json": JSON,
                "samedeal.msgpack": MSGPACK, "samedeal.json": JSON}
V2 = frozenset({"samedeal.v2.msgpack", "samedeal.v2.json"})
MEDIA = {JSON: "application/json", MSGPACK: "application/msgpack"}


def encode(obj: Any, encoding: str) -> bytes:
    if encoding == MSGPACK:
        packed: bytes = msgpack.packb(obj, use_bin_type=True)
        return packed
    return text(obj).encode()


def text(obj: Any) -> str:
    """JSON for a text frame (which takes a ``str``: no round trip through bytes)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def decode(data: bytes | str, encoding: str, limit: int) -> Any:
    """The message in ``data``; ``frame.too_big`` or ``frame.malformed`` if it can't be one."""
    if len(data.encode() if isinstance(data, str) else data) > limit:
        raise ApiError("frame.too_big", f"a message is at most {limit} bytes")
    try:
        if encoding == MSGPACK:
            if isinstance(data, str):
                raise ValueError("msgpack comes in binary frames")
            return msgpack.unpackb(data, raw=False, strict_map_key=True)
        return json.loads(data)
    except (ValueError, msgpack.UnpackException, RecursionError) as e:
        name = "msgpack" if encoding == MSGPACK else "JSON"
        why = f" ({e})" if str(e) else ""
        raise ApiError("frame.malformed", f"that is not a {name} message{why}") from None
