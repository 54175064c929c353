"""The solver against an independent one where the rules coincide: Freecell Solver
(`fc-solve`, Debian's freecell-solver-bin, installed by `make system`) on Eight Off.

Both variants are Eight Off as fc-solve plays it: eight columns built down in suit, eight
cells, one card at a time (a run moves only as the single moves it stands for). Difficult is
the usual deal (columns of six, four cells filled, only a King fills an empty column: fc-solve's
`eight_off` preset); easy deals all 52 cards to the columns and lets any card fill one. Where
both searches decide a deal, they must agree on whether it can be won, and every line ours
finds must replay to a win."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

import engine
from engine.cards import TEXT
from engine.core import PLAYING, WON
from engine.solver import Budget, Outcome, solve
from engine.solver import moves as solver_moves

FC_SOLVE = shutil.which("fc-solve")
#: fc-solve's options for each variant (its `eight_off` preset is the difficult one).
GAMES = {
    "difficult": ["--game", "eight_off"],
    "easy": ["--freecells-num", "8", "--stacks-num", "8", "--sequences-are-built-by", "suit",
             "--empty-stacks-filled-by", "any", "--sequence-move", "limited"],
}
SEEDS = range(4)


def board(st: engine.State) -> str:
    """A position in fc-solve's board format: the foundations' top ranks by suit, the cells,
    then each column, its bottom card first."""
    names = st.rules.pile_names
    card = lambda c: TEXT[c].upper()  # noqa: E731  (its ranks: A 2..9 T J Q K; suits C D H S)
    piles = lambda kind: [st.piles[i] for i, n in enumerate(names) if n[0] == kind]  # noqa: E731
    tops = {card(p[-1])[1]: card(p[-1])[0] for p in piles("f") if p}
    cells, columns = piles("c"), piles("t")
    lines = ["Foundations: " + " ".join(f"{s}-{tops.get(s, 0)}" for s in "HCDS"),
             "Freecells: " + " ".join(card(p[0]) if p else "-" for p in cells)]
    lines += [" ".join(card(c) for c in col) for col in columns]
    return "\n".join(lines) + "\n"


def fc_solve(variant: str, st: engine.State) -> bool | None:
    """fc-solve's verdict: True (solved), False (searched through, no solution) or None
    (its limit of iterations reached)."""
    assert FC_SOLVE, "fc-solve is missing: `make system` installs freecell-solver-bin"
    out = subprocess.run([FC_SOLVE, *GAMES[variant], "-mi", "300000", "-"], input=board(st),
                         capture_output=True, text=True, timeout=120,
                         env={"FREECELL_SOLVER_QUIET": "1"}).stdout
    if "This game is solveable." in out:
        return True
    if "I could not solve this game." in out:
        return False
    return None


def positions(rules: engine.RuleSet, seed: int) -> list[engine.State]:
    """The deal, and positions near the end of a random game on it (taken back 1, 3, 7 and
    15 moves): where lost positions are, in a game whose deals are nearly all won."""
    st = rules.deal(seed.to_bytes(4, "big"))
    out = [st.copy()]
    rng = random.Random(seed)
    while st.status == PLAYING and len(st.history) < 300:
        st.play(rng.choice(st.legal_moves()))
    for back in (1, 2, 4, 8):
        for _ in range(min(back, len(st.history))):
            st.pop()
        if st.status == PLAYING:
            out.append(st.copy())
    return out


def compare(variants: list[str], seeds: range) -> dict[bool, int]:
    """How many positions both solvers decided, by verdict; fails on any disagreement."""
    agreed = {True: 0, False: 0}
    for variant in variants:
        rules = engine.get("eight-off", variant)
        for seed in seeds:
            for st in positions(rules, seed):
                theirs = fc_solve(variant, st)
                ours = solve(st, Budget(positions=1_500, seconds=5))
                if ours.outcome == Outcome.WON:
                    end = st.copy()
                    for m in ours.moves:
                        end.play(m)
                    assert end.status == WON
                if theirs is None or ours.outcome == Outcome.UNKNOWN:
                    continue
                assert (ours.outcome == Outcome.WON) == theirs, (variant, seed, board(st))
                agreed[theirs] += 1
    return agreed


def test_eight_off_verdicts_agree_with_freecell_solver() -> None:
    agreed = compare(sorted(GAMES), SEEDS)
    # A comparison that compared nothing proves nothing: both answers must have been met.
    assert agreed[True] >= 5 and agreed[False] >= 5, agreed


def test_the_comparison_catches_a_solver_that_drops_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A solver that tries only its first move from each position claims losses that
    fc-solve disproves."""
    real = solver_moves.Chooser.moves
    monkeypatch.setattr(solver_moves.Chooser, "moves",
                        lambda self, st, legal, after_deal=False:
                        real(self, st, legal, after_deal)[:1])
    with pytest.raises(AssertionError):
        compare(["difficult"], range(1))


def test_the_board_is_the_deal() -> None:
    """The converted board holds every card once, cells and columns as dealt."""
    st = engine.get("eight-off", "difficult").deal(bytes(4))
    text = board(st).split("\n")
    assert text[0] == "Foundations: H-0 C-0 D-0 S-0"
    cards = " ".join(text[1].split()[1:] + text[2:]).split()
    assert sorted(c for c in cards if c != "-") == sorted(TEXT[c].upper() for c in range(52))
    assert text[1].count("-") == 4 and len(text[2].split()) == 6
