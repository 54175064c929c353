"""The match forms: what a rule set that declares a ``match`` (``MatchMode``) must do for the
server to run it, one protocol per ``MatchKind``. The server plays a match through these alone,
never by a game's own vars or info keys, so a second turn-based or called-card game needs no
server change. Checked when a rule set registers (``check``), as its other declarations are.
"""

from __future__ import annotations

from typing import Any, Protocol, cast, runtime_checkable

from .core import Move, State
from .options import DeclarationError, MatchKind
from .rules import RuleSet


@runtime_checkable
class TurnsForm(Protocol):
    """``turns``: one deal the players take turns on, one state for the whole match (Bowling).

    Play goes round by round (Bowling's frames): in each, every player still in takes their
    turn in seat order. Players are 0-based seat numbers; ``st.turn`` is whose turn it is."""

    def timer_move(self, st: State) -> Move:
        """The placement made for a player whose turn time ran out."""
        ...

    def forfeit(self, st: State, player: int) -> None:
        """``player`` leaves for good: their turns are skipped. Journaled, so a replay that
        repeats it rebuilds the same state."""
        ...

    def round(self, st: State) -> int:
        """The round being played, from 1; the last one once the match is over."""
        ...

    def scorecards(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        """Every player's scorecard in seat order, as a view's ``info`` lists them: each with
        its ``total`` (the player's score) and ``forfeited``."""
        ...

    def shown_info(self, info: dict[str, Any], turn: int,
                   scorecards: list[dict[str, Any]]) -> dict[str, Any]:
        """A view's ``info`` saying whose turn it is (``turn``, 0-based) with these
        scorecards: how the server shows others a round's start while it is played."""
        ...


@runtime_checkable
class CalledForm(Protocol):
    """``called``: every player has their own board (a state each) and the same card is called
    to all; the next is called once everyone still placing has placed this one."""

    def timer_move(self, st: State) -> Move:
        """The placement made for a player whose time for the called card ran out."""
        ...

    def scored(self, st: State, starter: int = -1) -> tuple[int, dict[str, Any]]:
        """The score and its account, ``info["lines"]`` line by line (and ``info["starter"]``
        where the game scores with one): ``starter`` is the match's common one, ``-1``
        before it is known."""
        ...

    def finished(self, st: State) -> bool:
        """The player's board is full: they place no more cards."""
        ...


FORMS: dict[MatchKind, type] = {MatchKind.TURNS: TurnsForm, MatchKind.CALLED: CalledForm}


def check(rules: RuleSet) -> None:
    """Refuse a rule set whose ``match`` kind's form it does not implement."""
    if rules.match is None:
        return
    form = FORMS[rules.match.kind]
    if not isinstance(rules, form):
        missing = [name for name, v in vars(form).items() if callable(v)
                   and not name.startswith("_") and not callable(getattr(rules, name, None))]
        raise DeclarationError(
            f"{type(rules).__name__} ({rules.key}): match kind {rules.match.kind.value!r} "
            f"needs {', '.join(sorted(missing))}")


def turns(rules: RuleSet) -> TurnsForm:
    """The rule set as a turns match plays it: its declared kind says so, and registration
    checked that it has the form's methods (a cheaper test than the protocol's own)."""
    if rules.match is None or rules.match.kind != MatchKind.TURNS:
        raise TypeError(f"{rules.key} is not played as a turns match")
    return cast(TurnsForm, rules)


def called(rules: RuleSet) -> CalledForm:
    """The rule set as a called-card match plays it (as ``turns``)."""
    if rules.match is None or rules.match.kind != MatchKind.CALLED:
        raise TypeError(f"{rules.key} is not played as a called-card match")
    return cast(CalledForm, rules)
