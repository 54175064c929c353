"""bench/par.py, the measurement of par against the search's line, run small."""

from __future__ import annotations

import pytest

from bench import par


def test_it_prints_a_row_a_rule_set_and_par_is_never_longer(
        capsys: pytest.CaptureFixture[str]) -> None:
    par.main(["--deals", "2", "spiderette/easy", "nestor/difficult"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| rule set | won |") and len(out) == 5
    spiderette = out[2].split(" | ")
    assert spiderette[0] == "| `spiderette/easy`" and spiderette[1] == "2"  # both won
    assert float(spiderette[3]) < float(spiderette[2])  # par 61 against 94.5 (medians)
    assert out[3] == "| `nestor/difficult` | 0 | - | - | - | - | - | - |"  # neither deal won
    assert out[4].startswith("| `all` | 2 |")


def test_hints_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Scorpion easy deal 902, a few random moves in: the search's line of 1,319 moves,
    the hint's far shorter (tests/engine/test_hints.py)."""
    par.main(["--hints", "--deals", "3", "scorpion/easy"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| rule set | solver hints |")
    longest = out[2].split(" | ")[4].split(" → ")
    assert int(longest[0]) > 1000 and int(longest[1]) < 150


def test_a_par_that_does_not_win_stops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(par, "par_line", lambda start, moves: moves[:-1])
    with pytest.raises(AssertionError, match="does not win"):
        par.lines("spiderette/easy", 1)
