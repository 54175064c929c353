"""Playing moves by their text on hand-built positions, for the per-game tests."""

from __future__ import annotations

import pytest

from engine import IllegalMove, State, parse_move
from engine.cards import TEXT, parse_card


def play(st: State, text: str) -> None:
    st.play(parse_move(st.rules, text))


def refused(st: State, text: str) -> IllegalMove:
    """The refusal a move gets; fails the test if the move is legal."""
    with pytest.raises(IllegalMove) as e:
        play(st, text)
    return e.value


def code(st: State, text: str) -> str | None:
    """The refusal code a move gets, or ``None`` when it is legal."""
    why = st.refusal(parse_move(st.rules, text))
    return why.code if why else None


def cards(st: State, name: str) -> list[str]:
    """A pile's cards as text, bottom card first."""
    return [TEXT[c] for c in st.piles[st.rules.pile_index[name]]]


def others(*used: str) -> str:
    """Every card not named in ``used``, as text (to fill foundations in end positions)."""
    taken = {parse_card(c) for text in used for c in text.split()}
    return " ".join(TEXT[c] for c in range(52) if c not in taken)
