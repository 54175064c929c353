"""The terminal player's ``hint``: locally on the engine and against a real server, the next
move of the solver's line, followed move after move; then the legal moves as before."""

from __future__ import annotations

import re
import uuid

import engine
from clients.local import LocalGame, MoveRefused
from clients.terminal import hint_text
from engine.hints import hint
from engine.solver import Budget
from tests.server.client import Node

from .test_terminal import play

KLONDIKE = engine.get("klondike", "easy")
#: The engine's hint line with the terminal's budget (the search wins deal 00 in 132 positions).
LINE = [engine.move_text(KLONDIKE, m)
        for m in hint(KLONDIKE.deal(b"\x00"), Budget(positions=20_000)).line]
HINT = re.compile(r"Hint: (\S+) \(the next move of a winning line: (\d+) moves to go\)")


def check_hints(out: str) -> None:
    hints = HINT.findall(out)
    assert [m for m, _ in hints] == LINE[:3], hints
    assert [int(n) for _, n in hints] == [len(LINE), len(LINE) - 1, len(LINE) - 2]


def test_local_hints_follow_the_solver_line() -> None:
    # hint, then "1" plays legal move 1: so play the hinted move by name instead
    code, out = play(["hint", LINE[0], "hint", LINE[1], "hint", "quit"],
                     "klondike", "easy", "--seed", "00")
    assert code == 0
    check_hints(out)
    assert "Legal moves: 1) t3-f1" in out  # the legal moves still follow a hint


def test_a_local_game_over_has_no_hint_and_a_hopeless_one_a_likely_move() -> None:
    g = LocalGame("klondike", "difficult", "4000")
    h = g.hint()
    assert h["move"] in g.payload["legal"] and h["hints"] == 1
    g.resign()
    try:
        g.hint()
    except MoveRefused as e:
        assert e.code == "game.over"
    else:
        raise AssertionError("a hint after the end")


def test_a_position_proved_lost_is_told_so() -> None:
    """Scorpion difficult deal 01 is lost as dealt: the hint is a likely move, and says that
    no winning line is left."""
    g = LocalGame("scorpion", "difficult", "01")
    h = g.hint()
    assert h["source"] == "heuristic" and h["lost"] is True and h["move"] in g.payload["legal"]
    assert hint_text(h) == f"Hint: {h['move']} (no winning line is left from here: a likely move)"
    assert "lost" not in LocalGame("klondike", "easy", "00").hint()


def test_remote_hints_from_the_server(node: Node) -> None:
    name = f"hint{uuid.uuid4().hex[:8]}"
    code, out = play(["hint", LINE[0], "hint", LINE[1], "hint", "quit"], "klondike", "easy",
                     "--seed", "00", "--server", node.url, "--register", name)
    assert code == 0
    check_hints(out)
