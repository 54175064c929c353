"""``samedeal solve`` as a real process: what it prints is what the engine confirms."""

from __future__ import annotations

import json
import re

import engine
from engine.core import WON
from engine.solver.par import par_line
from tests.conftest import ROOT
from tests.engine.test_cli import run


def test_solve_prints_a_winning_line_that_replays() -> None:
    out = run("solve", "klondike", "easy", "--seed", "00", "--positions", "10000")
    assert out.returncode == 0, out.stderr
    head, moves, searched = out.stdout.splitlines()
    assert head.startswith("Klondike (easy), seed 00: won in ")
    line = moves.removeprefix("moves: ").split()
    assert int(head.split("won in ")[1].split()[0]) == len(line)
    assert engine.replay("klondike", "easy", b"\x00", line).status == WON
    assert searched.startswith("searched ") and searched.endswith(" s")


def test_solve_par_prints_the_line_made_short_as_a_daily_par_is() -> None:
    out = run("solve", "klondike", "easy", "--seed", "00", "--positions", "10000", "--par")
    assert out.returncode == 0, out.stderr
    _, moves, par, _ = out.stdout.splitlines()
    line = moves.removeprefix("moves: ").split()
    count, short = par.removeprefix("par ").split(": ")
    rules = engine.get("klondike", "easy")
    start = rules.deal(b"\x00")
    made = par_line(start, tuple(engine.parse_move(rules, m) for m in line))
    assert short.split() == [engine.move_text(rules, m) for m in made]
    assert int(count) == len(made) <= len(line)
    assert engine.replay("klondike", "easy", b"\x00", short.split()).status == WON
    data = json.loads(run("solve", "klondike", "easy", "--seed", "00", "--positions", "10000",
                          "--par", "--json").stdout)
    assert data["moves"] == line and data["par"] == short.split()
    out = run("solve", "klondike", "easy", "--seed", "01", "--positions", "20", "--par")
    assert "\npar " not in out.stdout  # no win, no par
    data = json.loads(run("solve", "klondike", "easy", "--seed", "01", "--positions", "20",
                          "--par", "--json").stdout)
    assert "par" not in data


def test_the_docs_example_is_what_solve_prints() -> None:
    """docs/solver.md's example of ``samedeal solve``, and the par its text names."""
    page = (ROOT / "docs" / "solver.md").read_text()
    block = page.split("$ samedeal solve klondike easy --seed 00\n", 1)[1].split("```", 1)[0]
    head, moves, _ = block.splitlines()
    out = run("solve", "klondike", "easy", "--seed", "00", "--par")
    got_head, got_moves, got_par, _ = out.stdout.splitlines()
    assert got_head == head and got_moves.startswith(moves.removesuffix(" ..."))
    said = re.search(r"`(par \d+: [^`]*) \.\.\.`", page)
    assert said and got_par.startswith(said.group(1))


def test_solve_says_unknown_when_the_budget_runs_out_and_lost_when_proved() -> None:
    out = run("solve", "klondike", "easy", "--seed", "01", "--positions", "20")
    assert out.returncode == 0
    assert ": unknown: the budget ran out" in out.stdout and "moves:" not in out.stdout
    assert "searched 20 positions" in out.stdout
    out = run("solve", "klondike", "difficult", "--seed", "05", "--json")
    data = json.loads(out.stdout)
    assert data["outcome"] == "lost" and data["complete"] and data["moves"] == []


def test_solve_gives_a_scored_game_its_best_score_and_line() -> None:
    out = run("solve", "poker-square", "easy", "--seed", "01", "--positions", "500", "--json")
    data = json.loads(out.stdout)
    assert data["outcome"] == "best" and not data["complete"]
    st = engine.replay("poker-square", "easy", b"\x01", data["moves"])
    assert st.over and st.score == data["score"]


def test_solve_shows_progress_on_standard_error_when_asked() -> None:
    # Deal 20, which the search has not decided within 10 s (docs/winnability.md), so it
    # runs its whole 2.5 s and reports as it goes: a deal it decides sooner than a second
    # (seed 00) prints no progress.
    out = run("solve", "klondike", "easy", "--seed", "00000014", "--seconds", "2.5",
              "--progress")
    assert out.returncode == 0
    assert "searching: " in out.stderr and " positions, " in out.stderr
    assert "searching" not in out.stdout


def test_solve_refuses_a_bad_budget() -> None:
    out = run("solve", "klondike", "easy", "--seed", "00", "--seconds", "0")
    assert out.returncode == 2 and "positive number of seconds" in out.stderr
    out = run("solve", "klondike", "easy", "--seed", "00", "--positions", "0")
    assert out.returncode == 2 and "whole number from 1" in out.stderr
