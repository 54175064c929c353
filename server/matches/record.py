"""A match as Redis holds it, and how its rule set is played as a match.

What kind of match a rule set makes is the rule set's own word: its ``match`` (a ``MatchMode``,
in the catalog ``{"kind": "turns" | "called", "seats": [least, most]}``, or none), never its
id. ``turns``:
one deal the players take turns on, one state for the whole match (Bowling); ``called``: every
player has their own grid and the same card is called to all (Poker Square, Cribbage Square).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypedDict, cast

import engine
from engine import match_forms
from engine.core import State
from engine.match_forms import CalledForm, TurnsForm
from engine.piles import MatchMode

from .. import store
from ..errors import ApiError
from ..transport.reply_types import MatchResults, Start
from ..transport.reply_types import State as MatchState
from . import lanes

TURNS, CALLED = "turns", "called"
DEFAULTS: dict[str, Any] = {"start": "full", "turn_time": 30, "grace": 60, "join": True}


class MatchRecord(TypedDict):
    """A match's hash (``store.match_keys``) read whole (``read``): the fields the scripts of
    server/store/scripts.py write, each converted where it is named, and the per-player
    fields (``seat:<player>``, ...) gathered by player."""

    kind: str
    game: str
    variant: str
    seats: int
    start: Start
    turn_time: int  # seconds
    grace: int  # seconds
    creator: str
    state: MatchState
    seed: str
    commitment: str
    created: int | None
    seq: int  # the number of its last event
    rev: int  # changes with every placement
    started_at: int | None  # from the start
    ended_at: int | None  # from the end, with its results
    results: str | None  # JSON
    players: int  # seated at the start (0 before it)
    shown_at: int  # while running (0 before): when the card or turn now awaited was shown
    deadline: int  # ...and when the timer places it
    turn_deadline: int  # turns: the turn's deadline as everyone sees it (0: ``deadline``)
    steps: int  # turns: cards that kept their bowler's turn, no event (``lanes.shared_rev``)
    round: int  # called cards: the round being placed...
    placed: int  # ...how many have placed in it...
    active: int  # ...how many still place...
    filling: int  # ...and of those, whose grid this round fills
    rematch: str | None  # the rematch asked for once it ended...
    rematch_by: str | None  # ...and who asked first
    rematch_of: str | None
    seat: dict[str, int]  # player -> the number of the event that seated them
    away: dict[str, int]  # player -> away since (no socket following the match)
    out: frozenset[str]  # the players who left (forfeited)
    full: frozenset[str]  # called cards: the players whose grid is full

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
    meta: MatchRecord
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
    #: turns: how many entries of the move list the state holds, and its ply after them (a
    #: move made in the state and not yet stored makes the two disagree)
    entries: int = 0
    entries_ply: int = 0

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
        return self.meta["rev"]

    @property
    def running(self) -> bool:
        return self.meta["state"] == "running"

    def left(self, pid: str) -> bool:
        """Whether the player left the match (forfeiting the rest)."""
        return pid in self.meta["out"]

    def away_since(self, pid: str) -> int | None:
        return self.meta["away"].get(pid)

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
        return [p for p in self.order if p not in self.meta["out"] and p not in self.meta["full"]
                and len(self.grids[p].history) == self.meta["round"]]

    def recorded_results(self) -> MatchResults:
        """The results recorded when the match ended."""
        results = self.meta["results"]
        if self.meta["state"] != "ended" or results is None:
            raise ValueError(f"match {self.id} has not ended")
        out: MatchResults = json.loads(results)
        return out

    def called(self) -> int | None:
        """The card called now (called-card games), ``None`` once every grid is full."""
        if self.state is not None or not self.running:
            return None
        return int(self.calls[self.meta["round"]])


def read(raw: dict[bytes, bytes]) -> MatchRecord:
    """The record of a match from its hash, as HGETALL gives it (the hash not empty)."""
    m = {k.decode(): v.decode() for k, v in raw.items()}
    number = partial(store.number, m)

    def count(name: str) -> int:
        return number(name) or 0

    def by_player(prefix: str) -> dict[str, str]:
        return {k[len(prefix):]: v for k, v in m.items() if k.startswith(prefix)}

    return {
        "kind": m["kind"], "game": m["game"], "variant": m["variant"], "seats": int(m["seats"]),
        "start": cast(Start, m["start"]), "turn_time": int(m["turn_time"]),
        "grace": int(m["grace"]), "creator": m["creator"],
        "state": cast(MatchState, m["state"]), "seed": m["seed"],
        "commitment": m["commitment"], "created": number("created"), "seq": count("seq"),
        "rev": count("rev"), "started_at": number("started_at"),
        "ended_at": number("ended_at"), "results": m.get("results"),
        "players": count("players"), "shown_at": count("shown_at"),
        "deadline": count("deadline"), "turn_deadline": count("turn_deadline"),
        "steps": count("steps"), "round": count("round"), "placed": count("placed"),
        "active": count("active"), "filling": count("filling"), "rematch": m.get("rematch"),
        "rematch_by": m.get("rematch_by"), "rematch_of": m.get("rematch_of"),
        "seat": {p: int(v) for p, v in by_player("seat:").items()},
        "away": {p: int(v) for p, v in by_player("away:").items() if v},
        "out": frozenset(p for p, v in by_player("out:").items() if v),
        "full": frozenset(p for p, v in by_player("full:").items() if v)}
