"""The samedeal command, run as a real process through its console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.cli import main

SAMEDEAL = shutil.which("samedeal")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [SAMEDEAL, *args] if SAMEDEAL else [sys.executable, "-m", "engine.cli", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def test_games_lists_every_rule_set_one_per_line():
    out = run("games")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    keys = [r.key for r in engine.rule_sets()]
    assert [line.split()[0] for line in lines] == keys  # `samedeal games | wc -l`: 60
    assert out.stderr == f"{len(keys)} rule sets\n"
    listed = json.loads(run("games", "--json").stdout)
    assert [f"{g['id']}/{g['variant']}" for g in listed] == keys
    assert all(g["layout"] and g["name"] and g["scoring"] for g in listed)


def test_deal_prints_the_layout_and_the_commitment():
    out = run("deal", "klondike", "easy", "--seed", "00", "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["commitment"] == engine.commitment(b"\x00")
    st = engine.get("klondike", "easy").deal(b"\x00")
    assert data["piles"]["t1"]["cards"] == [engine.cards.TEXT[c] for c in st.piles[0]]
    assert data["piles"]["t1"]["down"] == 6
    text = run("deal", "klondike", "easy", "--seed", "00").stdout
    assert engine.commitment(b"\x00") in text and "t7" in text


def test_verify_accepts_the_right_commitment_only():
    good = run("verify", "--seed", "00", "--commitment", engine.commitment(b"\x00"))
    assert good.returncode == 0 and good.stdout.startswith("ok")
    bad = run("verify", "--seed", "01", "--commitment", engine.commitment(b"\x00"))
    assert bad.returncode == 1 and "MISMATCH" in bad.stdout


def test_bad_input_is_a_clear_error():
    out = run("deal", "klondike", "medium", "--seed", "00")
    assert out.returncode == 2 and "has no variant 'medium'" in out.stderr
    out = run("deal", "solitaire", "easy", "--seed", "00")
    assert out.returncode == 2 and "no game called" in out.stderr
    out = run("deal", "golf", "easy", "--seed", "xyz")
    assert out.returncode == 2 and "hex" in out.stderr


def test_selfplay_summarises_and_succeeds():
    out = run("selfplay", "golf", "easy", "--games", "20")
    assert out.returncode == 0
    assert out.stdout.startswith("golf/easy: 20 games,") and "0 errors" in out.stdout


def test_selfplay_exits_non_zero_on_an_engine_error(monkeypatch, capsys):
    from engine.games.golf import Golf

    def broken(self, st, m):  # a rule that loses a card
        st.piles[m.src].pop()

    monkeypatch.setattr(Golf, "apply_move", broken)
    assert main(["selfplay", "golf", "easy", "--games", "3"]) == 1
    out = capsys.readouterr()
    assert "3 errors" in out.out and "error in golf/easy" in out.err


@pytest.mark.parametrize("rules", engine.rule_sets(), ids=lambda r: r.key)
def test_selfplay_200_games_without_an_engine_error(rules):
    from engine.cli import selfplay

    players = rules.players[1]
    tally = selfplay(rules.id, rules.variant, 200, max_moves=400, players=players)
    assert tally["errors"] == 0 and tally["games"] == 200


def _transcript(tmp_path, **changes):
    rules = engine.get("golf", "easy")
    st = rules.deal(bytes.fromhex("0a0b"), competitive=True)
    for _ in range(4):
        st.play(st.legal_moves()[0])
    t = {"game": "golf", "variant": "easy", "seed": "0a0b", "competitive": True,
         "commitment": engine.commitment(bytes.fromhex("0a0b")),
         "moves": [engine.move_text(rules, m) for m in st.history],
         "status": st.status, "score": st.score} | changes
    path = tmp_path / "t.json"
    path.write_text(json.dumps(t))
    return str(path), t


def test_replay_accepts_a_true_transcript(tmp_path, capsys):
    path, t = _transcript(tmp_path)
    assert main(["replay", path]) == 0
    assert f"{len(t['moves'])} moves replay to {t['status']}" in capsys.readouterr().out


@pytest.mark.parametrize("change, problem", [
    ({"score": 99}, "score: the transcript says 99"),
    ({"commitment": "00" * 32}, "does not match the commitment"),
    ({"moves": ["t1-t1"]}, "move 1 (t1-t1) is illegal"),
])
def test_replay_reports_every_mismatch(tmp_path, capsys, change, problem):
    path, _ = _transcript(tmp_path, **change)
    assert main(["replay", path]) == 1
    assert problem in capsys.readouterr().out


def test_replay_reads_standard_input(tmp_path, monkeypatch, capsys):
    import io

    path, _ = _transcript(tmp_path)
    with open(path) as f:
        monkeypatch.setattr(sys, "stdin", io.StringIO(f.read()))
    assert main(["replay", "-"]) == 0


@pytest.mark.parametrize("change, why", [
    ({"seed": None}, "not revealed yet: the transcript has no seed"),
    ({"seed": None, "daily": "2026-01-02"},
     "not revealed yet: the seed of the daily challenge of 2026-01-02"),
])
def test_replay_of_a_transcript_whose_seed_is_secret_says_so(tmp_path, capsys, change, why):
    """Not a mismatch: the transcript cannot be checked until its seed is revealed."""
    path, _ = _transcript(tmp_path, **change)
    assert main(["replay", path]) == 1
    out = capsys.readouterr()
    assert why in out.err and "MISMATCH" not in out.out + out.err


@pytest.mark.parametrize("text, said", [
    ("{not json", "is not JSON: a transcript is the JSON object GET /api/v1/sessions/{id}/moves"),
    ("[1, 2]", "is not a transcript"),
])
def test_replay_of_a_file_that_is_no_transcript_says_so_plainly(tmp_path, capsys, text, said):
    path = tmp_path / "t.json"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert said in err and "Expecting" not in err and len(err.splitlines()) == 1


def test_the_command_line_starts_without_the_beacon_s_curve_library() -> None:
    """py_ecc takes a third of a second to import; only verify-day on a beacon day needs it."""
    code = ("import sys; from engine.cli import build_parser; build_parser(); "
            "print('py_ecc' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"
