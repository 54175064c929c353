"""The parts of the server's messages the SDK hands out as they came (a view, a race's
entrants, a ranking, a day's deals, a board's entries), as TypedDicts: what a bot can rely
on, so that a type checker catches a misspelt field. Written for the SDK, which imports
nothing of the server; tests/clients/test_payloads.py holds every field here to the
server's reply schema (docs/protocol.md). A string the schema limits to a few values
(a status, a kind) is a ``str`` here: a later server may add one. (Annotations are
evaluated here, not postponed: Python 3.11 counts a postponed ``NotRequired`` as required.)"""

from typing import NotRequired, TypedDict


class Pile(TypedDict):
    """A pile as its player sees it: how many cards lie face down, and the face-up ones."""

    down: int
    up: list[str]


class View(TypedDict):
    """What a player sees of a game: face-down cards are counts, never cards."""

    game: str
    variant: str
    status: str  # playing, won, lost or finished
    score: float
    moves: int
    piles: dict[str, Pile]
    info: NotRequired[dict[str, object]]  # the rule set's public facts (the base rank...)


class Yours(TypedDict, total=False):
    """Your own latest position in a match: your grid, or your lane with its legal moves on
    your turn (``match.you``; a turns match's events show it to all, legal moves to the
    player whose turn it is)."""

    view: View
    legal: list[str]
    waiting: bool
    as_of: int
    deadline: int


class Player(TypedDict):
    id: str
    name: str
    kind: str  # human or bot


class Entrant(TypedDict):
    """A race's entrant; once the race started, their progress."""

    player: str
    name: str
    kind: str
    session: NotRequired[str]
    status: NotRequired[str]
    score: NotRequired[int]
    moves: NotRequired[int]
    finished_at: NotRequired[int | None]
    tie_break: NotRequired[int]
    resigned: NotRequired[bool]


class Ranked(TypedDict):
    """An entrant of an ended race, ranked (docs/protocol.md#ranking)."""

    player: str
    name: str
    kind: str
    status: str
    score: int
    moves: int
    rank: int
    time_ms: int
    session: NotRequired[str]
    finished_at: NotRequired[int | None]
    tie_break: NotRequired[int]
    resigned: NotRequired[bool]


class RaceBot(TypedDict):
    """The server-run bot a race is against."""

    player: str
    name: str
    strength: str


class YouDeal(TypedDict):
    """With a token: your attempt at a day's deal (docs/daily.md#who-ranks)."""

    ranked: bool
    played: bool
    unranked_reason: NotRequired[str]
    review: NotRequired[str]  # held for a moderator's review: pending, cleared or removed


class DailyDeal(TypedDict):
    """A day's deal of one rule set: its commitment, and its seed once revealed."""

    game: str
    variant: str
    name: str
    commitment: NotRequired[str]
    seed: NotRequired[str]
    winnable_rule: NotRequired[bool]
    pending: NotRequired[bool]
    you: NotRequired[YouDeal]


class BoardEntry(TypedDict):
    """A leaderboard's entry: its rank and player, and what the board keeps of the result;
    which fields an entry has depends on the board (docs/protocol.md, board.get)."""

    rank: int
    player: str
    name: NotRequired[str]
    kind: NotRequired[str]
    status: NotRequired[str]
    score: NotRequired[float]
    time_ms: NotRequired[int]
    moves: NotRequired[int]
    tie_break: NotRequired[int]
    finished_at: NotRequired[int]
    session: NotRequired[str | None]
    walked_away: NotRequired[bool]
    resigned: NotRequired[bool]
    race: NotRequired[str]  # a ghost race's board: the race of the run
    points: NotRequired[int]  # points boards: weekly, all-time, an arena's, a league's weekly
    results: NotRequired[int]
    wins: NotRequired[int]
    firsts: NotRequired[int]  # a league's weekly board
    streak: NotRequired[int]  # a league's weekly board: the member's run of days played
    days: NotRequired[int]  # a streak board
    mu: NotRequired[float]  # rating boards: mu, sigma, ordinal (mu - 3 sigma), races
    sigma: NotRequired[float]
    ordinal: NotRequired[float]
    races: NotRequired[int]
    vs_par: NotRequired[int]  # a revealed daily board with par: moves minus par


class Transcript(TypedDict):
    """A session's move list with server times, and its seed once revealed: what
    ``samedeal replay`` replays."""

    session: str
    player: str
    game: str
    variant: str
    competitive: bool
    commitment: str
    seed: str | None
    moves: list[str]
    times: list[int]
    status: str
    score: int
    created: int
    daily: str | None
    hints: int


class Seated(TypedDict):
    """A match's player in seat order (a transcript's ``order``)."""

    player: str
    name: str
    kind: str


class TimedTurn(TypedDict):
    """A turns match's move in turn: its server time, the bowler whose lane it is in and the
    player who played it (``timer``, ``forfeit``: played for them)."""

    t: int
    bowler: int
    player: str
    move: str


class TimedMove(TypedDict):
    """A called-card match's placement by one player, with its server time."""

    t: int
    move: str


class MatchTranscript(TypedDict):
    """An ended match's every move with its server time, its seed and its results: a turns
    match's moves in turn, a called-card match's each player's placements by player id."""

    match: str
    kind: str
    game: str
    variant: str
    seed: str
    commitment: str
    started_at: int
    ended_at: int
    order: list[Seated]
    results: dict[str, object]
    moves: list[TimedTurn] | dict[str, list[TimedMove]]


class LeagueOwner(TypedDict):
    id: str
    name: str


class LeagueMember(TypedDict):
    player: str
    name: str
    kind: str
    joined: int


class League(TypedDict):
    """A league as its members see it, with its invite ``code``."""

    league: str
    name: str
    code: str
    created: int
    owner: LeagueOwner
    members: list[LeagueMember]


class LeagueListed(TypedDict):
    """A league you are in, as ``leagues()`` lists it: its owner's id, its members counted."""

    league: str
    name: str
    owner: str
    members: int


class LeagueLeft(TypedDict):
    """You left a league; ``closed`` when you owned it."""

    league: str
    closed: bool


class GhostRun(TypedDict):
    """A revealed ghost race's run: the moves with their server times."""

    player: str
    name: str
    session: str
    moves: list[str]
    times: list[int]
    status: str
    score: int


class Ghost(TypedDict):
    """A ghost race: its ranking and the run to beat; once revealed, its seed and runs."""

    ghost: str
    game: str
    variant: str
    name: str
    scoring: str
    creator: str
    state: str  # open, closed or revealed
    commitment: str
    created: int
    closes_at: int
    cap: int
    time_limit: int
    countdown: int
    entrants: int
    finished: int
    board: str
    ranking: list[BoardEntry]
    to_beat: BoardEntry | None
    closed_at: NotRequired[int | None]
    revealed_at: NotRequired[int | None]
    seed: NotRequired[str]
    transcripts: NotRequired[list[GhostRun]]


class ArenaPlayer(TypedDict):
    player: str
    name: str
    kind: NotRequired[str]


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
    """An arena: its rounds, players, the ``current`` round and, once over, its winner."""

    arena: str
    name: str
    game: str
    variant: str
    state: str  # scheduled, running, ended or cancelled
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


class Rating(TypedDict):
    """A rating (OpenSkill): its mean, uncertainty, the ordinal boards rank by, its races."""

    mu: float
    sigma: float
    ordinal: float
    races: int


class Streak(TypedDict):
    days: int  # in a row so far
    best: int


class Streaks(TypedDict):
    played: Streak
    won: Streak


class RuleSetStats(TypedDict):
    """A player's games of one rule set."""

    game: str
    variant: str
    played: int
    won: int
    best_time_ms: int | None
    best_score: int | None
    average_score: float | None


class Profile(TypedDict):
    """A player's public profile: statistics per rule set, streaks, ratings per rule set
    (``game/variant``), and those from races against the server's bots."""

    id: str
    name: str
    kind: str
    created: int
    stats: list[RuleSetStats]
    streaks: Streaks
    ratings: dict[str, Rating]
    ratings_against_bots: dict[str, Rating]


class Stats(TypedDict):
    """A player's statistics per rule set alone."""

    player: str
    stats: list[RuleSetStats]
