"""Typed views of the server's messages. Each object keeps the message as received in
``raw``, so a field the server adds later is never lost to a client built before it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .payloads import BoardEntry, DailyDeal, Entrant, Player, RaceBot, Ranked, View

T = TypeVar("T")


def _build(cls: type[T], raw: dict[str, Any], **renamed: str) -> T:
    """``cls`` from the message's fields of the same names (``renamed``: field <- key)."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        key = renamed.get(f.name, f.name)
        if f.name == "raw":
            values["raw"] = raw
        elif key in raw:
            values[f.name] = raw[key]
    return cls(**values)


@dataclass
class Session:
    """A session payload (``session`` or ``ack``): what its own player sees of one game."""

    id: str
    rev: int
    mode: str
    view: View
    legal: list[str]
    can_undo: bool = False
    commitment: str | None = None
    safe: list[str] = field(default_factory=list)  # the foundation moves auto-move may play
    created: int | None = None  # server ms of the deal
    seed: str | None = None
    race: str | None = None
    daily: str | None = None
    #: ``daily.start``'s reply only: whether the attempt goes on the boards, and if not, why.
    ranked: bool | None = None
    unranked_reason: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Session:
        return _build(cls, raw, id="session")

    @property
    def status(self) -> str:
        """``playing``, ``won``, ``lost`` or ``finished``."""
        return str(self.view["status"])

    @property
    def score(self) -> int:
        return int(self.view["score"])

    @property
    def over(self) -> bool:
        return self.status != "playing"


@dataclass
class Race:
    """A race summary: the reply to race calls, and the resync after a long absence."""

    id: str
    game: str
    variant: str
    state: str
    seats: int = 0
    start: str = "full"
    time_limit: int = 0
    countdown: int = 0
    creator: str | None = None
    commitment: str | None = None
    name: str | None = None
    scoring: str | None = None
    created: int | None = None
    starts_at: int | None = None
    ends_at: int | None = None
    ended_at: int | None = None
    seq: int = 0
    joined_seq: int | None = None
    entrants: list[Entrant] = field(default_factory=list)
    seed: str | None = None
    bot: RaceBot | None = None  # a race against a server-run bot: the bot
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Race:
        return _build(cls, raw, id="race")

    def entrant(self, player: str) -> Entrant | None:
        return next((e for e in self.entrants if e.get("player") == player), None)


@dataclass
class Results:
    """A finished race's ranking and revealed seed (``GET /races/{race}/results``)."""

    race: str
    game: str
    variant: str
    commitment: str
    ranking: list[Ranked]
    seed: str | None = None  # none for a ghost race's run: the ghost race reveals it
    starts_at: int | None = None
    ended_at: int | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Results:
        return _build(cls, raw)


@dataclass
class Daily:
    """One day's challenge: its state, times and a deal (with commitment) per rule set."""

    day: str
    state: str
    deals: list[DailyDeal]
    opens_at: int | None = None
    closes_at: int | None = None
    deadline: int | None = None
    now: int | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Daily:
        return _build(cls, raw)


@dataclass
class Board:
    """A page of a leaderboard."""

    board: str
    kind: str
    total: int
    entries: list[BoardEntry]
    #: A revealed daily board's par (docs/daily.md#par); each entry then has ``vs_par``.
    par: int | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Board:
        return _build(cls, raw)


@dataclass
class BoardUpdate:
    """A watched board as it is now (``board.update``): the top ``count`` entries and your
    own entry (``None`` while you have none), each with its ``rank``."""

    board: str
    kind: str
    total: int = 0
    entries: list[BoardEntry] = field(default_factory=list)
    you: BoardEntry | None = None
    #: A revealed daily board's par (docs/daily.md#par); each entry then has ``vs_par``.
    par: int | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> BoardUpdate:
        return _build(cls, raw)


@dataclass
class Match:
    """A match summary (docs/protocol.md#the-match-summary): the match, its ``players`` in
    seat order and its event number; ``you`` your own grid or lane, with ``legal`` moves; a
    turns match's ``view``, ``turn``, completed ``frames`` and, on your turn, the lane as
    your frame began (``own_frame``); a called-card match's
    ``round``, ``card`` and ``scores``; once ended, ``seed`` and ``results``."""

    id: str
    kind: str = ""
    game: str = ""
    variant: str = ""
    name: str = ""
    state: str | None = None
    commitment: str = ""
    seats: int = 0
    start: str = ""
    turn_time: int = 0
    grace: int = 0
    creator: str = ""
    seq: int = 0
    rev: int = 0
    players: list[dict[str, object]] = field(default_factory=list)
    joined_seq: int | None = None
    you: dict[str, object] | None = None
    view: View | None = None
    own_frame: dict[str, object] | None = None
    turn: dict[str, object] | None = None
    frames: list[dict[str, object]] = field(default_factory=list)
    round: int | None = None
    card: str | None = None
    deadline: int | None = None
    scores: dict[str, dict[str, object]] = field(default_factory=dict)
    seed: str | None = None
    results: dict[str, object] | None = None
    created: int | None = None
    started_at: int | None = None
    ended_at: int | None = None
    rematch: str | None = None
    rematch_by: str | None = None
    rematch_of: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Match:
        return _build(cls, raw, id="match")


# ----- pushed messages ----------------------------------------------------------------------


@dataclass
class Event:
    """Something the server pushed (not a reply), or a notice from the SDK itself. ``type`` is
    the message's type; ``raw`` the whole message."""

    type: str
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def seq(self) -> int | None:
        return self.raw.get("seq")


@dataclass
class RaceEvent(Event):
    """A numbered race event (``race.joined``, ``race.left``, ``race.started``,
    ``race.progress``, ``race.ended``, ``race.rematched``); ``race`` is the race id."""

    race: str = ""


@dataclass
class RaceJoined(RaceEvent):
    player: Player = field(default_factory=lambda: Player(id="", name="", kind=""))


@dataclass
class RaceLeft(RaceEvent):
    player: str = ""


@dataclass
class RaceStarted(RaceEvent):
    starts_at: int = 0
    ends_at: int = 0
    sessions: dict[str, str] = field(default_factory=dict)


@dataclass
class RaceProgress(RaceEvent):
    player: str = ""
    moves: int = 0
    score: float = 0
    cards: int = 0
    status: str = "playing"


@dataclass
class RaceEnded(RaceEvent):
    seed: str = ""
    ranking: list[Ranked] = field(default_factory=list)


@dataclass
class RaceRematched(RaceEvent):
    """An entrant of the ended race asked for a rematch: ``rematch`` is the new race (accept
    with ``rematch_race`` on the old one, or ``join_race`` on the new)."""

    rematch: str = ""
    by: Player = field(default_factory=lambda: Player(id="", name="", kind=""))


@dataclass
class RaceResync(Event):
    """A full race summary sent instead of events the server no longer holds (or on a
    subscribe without ``after``): replace what you knew of the race with it."""

    summary: Race | None = None

    @property
    def race(self) -> str:
        return self.summary.id if self.summary else ""


@dataclass
class SessionPushed(Event):
    """Your session, pushed when your race starts or when you (re)subscribe to it."""

    session: Session | None = None


@dataclass
class MatchEvent(Event):
    """A match event; ``match`` is the match id. Each type below carries its
    fields (docs/protocol.md, the match events); one this SDK does not know comes as this."""

    match: str = ""


@dataclass
class MatchJoined(MatchEvent):
    player: Player = field(default_factory=lambda: Player(id="", name="", kind=""))


@dataclass
class MatchLeft(MatchEvent):
    player: str = ""


@dataclass
class MatchStarted(MatchEvent):
    """``order``: the players in seat order; a turns match's ``view`` and ``turn``, a
    called-card match's ``round``, ``card`` and ``deadline``."""

    kind: str = ""
    order: list[dict[str, object]] = field(default_factory=list)
    started_at: int = 0
    view: View | None = None
    turn: dict[str, object] | None = None
    round: int | None = None
    card: str | None = None
    deadline: int | None = None


@dataclass
class MatchMoved(MatchEvent):
    """A turns match: a bowler's turn passed (``move``: their last card's pin or ball pile,
    ``None`` for everyone else until the frame is complete), with the ``view`` and ``turn``
    after it and the ``frames`` it completed."""

    player: str = ""
    bowler: int = 0
    by: str = ""
    move: str | None = None
    view: View | None = None
    turn: dict[str, object] | None = None
    frames: list[dict[str, object]] = field(default_factory=list)


@dataclass
class MatchPlaced(MatchEvent):
    """A called-card match: ``player`` placed round ``round``'s card; ``score`` so far."""

    player: str = ""
    round: int = 0
    by: str = ""
    score: float = 0
    done: bool = False
    lines: object = None


@dataclass
class MatchCard(MatchEvent):
    """A called-card match: everyone placed; ``card`` is called for ``round``."""

    round: int = 0
    card: str = ""
    deadline: int = 0


@dataclass
class MatchForfeit(MatchEvent):
    """``player`` left for good; a turns match's ``view``, ``turn`` and ``frames`` after it."""

    player: str = ""
    view: View | None = None
    turn: dict[str, object] | None = None
    frames: list[dict[str, object]] = field(default_factory=list)


@dataclass
class MatchAway(MatchEvent):
    player: str = ""


@dataclass
class MatchBack(MatchEvent):
    player: str = ""


@dataclass
class MatchEnded(MatchEvent):
    seed: str = ""
    results: dict[str, object] = field(default_factory=dict)


@dataclass
class MatchRematched(MatchEvent):
    rematch: str = ""
    by: Player = field(default_factory=lambda: Player(id="", name="", kind=""))


@dataclass
class MatchYou(MatchEvent):
    """What is yours alone: your ``view`` and ``legal`` moves as of event ``as_of``."""

    view: View | None = None
    legal: list[str] = field(default_factory=list)
    waiting: bool = False
    as_of: int = 0
    deadline: int | None = None


@dataclass
class Notice(Event):
    """The SDK's own news: ``connection.lost`` and ``connection.resumed`` (with ``reason`` and
    ``attempts``), and ``error`` for a server error that answered no request."""

    reason: str = ""
    attempts: int = 0
    code: str = ""
    message: str = ""


RACE_EVENTS: dict[str, type[RaceEvent]] = {
    "race.joined": RaceJoined, "race.left": RaceLeft, "race.started": RaceStarted,
    "race.progress": RaceProgress, "race.ended": RaceEnded, "race.rematched": RaceRematched,
}
MATCH_EVENTS: dict[str, type[MatchEvent]] = {
    "match.joined": MatchJoined, "match.left": MatchLeft, "match.started": MatchStarted,
    "match.moved": MatchMoved, "match.placed": MatchPlaced, "match.card": MatchCard,
    "match.forfeit": MatchForfeit, "match.away": MatchAway, "match.back": MatchBack,
    "match.ended": MatchEnded, "match.rematched": MatchRematched, "match.you": MatchYou,
}


def event_from(raw: dict[str, Any]) -> Event:
    """The typed event for a pushed message."""
    kind = str(raw.get("type", ""))
    cls: type[Event] | None = RACE_EVENTS.get(kind) or MATCH_EVENTS.get(kind)
    if cls is not None:
        values = {f.name: raw[f.name] for f in dataclasses.fields(cls)
                  if f.name not in ("type", "raw") and f.name in raw}
        return cls(type=kind, raw=raw, **values)
    if kind == "race":
        return RaceResync(type=kind, raw=raw, summary=Race.from_raw(raw))
    if kind == "session":
        return SessionPushed(type=kind, raw=raw, session=Session.from_raw(raw))
    if kind.startswith("match"):
        return MatchEvent(type=kind, raw=raw, match=str(raw.get("match", "")))
    if kind == "error":
        return Notice(type=kind, raw=raw, code=raw.get("code", ""),
                      message=raw.get("message", ""))
    return Event(type=kind, raw=raw)
