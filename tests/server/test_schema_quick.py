"""The compiled one-pass check (server/transport/schema.py ``fits``) only ever says yes to a message
that the two full passes, ``check_text`` and ``check_fields``, pass as it is: for every message
type, each field given valid, edge and hostile values (and unknown fields, and required ones left
out). A no costs nothing but time: the full passes then decide and word the refusal."""

from __future__ import annotations

import copy
import functools
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.errors import ApiError
from server.transport import schema

BAD_CHARS = ["\x00", "\x1f", "\x7f", "\x85", "\ud800", "\udfff"]


@functools.cache  # once per field: a strategy is immutable, and rebuilt at every draw it
def values(f: schema.Field) -> st.SearchStrategy[Any]:  # cost most of the test's time
    """Around the field's declaration: in range, on its edges, just out, wrong types, odd
    text."""
    edges = {f.lo - 1, f.lo, f.hi, f.hi + 1} if f.kind in ("string", "hex", "id") else set()
    lengths = st.sampled_from(sorted({0, 1, 2, 3, 64, 65, *edges} - {-1}))
    text = st.one_of(
        st.builds(lambda n, c: c * n, lengths, st.sampled_from(["a", "é", "0", "F", "g"])),
        st.sampled_from([*f.choices, "full", "bot", "t7-f1", "s", "", "2026-12-02",
                         "2026-12-0x", "\u0662\u0660\u0662\u0666-12-02"]),
        st.tuples(st.text(max_size=5), st.sampled_from(BAD_CHARS), st.text(max_size=5)).map(
            "".join))
    numbers = st.one_of(
        st.sampled_from([f.lo - 1, f.lo, f.hi, f.hi + 1, 0, -1, schema.ID_MIN, schema.ID_MAX,
                         schema.ID_MIN - 1, schema.ID_MAX + 1, 2**31, 2**31 + 1]),
        st.integers(), st.floats(), st.sampled_from([2.0, math.nan, -0.0]))
    other = st.one_of(st.booleans(), st.none(), st.lists(st.integers(), max_size=2),
                      st.dictionaries(st.sampled_from(["kind", "src", "\x00"]),
                                      st.one_of(st.text(max_size=3), st.integers()),
                                      max_size=2))
    return st.one_of(text, numbers, other)


@st.composite
def messages(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    fields = schema.MESSAGES[kind]
    m: dict[str, Any] = {"type": kind}
    for name, f in fields.items():
        if (draw(st.integers(0, 9)) == 0 and not f.required) or draw(st.integers(0, 19)) == 0:
            continue  # left out
        m[name] = draw(values(f))
    if draw(st.booleans()):
        m["id"] = draw(values(schema.REQUEST_ID))
    if draw(st.integers(0, 9)) == 0:
        m[draw(st.sampled_from(["extra", "x" * 65, "\x00", "Type"]))] = 1
    return m


def full_passes(m: dict[str, Any]) -> bool:
    try:
        schema.check_text(m)
        schema.check_fields(m["type"], m)
    except ApiError:
        return False
    return True


@pytest.mark.parametrize("kind", sorted(schema.MESSAGES))
@given(data=st.data())
def test_a_quick_yes_is_a_yes_of_the_full_checks(kind: str, data: st.DataObject) -> None:
    m = data.draw(messages(kind))
    if schema.fits(kind, m):
        unchanged = copy.deepcopy(m)
        assert full_passes(m), m
        assert m == unchanged and all(type(m[k]) is type(unchanged[k]) for k in m)


@pytest.mark.parametrize("message", [
    {"type": "move", "session": "r1.p2", "move": "t7-f1", "rev": 3, "id": 9},
    {"type": "move", "session": "s1", "move": "s", "id": "a-b"},
    {"type": "undo", "session": "s1"},
    {"type": "ping"},
    {"type": "race.create", "game": "klondike", "variant": "easy", "seats": 2, "start": "full",
     "join": True},
    {"type": "solo.start", "game": "golf", "variant": "easy", "seed": "00ff"},
])
def test_everyday_messages_take_the_quick_way(message: dict[str, Any]) -> None:
    assert schema.fits(message["type"], message) and full_passes(message)


@pytest.mark.parametrize("message", [
    {"type": "move", "session": "s1", "move": {"kind": "stock"}},  # a move object: full checks
    {"type": "move", "session": "s1", "move": "s", "rev": 2.0},  # made a whole number there
    {"type": "move", "session": "s1"},
    {"type": "move", "session": "s\x00", "move": "s"},
    {"type": "ping", "id": True},
])
def test_what_needs_the_full_checks_gets_them(message: dict[str, Any]) -> None:
    assert not schema.fits(message["type"], message)


@pytest.mark.parametrize(("kind", "field", "good", "bad", "code"), [
    ("daily.get", "day", "2026-12-02", "\u0662\u0660\u0662\u0666-12-02", "message.invalid"),
    ("daily.start", "day", "2026-12-02", "2026/12/02", "message.invalid"),
    ("race.bot", "strength", "hard", "strong", "bot.unknown_strength"),
])
def test_a_field_of_fixed_form_says_so_in_the_schema_and_the_refusal(
        kind: str, field: str, good: str, bad: str, code: str) -> None:
    base = {"game": "klondike", "variant": "easy"} if kind != "daily.get" else {}
    assert schema.validate(kind, base | {field: good})
    with pytest.raises(ApiError) as refused:
        schema.validate(kind, base | {field: bad})
    assert refused.value.code == code
    assert not schema.fits(kind, base | {"type": kind, field: bad})
    declared = schema.json_schema(kind)["properties"][field]
    assert "enum" in declared or declared["pattern"] == "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
