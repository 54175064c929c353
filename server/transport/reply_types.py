"""The replies and events of the reply schema (server/transport/replies.py) as
TypedDicts, for what the handlers answer. Generated from the schema by
``python -m server.transport.typed_replies`` (server/transport/typed_replies.py): do not edit;
run it again after changing the schema."""

from typing import Any, Literal, NotRequired, TypedDict

PlayerKind = Literal["human", "bot"]


class Player(TypedDict):
    id: str
    name: str
    kind: PlayerKind


class WelcomeReply(TypedDict):
    player: Player


class PongReply(TypedDict):
    pass


class PlayerReply(TypedDict):
    player: Player


SessionMode = Literal["practice", "race", "daily", "daily-replay"]


ViewStatus = Literal["playing", "won", "lost", "finished"]


class Pile(TypedDict):
    down: int
    up: list[str]


class View(TypedDict):
    """What a player sees of a game: face-down cards are counts, never cards."""

    game: str
    variant: str
    status: ViewStatus
    score: float
    moves: int
    piles: dict[str, Pile]
    info: NotRequired[dict[str, Any]]


class Session(TypedDict):
    """The session payload (docs/protocol.md#the-session-payload)."""

    session: str
    rev: int
    mode: SessionMode
    view: View
    legal: list[str]
    safe: list[str]
    can_undo: bool
    commitment: str
    created: int
    race: NotRequired[str]
    daily: NotRequired[str]
    seed: NotRequired[str]
    ranked: NotRequired[bool]
    unranked_reason: NotRequired[str]
    repeated: NotRequired[Literal[True]]


class AckChanges(TypedDict):
    """V2: the view's fields that changed; of the piles, those that changed."""

    game: NotRequired[str]
    variant: NotRequired[str]
    status: NotRequired[ViewStatus]
    score: NotRequired[float]
    moves: NotRequired[int]
    piles: NotRequired[dict[str, Pile]]
    info: NotRequired[dict[str, Any]]


class Ack(TypedDict):
    """The session after the change: whole (v1; v2 when the socket did not have the previous
    revision), or the changes from the previous revision (v2)."""

    session: str
    rev: int
    mode: NotRequired[SessionMode]
    view: NotRequired[View]
    legal: NotRequired[list[str]]
    safe: NotRequired[list[str]]
    can_undo: NotRequired[bool]
    commitment: NotRequired[str]
    created: NotRequired[int]
    race: NotRequired[str]
    daily: NotRequired[str]
    seed: NotRequired[str]
    ranked: NotRequired[bool]
    unranked_reason: NotRequired[str]
    repeated: NotRequired[Literal[True]]
    changes: NotRequired[AckChanges]
    seq: NotRequired[int]
    cards: NotRequired[int]


Scoring = Literal["traditional", "points", "low"]


State = Literal["open", "running", "ended"]


Start = Literal["full", "manual"]


class Entrant(TypedDict):
    """An entrant; once the race started, their progress (docs/protocol.md#ranking)."""

    player: str
    name: str
    kind: PlayerKind
    session: NotRequired[str]
    status: NotRequired[ViewStatus]
    score: NotRequired[int]
    moves: NotRequired[int]
    finished_at: NotRequired[int | None]
    tie_break: NotRequired[int]
    resigned: NotRequired[bool]


class RaceBot(TypedDict):
    player: str
    name: str
    strength: str


class Race(TypedDict):
    """The race summary (docs/protocol.md#the-race-summary)."""

    race: str
    game: str
    variant: str
    name: str
    scoring: Scoring
    state: State
    commitment: str
    seats: int
    start: Start
    time_limit: int
    countdown: int
    creator: str
    seq: int
    entrants: list[Entrant]
    joined_seq: NotRequired[int]
    seed: NotRequired[str]
    ghost: NotRequired[str]
    created: NotRequired[int | None]
    starts_at: NotRequired[int | None]
    ends_at: NotRequired[int | None]
    ended_at: NotRequired[int | None]
    rematch: NotRequired[str | None]
    rematch_by: NotRequired[str | None]
    rematch_of: NotRequired[str | None]
    bot: NotRequired[RaceBot | None]


class Seat(TypedDict):
    """A player of a match, in seat order."""

    player: str
    name: str
    kind: PlayerKind
    seat: int | None
    away: bool
    forfeited: bool


MatchRankedStatus = Literal["won", "finished"]


class MatchRanked(TypedDict):
    """A player of an ended match, ranked (a player who left ranks after those who stayed)."""

    player: str
    name: str
    kind: PlayerKind
    score: int
    forfeited: bool
    time_ms: int
    rank: int
    status: MatchRankedStatus
    bowler: NotRequired[int]


class MatchResults(TypedDict):
    """An ended match's results."""

    match: str
    kind: str
    game: str
    variant: str
    seed: str
    commitment: str
    started_at: int
    ended_at: int
    ranking: list[MatchRanked]
    winner: list[str]
    scorecards: NotRequired[list[dict[str, Any]]]
    starter: NotRequired[str | None]
    lines: NotRequired[dict[str, Any]]


class Yours(TypedDict):
    """Your grid, or your lane on your turn."""

    view: View
    legal: list[str]
    waiting: bool
    as_of: int
    deadline: NotRequired[int]


class Bowled(TypedDict):
    """A card bowled and where it was placed."""

    card: str
    move: str


class MatchOwnFrame(TypedDict):
    frame: int
    bowler: int
    player: str
    cards: list[Bowled]
    scorecard: dict[str, Any]


class MatchTurn(TypedDict):
    """Whose turn it is, and its deadline as everyone sees it."""

    player: str
    bowler: int
    deadline: int


class MatchFrameBowler(TypedDict):
    bowler: int
    player: str
    cards: list[Bowled]


class MatchFrame(TypedDict):
    """A frame every bowler still in has bowled: per bowler, each card and its placement, in the
    order bowled."""

    frame: int
    bowlers: list[MatchFrameBowler]


class MatchScore(TypedDict):
    score: float
    lines: Any
    placed: int
    done: bool
    waiting: bool


class Match(TypedDict):
    """The match summary (docs/protocol.md#the-match-summary); `kind` is the rule set's match
    kind from the catalog."""

    match: str
    kind: str
    game: str
    variant: str
    name: str
    state: State
    commitment: str
    seats: int
    start: Start
    turn_time: int
    grace: int
    creator: str
    seq: int
    rev: int
    players: list[Seat]
    joined_seq: NotRequired[int]
    seed: NotRequired[str]
    results: NotRequired[MatchResults]
    you: NotRequired[Yours | None]
    view: NotRequired[View]
    own_frame: NotRequired[MatchOwnFrame]
    turn: NotRequired[MatchTurn | None]
    frames: NotRequired[list[MatchFrame]]
    round: NotRequired[int]
    card: NotRequired[str | None]
    deadline: NotRequired[int | None]
    scores: NotRequired[dict[str, MatchScore]]
    created: NotRequired[int | None]
    started_at: NotRequired[int | None]
    ended_at: NotRequired[int | None]
    rematch: NotRequired[str | None]
    rematch_by: NotRequired[str | None]
    rematch_of: NotRequired[str | None]


class UnsubscribedReply(TypedDict):
    race: NotRequired[str]
    match: NotRequired[str]
    board: NotRequired[str]
    kind: NotRequired[PlayerKind]
    arena: NotRequired[str]


class SubscribedReply(TypedDict):
    board: str
    kind: PlayerKind


DailyState = Literal["open", "closing", "revealed"]


class Chain(TypedDict):
    """A chain of day secrets' public record (docs/fairness.md)."""

    anchor: str
    start: str
    length: int
    created: NotRequired[int]
    reason: NotRequired[str]


class WinnableChoiceBudget(TypedDict):
    positions: int
    solver: int


WinnableChoiceCandidateVerdict = Literal["won", "lost", "unknown"]


class WinnableChoiceCandidate(TypedDict):
    k: int
    verdict: WinnableChoiceCandidateVerdict
    positions: int


class WinnableChoice(TypedDict):
    """After the reveal: the candidate dealt and each one judged."""

    k: int
    found: bool
    line: str | None
    par: int | None
    budget: WinnableChoiceBudget
    cap: int
    candidates: list[WinnableChoiceCandidate]


YouDealReview = Literal["pending", "cleared", "removed"]


class YouDeal(TypedDict):
    """With a token: your attempt at this deal (docs/daily.md#who-ranks)."""

    ranked: bool
    played: bool
    unranked_reason: NotRequired[str]
    review: NotRequired[YouDealReview]


class DailyDeal(TypedDict):
    game: str
    variant: str
    name: str
    commitment: NotRequired[str]
    seed: NotRequired[str]
    winnable_rule: NotRequired[bool]
    pending: NotRequired[bool]
    winnable: NotRequired[WinnableChoice]
    you: NotRequired[YouDeal]


class BeaconChain(TypedDict):
    """The drand chain the round is of (drand's /info names): what a checker needs to verify the
    round's signature and that it is the day's."""

    hash: str
    schemeID: str
    public_key: str
    genesis_time: int
    period: int


class Round(TypedDict):
    """The public randomness beacon's round mixed into the day's seeds."""

    round: int
    randomness: str
    signature: str
    previous_signature: NotRequired[str | None]
    chain: NotRequired[BeaconChain]


LiveState = Literal["open", "playing", "ended"]


class LiveEdition(TypedDict):
    game: str
    variant: str
    name: str
    state: LiveState
    signed_up: int
    board: str
    race: str | None
    commitment: NotRequired[str]
    seed: NotRequired[str]
    waiting: NotRequired[bool]
    joined: NotRequired[bool]
    session: NotRequired[str]
    winnable_rule: NotRequired[bool]
    pending: NotRequired[bool]
    winnable: NotRequired[WinnableChoice]


class Live(TypedDict):
    """The daily's live edition of a day (docs/protocol.md#the-dailys-live-edition)."""

    day: str
    at: int
    ends_at: int
    window: int
    now: int
    editions: list[LiveEdition]


class Daily(TypedDict):
    day: str
    state: DailyState
    opens_at: int
    closes_at: int
    deadline: int
    now: int
    reveal_due: int
    overdue: bool
    chain: Chain | None
    deals: list[DailyDeal]
    beacon: NotRequired[Round | None]
    waiting: NotRequired[bool]
    secret: NotRequired[str]
    revealed_at: NotRequired[int]
    live: NotRequired[Live | None]


Format = Literal["live", "open"]


class Entry(TypedDict):
    """A board's row: its rank and player, and what the board keeps of the player's result
    (which fields depends on the board: docs/protocol.md, board.get)."""

    rank: int
    player: str
    name: NotRequired[str]
    kind: NotRequired[PlayerKind]
    status: NotRequired[ViewStatus]
    score: NotRequired[float]
    time_ms: NotRequired[int]
    moves: NotRequired[int]
    tie_break: NotRequired[int]
    finished_at: NotRequired[int]
    session: NotRequired[str | None]
    walked_away: NotRequired[bool]
    resigned: NotRequired[bool]
    race: NotRequired[str]
    points: NotRequired[int]
    results: NotRequired[int]
    wins: NotRequired[int]
    firsts: NotRequired[int]
    streak: NotRequired[int]
    days: NotRequired[int]
    mu: NotRequired[float]
    sigma: NotRequired[float]
    ordinal: NotRequired[float]
    races: NotRequired[int]
    vs_par: NotRequired[int]


class Board(TypedDict):
    board: str
    kind: PlayerKind
    format: Format
    total: int
    entries: list[Entry]
    you: NotRequired[int | None]
    par: NotRequired[int]


ErrorLimit = Literal["socket", "account", "origin", "sockets", "registration", "hints",
        "league.join"]


class Error(TypedDict):
    """A refusal: a stable dotted code and a sentence for people."""

    code: str
    message: str
    retry_after: NotRequired[float]
    limit: NotRequired[ErrorLimit]
    race: NotRequired[str]
    rev: NotRequired[int]


GhostState = Literal["open", "closed", "revealed"]


class GhostTranscript(TypedDict):
    player: str
    name: str
    session: str
    moves: list[str]
    times: list[int]
    status: ViewStatus
    score: int


class Ghost(TypedDict):
    """The ghost race summary (docs/protocol.md#ghost-races): the seed and the transcripts only
    once revealed."""

    ghost: str
    game: str
    variant: str
    name: str
    scoring: Scoring
    creator: str
    state: GhostState
    commitment: str
    created: int
    closes_at: int
    cap: int
    time_limit: int
    countdown: int
    entrants: int
    finished: int
    board: str
    ranking: list[Entry]
    to_beat: Entry | None
    closed_at: NotRequired[int | None]
    revealed_at: NotRequired[int | None]
    seed: NotRequired[str]
    transcripts: NotRequired[list[GhostTranscript]]


class GhostEntry(TypedDict):
    """Your run in a ghost race: its race and your session in it."""

    ghost: Ghost
    race: str
    joined_seq: int
    session: Session


SuggestionReplySource = Literal["solver", "heuristic", "none"]


class SuggestionReply(TypedDict):
    """A hint (docs/protocol.md#hints)."""

    session: str
    rev: int
    move: str | None
    source: SuggestionReplySource
    hints: int
    words: NotRequired[str]
    line_left: NotRequired[int]
    score: NotRequired[int]
    lost: NotRequired[Literal[True]]


AnalysisReplyState = Literal["ready", "pending"]


JudgedVerdict = Literal["won", "lost", "unknown", "best"]


class Judged(TypedDict):
    """One position of the game, the deal first, judged by the solver."""

    verdict: JudgedVerdict
    to_go: int | None
    score: int | None
    complete: bool
    searched: int


TurningPointAfter = Literal["lost", "unknown", "resigned", "stopped"]


class TurningPoint(TypedDict):
    """The move after which the deal could no longer be won, or that cost the most points."""

    move_number: int
    move: str
    words: str
    after: TurningPointAfter
    better: list[str]
    better_words: str
    text: str
    to_go: NotRequired[int]
    score_before: NotRequired[int]
    score_after: NotRequired[int]


class Analysis(TypedDict):
    """Ready: each position along the line played judged, and the turning point
    (docs/protocol.md#analysis)."""

    version: int
    moves: list[str]
    positions: list[Judged]
    status: str
    summary: str
    game: str
    variant: str
    solver: int
    budget: int
    resigned: bool
    turning_point: TurningPoint | None
    last_winnable: int | None
    par: int | None
    over_par: int | None
    searched: int


class AnalysisReply(TypedDict):
    """Docs/protocol.md#analysis."""

    session: str
    state: AnalysisReplyState
    analysis: NotRequired[Analysis]
    retry_ms: NotRequired[int]


class LeagueOwner(TypedDict):
    id: str
    name: str


class LeagueMember(TypedDict):
    player: str
    name: str
    kind: str
    joined: int


class League(TypedDict):
    """A league as its members see it; anyone else gets league.unknown."""

    league: str
    name: str
    code: str
    created: int
    owner: LeagueOwner
    members: list[LeagueMember]


class LeagueLeftReply(TypedDict):
    league: str
    closed: bool


class LeaguesReplyLeague(TypedDict):
    league: str
    name: str
    owner: str
    members: int


class LeaguesReply(TypedDict):
    leagues: list[LeaguesReplyLeague]


ArenaState = Literal["scheduled", "running", "ended", "cancelled"]


class ArenaPlayer(TypedDict):
    player: str
    name: str
    kind: NotRequired[PlayerKind]


class ArenaWinner(TypedDict):
    player: str
    name: str
    points: int
    kind: NotRequired[str]


class ArenaPoints(TypedDict):
    """A round's points: by place (first, second, third), for finishing, for playing."""

    places: list[int]
    finished: int
    played: int


class Arena(TypedDict):
    """The arena summary (docs/protocol.md#arenas)."""

    arena: str
    name: str
    game: str
    variant: str
    state: ArenaState
    starts_at: int
    ends_at: int
    duration: int
    interval: int
    repeat: int
    round: int
    current: str | None
    rounds: list[str]
    players: list[ArenaPlayer]
    winner: ArenaWinner | None
    board: str
    points: ArenaPoints
    joined: NotRequired[bool]
    created: NotRequired[int]
    ended_at: NotRequired[int | None]
    next: NotRequired[str | None]
    repeat_of: NotRequired[str | None]


ChallengeState = Literal["pending", "accepted", "declined", "withdrawn", "expired"]


Challenge = TypedDict("Challenge", {
    "challenge": str,
    "from": Player,
    "to": Player,
    "game": str,
    "variant": str,
    "name": str,
    "state": ChallengeState,
    "created": int,
    "expires_at": int,
    "race": str | None,
    "answered_at": int | None,
})


class ChallengesReply(TypedDict):
    challenges: list[Challenge]
    refuse: bool


class ChallengeSettingsReply(TypedDict):
    refuse: bool


class RaceJoinedEvent(TypedDict):
    race: str
    seq: int
    player: Player


class RaceLeftEvent(TypedDict):
    race: str
    seq: int
    player: str


class RaceStartedEvent(TypedDict):
    race: str
    seq: int
    starts_at: int
    ends_at: int
    sessions: dict[str, str]


class RaceProgressEvent(TypedDict):
    race: str
    seq: int
    player: str
    moves: int
    score: float
    cards: int
    status: str


class Ranked(TypedDict):
    """An entrant of an ended race, ranked (docs/protocol.md#ranking)."""

    player: str
    name: str
    kind: PlayerKind
    status: ViewStatus
    score: int
    moves: int
    rank: int
    time_ms: int
    session: NotRequired[str]
    finished_at: NotRequired[int | None]
    tie_break: NotRequired[int]
    resigned: NotRequired[bool]


class RaceEndedEvent(TypedDict):
    race: str
    seq: int
    ranking: list[Ranked]
    seed: NotRequired[str]


class RaceRematchedEvent(TypedDict):
    race: str
    seq: int
    rematch: str
    by: Player


class MatchJoinedEvent(TypedDict):
    match: str
    seq: int
    player: Player


class MatchLeftEvent(TypedDict):
    match: str
    seq: int
    player: str


class PlayerInOrder(TypedDict):
    """A match's player, in seat order."""

    player: str
    name: str
    kind: PlayerKind


class MatchStartedEvent(TypedDict):
    match: str
    seq: int
    kind: str
    order: list[PlayerInOrder]
    started_at: int
    view: NotRequired[View]
    turn: NotRequired[MatchTurn | None]
    round: NotRequired[int]
    card: NotRequired[str]
    deadline: NotRequired[int]


By = Literal["player", "timer"]


class MatchMovedEvent(TypedDict):
    match: str
    seq: int
    player: str
    bowler: int
    by: By
    move: str | None
    view: NotRequired[View]
    turn: NotRequired[MatchTurn | None]
    frames: NotRequired[list[MatchFrame]]


class MatchPlacedEvent(TypedDict):
    match: str
    seq: int
    player: str
    round: int
    by: By
    score: float
    done: bool
    lines: NotRequired[Any]


class MatchCardEvent(TypedDict):
    match: str
    seq: int
    round: int
    card: str
    deadline: int


class MatchForfeitEvent(TypedDict):
    match: str
    seq: int
    player: str
    view: NotRequired[View]
    turn: NotRequired[MatchTurn | None]
    frames: NotRequired[list[MatchFrame]]


class MatchAwayEvent(TypedDict):
    match: str
    seq: int
    player: str


class MatchBackEvent(TypedDict):
    match: str
    seq: int
    player: str


class MatchEndedEvent(TypedDict):
    match: str
    seq: int
    seed: str
    results: MatchResults


class MatchRematchedEvent(TypedDict):
    match: str
    seq: int
    rematch: str
    by: Player


class Own(TypedDict):
    """What is yours alone in a match: your grid, or your lane on your turn."""

    match: str
    view: View
    legal: list[str]
    waiting: bool
    as_of: int
    deadline: NotRequired[int]


class BoardUpdate(TypedDict):
    """A watched board's top entries (as board.get shows them) and yours."""

    board: str
    kind: PlayerKind
    format: Format
    total: int
    entries: list[Entry]
    you: Entry | None
    par: NotRequired[int]


class GhostProgressEvent(TypedDict):
    ghost: str
    race: str
    player: str
    name: str
    offset: int
    moves: int
    score: float
    cards: int
    status: str


class ArenaRoundEvent(TypedDict):
    arena: str
    round: int
    race: str
    commitment: str
    starts_at: int
    ends_at: int
    sessions: dict[str, str]


class ArenaEndedEventWinner(TypedDict):
    player: str
    name: str
    points: int
    kind: NotRequired[str]


class ArenaEndedEvent(TypedDict):
    arena: str
    winner: ArenaEndedEventWinner | None
    cancelled: bool


class DailyLiveDealtEvent(TypedDict):
    day: str
    game: str
    variant: str
    race: str
    commitment: str
    starts_at: int
    ends_at: int
    session: str | None


class DailyLiveEndedEvent(TypedDict):
    day: str
    game: str
    variant: str
    board: str


class ReconnectEvent(TypedDict):
    message: str


class Rating(TypedDict):
    """A rating (OpenSkill): its mean, uncertainty, the ordinal boards rank by, and the races it
    counts."""

    mu: float
    sigma: float
    ordinal: float
    races: int


class Streak(TypedDict):
    """The days in a row so far, and the most ever."""

    days: int
    best: int


class RuleSetStats(TypedDict):
    """A player's games of one rule set."""

    game: str
    variant: str
    played: int
    won: int
    best_time_ms: int | None
    best_score: int | None
    average_score: float | None


class ProfileStreaks(TypedDict):
    played: Streak
    won: Streak


class Profile(TypedDict):
    """A player's public profile (docs/protocol.md)."""

    id: str
    name: str
    kind: PlayerKind
    created: int
    stats: list[RuleSetStats]
    streaks: ProfileStreaks
    ratings: dict[str, Rating]
    ratings_against_bots: dict[str, Rating]


class SessionTranscript(TypedDict):
    """A session's move list with server times (docs/protocol.md)."""

    session: str
    player: str
    game: str
    variant: str
    competitive: bool
    commitment: str
    seed: str | None
    moves: list[str]
    times: list[int]
    status: ViewStatus
    score: int
    created: int
    daily: str | None
    hints: int


class RaceResults(TypedDict):
    """An ended race's results (docs/protocol.md#ranking)."""

    race: str
    game: str
    variant: str
    commitment: str
    starts_at: int
    ended_at: int
    ranking: list[Ranked]
    bot: RaceBot | None
    seed: NotRequired[str]
    ghost: NotRequired[str]
    arena: NotRequired[str]


class TimedTurn(TypedDict):
    """A turns match's move, its bowler and its server time."""

    t: int
    bowler: int
    player: str
    move: str


class TimedMove(TypedDict):
    """A player's placement and its server time."""

    t: int
    move: str


class MatchTranscript(TypedDict):
    """An ended match's every placement, seed and results (docs/protocol.md)."""

    match: str
    kind: str
    game: str
    variant: str
    seed: str
    commitment: str
    started_at: int
    ended_at: int
    order: list[PlayerInOrder]
    results: MatchResults
    moves: list[TimedTurn] | dict[str, list[TimedMove]]


class WinnableFields(TypedDict):
    """A daily deal's fields of the winnable-deal rule."""

    winnable_rule: NotRequired[bool]
    pending: NotRequired[bool]
    winnable: NotRequired[WinnableChoice]


#: Each reply type's TypedDict.
REPLIES: dict[str, type] = {
    "welcome": WelcomeReply,
    "pong": PongReply,
    "player": PlayerReply,
    "session": Session,
    "ack": Ack,
    "race": Race,
    "match": Match,
    "match.ack": Match,
    "unsubscribed": UnsubscribedReply,
    "subscribed": SubscribedReply,
    "daily": Daily,
    "board": Board,
    "error": Error,
    "ghost": Ghost,
    "ghost.entry": GhostEntry,
    "suggestion": SuggestionReply,
    "analysis": AnalysisReply,
    "league": League,
    "league.left": LeagueLeftReply,
    "leagues": LeaguesReply,
    "arena": Arena,
    "daily_live": Live,
    "challenge": Challenge,
    "challenges": ChallengesReply,
    "challenge.settings": ChallengeSettingsReply,
}


#: Each event type's TypedDict.
EVENTS: dict[str, type] = {
    "race.joined": RaceJoinedEvent,
    "race.left": RaceLeftEvent,
    "race.started": RaceStartedEvent,
    "race.progress": RaceProgressEvent,
    "race.ended": RaceEndedEvent,
    "race.rematched": RaceRematchedEvent,
    "match.joined": MatchJoinedEvent,
    "match.left": MatchLeftEvent,
    "match.started": MatchStartedEvent,
    "match.moved": MatchMovedEvent,
    "match.placed": MatchPlacedEvent,
    "match.card": MatchCardEvent,
    "match.forfeit": MatchForfeitEvent,
    "match.away": MatchAwayEvent,
    "match.back": MatchBackEvent,
    "match.ended": MatchEndedEvent,
    "match.rematched": MatchRematchedEvent,
    "match.you": Own,
    "board.update": BoardUpdate,
    "ghost.progress": GhostProgressEvent,
    "arena.round": ArenaRoundEvent,
    "arena.ended": ArenaEndedEvent,
    "daily_live.dealt": DailyLiveDealtEvent,
    "daily_live.ended": DailyLiveEndedEvent,
    "challenge.received": Challenge,
    "challenge.answered": Challenge,
    "reconnect": ReconnectEvent,
}
