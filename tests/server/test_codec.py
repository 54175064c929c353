"""The JSON codec reads every frame exactly as Python's own ``json`` read it before orjson
came in (server/transport/codec.py): the same value, or the same refusal in the same words. Hostile
frames are generated (huge integers, NaN and infinities, lone surrogates, control characters,
duplicate keys, deep nesting, UTF-16 and BOMs in binary frames) and each is decoded both ways.
Writing, the codec's text reads back as the same value ``json`` wrote."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.errors import ApiError
from server.transport import codec

from .client import Node, Ws, player

LIMIT = 16384


def before(data: bytes | str) -> tuple[str, str]:
    """What the codec said before orjson: ``json.loads``, refusals as ``frame.malformed``."""
    try:
        return "ok", repr(json.loads(data))
    except (ValueError, RecursionError) as e:
        why = f" ({e})" if str(e) else ""
        return "frame.malformed", f"that is not a JSON message{why}"


def now(data: bytes | str) -> tuple[str, str]:
    try:
        return "ok", repr(codec.decode(data, codec.JSON, 10**6))
    except ApiError as e:
        return e.code, e.message


def same(data: bytes | str) -> None:
    if isinstance(data, str) and any("\ud800" <= c <= "\udfff" for c in data):
        data = data.encode("utf-8", "surrogatepass")  # only a binary frame can carry that
    assert now(data) == before(data), repr(data)[:200]


# ----- hostile JSON, built from the pieces an attacker uses --------------------------------

numbers = st.one_of(
    st.integers().map(str), st.integers(min_value=2**62, max_value=2**70).map(str),
    st.integers(max_value=-(2**62), min_value=-(2**70)).map(str),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "-0", "-0.0",
                     "18446744073709551615", "18446744073709551616", "-9223372036854775808",
                     "-9223372036854775809", "1" * 19, "0" * 19, "1" * 300, "4.9e-324",
                     "9007199254740993.0", "1.5", "1E+2", "01", "1.", ".5", "+1", "0x10"]),
    st.floats(allow_nan=False).map(repr))
escapes = st.sampled_from(["\\ud800", "\\udfff", "\\ud83d\\ude00", "\\ud83d", "\\u0000",
                           "\\u001f", "\\n", "\\/", "\\x41", "\\", "\\uZZZZ", "\\u00e9"])
raw = st.sampled_from(["\x00", "\x01", "\t", "\n", "\x7f", "\x85", "\u2028", "\ufeff", "é",
                       "\U0001f0a1", "\ud800", '"', "1234567890123456789"])
strings = st.lists(st.one_of(st.text(max_size=8), escapes, raw), max_size=5).map(
    lambda parts: '"' + "".join(parts) + '"')
keys = st.one_of(st.sampled_from(['"type"', '"id"', '"move"', '"a"']), strings)


def containers(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pairs = st.lists(st.tuples(keys, inner).map(":".join), max_size=4)
    return st.one_of(st.lists(inner, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]"),
                     pairs.map(lambda xs: "{" + ",".join(xs) + "}"),
                     pairs.map(lambda xs: "{" + ",".join(xs + xs[:1]) + "}"))  # duplicates


values = st.recursive(st.one_of(numbers, strings, st.sampled_from(["true", "null", "True"])),
                      containers, max_leaves=12)
spaces = st.sampled_from(["", " ", "\r\n", "\t", "\x0c", "\ufeff", "\u00a0", ",", "]"])
frames = st.tuples(spaces, values, spaces).map("".join)


@given(frames)
def test_hostile_text_frames_read_as_json_read_them(frame: str) -> None:
    same(frame)


@given(frames, st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32"]))
def test_hostile_binary_frames_read_as_json_read_them(frame: str, encoding: str) -> None:
    same(frame.encode(encoding, "surrogatepass"))


@given(st.text(max_size=60))
def test_any_text_reads_as_json_read_it(frame: str) -> None:
    same(frame)


@given(st.binary(max_size=60))
def test_any_bytes_read_as_json_read_them(frame: bytes) -> None:
    same(frame)


@pytest.mark.parametrize("depth", [10, 500, 511, 512, 900, 990, 1000, 1023, 1024, 1025, 5000])
@pytest.mark.parametrize("brackets", ["[]", "{}"])
def test_deep_nesting_reads_as_json_read_it(depth: int, brackets: str) -> None:
    if brackets == "[]":
        same("[" * depth + "]" * depth)
    else:
        same('{"a":' * depth + "1" + "}" * depth)


@pytest.mark.parametrize("n", [2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1,
                               10**30, -(10**300)])
def test_integers_past_64_bits_stay_integers(n: int) -> None:
    frame = json.dumps({"type": "move", "id": n, "rev": n})
    same(frame)
    message = codec.decode(frame, codec.JSON, LIMIT)
    assert type(message["id"]) is int and message["id"] == n


def test_a_frame_too_big_is_refused_before_it_is_read() -> None:
    with pytest.raises(ApiError) as e:
        codec.decode("[" + "1," * LIMIT + "1]", codec.JSON, LIMIT)
    assert e.value.code == "frame.too_big"


# ----- writing ------------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64 - 1),
              st.floats(allow_nan=False, allow_infinity=False),
              st.text(st.characters(blacklist_categories=("Cs",)))),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20)


@given(json_values)
def test_what_is_written_reads_back_as_json_wrote_it(value: Any) -> None:
    old = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert json.loads(codec.text(value)) == json.loads(old)
    assert codec.encode(value, codec.JSON) == codec.text(value).encode()


@pytest.mark.parametrize("value", [{1: "a", 2: [3]}, {"n": 2**64}, {"n": -(2**63) - 1},
                                   {True: None}])
def test_what_orjson_would_write_differently_is_written_by_json(value: Any) -> None:
    old = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert codec.text(value) == old
    assert codec.encode(value, codec.JSON) == old.encode()


def test_a_float_that_is_no_number_is_written_as_null() -> None:
    """The server writes no such float (scores and counts are integers); if one slipped
    through, JSON's null is what every client reads, where ``json``'s NaN broke them."""
    assert codec.text([math.nan, math.inf, -math.inf, 0.5]) == "[null,null,null,0.5]"


# ----- on a real node ----------------------------------------------------------------------

async def test_a_node_answers_hostile_json_as_before(node: Node) -> None:
    """Frames orjson alone would read differently, sent to a real node: each is refused with
    the code and words ``json`` gave."""
    _, token = await player(node)
    ws = await Ws.open(node, token)
    for frame, code, words in [
        ('{"type":"ping","id":18446744073709551616}', "message.invalid",
         "'id' is a string or an integer from -2**63 to 2**64-1"),
        ('{"type":"ping","id":NaN}', "message.invalid",
         "'id' is a string of at most 64 characters or an integer"),
        ('{"type":"ping","id":-9223372036854775809}', "message.invalid",
         "'id' is a string or an integer from -2**63 to 2**64-1"),
        ('{"type":"ping","x":"\\ud800"}', "bad.text", "'x' is not valid text"),
        ('{"type":"ping","x":' + "[" * 1000 + "]" * 1000 + "}", "frame.malformed",
         "that is not a JSON message (maximum recursion depth exceeded"),
    ]:
        await ws.send_raw(frame)
        reply = await ws.expect("error")
        assert reply["code"] == code and reply["message"].startswith(words), (frame, reply)
        assert "id" not in reply
    await ws.close()
