"""``samedeal analyse``: a public transcript's analysis on the command line."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.analyse_cli import stretches
from engine.analysis import analyse
from engine.cli import main

SEED = bytes([1])


def transcript(tmp_path, **changes):
    """A careless Klondike game (random legal moves): won at the deal, lost on the way."""
    rules = engine.get("klondike", "easy")
    st = rules.deal(SEED)
    rnd = random.Random(1)
    while not st.over and len(st.history) < 120:
        st.play(rnd.choice(st.legal_moves()))
    t = {"game": "klondike", "variant": "easy", "seed": SEED.hex(), "competitive": False,
         "commitment": engine.commitment(SEED),
         "moves": [engine.move_text(rules, m) for m in st.history],
         "status": st.status, "score": st.score} | changes
    path = tmp_path / "t.json"
    path.write_text(json.dumps(t))
    return str(path), t


def test_analyse_prints_the_bar_and_the_turning_point(tmp_path, capsys):
    path, t = transcript(tmp_path)
    assert main(["analyse", path]) == 0
    out = capsys.readouterr().out.splitlines()
    a = analyse(engine.get("klondike", "easy"), SEED, t["moves"])
    verdicts = [p.verdict.value for p in a.positions]
    assert out[0] == f"Klondike (easy), {len(t['moves'])} moves, {t['status']}"
    assert out[1] == f"positions: {stretches(verdicts)}"
    assert out[2] == "bar: " + "".join({"won": "W", "lost": "L"}[v] for v in verdicts)
    assert a.turning_point is not None and out[3] == a.turning_point.text
    assert out[4] == (f"better line from move {a.turning_point.move_number}: "
                      + " ".join(a.turning_point.better))


def test_analyse_json_is_the_api_s_analysis(tmp_path, capsys):
    path, t = transcript(tmp_path)
    assert main(["analyse", path, "--json", "--progress"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data == analyse(engine.get("klondike", "easy"), SEED, t["moves"]).to_json()
    assert f"{len(t['moves']) + 1}/{len(t['moves']) + 1} positions" in out.err  # the bar's end


def test_analyse_of_a_secret_or_false_transcript_is_refused(tmp_path, capsys):
    path, _ = transcript(tmp_path, seed=None)
    assert main(["analyse", path]) == 1
    assert "not revealed yet" in capsys.readouterr().err
    path, _ = transcript(tmp_path, moves=["t1-t1"])
    assert main(["analyse", path]) == 1
    assert "does not replay: move 1 (t1-t1) is illegal" in capsys.readouterr().err


@pytest.mark.parametrize(("verdicts", "said"), [
    (["won"], "0 won"),
    (["won", "won", "lost"], "0-1 won, 2 lost"),
    (["won", "unknown", "unknown", "lost", "lost"], "0 won, 1-2 unknown, 3-4 lost"),
])
def test_stretches(verdicts, said):
    assert stretches(verdicts) == said


def test_the_example_in_solver_md_is_what_it_prints(tmp_path, capsys):
    """docs/solver.md shows ``samedeal analyse`` on this file's careless game."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "solver.md").read_text()
    shown = text.split("$ samedeal analyse game.json\n", 1)[1].split("```", 1)[0].splitlines()
    path, _ = transcript(tmp_path)
    assert main(["analyse", path]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(shown) == len(printed)
    for doc, out in zip(shown[:-1], printed[:-1], strict=True):
        assert out.startswith(doc.removesuffix("...")) if doc.endswith("...") else out == doc
    assert shown[-1].split(" in ")[0] == printed[-1].split(" in ")[0]  # the time is the machine's
