"""Playing moves by their text on hand-built positions, for the per-game tests."""

from __future__ import annotations

import pytest

from engine import IllegalMove, State, parse_move


def play(st: State, text: str) -> None:
    st.play(parse_move(st.rules, text))


def refused(st: State, text: str) -> IllegalMove:
    """The refusal a move gets; fails the test if the move is legal."""
    with pytest.raises(IllegalMove) as e:
        play(st, text)
    return e.value
