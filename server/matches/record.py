"""A match as Redis holds it, and how its rule set is played as a match.

What kind of match a rule set makes is the rule set's own word: its ``match`` (a ``MatchMode``,
in the catalog ``{"kind": "turns" | "called", "seats": [least, most]}``, or none), never its
id. ``turns``:
one deal the players take turns on, one state for the whole match (Bowling); ``called``: every
player has their own grid and the same card is called to all (Poker Square, Cribbage Square).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from engine import match_forms
from engine.core import State
from engine.match_forms import CalledForm, TurnsForm
from engine.piles import MatchMode

from ..errors import ApiError
from . import lanes

TURNS, CALLED = "turns", "called"
DEFAULTS: dict[str, Any] = {"start": "full", "turn_time": 30, "grace": 60, "join": True}
INTS = ("seats", "turn_time", "grace", "created", "seq", "rev", "started_at", "shown_at",
        "deadline", "turn_deadline", "steps", "ended_at", "round", "placed", "active",
        "filling", "players")

MESSAGES = {
    "match.unknown": "there is no such match",
    "match.not_open": "the match has already started",
    "match.joined": "you are already in that match",
    "match.full": "the match is full",
    "match.not_player": "you are not playing in that match",
    "match.not_invited": "this match is a rematch: only the players of the match before it "
                         "can join",
    "match.not_running": "the match is not being played",
    "match.left": "you have left that match",
    "match.wait": "wait for the next card",
    "conflict": "the match changed meanwhile; try again",
}


def refused(code: str) -> ApiError:
    """A script's refusal, in players' words."""
    return ApiError(code, MESSAGES.get(code, code))


def matched() -> list[str]:
    """The names of the games that can be played as matches, as the catalog lists them."""
    names: list[str] = []
    for rules in engine.rule_sets():
        if rules.match is not None and rules.name not in names:
            names.append(rules.name)
    return names


@dataclass
class Match:
    """A match as Redis has it at revision ``rev``, with its game states rebuilt."""

    id: str
    meta: dict[str, Any]
    players: dict[str, dict[str, str]]  # player id -> name, kind
    order: list[str]  # seat order: the turn order, and the order scores are listed in
    rules: engine.RuleSet
    form: MatchMode
    seed: bytes
    calls: list[int]  # the deal in the order its cards are called (called-card games)
    state: State | None = None  # turns: the whole match in one state
    grids: dict[str, State] = field(default_factory=dict)  # called-card: each player's
    bowled: list[lanes.Bowled] = field(default_factory=list)  # turns: every card, in order
    #: turns: the lane face down as the frame being bowled began, all that others see of it
    frame_start: lanes.RoundStart | None = None

    @property
    def kind(self) -> str:
        return self.form.kind

    @property
    def turns_form(self) -> TurnsForm:
        """The rule set as a turns match plays it (engine/match_forms.py)."""
        return match_forms.turns(self.rules)

    @property
    def called_form(self) -> CalledForm:
        """The rule set as a called-card match plays it (engine/match_forms.py)."""
        return match_forms.called(self.rules)

    @property
    def rev(self) -> int:
        return int(self.meta.get("rev", 0))

    @property
    def running(self) -> bool:
        return bool(self.meta["state"] == "running")

    def flag(self, name: str, pid: str) -> bool:
        return bool(self.meta.get(f"{name}:{pid}"))

    def away_since(self, pid: str) -> int | None:
        at = self.meta.get(f"away:{pid}")
        return int(at) if at else None

    @property
    def over(self) -> bool:
        """Every placement made: the turns are over, or every grid is full (or left)."""
        if self.state is not None:
            return bool(self.state.over)
        return bool(self.meta["state"] != "open" and self.meta["active"] <= 0)

    def awaited(self) -> list[str]:
        """The players whose placement the match waits for now."""
        if not self.running:
            return []
        if self.state is not None:
            return [] if self.state.over else [self.order[self.state.turn]]
        return [p for p in self.order if not self.flag("out", p) and not self.flag("full", p)
                and len(self.grids[p].history) == self.meta["round"]]

    def called(self) -> int | None:
        """The card called now (called-card games), ``None`` once every grid is full."""
        if self.state is not None or not self.running:
            return None
        return int(self.calls[self.meta["round"]])


def decode(raw: dict[bytes, bytes]) -> dict[str, Any]:
    """A match hash as read from Redis, its counters as ints."""
    out: dict[str, Any] = {k.decode(): v.decode() for k, v in raw.items()}
    for k in INTS:
        if k in out:
            out[k] = int(out[k])
    return out
