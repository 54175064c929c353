"""The words a rule set is declared in: pile kinds, build directions, suit rules and the rest.

Each option is a ``StrEnum`` whose values are the words the catalog (``RuleSet.describe``)
and the docs already use, so a typed declaration puts the same strings on the wire. A
declaration given a word that is not an option fails when the rule set is registered, with
a ``DeclarationError`` naming the rule set, the field and the words it allows: a misspelt
suit rule must not quietly mean "any suit".
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar


class Kind(StrEnum):
    """What a pile is; the default pile names, refusal words and moves follow from it."""

    TABLEAU = "tableau"
    FOUNDATION = "foundation"
    STOCK = "stock"
    WASTE = "waste"
    RESERVE = "reserve"
    CELL = "cell"
    GRID = "grid"


class Direction(StrEnum):
    """Which way a build steps in rank; ``any``: any card on any card."""

    DOWN = "down"
    UP = "up"
    EITHER = "either"
    ANY = "any"


class SuitRule(StrEnum):
    """Which suit a card may lie on: ``alternate`` colours, the same ``colour``, another suit."""

    ANY = "any"
    SAME = "same"
    ALTERNATE = "alternate"
    COLOUR = "colour"
    OTHER = "other"


class Fill(StrEnum):
    """What may start an empty pile; ``base``: the foundations' base rank; ``below-base``:
    the rank one below it, wrapping (an Ace base gives a King: Penguin difficult)."""

    ANY = "any"
    NONE = "none"
    KING = "king"
    BASE = "base"
    BELOW_BASE = "below-base"


class Carry(StrEnum):
    """How many cards a move out of a pile may carry: ``any`` run its unit allows, or no more
    than the ``room`` would let move one card at a time: (free cells + 1), doubled for each
    other empty pile of its group that any card may start (Eight Off)."""

    ANY = "any"
    ROOM = "room"


class Unit(StrEnum):
    """What leaves a pile as one move: the ``top`` card, any packed ``tail``, the top card or
    the ``whole`` packed run, any ``faceup`` card with all that lies on it, or the ``packed``
    run whole (its top card alone only to a foundation, Canfield difficult's columns)."""

    TOP = "top"
    TAIL = "tail"
    WHOLE = "whole"
    FACEUP = "faceup"
    PACKED = "packed"


class Fan(StrEnum):
    """How a renderer spreads a pile (the catalog's ``fan``)."""

    DOWN = "down"
    RIGHT = "right"
    NONE = "none"
    GRID = "grid"
    SLIDER = "slider"


class Align(StrEnum):
    """Where a group's drawn rows sit: from the ``start``, or ``center``d (pins, a pyramid)."""

    START = "start"
    CENTER = "center"


class Deals(StrEnum):
    """Where the stock's action puts cards; ``none``: its top card is played as a card."""

    WASTE = "waste"
    TABLEAU = "tableau"
    FOUNDATION = "foundation"
    NONE = "none"


class Goal(StrEnum):
    """What wins a game played to a win: every card on the ``foundations``; the tableau and
    the reserves ``clear``ed (Golf, Pyramid: the foundation takes what is left); or every
    card in the columns in ``runs`` of one suit, King down to Ace (Scorpion)."""

    FOUNDATIONS = "foundations"
    CLEAR = "clear"
    RUNS = "runs"


class Play(StrEnum):
    """How a game is played: ``build`` (cards move from pile to pile, "t3:4-t5") or ``remove``
    (cards leave together, "p22+p28", so a renderer selects cards)."""

    BUILD = "build"
    REMOVE = "remove"


class MatchKind(StrEnum):
    """A match's shape: ``turns`` (one deal the players take turns on, a whole game each) or
    ``called`` (each player has their own board and the same card is called to all)."""

    TURNS = "turns"
    CALLED = "called"


class Scoring(StrEnum):
    """``traditional``: higher is better; ``low``: lower is better; ``points``: score only."""

    TRADITIONAL = "traditional"
    LOW = "low"
    POINTS = "points"


class Base(StrEnum):
    """A foundation base rank not fixed in advance: the first foundation's ``dealt`` card,
    or the first card the player ``chosen`` to start a foundation with."""

    DEALT = "dealt"
    CHOSEN = "chosen"


class DeclarationError(ValueError):
    """A rule set declared with an option that does not exist (raised at registration)."""


E = TypeVar("E", bound=StrEnum)


def option(enum: type[E], value: object, field: str) -> E:
    """``value`` as a member of ``enum``, or a ``DeclarationError`` listing the allowed words."""
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        try:
            return enum(value)
        except ValueError:
            pass
    allowed = ", ".join(repr(m.value) for m in enum)
    raise DeclarationError(f"{field} is {value!r}, which is not one of {allowed}")
