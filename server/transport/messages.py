"""The messages of the one message schema (server/transport/schema.py) as TypedDicts,
one per message type, for the handlers' bodies. Generated from the schema by
``python -m server.transport.typed_messages`` (server/transport/typed_messages.py): do not
edit; run it again after changing the schema."""

from typing import Literal, NotRequired, TypedDict

#: A move: in notation ('t7-f1') or its JSON object (``schema.Field.check``, kind "move").
MoveValue = str | dict[str, str | int | list[str]]
#: A request id: echoed in the reply.
RequestId = str | int


class Hello(TypedDict):
    type: Literal["hello"]
    id: NotRequired[RequestId]
    token: str


class Ping(TypedDict):
    type: Literal["ping"]
    id: NotRequired[RequestId]


class PlayerRegister(TypedDict):
    type: Literal["player.register"]
    id: NotRequired[RequestId]
    name: str
    kind: Literal["human", "bot"]


class PlayerRename(TypedDict):
    type: Literal["player.rename"]
    id: NotRequired[RequestId]
    name: str


class SoloStart(TypedDict):
    type: Literal["solo.start"]
    id: NotRequired[RequestId]
    game: str
    variant: str
    seed: NotRequired[str]


class SessionGet(TypedDict):
    type: Literal["session.get"]
    id: NotRequired[RequestId]
    session: str


class Move(TypedDict):
    type: Literal["move"]
    id: NotRequired[RequestId]
    session: str
    move: MoveValue
    rev: NotRequired[int]


class Undo(TypedDict):
    type: Literal["undo"]
    id: NotRequired[RequestId]
    session: str
    rev: NotRequired[int]


class Resign(TypedDict):
    type: Literal["resign"]
    id: NotRequired[RequestId]
    session: str
    rev: NotRequired[int]


class RaceCreate(TypedDict):
    type: Literal["race.create"]
    id: NotRequired[RequestId]
    game: str
    variant: str
    seats: int
    start: NotRequired[Literal["full", "manual"]]
    time_limit: NotRequired[int]
    countdown: NotRequired[int]
    join: NotRequired[bool]


class RaceJoin(TypedDict):
    type: Literal["race.join"]
    id: NotRequired[RequestId]
    race: str


class RaceLeave(TypedDict):
    type: Literal["race.leave"]
    id: NotRequired[RequestId]
    race: str


class RaceStart(TypedDict):
    type: Literal["race.start"]
    id: NotRequired[RequestId]
    race: str


class RaceRematch(TypedDict):
    type: Literal["race.rematch"]
    id: NotRequired[RequestId]
    race: str


class RaceBot(TypedDict):
    type: Literal["race.bot"]
    id: NotRequired[RequestId]
    game: str
    variant: str
    strength: NotRequired[Literal["easy", "medium", "hard"]]


class RaceSubscribe(TypedDict):
    type: Literal["race.subscribe"]
    id: NotRequired[RequestId]
    race: str
    after: NotRequired[int]


class RaceUnsubscribe(TypedDict):
    type: Literal["race.unsubscribe"]
    id: NotRequired[RequestId]
    race: str


class MatchCreate(TypedDict):
    type: Literal["match.create"]
    id: NotRequired[RequestId]
    game: str
    variant: str
    seats: int
    turn_time: NotRequired[int]
    grace: NotRequired[int]
    start: NotRequired[Literal["full", "manual"]]
    join: NotRequired[bool]
    present: NotRequired[bool]


class MatchJoin(TypedDict):
    type: Literal["match.join"]
    id: NotRequired[RequestId]
    match: str
    present: NotRequired[bool]


class MatchLeave(TypedDict):
    type: Literal["match.leave"]
    id: NotRequired[RequestId]
    match: str


class MatchStart(TypedDict):
    type: Literal["match.start"]
    id: NotRequired[RequestId]
    match: str


class MatchRematch(TypedDict):
    type: Literal["match.rematch"]
    id: NotRequired[RequestId]
    match: str
    present: NotRequired[bool]


class MatchGet(TypedDict):
    type: Literal["match.get"]
    id: NotRequired[RequestId]
    match: str


class MatchMove(TypedDict):
    type: Literal["match.move"]
    id: NotRequired[RequestId]
    match: str
    move: MoveValue


class MatchSubscribe(TypedDict):
    type: Literal["match.subscribe"]
    id: NotRequired[RequestId]
    match: str
    after: NotRequired[int]


class MatchUnsubscribe(TypedDict):
    type: Literal["match.unsubscribe"]
    id: NotRequired[RequestId]
    match: str


class DailyStart(TypedDict):
    type: Literal["daily.start"]
    id: NotRequired[RequestId]
    game: str
    variant: str
    ranked: NotRequired[bool]
    day: NotRequired[str]
    install: NotRequired[str]


class DailyGet(TypedDict):
    type: Literal["daily.get"]
    id: NotRequired[RequestId]
    day: NotRequired[str]


class BoardGet(TypedDict):
    type: Literal["board.get"]
    id: NotRequired[RequestId]
    board: str
    kind: NotRequired[Literal["human", "bot"]]
    start: NotRequired[int]
    count: NotRequired[int]
    around: NotRequired[str]


class BoardSubscribe(TypedDict):
    type: Literal["board.subscribe"]
    id: NotRequired[RequestId]
    board: str
    kind: NotRequired[Literal["human", "bot"]]
    count: NotRequired[int]


class BoardUnsubscribe(TypedDict):
    type: Literal["board.unsubscribe"]
    id: NotRequired[RequestId]
    board: str
    kind: NotRequired[Literal["human", "bot"]]


class GhostCreate(TypedDict):
    type: Literal["ghost.create"]
    id: NotRequired[RequestId]
    game: str
    variant: str
    open_for: NotRequired[int]
    cap: NotRequired[int]
    time_limit: NotRequired[int]
    countdown: NotRequired[int]


class GhostEnter(TypedDict):
    type: Literal["ghost.enter"]
    id: NotRequired[RequestId]
    ghost: str


class GhostGet(TypedDict):
    type: Literal["ghost.get"]
    id: NotRequired[RequestId]
    ghost: str


class Hint(TypedDict):
    type: Literal["hint"]
    id: NotRequired[RequestId]
    session: str


class AnalysisGet(TypedDict):
    type: Literal["analysis.get"]
    id: NotRequired[RequestId]
    session: str


class LeagueCreate(TypedDict):
    type: Literal["league.create"]
    id: NotRequired[RequestId]
    name: str


class LeagueJoin(TypedDict):
    type: Literal["league.join"]
    id: NotRequired[RequestId]
    code: str


class LeagueLeave(TypedDict):
    type: Literal["league.leave"]
    id: NotRequired[RequestId]
    league: str


class LeagueRemove(TypedDict):
    type: Literal["league.remove"]
    id: NotRequired[RequestId]
    league: str
    player: str


class LeagueCode(TypedDict):
    type: Literal["league.code"]
    id: NotRequired[RequestId]
    league: str


class LeagueGet(TypedDict):
    type: Literal["league.get"]
    id: NotRequired[RequestId]
    league: str


class LeagueList(TypedDict):
    type: Literal["league.list"]
    id: NotRequired[RequestId]


class ArenaJoin(TypedDict):
    type: Literal["arena.join"]
    id: NotRequired[RequestId]
    arena: str


class ArenaLeave(TypedDict):
    type: Literal["arena.leave"]
    id: NotRequired[RequestId]
    arena: str


class ArenaGet(TypedDict):
    type: Literal["arena.get"]
    id: NotRequired[RequestId]
    arena: str


class ArenaSubscribe(TypedDict):
    type: Literal["arena.subscribe"]
    id: NotRequired[RequestId]
    arena: str


class ArenaUnsubscribe(TypedDict):
    type: Literal["arena.unsubscribe"]
    id: NotRequired[RequestId]
    arena: str


class ArenaCreate(TypedDict):
    type: Literal["arena.create"]
    id: NotRequired[RequestId]
    game: str
    variant: str
    starts_at: NotRequired[int]
    duration: int
    interval: int
    repeat: NotRequired[int]
    name: NotRequired[str]


class ArenaCancel(TypedDict):
    type: Literal["arena.cancel"]
    id: NotRequired[RequestId]
    arena: str


class DailyLiveJoin(TypedDict):
    type: Literal["daily_live.join"]
    id: NotRequired[RequestId]
    game: str
    variant: str


class DailyLiveLeave(TypedDict):
    type: Literal["daily_live.leave"]
    id: NotRequired[RequestId]
    game: str
    variant: str


class DailyLiveGet(TypedDict):
    type: Literal["daily_live.get"]
    id: NotRequired[RequestId]
    day: NotRequired[str]


class ChallengeSend(TypedDict):
    type: Literal["challenge.send"]
    id: NotRequired[RequestId]
    to: NotRequired[str]
    player: NotRequired[str]
    game: str
    variant: str


class ChallengeList(TypedDict):
    type: Literal["challenge.list"]
    id: NotRequired[RequestId]


class ChallengeAccept(TypedDict):
    type: Literal["challenge.accept"]
    id: NotRequired[RequestId]
    challenge: str


class ChallengeDecline(TypedDict):
    type: Literal["challenge.decline"]
    id: NotRequired[RequestId]
    challenge: str
    block: NotRequired[bool]


class ChallengeWithdraw(TypedDict):
    type: Literal["challenge.withdraw"]
    id: NotRequired[RequestId]
    challenge: str


class ChallengeRefuse(TypedDict):
    type: Literal["challenge.refuse"]
    id: NotRequired[RequestId]
    refuse: bool


#: Each message type's TypedDict.
MESSAGES: dict[str, type] = {
    "hello": Hello,
    "ping": Ping,
    "player.register": PlayerRegister,
    "player.rename": PlayerRename,
    "solo.start": SoloStart,
    "session.get": SessionGet,
    "move": Move,
    "undo": Undo,
    "resign": Resign,
    "race.create": RaceCreate,
    "race.join": RaceJoin,
    "race.leave": RaceLeave,
    "race.start": RaceStart,
    "race.rematch": RaceRematch,
    "race.bot": RaceBot,
    "race.subscribe": RaceSubscribe,
    "race.unsubscribe": RaceUnsubscribe,
    "match.create": MatchCreate,
    "match.join": MatchJoin,
    "match.leave": MatchLeave,
    "match.start": MatchStart,
    "match.rematch": MatchRematch,
    "match.get": MatchGet,
    "match.move": MatchMove,
    "match.subscribe": MatchSubscribe,
    "match.unsubscribe": MatchUnsubscribe,
    "daily.start": DailyStart,
    "daily.get": DailyGet,
    "board.get": BoardGet,
    "board.subscribe": BoardSubscribe,
    "board.unsubscribe": BoardUnsubscribe,
    "ghost.create": GhostCreate,
    "ghost.enter": GhostEnter,
    "ghost.get": GhostGet,
    "hint": Hint,
    "analysis.get": AnalysisGet,
    "league.create": LeagueCreate,
    "league.join": LeagueJoin,
    "league.leave": LeagueLeave,
    "league.remove": LeagueRemove,
    "league.code": LeagueCode,
    "league.get": LeagueGet,
    "league.list": LeagueList,
    "arena.join": ArenaJoin,
    "arena.leave": ArenaLeave,
    "arena.get": ArenaGet,
    "arena.subscribe": ArenaSubscribe,
    "arena.unsubscribe": ArenaUnsubscribe,
    "arena.create": ArenaCreate,
    "arena.cancel": ArenaCancel,
    "daily_live.join": DailyLiveJoin,
    "daily_live.leave": DailyLiveLeave,
    "daily_live.get": DailyLiveGet,
    "challenge.send": ChallengeSend,
    "challenge.list": ChallengeList,
    "challenge.accept": ChallengeAccept,
    "challenge.decline": ChallengeDecline,
    "challenge.withdraw": ChallengeWithdraw,
    "challenge.refuse": ChallengeRefuse,
}
