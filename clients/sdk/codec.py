"""The two wire encodings of the one message schema (docs/protocol.md#encodings)."""

from __future__ import annotations

import json
from typing import Any

import msgpack
from websockets.typing import Subprotocol

from .errors import ProtocolError

ENCODINGS = ("json", "msgpack")
#: what the client offers, best first: protocol v2 (acks that carry what changed), and v1 for
#: a server that does not speak v2 (its acks are whole; the client reads both)
SUBPROTOCOLS = {"json": [Subprotocol("samedeal.v2.json"), Subprotocol("samedeal.json")],
                "msgpack": [Subprotocol("samedeal.v2.msgpack"), Subprotocol("samedeal.msgpack")]}
CONTENT_TYPE = {"json": "application/json", "msgpack": "application/msgpack"}


def check(encoding: str) -> str:
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding is 'json' or 'msgpack', not {encoding!r}")
    return encoding


def encode(message: Any, encoding: str) -> str | bytes:
    """JSON goes in text frames, msgpack in binary ones: the server refuses a text frame on a
    msgpack socket."""
    if encoding == "msgpack":
        packed: bytes = msgpack.packb(message, use_bin_type=True)
        return packed
    return json.dumps(message, separators=(",", ":"))


def decode(data: str | bytes, encoding: str) -> dict[str, Any]:
    try:
        if isinstance(data, bytes) and encoding == "msgpack":
            message = msgpack.unpackb(data, raw=False)
        else:
            message = json.loads(data)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as e:
        raise ProtocolError(f"undecodable frame from the server: {e}") from e
    if not isinstance(message, dict):
        raise ProtocolError(f"a message is a map, got {type(message).__name__}")
    return message


def decode_body(body: bytes, content_type: str) -> Any:
    """A REST reply, in whichever encoding the server chose."""
    if not body:
        return None
    if content_type.startswith(CONTENT_TYPE["msgpack"]):
        return msgpack.unpackb(body, raw=False)
    return json.loads(body)
