"""After the game: the solver's verdict on every position of a game as it was played, and the
move where a win was lost.

    >>> import engine
    >>> from engine.analysis import analyse
    >>> rules = engine.get("klondike", "easy")
    >>> a = analyse(rules, bytes.fromhex("00"), ["t7-t1", "resign"])
    >>> [p.verdict.value for p in a.positions], a.turning_point.after
    (['won', 'won'], 'resigned')

Each position along the line (the deal, then after each move) is judged by the solver within a
budget of positions (never seconds: the same analysis on every machine): ``won`` with a line
and the moves it takes, ``lost`` (proved), or ``unknown``; for a game played for points, the
best score still reachable (``best``). Verdicts pass along the line without a search where
they can: a player who follows a won line is still on it; every position after a proved loss
is lost (what a lost position leads to is lost); and a position before a won one is won (the
player's own moves lead there). ``total`` caps the positions one game may spend; positions left
when it is spent are unknown unless passed along.

The **turning point** is the move made from the last position proved winnable, when the game
was not won: after it nothing was won (proved lost, or no win found within the budget), and the
solver's line from the position before it is the better line. For a won game, ``par`` is the
length of the deal's line made short as a daily's par is (engine/solver/par.py), and the
turning point's better line is made short the same way. For a game
played for points, the turning point is the move that cost the most of the best score still
reachable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .core import State
from .notation import move_text, parse_move
from .options import Scoring
from .rules import RuleSet
from .solver import VERSION, Budget, Outcome, solve
from .solver.par import POSITIONS as PAR_POSITIONS
from .solver.par import par_line
from .words import move_words

#: The JSON's format: it changes with a change to what ``to_json`` writes.
FORMAT = 1
#: Positions searched per position judged (about 30 ms of Klondike's step search).
POSITIONS = 50_000
#: Positions one game may spend in all.
TOTAL = 1_000_000
#: Positions spent making a won line short (a won game's par; the turning point's better
#: line, which a player follows): as a daily's par is made.
SHORTEN = PAR_POSITIONS

WON, LOST, UNKNOWN, BEST = Outcome.WON, Outcome.LOST, Outcome.UNKNOWN, Outcome.BEST

#: Told how far an analysis is: (positions judged, positions in all).
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Judged:
    """One position's verdict. ``line``: the solver's line from it (won: to the win; best: to
    the best score found), or the moves the player went on to win by. ``complete``: a best
    score proved the best. ``searched``: positions spent on it (0: passed along the line)."""

    verdict: Outcome
    line: tuple[str, ...] = ()
    score: int | None = None
    complete: bool = False
    searched: int = 0

    @property
    def to_go(self) -> int | None:
        return len(self.line) if self.verdict is WON else None

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict.value, "to_go": self.to_go, "score": self.score,
                "complete": self.complete or self.verdict is LOST, "searched": self.searched}


@dataclass(frozen=True)
class TurningPoint:
    """The move after which nothing was won (or, scored by points, the one that cost most).
    ``move_number``: 1-based. ``after``: ``lost``, ``unknown`` (no win found within the
    budget), ``resigned`` or ``stopped`` (the game ended by time or the race's end with the deal
    still winnable). ``better``: the solver's line from the position before the move."""

    move_number: int
    move: str
    words: str
    after: str
    better: tuple[str, ...]
    better_words: str
    text: str
    score_before: int | None = None
    score_after: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "move_number": self.move_number, "move": self.move, "words": self.words,
            "after": self.after, "better": list(self.better), "better_words": self.better_words,
            "text": self.text}
        if self.score_before is None:
            out["to_go"] = len(self.better)
        else:
            out["score_before"], out["score_after"] = self.score_before, self.score_after
        return out


@dataclass(frozen=True)
class Analysis:
    """The verdicts of ``positions`` (the deal, then after each of ``moves``), the turning
    point, and a won game's par."""

    rules: RuleSet
    moves: tuple[str, ...]
    positions: tuple[Judged, ...]
    status: str
    resigned: bool
    budget: int
    turning_point: TurningPoint | None
    par: int | None

    @property
    def last_winnable(self) -> int | None:
        won = [k for k, p in enumerate(self.positions) if p.verdict is WON]
        return won[-1] if won else None

    @property
    def searched(self) -> int:
        return sum(p.searched for p in self.positions)

    @property
    def summary(self) -> str:
        """One sentence for players."""
        n = len(self.moves)
        first = self.positions[0]
        if self.par is not None:
            over = n - self.par
            return (f"Won in {n} moves, par {self.par}" + (f": {over} over par." if over > 0
                                                         else ": at par."))
        if first.verdict is BEST:
            tp = self.turning_point
            return (f"Scored {self.positions[-1].score}; the deal allowed {first.score}"
                    + (f" (move {tp.move_number} cost the most)." if tp else "."))
        if self.turning_point is not None:
            return self.turning_point.text
        if first.verdict is LOST:
            return "The deal could not be won: no line from the deal wins."
        if self.status == "won":
            return f"Won in {n} moves."
        return "No win was found from any position of this game within the budget."

    def to_json(self) -> dict[str, Any]:
        over = None if self.par is None else len(self.moves) - self.par
        return {
            "version": FORMAT, "solver": VERSION, "game": self.rules.id,
            "variant": self.rules.variant, "budget": self.budget, "status": self.status,
            "resigned": self.resigned, "moves": list(self.moves),
            "positions": [p.to_json() for p in self.positions],
            "last_winnable": self.last_winnable,
            "turning_point": None if self.turning_point is None else self.turning_point.to_json(),
            "par": self.par, "over_par": over, "summary": self.summary, "searched": self.searched,
        }


def analyse(rules: RuleSet, seed: bytes, moves: Sequence[str], competitive: bool = False,
            positions: int = POSITIONS, total: int = TOTAL,
            progress: Progress | None = None) -> Analysis:
    """Judge every position of the game dealt from ``seed`` and played by ``moves`` (move
    notation; a last ``resign`` ends it). Raises ``IllegalMove`` at a move the rules refuse."""
    points = rules.scoring == Scoring.POINTS
    st = rules.deal(seed, competitive)
    played: list[str] = []
    states: list[State] = [st.copy()]
    resigned = False
    for text in moves:
        if resigned:
            break
        if text == "resign":
            resigned = True
            continue
        m = parse_move(rules, text)
        st.play(m)
        played.append(move_text(rules, m))
        states.append(st.copy())
    judge = _Judge(states, played, positions, total, progress)
    judged = judge.each() if points else judge.boundary()
    status = "lost" if resigned else st.status
    tp = _scored_turn(states, judged, played) if points else \
        _turning_point(states, judged, played, status, resigned)
    par = None
    if status == "won" and judged[0].verdict is WON:
        start = states[0]
        par = len(_short(start, judged[0].line))
    return Analysis(rules, tuple(played), tuple(judged), status, resigned, positions, tp, par)


def _search(st: State, spend: int) -> Judged:
    v = solve(st, Budget(positions=spend))
    line = tuple(move_text(st.rules, m) for m in v.moves)
    if v.outcome is WON:
        return Judged(WON, line, searched=v.positions)
    if v.outcome is BEST:
        return Judged(BEST, line, v.score, v.complete, v.positions)
    return Judged(v.outcome, searched=v.positions)


def _short(st: State, line: tuple[str, ...]) -> tuple[str, ...]:
    """A won line from ``st`` made short (never longer, still winning)."""
    moves = tuple(parse_move(st.rules, t) for t in line)
    return tuple(move_text(st.rules, m) for m in par_line(st, moves, SHORTEN))


def _end(st: State) -> Judged | None:
    """A position where the game is over: won, lost, or a points game's final score."""
    if st.status == "won":
        return Judged(WON)
    if st.rules.scoring == Scoring.POINTS:
        return Judged(BEST, (), st.score, True)
    return Judged(LOST)


class _Judge:
    """Judges a line's positions, searching as few as it can. Along a line of a game played to
    a win, the won positions come first and the lost ones last (a position before a won one is
    won, one after a lost one is lost), so the boundary between them is found by halving the
    stretch still undecided; what no search decided within the budget is unknown. A game
    played for points has no such order: each position is searched (a line followed passes
    its best score along)."""

    def __init__(self, states: list[State], played: list[str], positions: int, total: int,
                 progress: Progress | None) -> None:
        self.states, self.played, self.positions, self.left = states, played, positions, total
        self.progress = progress
        self.found: dict[int, Judged] = {}
        self.kept = 0  # positions of the budget held back (``boundary``)

    def judge(self, k: int) -> Judged:
        here = self.states[k]
        j = _end(here) if here.over else None
        if j is None:
            spend = min(self.positions, self.left - self.kept)
            j = _search(here, spend) if spend > 0 else Judged(UNKNOWN)
            self.left -= j.searched
        self.found[k] = j
        return j

    def followed(self, k: int) -> int:
        """Pass position ``k``'s won or best line along the moves played while they follow
        it; the last position it reached."""
        j = self.found[k]
        while (k < len(self.played) and j.verdict in (WON, BEST)
               and j.line[:1] == (self.played[k],)):
            j = Judged(j.verdict, j.line[1:], j.score, j.complete)
            k += 1
            if k not in self.found or self.found[k].verdict is UNKNOWN:
                self.found[k] = j  # a line passed along beats a position left unknown
        return k

    def tell(self, done: int) -> None:
        if self.progress is not None:
            self.progress(done, len(self.states))

    def each(self) -> list[Judged]:
        k = 0
        while k < len(self.states):
            if k not in self.found:
                self.judge(k)
            k = self.followed(k) + 1
            self.tell(k)
        judged = [self.found[k] for k in range(len(self.states))]
        for k in range(len(self.played) - 1, -1, -1):  # a better score passed back
            after, here = judged[k + 1], judged[k]
            if after.score is not None and (here.score is None or after.score > here.score):
                judged[k] = Judged(BEST, (self.played[k], *after.line), after.score, False,
                                   here.searched)
        return judged

    def boundary(self) -> list[Judged]:
        """The halving holds one position's budget back for the position after the last won
        one, so that a game's budget running out never leaves its turning point unsearched."""
        n = len(self.played)
        won, lost = -1, n + 1  # positions up to ``won`` are won, from ``lost`` on lost
        self.kept = min(self.positions, self.left)
        while lost - won > 1:
            open_ = [k for k in range(won + 1, lost) if k not in self.found]
            if not open_:
                break
            mid = (won + lost) / 2
            k = min(open_, key=lambda i: (abs(i - mid), i))
            j = self.judge(k)
            if j.verdict is WON:
                won = max(won, self.followed(k))
            elif j.verdict is LOST:
                lost = k
            self.tell(won + 1 + n + 1 - lost + sum(
                1 for i in self.found if won < i < lost))
        self.kept = 0
        while won + 1 < lost and self.found[won + 1].searched == 0 and self.left > 0:
            del self.found[won + 1]  # left unsearched when the budget ran out: searched now
            j = self.judge(won + 1)
            if j.verdict is WON:
                won = self.followed(won + 1)
            elif j.verdict is LOST:
                lost = won + 1
            else:
                break
        judged: list[Judged] = []
        for k in range(n + 1):
            j = self.found.get(k) or Judged(UNKNOWN)
            if k >= lost:
                j = Judged(LOST, searched=j.searched)
            elif k <= won and j.verdict is not WON:
                j = Judged(UNKNOWN, searched=j.searched)  # won by the moves played: below
            judged.append(j)
        for k in range(won - 1, -1, -1):  # a won position's line passed back by the moves
            if judged[k].verdict is not WON:
                judged[k] = Judged(WON, (self.played[k], *judged[k + 1].line),
                                   searched=judged[k].searched)
        return judged


def _turning_point(states: list[State], judged: list[Judged], played: list[str], status: str,
                   resigned: bool) -> TurningPoint | None:
    won = [k for k, j in enumerate(judged) if j.verdict is WON]
    if status == "won" or not won:
        return None
    k = won[-1]
    before = states[k]
    better = _short(before, judged[k].line)
    better_words = move_words(before, parse_move(before.rules, better[0]))
    if k == len(played):  # the last position was winnable: the game stopped there
        after = "resigned" if resigned else "stopped"
        how = "the game was resigned" if resigned else "the game stopped"
        text = (f"{how[0].upper()}{how[1:]} with the deal still winnable: {better_words} "
                f"would have gone on to win, {len(better)} moves to go.")
        return TurningPoint(k + 1, "resign" if resigned else "", how, after, better,
                            better_words, text)
    move = played[k]
    words = move_words(before, parse_move(before.rules, move))
    after = judged[k + 1].verdict.value
    lost = ("the deal could no longer be won" if after == "lost"
            else "no win was found within the budget" if judged[k + 1].searched
            else "the game's budget ran out before the next position was searched")
    text = (f"After {k + 1}. {words} {lost}; {better_words} kept it winnable, "
            f"{len(better)} moves to go.")
    return TurningPoint(k + 1, move, words, after, better, better_words, text)


def _scored_turn(states: list[State], judged: list[Judged],
                 played: list[str]) -> TurningPoint | None:
    """The move that cost the most of the best score still reachable (found), if any did."""
    scores = [-1 if j.score is None else j.score for j in judged]
    drops = [(scores[k] - scores[k + 1], k) for k in range(len(played))
             if min(scores[k], scores[k + 1]) >= 0 and judged[k].line[:1] != (played[k],)]
    cost, k = max(drops, default=(0, -1))
    if cost <= 0:
        return None
    before = states[k]
    move, better = played[k], judged[k].line
    words = move_words(before, parse_move(before.rules, move))
    better_words = move_words(before, parse_move(before.rules, better[0]))
    was, now = scores[k], scores[k + 1]
    text = (f"After {k + 1}. {words} the best score still reachable fell from {was} to {now}; "
            f"{better_words} kept {was} in reach.")
    return TurningPoint(k + 1, move, words, "lost", better, better_words, text, was, now)
