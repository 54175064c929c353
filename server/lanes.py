"""What each viewer may see of a Bowling match.

Every bowler bowls frame k from the same deck (a fair, duplicate-style choice), so a card of
that deck shown to anyone but the bowler bowling it would tell the bowlers still to bowl frame
k what is coming. While the match runs the lane everyone sees is face down; the bowler whose
turn it is gets their own lane. A frame's cards show to all once every bowler still in the
match has bowled it: the match then lists them, bowler by bowler, with each card's placement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import engine
from engine.cards import TEXT
from engine.core import State

if TYPE_CHECKING:
    from .matches.record import Match


@dataclass(frozen=True)
class Bowled:
    """One card as it was bowled: by whom (0-based), in which frame, and where it went."""

    bowler: int
    frame: int
    card: int
    move: str


def face_down(view: dict[str, Any]) -> dict[str, Any]:
    """A view with every card turned face down: which piles hold cards and how many, never
    which cards."""
    piles = {name: {"down": p["down"] + len(p["up"]), "up": []}
             for name, p in view["piles"].items()}
    return view | {"piles": piles}


def about_to_bowl(st: State, move: str) -> Bowled:
    """The card the next placement bowls (the stock's top), before it is made."""
    return Bowled(st.turn, st.vars["frame"], st.piles[st.rules.stock_pile][-1], move)


def complete(st: State) -> int:
    """How many frames every bowler still in the match has bowled: all once it is over."""
    return st.vars["frame"] if st.over else st.vars["frame"] - 1


def frames(m: Match, first: int = 1) -> list[dict[str, Any]]:
    """The cards of every complete frame from ``first`` on: per frame, per bowler who bowled
    it, each card and its placement, in the order bowled."""
    st = m.state
    assert st is not None
    done = complete(st)
    out: list[dict[str, Any]] = [{"frame": k, "bowlers": []} for k in range(first, done + 1)]
    for b in m.bowled:
        if first <= b.frame <= done:
            lanes = out[b.frame - first]["bowlers"]
            if not lanes or lanes[-1]["bowler"] != b.bowler + 1:
                lanes.append({"bowler": b.bowler + 1, "player": m.order[b.bowler], "cards": []})
            lanes[-1]["cards"].append({"card": TEXT[b.card], "move": b.move})
    return out


def public(m: Match) -> dict[str, Any]:
    """The lane, the scorecards and whose turn it is, as everyone sees them: the lane face
    down while the match runs."""
    st = m.state
    assert st is not None
    live = m.running and not st.over
    view = st.view()
    out: dict[str, Any] = {"view": face_down(view) if live else view, "turn": None}
    if live:
        out["turn"] = {"player": m.order[st.turn], "bowler": st.turn + 1,
                       "deadline": m.meta["deadline"]}
    return out


def own(m: Match, pid: str) -> dict[str, Any] | None:
    """The bowler's own lane, cards and legal placements, while it is their turn; for anyone
    else ``None`` (they see the lane face down)."""
    st = m.state
    if st is None or not m.running or st.over or m.order[st.turn] != pid:
        return None
    legal = [engine.move_text(m.rules, mv) for mv in st.legal_moves()]
    return {"view": st.view(), "legal": legal, "waiting": True, "as_of": m.meta["seq"]}
