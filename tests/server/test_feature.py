"""The one contract features plug in through (server/feature.py): a declaration that does not
fit fails when the features are registered, and the transports know no feature."""

from __future__ import annotations

import ast
import typing
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import engine
import engine.views
from server.accounts import Player
from server.app import FEATURES
from server.ended import GameEnded, MatchEnded, RaceEnded
from server.feature import Feature, Listen, Operation, Stream, answers, register
from server.transport import messages, replies, reply_types, schema, typed_messages, typed_replies
from server.transport.messages import LeagueCode, LeagueGet, RaceSubscribe, RaceUnsubscribe
from server.transport.reply_types import League, LeagueLeftReply
from server.transport.rest import get, post

ROOT = Path(__file__).resolve().parents[2]
#: The packages of the ways to play and compete: the transports import none of them.
FEATURE_PACKAGES = {"analyses", "arenas", "boards", "botrace", "challenges", "daily", "ghosts",
                    "hints", "leagues", "matches", "races"}


#: What the handlers below answer: registration reads their annotations, never runs them.
LEAGUE: League = {"league": "l1", "name": "Club", "code": "c1", "created": 0,
                  "owner": {"id": "p1", "name": "Ann"}, "members": []}


async def nothing(sv: Any, player: Player, body: LeagueGet) -> League:
    return LEAGUE


async def recode(sv: Any, player: Player, body: LeagueCode) -> League:
    return LEAGUE


async def untyped(sv: Any, player: Player, body: dict[str, Any]) -> League:
    return LEAGUE


async def plain(sv: Any, player: Player, body: LeagueGet) -> dict[str, Any]:
    return {}


async def left(sv: Any, player: Player, body: LeagueGet) -> LeagueLeftReply:
    return {"league": "l1", "closed": False}


async def answer(socket: Any, kind: str, m: RaceSubscribe | RaceUnsubscribe) -> None:
    return None


def refused(*features: Feature) -> str:
    with pytest.raises(ValueError) as e:
        register(*features)
    return str(e.value)


def test_a_message_type_declared_twice_fails() -> None:
    one = Feature("one", operations={"league.get": Operation(nothing, "league")})
    two = Feature("two", operations={"league.get": Operation(nothing, "league")})
    assert "'league.get' is declared twice" in refused(one, two)


def test_an_operation_outside_the_message_schema_fails() -> None:
    typo = Feature("typo", operations={"league.gett": Operation(nothing, "league")})
    assert "not in the message schema" in refused(typo)
    socket = Feature("socket", socket={"race.subscrib": answer})
    assert "not in the message schema" in refused(socket)


def test_a_reply_type_the_reply_schema_does_not_know_fails() -> None:
    typo = Feature("typo", operations={"league.get": Operation(nothing, "leag")})
    assert "replies 'leag'" in refused(typo)


def test_a_route_running_an_operation_nobody_declares_fails() -> None:
    routes = Feature("routes", endpoints=[get("/leagues/{league}", "league.get", "A league")])
    assert "runs 'league.get', which no feature declares" in refused(routes)


def test_a_route_declared_twice_fails() -> None:
    ops = {"league.code": Operation(recode, "league")}
    one = Feature("one", operations=ops, endpoints=[post("/x/{league}", "league.code", "", ())])
    two = Feature("two", endpoints=[post("/x/{league}", "league.code", "", ())])
    assert "routes declared twice" in refused(one, two)


def test_a_handler_taking_another_message_fails() -> None:
    """A handler is handed the message it is registered for: typed with another's, or with
    a plain dict (which mypy would not check), it fails; one typed for several messages
    serves each of them."""
    wrong = Feature("wrong", operations={"league.code": Operation(nothing, "league")})
    assert "'league.code' is handled by nothing, which takes" in refused(wrong)
    assert "not LeagueCode" in refused(wrong)
    plain = Feature("plain", operations={"league.get": Operation(untyped, "league")})
    assert "not LeagueGet" in refused(plain)
    socket = Feature("socket", socket={"match.subscribe": answer})
    assert "not MatchSubscribe" in refused(socket)
    both = register(Feature("both", socket={"race.subscribe": answer,
                                            "race.unsubscribe": answer}))
    assert set(both.socket) == {"race.subscribe", "race.unsubscribe"}


def test_an_operation_that_seats_has_present_in_its_message() -> None:
    """The socket adds ``present`` to a seating operation's message: its type says so."""
    seats = Feature("seats", operations={"league.get": Operation(nothing, "league",
                                                                 seats=True)})
    assert "'league.get' seats the caller" in refused(seats)
    seating = {k for k, op in FEATURES.operations.items() if op.seats}
    assert seating == set(typed_messages.SOCKET_ADDS)
    assert all("present" in messages.MESSAGES[k].__optional_keys__ for k in seating)


def test_the_message_types_are_what_the_schema_makes() -> None:
    """server/transport/messages.py is what its generator writes from the schema now: run
    ``python -m server.transport.typed_messages`` after changing the schema."""
    assert typed_messages.OUT.read_text() == typed_messages.generate()
    assert set(messages.MESSAGES) == set(schema.MESSAGES)
    race = messages.MESSAGES["race.create"]
    assert race.__required_keys__ == {"type", "game", "variant", "seats"}
    assert race.__optional_keys__ == {"id", "start", "time_limit", "countdown", "join"}


async def summary(sv: Any, eid: str, viewer: str | None) -> dict[str, Any]:
    return {"seq": 0}


def test_the_reply_types_are_what_the_reply_schema_makes() -> None:
    """server/transport/reply_types.py is what its generator writes from the reply schema
    now: run ``python -m server.transport.typed_replies`` after changing it."""
    assert typed_replies.OUT.read_text() == typed_replies.generate()
    assert set(reply_types.REPLIES) == set(replies.REPLIES)
    assert set(reply_types.EVENTS) == set(replies.EVENTS)
    session = reply_types.REPLIES["session"]
    assert session.__required_keys__ == set(replies.SESSION["required"])
    assert session.__optional_keys__ == set(replies.SESSION["properties"]) - set(
        replies.SESSION["required"])


def test_the_engine_views_are_the_schema_views() -> None:
    """The engine's view (engine/views.py) is what the reply schema calls a view: the same
    fields, required alike, of the same types, so that a view the engine makes is one mypy
    holds to the schema, with nothing converted between."""
    for ours, theirs in ((engine.views.View, reply_types.View),
                         (engine.views.PileView, reply_types.Pile)):
        assert ours.__required_keys__ == theirs.__required_keys__
        assert ours.__optional_keys__ == theirs.__optional_keys__
        mine, schema = typing.get_type_hints(ours), typing.get_type_hints(theirs)
        assert set(mine) == set(schema)
        for name in mine:
            if name != "piles":  # a dict of each one's own pile type, checked next
                assert mine[name] == schema[name], name
    view = engine.get("klondike", "easy").deal(bytes(4)).view()
    jsonschema.validate(view, replies.VIEW)


def test_a_handler_answering_another_reply_or_a_plain_dict_fails() -> None:
    """A handler answers its reply type's TypedDict, which mypy holds to the reply schema:
    another's, or a plain dict (which mypy would not check), fails."""
    assert register(Feature("ok", operations={"league.get": Operation(nothing, "league")}))
    wrong = Feature("wrong", operations={"league.get": Operation(left, "league")})
    assert "whose payload is League" in refused(wrong)
    loose = Feature("loose", operations={"league.get": Operation(plain, "league")})
    assert "but its handler answers dict[str, typing.Any]" in refused(loose)


def test_every_handler_answers_its_reply_type() -> None:
    for kind, op in FEATURES.operations.items():
        answered = answers(op)
        assert typing.is_typeddict(answered), kind
        assert answered is reply_types.REPLIES["session" if op.reply == "ack" else op.reply]


def test_a_stream_declared_twice_or_naming_unknown_messages_fails() -> None:
    race = Stream("race", summary, ended=frozenset({"race.ended"}))
    assert "'race' is declared twice" in refused(Feature("a", streams=[race]),
                                                 Feature("b", streams=[race]))
    assert "no reply type" in refused(Feature("a", streams=[
        Stream("rase", summary, ended=frozenset({"race.ended"}))]))
    assert "['race.endd']" in refused(Feature("a", streams=[
        Stream("race", summary, ended=frozenset({"race.endd"}))]))
    assert "['match.yuo']" in refused(Feature("a", streams=[
        Stream("match", summary, ended=frozenset(), owned=frozenset({"match.yuo"}))]))
    assert set(FEATURES.streams) == {"race", "match"}


async def test_an_end_reaches_the_features_listening_for_its_kind_in_order() -> None:
    heard: list[tuple[str, object]] = []

    def listener(name: str) -> Any:
        async def handler(sv: Any, ended: Any) -> None:
            heard.append((name, ended))
        return handler

    features = register(
        Feature("a", listens=[Listen(RaceEnded, listener("a.race"))]),
        Feature("b", listens=[Listen(MatchEnded, listener("b.match")),
                              Listen(RaceEnded, listener("b.race"))]))
    race, match = RaceEnded({"race": "r1", "ghost": "g1"}), MatchEnded({"match": "m1"})
    await features.ended(None, race)  # type: ignore[arg-type]
    await features.ended(None, match)  # type: ignore[arg-type]
    assert heard == [("a.race", race), ("b.race", race), ("b.match", match)]
    assert race.ghost == "g1" and race.bot is None


def test_the_ends_reach_the_features_that_record_them() -> None:
    """A race's end reaches its analysis, its bot race, its statistics and ratings, its
    ghost race and its arena; a match's, its analysis and statistics; a practice game's,
    its statistics."""
    def listening(kind: type) -> list[str]:
        return [f.name for f in FEATURES.features for listen in f.listens
                if listen.ended is kind]

    assert listening(RaceEnded) == ["analyses", "bot races", "boards", "ghosts", "arenas"]
    assert listening(MatchEnded) == ["analyses", "boards"]
    assert listening(GameEnded) == ["boards"]


def test_a_route_answers_what_its_operation_replies() -> None:
    """A route that runs an operation takes its reply schema from it at registration."""
    ops = {"league.get": Operation(nothing, "league")}
    (route,) = register(Feature("f", operations=ops, endpoints=[
        get("/leagues/{league}", "league.get", "A league")])).endpoints
    assert route.reply is not None and "league" in route.reply["properties"]


def test_every_message_but_the_rest_only_ones_is_answered_on_the_socket() -> None:
    """What a socket may send is what the features declare, and that is the whole schema
    but registration and the operator's calls (REST only)."""
    rest_only = {"player.register", "arena.create", "arena.cancel"}
    assert FEATURES.ws_types == set(schema.MESSAGES) - rest_only
    routed = {e.message for e in FEATURES.endpoints}
    assert rest_only <= routed


def imports(path: Path) -> set[str]:
    """The server's packages a module imports (relative imports from server/transport/)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("module", sorted((ROOT / "server" / "transport").glob("*.py")),
                         ids=lambda p: p.name)
def test_the_transports_import_no_feature(module: Path) -> None:
    """The transports look messages, routes and hooks up in the registry; a feature's own
    code is reached only through it (the message schema reads the installed bots' strengths
    for ``race.bot``'s field)."""
    allowed = {"botrace"} if module.name == "schema.py" else set()
    assert imports(module) & FEATURE_PACKAGES <= allowed



@pytest.mark.parametrize("module", sorted((ROOT / "server" / "transport").glob("*.py")),
                         ids=lambda p: p.name)
def test_the_transports_name_no_feature_message(module: Path) -> None:
    """No transport knows a game mode by its messages (a race's start, a match's own grid):
    the streams' features say which events end a stream and which are followed by a player's
    own. The message schema, its types (made from it, with what the socket adds) and the reply
    schema name every message: they are the exception."""
    if module.name in ("schema.py", "messages.py", "typed_messages.py", "replies.py",
                       "reply_types.py", "typed_replies.py"):
        return
    tree = ast.parse(module.read_text(), str(module))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and n.body and isinstance(n.body[0], ast.Expr)}
    named = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and id(n) not in docs
             and n.value.split(".")[0] in FEATURE_WORDS}
    assert not named


#: The first word of the messages of the ways to play and compete (``race.join``,
#: ``match.you``, ...); sessions and accounts are every transport's business.
FEATURE_WORDS = {kind.split(".")[0] for f in FEATURES.features if f.name in FEATURE_PACKAGES
                 for kind in (*f.operations, *f.socket)} | set(FEATURES.streams)
