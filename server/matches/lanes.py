"""What each viewer may see of a Bowling match.

Every bowler bowls frame k from the same deck (a fair, duplicate-style choice), so a card of
that deck shown to anyone but the bowler bowling it would tell the bowlers still to bowl frame
k what is coming; and so would the pin each card went to (a card put on pin 1 after one on pin
3 is lower), with everything that follows from it: pins down, balls, marks, scores. So while
frame k is being bowled, everyone sees the lane and the scorecards as they stood when frame k
began (face down), and each placement of frame k is its bowler's alone; the bowler whose turn
it is gets their own lane. A frame's cards and placements show to all once every bowler still
in the match has bowled it: the match then lists them, bowler by bowler.

The game is read through its turns form alone (engine/match_forms.py): the round being played
(Bowling's frame) and the players' scorecards, never its own vars or info keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import engine
from engine import match_forms
from engine.cards import TEXT
from engine.core import State

from ..transport.reply_types import Bowled as BowledPayload
from ..transport.reply_types import MatchFrame, MatchOwnFrame, MatchTurn, View, Yours

if TYPE_CHECKING:
    from .record import Match


@dataclass(frozen=True)
class Bowled:
    """One card as it was bowled: by whom (0-based), in which frame, and where it went."""

    bowler: int
    frame: int
    card: int
    move: str


@dataclass(frozen=True)
class RoundStart:
    """The lane face down as a round (a frame) began: all that others see of it until every
    bowler still in has bowled it."""

    round: int
    view: View


def face_down(view: View) -> View:
    """A view with every card turned face down: which piles hold cards and how many, never
    which cards."""
    out = view.copy()
    out["piles"] = {name: {"down": p["down"] + len(p["up"]), "up": []}
                    for name, p in view["piles"].items()}
    return out


def about_to_bowl(st: State, move: str) -> Bowled:
    """The card the next placement bowls (the stock's top), before it is made."""
    frame = match_forms.turns(st.rules).round(st)
    return Bowled(st.turn, frame, st.piles[st.rules.stock_pile][-1], move)


def complete(st: State) -> int:
    """How many frames every bowler still in the match has bowled: all once it is over."""
    frame = match_forms.turns(st.rules).round(st)
    return frame if st.over else frame - 1


def frames(m: Match, first: int = 1) -> list[MatchFrame]:
    """The cards of every complete frame from ``first`` on: per frame, per bowler who bowled
    it, each card and its placement, in the order bowled."""
    st = m.state
    assert st is not None
    done = complete(st)
    out: list[MatchFrame] = [{"frame": k, "bowlers": []} for k in range(first, done + 1)]
    for b in m.bowled:
        if first <= b.frame <= done:
            lanes = out[b.frame - first]["bowlers"]
            if not lanes or lanes[-1]["bowler"] != b.bowler + 1:
                lanes.append({"bowler": b.bowler + 1, "player": m.order[b.bowler], "cards": []})
            lanes[-1]["cards"].append({"card": TEXT[b.card], "move": b.move})
    return out


def settle(m: Match) -> None:
    """After each change of the match's state: when a frame begins, keep the lane as it is
    then (face down), which is what everyone sees until the frame is complete."""
    st = m.state
    assert st is not None
    if st.over:
        m.frame_start = None
    else:
        frame = m.turns_form.round(st)
        if m.frame_start is None or m.frame_start.round != frame:
            m.frame_start = RoundStart(frame, face_down(st.view()))


def public(m: Match) -> tuple[View, MatchTurn | None]:
    """The lane (its view) and whose turn it is (``None`` once over), as everyone sees them:
    while the match runs, face down and as they stood when the frame being bowled began (with
    whose turn it is and who has left); the whole lane once it is over."""
    st = m.state
    assert st is not None
    view = st.view()
    if not m.running or st.over:
        return view, None
    start = started(m)
    form = m.turns_form
    shown = start.copy()
    shown["info"] = form.shown_info(start["info"], st.turn,
                                    scorecards(m, form.scorecards(view["info"]), None))
    return shown, {"player": m.order[st.turn], "bowler": st.turn + 1,
                                    "deadline": turn_deadline(m)}


def turn_deadline(m: Match) -> int:
    """The turn's deadline as everyone sees it: its first card's, as the event that gave the
    turn said. Each later card of the turn gets its own, the bowler's alone (``own``)."""
    return m.meta["turn_deadline"] or m.meta["deadline"]


def shared_rev(m: Match) -> int:
    """The revision as everyone sees it: a card that kept its bowler's turn (``steps``, no
    event) is not counted, so the revision never tells how many cards a frame took."""
    return m.rev - m.meta["steps"]


def started(m: Match) -> View:
    """The lane as the frame being bowled began (``settle``)."""
    st = m.state
    start = m.frame_start
    assert st is not None and start is not None and (
        start.round == m.turns_form.round(st)), "settle() first"
    return start.view


def scorecards(m: Match, now: list[dict[str, Any]], mine: int | None) -> list[dict[str, Any]]:
    """The scorecards as they stood when the frame being bowled began, with who has left
    since; bowler ``mine`` (0-based) as it stands now, their own."""
    was_then = m.turns_form.scorecards(started(m)["info"])
    return [b if k == mine else was | {"forfeited": b["forfeited"]} for k, (was, b) in
            enumerate(zip(was_then, now, strict=True))]


def own_frame(m: Match, pid: str) -> MatchOwnFrame | None:
    """The frame being bowled as far as ``pid`` bowled it (a bowler always sees their own):
    their cards and placements and their own scorecard with them; ``None`` if they have
    bowled none of it, or the match is not running."""
    st = m.state
    if st is None or not m.running or st.over or pid not in m.order:
        return None
    k, frame = m.order.index(pid), m.turns_form.round(st)
    cards: list[BowledPayload] = [{"card": TEXT[b.card], "move": b.move} for b in m.bowled
                           if b.bowler == k and b.frame == frame]
    if not cards:
        return None
    return {"frame": frame, "bowler": k + 1, "player": pid, "cards": cards,
            "scorecard": m.turns_form.scorecards(st.view()["info"])[k]}


def own(m: Match, pid: str) -> Yours | None:
    """The bowler's own lane, cards and legal placements, while it is their turn (the other
    bowlers' scorecards as everyone sees them); for anyone else ``None`` (they see the lane
    face down)."""
    st = m.state
    if st is None or not m.running or st.over or m.order[st.turn] != pid:
        return None
    legal = [engine.move_text(m.rules, mv) for mv in st.legal_moves()]
    view = st.view()
    # the lane is theirs; the others' scorecards, as everyone sees them
    form = m.turns_form
    bowlers = scorecards(m, form.scorecards(view["info"]), st.turn)
    view["info"] = form.shown_info(view["info"], st.turn, bowlers)
    view["score"] = max(b["total"] for b in bowlers)
    return {"view": view, "legal": legal, "waiting": True, "as_of": m.meta["seq"],
            "deadline": m.meta["deadline"]}
