"""Bowling (the Sierra/Hoyle game): fill ten pins in rank order from a fresh deck each frame.

One state holds the whole match of one to four bowlers, in bowling order. Every frame (and
every tenth-frame bonus ball that starts on empty pins) replaces the piles with a fresh deck
from its own labelled sub-stream of the seed, the same for every bowler. The rolls are kept
in ``vars`` as ``r<bowler>.<frame>.<ball>`` (pins filled during that ball), so undo, snapshots
and replays need nothing of their own; the scorecard is computed from them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cards import RANK, RANK_NAMES, show
from ..core import FINISHED, MOVE, PLAYING, WON, IllegalMove, Move, Refusal, State, Status
from ..deal import shuffled_deck
from ..options import Align, Deals, Fan, MatchKind, Scoring, Unit
from ..piles import GRID, STOCK_PILE, WASTE, Group, MatchMode, Stock
from ..registry import register
from ..rules import RuleSet

PINS = 10
FORFEIT = "forfeit"  # a Move kind for the history: ``src`` is the bowler (0-based)
FRAMES = 10


def roll_key(bowler: int, frame: int, ball: int) -> str:
    """The var holding the pins a bowler (0-based) filled with one ball of one frame."""
    return f"r{bowler + 1}.{frame}.{ball}"


def out_key(bowler: int) -> str:
    """The var set when a bowler (0-based) has forfeited the rest of a match."""
    return f"out{bowler + 1}"


def order_refusal(card: int, pin: int, other: int, there: int) -> Refusal:
    """A card on empty pin ``pin`` (0-based) out of rank order with ``there`` on ``other``."""
    lower = other < pin
    return Refusal("bowling.order", lambda: (
        f"{show(card)} can't go on pin {pin + 1}: a card on an empty pin must be "
        f"{'higher' if lower else 'lower'} than every card on a {'lower' if lower else 'higher'}"
        f" pin, and pin {other + 1} holds {show(there)}"))


def frame_scores(frames: list[list[int]]) -> list[tuple[int, bool]]:
    """Ten-pin scoring: per frame (pins plus the bonus known so far, whether it is final).

    ``frames`` holds each frame's balls in order (the tenth with its bonus balls); a frame
    still being bowled or waiting for its bonus balls is not final.
    """
    out: list[tuple[int, bool]] = []
    for i, balls in enumerate(frames):
        if i == FRAMES - 1:
            first = balls[:1] == [PINS]
            need = 3 if first or sum(balls[:2]) == PINS else 2
            out.append((sum(balls), len(balls) >= need))
            continue
        later = [b for f in frames[i + 1 :] for b in f]
        if balls[:1] == [PINS]:
            bonus = 2
        elif len(balls) == 2 and sum(balls) == PINS:
            bonus = 1
        else:
            out.append((sum(balls), len(balls) == 2))
            continue
        out.append((sum(balls) + sum(later[:bonus]), len(later) >= bonus))
    return out


@register
class Bowling(RuleSet):
    id = "bowling"
    name = "Bowling"
    players = (1, 4)
    match = MatchMode(MatchKind.TURNS, (1, 4))
    scoring = Scoring.POINTS
    target = 200
    summary = ("Ten frames of ten pins: place each card on a pin in rank order (or on a pin of "
               "its own rank); a card that fits nowhere rolls into the ball pile. Ten-pin "
               "scoring, 200 wins; one to four bowlers.")
    stock = Stock(Deals.NONE)

    def declare(self) -> tuple[Group, ...]:
        self.ball_size = 3 if self.easy else 2
        return (
            # The pins as a bowler sees them: p7-p10 at the back, p1 at the front.
            Group(GRID, PINS, prefix="p", capacity=0, fan=Fan.NONE, word="pin", label="Pins",
                  rows=((7, 8, 9, 10), (4, 5, 6), (2, 3), (1,)), align=Align.CENTER),
            Group(WASTE, 2, prefix="b", capacity=self.ball_size, fan=Fan.RIGHT, word="ball",
                  label="Balls"),
            Group(STOCK_PILE, unit=Unit.TOP, to=(GRID, WASTE), turn_up=True),
        )

    @property
    def pins(self) -> list[int]:
        return self.by_kind[GRID]

    @property
    def balls(self) -> list[int]:
        return self.by_kind[WASTE]

    # ----- decks ------------------------------------------------------------------------

    def deck(self, st: State, label: str) -> list[int]:
        """The fresh deck for ``frame/<n>`` or ``bonus/<k>``: a function of the seed only."""
        return shuffled_deck(st.seed, label)

    def initial_vars(self, piles: list[list[int]]) -> dict[str, int]:
        return {"turn": 0, "frame": 1, "ball": 1}

    def prepare(self, st: State) -> None:
        # The first frame comes from its own labelled stream, like every later frame.
        st.piles[self.stock_pile] = self.deck(st, "frame/1")[::-1]
        st.down[self.stock_pile] = 52

    def setup(self, piles: dict[str, str], down: dict[str, int] | None = None,
              seed: bytes = b"", **vars: int) -> State:
        """As ``RuleSet.setup``, but the stock's top card is shown unless ``down`` says."""
        st = super().setup(piles, down, seed, **vars)
        s = self.stock_pile
        if "s" not in (down or {}) and st.piles[s]:
            st.down[s] = len(st.piles[s]) - 1
        return st

    def fresh(self, st: State, label: str) -> None:
        """Empty pins and ball piles, a new deck in the stock (journaled, so undo is exact)."""
        for p in self.pins + self.balls:
            if st.piles[p]:
                st.set_pile(p, [], 0)
        st.set_pile(self.stock_pile, self.deck(st, label)[::-1], 52)

    # ----- where the current ball stands ------------------------------------------------

    def rolls(self, st: State, bowler: int, frame: int) -> list[int]:
        out = []
        for j in (1, 2, 3):
            v = st.vars.get(roll_key(bowler, frame, j))
            if v is None:
                break
            out.append(v)
        return out

    def continuing(self, st: State) -> bool:
        """Whether the current ball goes on with the last ball's deck and pins."""
        ball = st.vars["ball"]
        if ball == 1:
            return False
        frame = st.vars["frame"]
        if frame < FRAMES:
            return True
        done = self.rolls(st, st.turn, frame)
        if ball == 2:
            return done[0] < PINS
        return done[0] == PINS and done[1] < PINS

    def ball_pile(self, st: State) -> int:
        """The current ball's pile: b1 on fresh pins, b2 for a ball that continues."""
        return self.balls[1] if self.continuing(st) else self.balls[0]

    def ball_start(self, st: State) -> int:
        """Pins already filled when the current ball began."""
        if not self.continuing(st):
            return 0
        return st.vars[roll_key(st.turn, st.vars["frame"], st.vars["ball"] - 1)]

    def filled(self, st: State) -> int:
        return sum(1 for p in self.pins if st.piles[p])

    # ----- the pin rule -----------------------------------------------------------------

    def places(self, st: State, card: int) -> list[int]:
        """The pins that take ``card``: its own rank's pin, or an empty pin in rank order."""
        r = RANK[card]
        piles = st.piles
        ranks = [RANK[piles[p][0]] if piles[p] else 0 for p in self.pins]
        above = [14] * (PINS + 1)  # above[i]: the lowest rank on pins i+1 .. 10
        for i in range(PINS - 1, -1, -1):
            above[i] = min(above[i + 1], ranks[i] or 14)
        out = []
        lo = 0
        for i, p in enumerate(self.pins):
            pr = ranks[i]
            if pr:
                if pr == r:
                    out.append(p)
                lo = pr
            elif lo < r < above[i + 1]:
                out.append(p)
        return out

    def pin_refusal(self, st: State, pin: int, card: int) -> Refusal | None:
        piles = st.piles
        i = self.pins.index(pin)
        r = RANK[card]
        if piles[pin]:
            under = piles[pin][0]
            if RANK[under] == r:
                return None
            return Refusal("bowling.rank", lambda: (
                f"{show(card)} can't go on pin {i + 1}: a filled pin takes only more cards of "
                f"its own rank ({RANK_NAMES[RANK[under]]}s there)"))
        for j in range(i - 1, -1, -1):
            low = piles[self.pins[j]]
            if low and RANK[low[0]] >= r:
                return order_refusal(card, i, j, low[0])
        for j in range(i + 1, PINS):
            high = piles[self.pins[j]]
            if high and RANK[high[0]] <= r:
                return order_refusal(card, i, j, high[0])
        return None

    def target_refusal(self, st: State, src: int, dst: int, card: int,
                       n: int) -> Refusal | None:
        if self.pile_kinds[dst] == GRID:
            return self.pin_refusal(st, dst, card)
        ball = self.ball_pile(st)
        if dst != ball:
            return Refusal("bowling.ball", lambda: (
                f"this ball's cards go to {self.pile_names[ball]}, not "
                f"{self.pile_names[dst]}"))
        fits = self.places(st, card)
        if fits:
            return Refusal("bowling.fits", lambda: (
                f"{show(card)} fits on pin {self.pins.index(fits[0]) + 1}: only a card that "
                "fits nowhere on the pins goes to the ball pile"))
        if len(st.piles[dst]) >= self.ball_size:
            return Refusal("target.full", f"a ball pile holds {self.ball_size} cards")
        return None

    def iter_moves(self, st: State) -> Iterator[Move]:
        s = self.stock_pile
        pile = st.piles[s]
        if not pile or st.down[s] >= len(pile):
            return
        fits = self.places(st, pile[-1])
        if fits:
            for p in fits:
                yield Move(MOVE, s, p)
        else:
            ball = self.ball_pile(st)
            if len(st.piles[ball]) < self.ball_size:
                yield Move(MOVE, s, ball)

    def timer_move(self, st: State) -> Move:
        """The placement a turn timer makes: the lowest-numbered pin that takes the current
        card, else the current ball pile."""
        if st.status != PLAYING:
            raise IllegalMove("game.over", f"the game is over ({st.status})")
        s = self.stock_pile
        fits = self.places(st, st.piles[s][-1])
        return Move(MOVE, s, fits[0] if fits else self.ball_pile(st))

    # ----- after each card: balls, frames, bowlers --------------------------------------

    def after_move(self, st: State) -> None:
        s = self.stock_pile
        while not st.vars.get("over"):
            filled = self.filled(st)
            if not (filled == PINS or len(st.piles[self.ball_pile(st)]) >= self.ball_size
                    or not st.piles[s]):
                break
            self.end_ball(st, filled - self.ball_start(st))
        if not st.vars.get("over") and st.piles[s] and st.down[s] >= len(st.piles[s]):
            st.turn_up(s)

    def end_ball(self, st: State, pins: int) -> None:
        """Record the ball's pins and set up the next ball, frame or bowler."""
        k, frame, ball = st.turn, st.vars["frame"], st.vars["ball"]
        st.set_var(roll_key(k, frame, ball), pins)
        done = self.rolls(st, k, frame)
        if frame < FRAMES:
            if ball == 1 and pins < PINS:
                st.set_var("ball", 2)
                return
        elif ball == 1:
            st.set_var("ball", 2)
            if pins == PINS:
                self.fresh(st, "bonus/1")
            return
        elif ball == 2:
            if done[0] == PINS:  # the first bonus ball after a strike
                st.set_var("ball", 3)
                if pins == PINS:
                    self.fresh(st, "bonus/2")
                return
            if sum(done) == PINS:  # a spare: one bonus ball
                st.set_var("ball", 3)
                self.fresh(st, "bonus/1")
                return
        self.next_bowler(st)

    def next_bowler(self, st: State) -> None:
        """The frame is over: the next bowler still in the match, or the next frame."""
        k, frame = st.turn, st.vars["frame"]
        st.set_var("ball", 1)
        n = st.vars.get("players", 1)
        later = [j for j in range(k + 1, n) if not st.vars.get(out_key(j))]
        if later:
            st.set_var("turn", later[0])
        else:
            first = [j for j in range(n) if not st.vars.get(out_key(j))]
            if frame == FRAMES or not first:
                st.set_var("over", 1)
                return
            st.set_var("turn", first[0])
            st.set_var("frame", frame + 1)
        self.fresh(st, f"frame/{st.vars['frame']}")

    def forfeit(self, st: State, bowler: int) -> None:
        """A bowler (0-based) leaves a match for good: their frames not yet bowled score
        nothing and their turns are skipped. Journaled like a move's changes, so the server
        logs it as an entry of the match and a replay repeats it."""
        if st.vars.get("over") or st.vars.get(out_key(bowler)):
            return

        def leave() -> None:
            st.set_var(out_key(bowler), 1)
            if bowler == st.turn:  # the frame being bowled ends where it stands
                self.next_bowler(st)
                self.after_move(st)  # shows the next bowler's first card

        st.record(Move(FORFEIT, bowler), leave)

    # ----- as a turns match (engine/match_forms.py) ---------------------------------------

    def round(self, st: State) -> int:
        """The frame being bowled; the tenth once the match is over."""
        return int(st.vars["frame"])

    def scorecards(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        return list(info["bowlers"])

    def shown_info(self, info: dict[str, Any], turn: int,
                   scorecards: list[dict[str, Any]]) -> dict[str, Any]:
        return info | {"bowler": turn + 1, "bowlers": scorecards}

    # ----- the end and the score ----------------------------------------------------------

    def finished(self, st: State) -> bool:
        return bool(st.vars.get("over"))

    def status(self, st: State) -> Status:
        out = super().status(st)
        if out == WON and st.vars.get("players", 1) > 1:
            return FINISHED  # a match is won by a bowler, named in info
        return out

    def card(self, st: State, k: int) -> list[list[int]]:
        """A bowler's balls per frame, up to the frame being bowled."""
        return [self.rolls(st, k, f) for f in range(1, FRAMES + 1)]

    def total(self, st: State, k: int) -> int:
        return sum(s for s, _ in frame_scores(self.card(st, k)))

    def score(self, st: State) -> int:
        """Solo: the bowler's total (pins plus the bonuses bowled so far). Match: the best."""
        return max(self.total(st, k) for k in range(st.vars.get("players", 1)))

    def marks(self, frame: int, balls: list[int]) -> list[str]:
        """Scorecard marks: X strike, / spare, - no pin."""
        out, start = [], 0
        for pins in balls:
            if start == 0 and pins == PINS:
                out.append("X")
            elif start and start + pins == PINS:
                out.append("/")
            else:
                out.append(str(pins) if pins else "-")
            if frame < FRAMES:
                start += pins
            else:
                start = 0 if start + pins == PINS else start + pins
        return out

    def info(self, st: State) -> dict[str, Any]:
        n = st.vars.get("players", 1)
        bowlers: list[dict[str, Any]] = []
        for k in range(n):
            card = self.card(st, k)
            frames, running, open_ = [], 0, False
            for f, ((pts, final), balls) in enumerate(
                    zip(frame_scores(card), card, strict=True), 1):
                if not balls:
                    frames.append({"frame": f, "balls": [], "marks": [], "total": None})
                    continue
                open_ = open_ or not final
                running += pts
                frames.append({"frame": f, "balls": balls, "marks": self.marks(f, balls),
                               "total": None if open_ else running})
            bowlers.append({"bowler": k + 1, "frames": frames, "total": self.total(st, k),
                            "forfeited": bool(st.vars.get(out_key(k)))})
        out: dict[str, Any] = {"bowlers": bowlers, "players": n}
        if st.vars.get("over"):  # a bowler who left wins only if everyone left
            staying = [b for b in bowlers if not b["forfeited"]] or bowlers
            best = max(b["total"] for b in staying)
            out["winner"] = [b["bowler"] for b in staying if b["total"] == best]
        else:
            out.update(
                bowler=st.turn + 1, frame=st.vars["frame"], ball=st.vars["ball"],
                bonus=st.vars["frame"] == FRAMES and self.bonus_ball(st),
                pins=self.filled(st) - self.ball_start(st),
                pile=self.pile_names[self.ball_pile(st)],
            )
        return out

    def bonus_ball(self, st: State) -> bool:
        """Whether the tenth frame's current ball is a bonus ball (after a strike or spare)."""
        ball = st.vars["ball"]
        if ball == 1:
            return False
        done = self.rolls(st, st.turn, FRAMES)
        return done[0] == PINS or ball == 3
