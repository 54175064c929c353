"""bench/fcsolve.py hands Freecell Solver the deal our engine dealt, and counts its win only
when the line it prints wins in our engine."""

from __future__ import annotations

import subprocess

import engine
from bench.fcsolve import FLAGS, KEY, board, replays, theirs
from bench.winnability import seed
from engine.cards import TEXT


def test_the_board_is_our_deal() -> None:
    st = engine.get(*KEY.split("/")).deal(seed(29))
    lines = board(29).splitlines()
    assert lines[0] == "Foundations: H-A C-A D-A S-A"
    assert [line.split() for line in lines[1:]] == [
        [TEXT[c].upper() for c in pile] for pile in st.piles[:8]]
    assert sum(len(line.split()) for line in lines[1:]) == 48  # and the four Aces home


def test_a_win_counts_only_when_its_line_wins_here() -> None:
    out = subprocess.run(["fc-solve", *FLAGS, "-"], input=board(29), capture_output=True,
                         text=True, timeout=60, check=True).stdout
    assert "This game is solveable" in out
    assert replays(29, out)
    cut = "\n".join(out.splitlines()[:-40])  # the line stops short of the win
    assert not replays(29, cut)
    assert not replays(29, out.replace("Move 1 cards from stack", "Move 2 cards from stack"))
    assert theirs(29, 60)[0] == "W"
