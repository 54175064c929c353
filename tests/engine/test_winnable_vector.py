"""docs/fairness.md's winnable-deal test vector, checked against the implementation: each
candidate's label and seed (also by a second HMAC written from the page alone), the solver's
verdict and positions with the published budget, the chosen k (the first won candidate), its
line replayed to a win and its par."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import subprocess
import sys
from datetime import date

from engine import winnable
from tests.conftest import ROOT

SECRET = bytes.fromhex("17c8f8f6fb4330b28de6effc2f6eaed8ccb64e20d81cc8b377793dfbd7784b06")
DAY = date(2026, 12, 4)


def vector() -> tuple[list[tuple[int, str, str, str, int]], int, int, str]:
    text = (ROOT / "docs" / "fairness.md").read_text()
    section = text[text.index("**Test vector.** Nestor"):text.index("tests/engine/test_winnable")]
    rows = [(int(k), label, seed, verdict, int(positions)) for k, label, seed, verdict, positions
            in re.findall(r"^\| (\d+) \| `([^`]+)` \| ([0-9a-f]{64}) \| (\w+) \| (\d+) \|$",
                          section, re.M)]
    chosen = re.search(r"Chosen: k = (\d+) \(`found: true`\)\. Its line, par (\d+):", section)
    assert chosen is not None
    line = re.search(r"^    (\S.*)$", section, re.M)
    assert line is not None
    return rows, int(chosen[1]), int(chosen[2]), line[1]


def test_the_labels_and_seeds_follow_the_page() -> None:
    rows, _, _, _ = vector()
    assert [r[0] for r in rows] == list(range(len(rows))) and len(rows) > 1
    for k, label, seed, _, _ in rows:
        assert winnable.candidate_label(DAY, "nestor", "easy", None, k).decode() == label
        assert label == "samedeal-daily/2026-12-04/nestor/easy" + (f"/{k}" if k else "")
        assert winnable.candidate_seed(SECRET, DAY, "nestor", "easy", None, k).hex() == seed
        # written from the page alone: HMAC-SHA256(day secret, label)
        assert hmac.new(SECRET, label.encode(), hashlib.sha256).hexdigest() == seed


def test_the_verdicts_the_chosen_k_and_the_line() -> None:
    rows, k, par, line = vector()
    for i, _, seed, verdict, positions in rows:
        got = winnable.judge("nestor", "easy", bytes.fromhex(seed), winnable.POSITIONS)
        assert (got.verdict, got.positions) == (verdict, positions), i
        if verdict == "won":
            assert got.line == line and got.par == par
    verdicts = [r[3] for r in rows]
    assert verdicts.index("won") == k == len(rows) - 1  # the first won candidate is chosen
    won, _ = winnable.line_wins("nestor", "easy", bytes.fromhex(rows[k][2]), line)
    assert won and par == len(line.split())
    short = " ".join(line.split()[:-1])
    assert not winnable.line_wins("nestor", "easy", bytes.fromhex(rows[k][2]), short)[0]


def test_a_positions_budget_gives_the_same_verdict_in_any_process() -> None:
    """Sets and dicts hash strings differently in each process (PYTHONHASHSEED): the search
    only asks its table whether it holds a position, so its verdict, count and line do not
    depend on that. Two processes with different hash seeds, and this one, agree."""
    code = ("from engine import winnable; j = winnable.judge('klondike', 'easy', bytes(1), 3000);"
            "print(j.verdict, j.positions, j.line)")
    runs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, timeout=120, env=os.environ | {"PYTHONHASHSEED": seed},
                           check=True).stdout.strip() for seed in ("1", "2")}
    here = winnable.judge("klondike", "easy", bytes(1), 3000)
    assert runs == {f"{here.verdict} {here.positions} {here.line}"}
