"""The one message schema: every inbound WebSocket message and REST body is checked here
first, before anything else sees it. The same declarations feed the OpenAPI document.

``fits`` comes first on the WebSocket: one pass with a check compiled per field, which only
says yes to a message the two passes below would pass unchanged (a plain move is its daily
bread); anything else, odd or hostile, goes through them, which decide and word the refusal.

Two passes. ``check_text`` looks at every string anywhere in a message (field names and
values, nested move objects, the request id) and refuses what is not plain text: a lone
surrogate (which JSON's ``\\ud800`` escape can carry, and which no encoder downstream can
write), or a control character (none has a use in any field). ``check_fields`` then checks
each field against its declaration. REST path parameters, query strings and the bearer token
go through the same checks (``check_param``, ``check_token``).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..botrace.player import STRENGTHS
from ..errors import ApiError

HEX = frozenset(string.hexdigits)
#: Not text: C0 controls (NUL included), DEL, C1 controls and lone UTF-16 surrogates.
NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: The same rule for the OpenAPI document (a JSON Schema pattern; a lone surrogate can't be
#: written in one, and JSON Schema strings are Unicode text already).
TEXT_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
#: The longest field name, and the longest string inside a move object.
NAME_MAX = 64
#: A request id that is an integer is one msgpack can carry back: -2**63 to 2**64 - 1.
ID_MIN, ID_MAX = -(2**63), 2**64 - 1


@dataclass(frozen=True)
class Field:
    kind: str  # string | integer | boolean | hex | move | id
    required: bool = True
    lo: int = 0
    hi: int = 64  # the largest integer, or the longest string
    choices: tuple[str, ...] = ()
    doc: str = ""
    #: A string's form, as a regular expression it must match whole (and the same in the
    #: OpenAPI document), with the refusal's wording: what the form is, in words.
    pattern: str = ""
    form: str = ""
    #: The code a value outside ``choices`` is refused with.
    refusal: str = "message.invalid"

    def check(self, name: str, value: Any) -> None:
        """``value`` fits this field (its text was checked before: ``check_text``)."""
        kind = self.kind
        if kind in ("string", "hex"):
            if not isinstance(value, str):
                raise _bad(f"'{name}' is a string")
            if len(value) > self.hi:
                raise too_long(f"'{name}'", self.hi)
            if len(value) < self.lo:
                raise _bad(f"'{name}' is {self.lo} to {self.hi} characters long")
            if kind == "hex" and (len(value) % 2 or not HEX.issuperset(value)):
                raise _bad(f"'{name}' is hex, two digits a byte")
            if self.choices and value not in self.choices:
                raise ApiError(self.refusal, f"'{name}' is one of {', '.join(self.choices)}")
            if self.pattern and not re.fullmatch(self.pattern, value):
                raise _bad(f"'{name}' is {self.form}")
        elif kind == "integer":
            if type(value) is not int:
                raise _bad(f"'{name}' is a whole number")
            if not self.lo <= value <= self.hi:
                raise _bad(f"'{name}' is from {self.lo} to {self.hi}")
        elif kind == "boolean":
            if type(value) is not bool:
                raise _bad(f"'{name}' is true or false")
        elif kind == "move":
            if isinstance(value, str):
                if len(value) > NAME_MAX:
                    raise too_long(f"'{name}'", NAME_MAX)
            elif not isinstance(value, dict) or len(value) > 8 or not all(
                    _move_part(v) for v in value.values()):
                raise _bad(f"'{name}' is a move in notation ('t7-f1') or its JSON object")
        elif kind == "id":
            if type(value) is int:
                if not ID_MIN <= value <= ID_MAX:
                    raise _bad(f"'{name}' is a string or an integer from -2**63 to 2**64-1")
                return
            if not isinstance(value, str):
                raise _bad(f"'{name}' is a string of at most 64 characters or an integer")
            if len(value) > self.hi:
                raise too_long(f"'{name}'", self.hi)

    def json_schema(self) -> dict[str, Any]:
        if self.kind == "move":
            text = {"type": "string", "maxLength": NAME_MAX, "pattern": TEXT_PATTERN}
            out: dict[str, Any] = {"oneOf": [text, {
                "type": "object", "maxProperties": 8, "propertyNames": text,
                "additionalProperties": {"oneOf": [
                    text, {"type": "integer"},
                    {"type": "array", "maxItems": 64, "items": text}]}}]}
        elif self.kind == "id":
            out = {"oneOf": [{"type": "string", "maxLength": self.hi, "pattern": TEXT_PATTERN},
                             {"type": "integer", "minimum": ID_MIN, "maximum": ID_MAX}]}
        elif self.kind == "integer":
            out = {"type": "integer", "minimum": self.lo, "maximum": self.hi}
        elif self.kind == "boolean":
            out = {"type": "boolean"}
        else:
            out = {"type": "string", "minLength": self.lo, "maxLength": self.hi,
                   "pattern": TEXT_PATTERN}
            if self.kind == "hex":
                out["pattern"] = "^([0-9a-fA-F]{2})*$"
            if self.pattern:
                out["pattern"] = f"^{self.pattern}$"
            if self.choices:
                del out["pattern"]
                out["enum"] = list(self.choices)
        if self.doc:
            out["description"] = self.doc
        return out


def _bad(message: str) -> ApiError:
    return ApiError("message.invalid", message)


def too_long(what: str, limit: int) -> ApiError:
    return ApiError("bad.too_long", f"{what} is at most {limit} characters long")


def _move_part(value: Any) -> bool:
    """A move object's values: a pile's name, a count, or a list of piles' names (the
    engine reads a count as an integer: 2.0 is not one here)."""
    if isinstance(value, str):
        if len(value) > NAME_MAX:
            raise too_long("a move's part", NAME_MAX)
        return True
    if isinstance(value, list):
        return len(value) <= 64 and all(isinstance(v, str) and len(v) <= NAME_MAX
                                        for v in value)
    return type(value) is int


def day(doc: str) -> Field:
    """A UTC day, YYYY-MM-DD in ASCII digits (whether the day exists is checked after)."""
    return Field("string", required=False, lo=10, hi=10, pattern="[0-9]{4}-[0-9]{2}-[0-9]{2}",
                 form="a day written YYYY-MM-DD", doc=doc)


GAME = Field("string", doc="a rule set's id, as in the catalog (GET /api/v1/games)")
VARIANT = Field("string", doc="'easy' or 'difficult'")
SESSION = Field("string", doc="a session's id")
RACE = Field("string", doc="a race's id")
MATCH = Field("string", doc="a match's id")
GHOST = Field("string", doc="a ghost race's id")
MOVE = Field("move", doc="in move notation ('t7-f1', 't3:4-t5', 's') or its JSON object")
CHALLENGE = Field("string", doc="a challenge's id")
REV = Field("integer", required=False, hi=2**31,
            doc="the session revision the change was chosen at; a stale one is refused, "
                "unless this very change was made at it (a retry: answered as made)")

#: Bodies, by message type. REST bodies use the same entries as the WebSocket messages. Their
#: handlers' types follow: ``python -m server.transport.typed_messages`` after a change here.
MESSAGES: dict[str, dict[str, Field]] = {
    "hello": {"token": Field("string", hi=128, doc="the bearer token from registration")},
    "ping": {},
    "player.register": {
        "name": Field("string", lo=1, hi=32, doc="the display name"),
        "kind": Field("string", choices=("human", "bot"), doc="bots are ranked apart"),
    },
    "player.rename": {"name": Field("string", lo=1, hi=32, doc="the new display name")},
    "solo.start": {
        "game": GAME,
        "variant": VARIANT,
        "seed": Field("hex", required=False, lo=2, hi=128,
                      doc="practice on a seed of your choice; random when left out"),
    },
    "session.get": {"session": SESSION},
    "move": {"session": SESSION, "move": MOVE, "rev": REV},
    "undo": {"session": SESSION, "rev": REV},
    "resign": {"session": SESSION, "rev": REV},
    "race.create": {
        "game": GAME,
        "variant": VARIANT,
        "seats": Field("integer", lo=2, hi=100, doc="how many may join"),
        "start": Field("string", required=False, choices=("full", "manual"),
                       doc="start when the last seat fills (default) or when the creator says"),
        "time_limit": Field("integer", required=False, lo=5, hi=86400,
                            doc="seconds from the start; default 600"),
        "countdown": Field("integer", required=False, lo=0, hi=60,
                           doc="seconds between the start and the first move; default 3"),
        "join": Field("boolean", required=False, doc="the creator takes a seat (default true)"),
    },
    "race.join": {"race": RACE},
    "race.leave": {"race": RACE},
    "race.start": {"race": RACE},
    "race.rematch": {"race": Field("string", doc="an ended race you were in: its rematch, "
                                                 "made by the first to ask, you join")},
    "race.bot": {
        "game": GAME,
        "variant": VARIANT,
        "strength": Field("string", required=False, lo=1, hi=32, choices=tuple(STRENGTHS),
                          refusal="bot.unknown_strength",
                          doc="the bot's strength: 'easy', 'medium' (default) or 'hard'"),
    },
    "race.subscribe": {
        "race": RACE,
        "after": Field("integer", required=False, hi=2**31,
                       doc="the last event number received; missed events follow"),
    },
    "race.unsubscribe": {"race": RACE},
    "match.create": {
        "game": GAME,
        "variant": VARIANT,
        "seats": Field("integer", lo=1, hi=8,
                       doc="players: within the rule set's match seats in the catalog"),
        "turn_time": Field("integer", required=False, lo=1, hi=600,
                           doc="seconds a card waits for its player before the timer places "
                               "it; default 30"),
        "grace": Field("integer", required=False, hi=3600,
                       doc="seconds a disconnected player's turn waits for them; default 60"),
        "start": Field("string", required=False, choices=("full", "manual"),
                       doc="start when the last seat fills (default) or when the creator says"),
        "join": Field("boolean", required=False, doc="the creator takes a seat (default true)"),
    },
    "match.join": {"match": MATCH},
    "match.leave": {"match": MATCH},
    "match.start": {"match": MATCH},
    "match.rematch": {"match": Field("string", doc="an ended match you played in: its "
                                                   "rematch, made by the first to ask, you "
                                                   "join")},
    "match.get": {"match": MATCH},
    "match.move": {"match": MATCH, "move": MOVE},
    "match.subscribe": {
        "match": MATCH,
        "after": Field("integer", required=False, hi=2**31,
                       doc="the last event number received; missed events follow"),
    },
    "match.unsubscribe": {"match": MATCH},
    "daily.start": {
        "game": GAME,
        "variant": VARIANT,
        "ranked": Field("boolean", required=False,
                        doc="today's one ranked attempt (default), or false: an unranked replay"),
        "day": day("YYYY-MM-DD, for an unranked replay of an earlier day's deal"),
        "install": Field("string", required=False, lo=1, hi=64,
                         doc="a random id the client keeps for its install (kept only as a "
                             "keyed hash, for the integrity signal)"),
    },
    "daily.get": {"day": day("YYYY-MM-DD; today (UTC) when left out")},
    "board.get": {
        "board": Field("string", lo=1, hi=96,
                       doc="a board's name: daily/today/<game>/<variant>, weekly/current/all, "
                           "alltime/all, streaks/won, ratings/<game>/<variant> "
                           "(docs/protocol.md)"),
        "kind": Field("string", required=False, choices=("human", "bot"),
                      doc="humans' board (default) or bots'"),
        "start": Field("integer", required=False, hi=10**9, doc="the first rank shown, from 0"),
        "count": Field("integer", required=False, lo=1, hi=100, doc="entries; default 20"),
        "around": Field("string", required=False, hi=64,
                        doc="a player id, or 'me': the page centred on that player"),
    },
    "board.subscribe": {
        "board": Field("string", lo=1, hi=96,
                       doc="a board's name, as for board.get: its top and your entry follow "
                           "as board.update events whenever they change, at most once a "
                           "second"),
        "kind": Field("string", required=False, choices=("human", "bot"),
                      doc="humans' board (default) or bots'"),
        "count": Field("integer", required=False, lo=1, hi=100,
                       doc="entries from the top; default 20"),
    },
    "board.unsubscribe": {
        "board": Field("string", lo=1, hi=96, doc="a board you watch, named as you "
                                                  "subscribed or as board.update names it"),
        "kind": Field("string", required=False, choices=("human", "bot"),
                      doc="humans' board (default) or bots'"),
    },
    # ghost races (server/ghosts/__init__.py)
    "ghost.create": {
        "game": GAME,
        "variant": VARIANT,
        "open_for": Field("integer", required=False, lo=1, hi=7 * 86400,
                          doc="seconds it takes entrants; default 86400 (a day)"),
        "cap": Field("integer", required=False, lo=1, hi=1000,
                     doc="entrants at most: it closes when the last comes in; default 100"),
        "time_limit": Field("integer", required=False, lo=5, hi=86400,
                            doc="seconds each run may last from its start; default 600"),
        "countdown": Field("integer", required=False, lo=0, hi=60,
                           doc="seconds between entering and the first move; default 3"),
    },
    "ghost.enter": {"ghost": GHOST},
    "ghost.get": {"ghost": GHOST},
    "hint": {"session": Field("string", doc="a practice session of yours (or an unranked "
                                            "replay of a revealed daily deal)")},
    "analysis.get": {"session": Field("string", doc="a game whose moves you may see "
                                      "in full: your practice game once over, a race's or a "
                                      "daily attempt's once its transcript is public, a "
                                      "called-card match player's grid (<match>.<player>) "
                                      "once the match is over")},
}
LEAGUE = Field("string", lo=1, hi=64, doc="a league's id")
MESSAGES.update({  # leagues (docs/protocol.md "Leagues")
    "league.create": {"name": Field("string", lo=1, hi=32,
                                    doc="the league's name, checked as a player's name")},
    "league.join": {"code": Field("string", lo=1, hi=32, doc="the league's invite code")},
    "league.leave": {"league": Field("string", lo=1, hi=64,
                                     doc="a league you are in; its owner leaving closes it")},
    "league.remove": {"league": LEAGUE,
                      "player": Field("string", lo=1, hi=64,
                                      doc="the member to remove (the owner only)")},
    "league.code": {"league": Field("string", lo=1, hi=64,
                                    doc="your league: a new invite code, the old one stops "
                                        "working")},
    "league.get": {"league": LEAGUE},
    "league.list": {},
})
ARENA = Field("string", hi=64, doc="an arena's id")
#: Arenas (docs/protocol.md, "Arenas"); ``arena.create`` and ``arena.cancel`` are the
#: operator's, REST only, with the admin token.
MESSAGES |= {
    "arena.join": {"arena": Field("string", hi=64, doc="a scheduled or running arena: you "
                                                       "play every round dealt from now on")},
    "arena.leave": {"arena": Field("string", hi=64, doc="an arena you joined: you play no "
                                                        "more of its rounds")},
    "arena.get": {"arena": ARENA},
    "arena.subscribe": {"arena": Field("string", hi=64, doc="an arena whose arena.round and "
                                                            "arena.ended events you follow")},
    "arena.unsubscribe": {"arena": ARENA},
    "arena.create": {
        "game": GAME,
        "variant": VARIANT,
        "starts_at": Field("integer", required=False, hi=2**53,
                           doc="server ms since the epoch; now when left out"),
        "duration": Field("integer", lo=1, hi=7 * 86400,
                          doc="seconds; whole intervals of it are played"),
        "interval": Field("integer", lo=1, hi=86400,
                          doc="seconds between two deals: each round's time"),
        "repeat": Field("integer", required=False, hi=366 * 86400,
                        doc="seconds from one start to the next occurrence's; 0 (default): "
                            "none"),
        "name": Field("string", required=False, lo=1, hi=64,
                      doc="the arena's name; the rule set's when left out"),
    },
    "arena.cancel": {"arena": ARENA},
    # the daily's live edition (docs/protocol.md, "The daily's live edition")
    "daily_live.join": {"game": GAME, "variant": VARIANT},
    "daily_live.leave": {"game": GAME, "variant": VARIANT},
    "daily_live.get": {"day": Field("string", required=False, lo=10, hi=10,
                                    doc="YYYY-MM-DD; today (UTC) when left out")},
    # challenges by name (docs/protocol.md, "Challenges")
    "challenge.send": {
        "to": Field("string", required=False, lo=1, hi=32,
                    doc="the challenged player's name (case aside); or give 'player'"),
        "player": Field("string", required=False, lo=1, hi=64,
                        doc="the challenged player's id (a board row's); or give 'to'"),
        "game": GAME,
        "variant": VARIANT,
    },
    "challenge.list": {},
    "challenge.accept": {"challenge": CHALLENGE},
    "challenge.decline": {
        "challenge": CHALLENGE,
        "block": Field("boolean", required=False,
                       doc="refuse this player's challenges from now on (for 30 days)"),
    },
    "challenge.withdraw": {"challenge": CHALLENGE},
    "challenge.refuse": {
        "refuse": Field("boolean", doc="true: refuse every challenge from now on; false: take "
                                       "them again"),
    },
}
REQUEST_ID = Field("id", required=False, doc="echoed in the reply, to match replies to requests")


#: Path parameters of REST routes that run no message (``/players/{player}``...).
PARAMS: dict[str, Field] = {
    "player": Field("string", lo=1, hi=64, doc="a player's id"),
    "game": GAME, "variant": VARIANT, "session": SESSION, "race": RACE, "match": MATCH,
    "ghost": GHOST,
    "league": LEAGUE,
    "arena": ARENA,
    "challenge": CHALLENGE,
}
TOKEN = MESSAGES["hello"]["token"]


def plain_id(value: Any) -> bool:
    """A request id the reply can carry back: an integer msgpack can encode, or text of at
    most 64 characters. Any other id is refused, and its error has no id."""
    if type(value) is int:
        return ID_MIN <= value <= ID_MAX
    return (isinstance(value, str) and len(value) <= REQUEST_ID.hi
            and NOT_TEXT.search(value) is None)


def check_string(value: str, what: str) -> None:
    """``bad.text`` unless ``value`` is plain text: no lone surrogate, no control character.
    The message names where it was, never the string itself."""
    if NOT_TEXT.search(value) is not None:
        raise bad_text(what)


def bad_text(what: str) -> ApiError:
    return ApiError("bad.text", f"{what} is not valid text: no control characters (NUL "
                    "included) and no lone surrogates (UTF-16 halves)")


def check_text(data: Any) -> None:
    """Every string in ``data``, at any depth, as text (``check_string``); every map's keys
    are strings of at most ``NAME_MAX`` characters. Iterative: a deep value can't exhaust the
    stack (the frame size bounds the work)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            check_string(item, "a string")
        elif isinstance(item, dict):
            for key, value in item.items():
                if not isinstance(key, str):
                    raise _bad("a field's name is a string")
                if len(key) > NAME_MAX:
                    raise too_long("a field's name", NAME_MAX)
                if NOT_TEXT.search(key) is not None:
                    raise bad_text("a field's name")
                if isinstance(value, str):
                    if NOT_TEXT.search(value) is not None:
                        raise bad_text(field_name(key))
                elif isinstance(value, dict | list):
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)


def field_name(name: str) -> str:
    """A field's name as an error message shows it: quoted when it is a plain word (a letter,
    then letters, digits and _ . -), else described, so a message never echoes odd input."""
    return f"'{name}'" if PLAIN.fullmatch(name) else "a field"


PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,31}")


def check_param(name: str, value: str, field: Field | None = None) -> str:
    """A REST path parameter or query value: text, then its field's declaration."""
    check_string(value, f"'{name}'")
    (field or PARAMS[name]).check(name, value)
    return value


def check_token(token: str) -> str:
    """A bearer token (REST header, WebSocket header or hello) before it is hashed."""
    if len(token) > TOKEN.hi:
        raise too_long("the token", TOKEN.hi)
    check_string(token, "the token")
    return token


def validate(kind: str, data: Any, in_path: tuple[str, ...] = ()) -> dict[str, Any]:
    """``data`` if it fits the schema of ``kind``: ``bad.text``/``bad.too_long`` for what is
    not text or too long, ``message.invalid`` for the rest."""
    if not isinstance(data, dict):
        raise _bad("a message is an object (a map)")
    check_text(data)
    return check_fields(kind, data, in_path)


def check_fields(kind: str, data: dict[str, Any], in_path: tuple[str, ...] = ()
                 ) -> dict[str, Any]:
    """The fields of ``data``, whose text ``check_text`` has passed, against ``kind``'s."""
    fields = MESSAGES[kind]
    for name, value in data.items():
        if name in ("type", "id"):
            continue
        f = fields.get(name) if name not in in_path else None
        if f is None:
            raise _bad(f"{field_name(name)} is not a field of {kind}")
        if f.kind == "integer" and type(value) is float and value.is_integer():
            value = data[name] = int(value)  # 2.0 is the whole number 2 (as JSON Schema says)
        f.check(name, value)
    for name, f in fields.items():
        if f.required and name not in data and name not in in_path:
            raise _bad(f"'{name}' is required")
    if "id" in data:
        REQUEST_ID.check("id", data["id"])
    return data


def _quick(f: Field) -> Callable[[Any], bool]:
    """A check of one field's value that says yes only where ``Field.check`` and
    ``check_text`` both pass it as it is (a float for an integer, a move object: no)."""
    text = NOT_TEXT.search
    lo, hi, kind = f.lo, f.hi, f.kind
    if kind == "integer":
        return lambda v: type(v) is int and lo <= v <= hi
    if kind == "boolean":
        return lambda v: type(v) is bool
    if kind == "move":
        return lambda v: type(v) is str and len(v) <= NAME_MAX and text(v) is None
    if kind == "id":
        return lambda v: (ID_MIN <= v <= ID_MAX if type(v) is int else
                          type(v) is str and len(v) <= hi and text(v) is None)
    if kind == "hex":
        return lambda v: (type(v) is str and lo <= len(v) <= hi and not len(v) % 2
                          and HEX.issuperset(v))
    if f.choices:
        choices = frozenset(f.choices)
        return lambda v: type(v) is str and v in choices
    if f.pattern:
        form = re.compile(f.pattern).fullmatch
        return lambda v: type(v) is str and form(v) is not None
    return lambda v: type(v) is str and lo <= len(v) <= hi and text(v) is None


#: Per message type: each field's compiled check (the request id's too), and the required.
QUICK: dict[str, tuple[dict[str, Callable[[Any], bool]], frozenset[str]]] = {
    kind: ({"id": _quick(REQUEST_ID), **{n: _quick(f) for n, f in fields.items()}},
           frozenset(n for n, f in fields.items() if f.required))
    for kind, fields in MESSAGES.items()}


def fits(kind: str, data: dict[str, Any]) -> bool:
    """``data``, whose ``type`` is ``kind``, passes ``check_text`` and ``check_fields`` as it
    is. False says nothing: those two then decide, and say why."""
    checks, required = QUICK[kind]
    for name, value in data.items():
        if name != "type":
            check = checks.get(name)
            if check is None or not check(value):
                return False
    return required.issubset(data)


def json_schema(kind: str, in_path: tuple[str, ...] = ()) -> dict[str, Any]:
    fields = {n: f for n, f in MESSAGES[kind].items() if n not in in_path}
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {n: f.json_schema() for n, f in fields.items()},
        "required": [n for n, f in fields.items() if f.required],
    }
