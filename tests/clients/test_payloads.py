"""The SDK's typed messages (clients/sdk/messages.py, clients/sdk/payloads.py) against the one
reply schema (server/transport/replies.py, as its TypedDicts): every field the SDK declares is
one the server sends, of a type the SDK's accepts, and one it calls always there is always
there. The SDK imports nothing of the server, so this test is what keeps the two together."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal, Union

import pytest

from clients.sdk import analysis, challenges, ghosts, messages, payloads
from server.transport import reply_types

#: Each SDK TypedDict and the schema's object it stands for.
SHAPES = {payloads.Pile: reply_types.Pile, payloads.View: reply_types.View,
          payloads.Yours: reply_types.Yours, payloads.Player: reply_types.Player,
          payloads.Entrant: reply_types.Entrant, payloads.Ranked: reply_types.Ranked,
          payloads.RaceBot: reply_types.RaceBot, payloads.DailyDeal: reply_types.DailyDeal,
          payloads.YouDeal: reply_types.YouDeal, payloads.BoardEntry: reply_types.Entry,
          payloads.Transcript: reply_types.SessionTranscript,
          payloads.League: reply_types.League, payloads.LeagueLeft: reply_types.LeagueLeftReply,
          payloads.LeagueListed: reply_types.LeaguesReplyLeague,
          payloads.Ghost: reply_types.Ghost, payloads.GhostRun: reply_types.GhostTranscript,
          payloads.Arena: reply_types.Arena, payloads.Profile: reply_types.Profile,
          payloads.MatchTranscript: reply_types.MatchTranscript}
#: Each SDK message class, the schema's object it is read from, and its renamed fields.
MESSAGES: list[tuple[type, type, dict[str, str]]] = [
    (messages.Session, reply_types.Session, {"id": "session"}),
    (messages.Race, reply_types.Race, {"id": "race"}),
    (messages.Results, reply_types.RaceResults, {}),
    (messages.Daily, reply_types.Daily, {}),
    (messages.Board, reply_types.Board, {}),
    (messages.BoardUpdate, reply_types.BoardUpdate, {}),
    (messages.Match, reply_types.Match, {"id": "match"}),
    *((cls, reply_types.EVENTS[kind], {}) for kind, cls in messages.RACE_EVENTS.items()),
    *((cls, reply_types.EVENTS[kind], {}) for kind, cls in messages.MATCH_EVENTS.items()),
    (challenges.Challenge, reply_types.Challenge, {"id": "challenge", "sender": "from"}),
    (ghosts.GhostProgress, reply_types.GhostProgressEvent, {}),
    (analysis.Position, reply_types.Judged, {}),
    (analysis.TurningPoint, reply_types.TurningPoint, {}),
]


def members(t: Any) -> tuple[Any, ...]:
    return typing.get_args(t) if typing.get_origin(t) in (Union, types.UnionType) else (t,)


def accepts(ours: Any, theirs: Any) -> bool:
    """Whether a value of the schema's type ``theirs`` is one of the SDK's type ``ours``."""
    if len(members(theirs)) > 1:
        return all(accepts(ours, t) for t in members(theirs))
    if len(members(ours)) > 1:
        return any(accepts(o, theirs) for o in members(ours))
    if ours in (Any, object) or ours is theirs:
        return True
    if typing.get_origin(theirs) is Literal:  # a later server may add a value
        values = typing.get_args(theirs)
        if typing.get_origin(ours) is Literal:
            return set(values) <= set(typing.get_args(ours))
        return isinstance(ours, type) and all(isinstance(v, ours) for v in values)
    if ours is float:
        return theirs in (int, float)
    if typing.is_typeddict(ours):
        return typing.is_typeddict(theirs) and not fields_wrong(ours, theirs)
    origin = typing.get_origin(ours)
    if origin is dict and typing.get_args(ours)[1] is object:
        return typing.is_typeddict(theirs) or typing.get_origin(theirs) is dict
    if origin in (list, dict):
        return typing.get_origin(theirs) is origin and all(
            accepts(o, t) for o, t in zip(typing.get_args(ours), typing.get_args(theirs),
                                          strict=True))
    return False


def fields_wrong(ours: Any, theirs: Any) -> list[str]:
    """What the SDK's TypedDict ``ours`` says that the schema's ``theirs`` does not."""
    mine, schema = typing.get_type_hints(ours), typing.get_type_hints(theirs)
    wrong = [f"{name}: not sent" for name in mine if name not in schema]
    wrong += [f"{name}: not always sent" for name in ours.__required_keys__
              if name in schema and name not in theirs.__required_keys__]
    wrong += [f"{name}: {schema[name]} is not {mine[name]}" for name in mine
              if name in schema and not accepts(mine[name], schema[name])]
    return wrong


@pytest.mark.parametrize("ours", list(SHAPES), ids=lambda t: t.__name__)
def test_each_payload_shape_is_the_schema_s(ours: Any) -> None:
    assert fields_wrong(ours, SHAPES[ours]) == []


@pytest.mark.parametrize(("ours", "theirs", "renamed"), MESSAGES,
                         ids=[f"{m[0].__name__}" for m in MESSAGES])
def test_each_message_s_fields_are_the_schema_s(ours: type, theirs: Any,
                                                  renamed: dict[str, str]) -> None:
    """A field with no default is one the server always sends; ``raw`` keeps the rest."""
    hints, schema = typing.get_type_hints(ours), typing.get_type_hints(theirs)
    wrong = []
    for f in dataclasses.fields(ours):
        key = renamed.get(f.name, f.name)
        if f.name in ("raw", "type"):
            continue
        if key not in schema:
            wrong.append(f"{f.name}: not sent")
            continue
        always = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if always and key not in theirs.__required_keys__:
            wrong.append(f"{f.name}: not always sent")
        if not accepts(hints[f.name], schema[key]):
            wrong.append(f"{f.name}: {schema[key]} is not {hints[f.name]}")
    assert wrong == []


def test_the_check_catches_a_wrong_field() -> None:
    """A misspelt field, a wrong type, a field called always there that is not."""

    class Misspelt(typing.TypedDict):
        plyer: str

    class Wrong(typing.TypedDict):
        player: int

    class Always(typing.TypedDict):
        player: str
        session: str

    assert fields_wrong(Misspelt, reply_types.Entrant) == ["plyer: not sent"]
    assert fields_wrong(Wrong, reply_types.Entrant) == [
        "player: <class 'str'> is not <class 'int'>"]
    assert fields_wrong(Always, reply_types.Entrant) == ["session: not always sent"]
    assert not accepts(list[str], list[int]) and accepts(float, int)
    assert not accepts(int, str | None) and accepts(str | None, str)
