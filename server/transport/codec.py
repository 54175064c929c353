"""The two wire encodings of one schema: JSON (text frames) and msgpack (binary frames).

JSON goes through orjson, a C codec, wherever it gives exactly what Python's own ``json``
gives, and through ``json`` everywhere else, so hostile input is read, and refused, as it
always was. orjson refuses NaN, Infinity, lone surrogates (``"\\ud800"``), UTF-16 bytes and
a few more that ``json`` reads: whatever it refuses is read again by ``json``, which decides.
Where orjson reads differently it is never asked: an integer literal past 64 bits (orjson
makes it a float; 19 digits in a row anywhere send the frame to ``json``) and nesting deeper
than ``json`` goes (a frame with ``NESTED`` or more brackets). Writing, orjson refuses what
``json`` would write differently (a key that is not a string, an integer past 64 bits, a
dataclass or a date): ``json`` writes those. What is left differs in text, not in what a
client reads: floats' exponents (orjson writes ``1e-5`` where ``json`` writes ``1e-05``), and
a NaN or an infinity, which no reply holds, would be JSON's ``null`` instead of ``json``'s
``NaN``, which is not JSON at all.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgpack
import orjson

from ..errors import ApiError

JSON, MSGPACK = "json", "msgpack"
#: WebSocket subprotocols, best first, and the encoding each selects. The v2 ones (acks that
#: carry what changed, docs/protocol.md "Protocol v2") come first: a client offering both
#: versions gets v2.
SUBPROTOCOLS = {"samedeal.v2.msgpack": MSGPACK, "samedeal.v2.json": JSON,
                "samedeal.msgpack": MSGPACK, "samedeal.json": JSON}
V2 = frozenset({"samedeal.v2.msgpack", "samedeal.v2.json"})
MEDIA = {JSON: "application/json", MSGPACK: "application/msgpack"}


#: Objects orjson would write that ``json`` refuses: left to ``json``, which refuses them.
PASSTHROUGH = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
#: An integer literal orjson may read as a float (2**64 has 20 digits, -2**63 19).
LONG_DIGITS = re.compile(r"[0-9]{19}")
LONG_DIGITS_BYTES = re.compile(rb"[0-9]{19}")
#: Brackets from which a frame may nest deeper than ``json`` reads (its limit is Python's
#: recursion limit, 1000 frames less those in use); orjson reads 1024 deep.
NESTED = 512


def encode(obj: Any, encoding: str) -> bytes:
    if encoding == MSGPACK:
        packed: bytes = msgpack.packb(obj, use_bin_type=True)
        return packed
    try:
        return orjson.dumps(obj, option=PASSTHROUGH)
    except orjson.JSONEncodeError:
        return _slow_text(obj).encode()


def text(obj: Any) -> str:
    """JSON for a text frame (which takes a ``str``)."""
    try:
        return orjson.dumps(obj, option=PASSTHROUGH).decode()
    except orjson.JSONEncodeError:
        return _slow_text(obj)


def _slow_text(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def loads(data: bytes | str) -> Any:
    """``json.loads(data)``, by orjson where that reads the same (the module's docstring)."""
    if isinstance(data, str):
        odd = bool(LONG_DIGITS.search(data)) or data.count("[") + data.count("{") >= NESTED
    else:
        odd = (bool(LONG_DIGITS_BYTES.search(data))
               or data.count(b"[") + data.count(b"{") >= NESTED)
    if not odd:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass  # json decides, and says why in its own words
    return json.loads(data)


def decode(data: bytes | str, encoding: str, limit: int) -> Any:
    """The message in ``data``; ``frame.too_big`` or ``frame.malformed`` if it can't be one."""
    if len(data.encode() if isinstance(data, str) else data) > limit:
        raise ApiError("frame.too_big", f"a message is at most {limit} bytes")
    try:
        if encoding == MSGPACK:
            if isinstance(data, str):
                raise ValueError("msgpack comes in binary frames")
            return msgpack.unpackb(data, raw=False, strict_map_key=True)
        return loads(data)
    except (ValueError, msgpack.UnpackException, RecursionError) as e:
        name = "msgpack" if encoding == MSGPACK else "JSON"
        why = f" ({e})" if str(e) else ""
        raise ApiError("frame.malformed", f"that is not a {name} message{why}") from None
