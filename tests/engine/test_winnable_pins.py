"""The daily job's verdicts pinned where the budget is an eighth, the rule sets with rules of
their own (played through the engine's state, ``StateBoard``, or Gaps' ``GapBoard``): a
published day is checked again by ``samedeal verify-day`` with the same
``judge``, so a change that makes these searches cheaper must leave every verdict, its count
of positions, the line and its par exactly as they were. Candidates of bench/daily_job.py's
sample day (its fixed secret), chosen for a won and an unknown verdict of Gaps (a move of
its own, a beam and best first over unpacked positions), Aces Up, Pyramid (a discard pile),
La Belle Lucie and Isabel, each under a second and a half."""

from __future__ import annotations

import hashlib
from datetime import date

import pytest

from engine import registry, winnable
from engine.solver import plays_on_board

SECRET = bytes(32)  # bench/daily_job.py's
DAY = date(2026, 1, 2)

#: (rule set, candidate, verdict, positions, par, SHA-256 of the line)
PINS = [
    ("aces-up/difficult", 0, "unknown", 12500, None, None),
    ("aces-up/difficult", 1, "won", 5118, 70,
     "1e791aa18578cf747bd589efacf820e49222e6cb5b297328b7edb5e4ee1489e0"),
    ("gaps/difficult", 0, "won", 10031, 132,
     "248c80c6c7809485cf78ed0150b8d13e7544fee10d2d9e22ff6f6305eb299add"),
    ("gaps/easy", 0, "unknown", 12500, None, None),
    ("la-belle-lucie/easy", 0, "won", 153, 70,
     "292699e13eb32f7fcc3d2449134ae48b82ff2895c074908a4c6712a4a3ad7e61"),
    ("pyramid/difficult", 1, "won", 43, 42,
     "07f27794f3b58f368bec297a9898932b5ca102454745c97a3a0c072051baeea3"),
    ("isabel/standard", 1, "won", 5071, 26,
     "7a87fa277147cb948546a247f536e4b4eaa656241060004cbf4f27bc2ad9cd02"),
]


@pytest.mark.parametrize(("key", "k", "verdict", "positions", "par", "line_hash"), PINS,
                         ids=[f"{p[0]}-{p[1]}" for p in PINS])
def test_a_candidate_is_judged_as_it_was(key: str, k: int, verdict: str, positions: int,
                                         par: int | None, line_hash: str | None) -> None:
    game, variant = key.split("/")
    assert not plays_on_board(registry.get(game, variant))  # an eighth of the budget
    seed = winnable.candidate_seed(SECRET, DAY, game, variant, None, k)
    got = winnable.judge(game, variant, seed, winnable.POSITIONS)
    assert (got.verdict, got.positions, got.par) == (verdict, positions, par)
    if line_hash is None:
        assert got.line is None
        return
    assert got.line is not None
    assert hashlib.sha256(got.line.encode()).hexdigest() == line_hash
    assert winnable.line_wins(game, variant, seed, got.line)[0]
