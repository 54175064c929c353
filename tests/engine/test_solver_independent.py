"""The solver against independent ones where the rules coincide: Freecell Solver
(`fc-solve`, Debian's freecell-solver-bin, installed by `make system`) on Eight Off, and
Klondike-Solver (pyksolve, from PyPI, a test dependency) on Klondike.

Both variants are Eight Off as fc-solve plays it: eight columns built down in suit, eight
cells, one card at a time (a run moves only as the single moves it stands for). Difficult is
the usual deal (columns of six, four cells filled, only a King fills an empty column: fc-solve's
`eight_off` preset); easy deals all 52 cards to the columns and lets any card fill one. Where
both searches decide a deal, they must agree on whether it can be won, and every line ours
finds must replay to a win."""

from __future__ import annotations

import random
import re
import shutil
import subprocess

import pyksolve.solver as pyksolve
import pytest

import engine
from engine.cards import RANK, SUIT, TEXT
from engine.core import MOVE, PLAYING, STOCK, WON
from engine.solver import Budget, Outcome, Verdict, solve

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
                ours = solve(st, Budget(positions=1_500))
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
    from tests.engine.test_solver_lost import careless

    careless(monkeypatch)
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


# ----- Klondike-Solver on Klondike ------------------------------------------------------------
#
# pyksolve plays thoughtful Klondike with cards allowed back off a foundation and the stock
# turned over without limit: more moves than ours. So its "impossible" proves nothing here
# (its move generator also leaves out on purpose some run moves ours has), but each of its
# wins is a line to replay under our rules: where it takes no card back off a foundation
# (and, drawing one, never turns the stock over), it must win in our engine, and then our
# solver must not have called that deal lost.

#: Klondike-Solver's suit digits: 1 clubs, 2 diamonds, 3 hearts, 4 spades (ours: c d h s).
KS_SUITS = "CDHS"


def ksolve_deal(st: engine.State) -> str:
    """A deal in Klondike-Solver's format: three digits a card (rank, then suit), the
    columns dealt row by row (its first column is our t7, the one-card column), then the
    stock, the card dealt first first."""
    rules = st.rules
    cols = [i for i, n in enumerate(rules.pile_names) if n[0] == "t"][::-1]
    code = lambda c: f"{RANK[c]:02d}{SUIT[c] + 1}"  # noqa: E731
    out = [code(st.piles[cols[k]][row]) for row in range(7) for k in range(row, 7)]
    out += [code(c) for c in st.piles[rules.stock_pile][::-1]]
    return "".join(out)


def ksolve_line(st: engine.State, moves: str) -> list[engine.Move] | None:
    """Klondike-Solver's line as our moves, played on ``st`` (checked by ``State.play``);
    ``None`` where it takes a card back off a foundation, which our rules forbid. Its
    tokens: ``36-2`` two cards from its column 3 to 6, ``F4`` a card turned up (ours turn up
    by themselves), ``DR2`` two deals, ``NEW`` the stock turned over, ``W4`` / ``WH`` the
    waste's card to a column or the hearts, ``6H`` a column's card home, ``H1`` a card back
    off the hearts."""
    rules = st.rules
    names = rules.pile_names
    cols = [i for i, n in enumerate(names) if n[0] == "t"][::-1]
    founds = [i for i, n in enumerate(names) if n[0] == "f"]
    waste = names.index("w")

    def home(letter: str) -> int:
        """Its suit's foundation, or the first empty one for an Ace."""
        suit = KS_SUITS.index(letter)
        mine = [f for f in founds if st.piles[f] and SUIT[st.piles[f][0]] == suit]
        return (mine or [f for f in founds if not st.piles[f]])[0]

    place = lambda x: home(x) if x in KS_SUITS else cols[int(x) - 1]  # noqa: E731
    out: list[engine.Move] = []
    for tok in moves.split():
        if tok[0] == "F" and tok[1:].isdigit():
            continue
        if tok == "NEW" or tok.startswith("DR"):
            made = [engine.Move(STOCK)] * (1 if tok == "NEW" else int(tok[2:]))
        elif tok[0] in KS_SUITS:
            return None
        elif tok[0] == "W":
            made = [engine.Move(MOVE, waste, place(tok[1]), 1)]
        else:
            got = re.fullmatch(r"(\d)(\d|[CDHS])(?:-(\d+))?", tok)
            assert got, f"a move Klondike-Solver never writes: {tok}"
            src, dst, n = got.groups()
            made = [engine.Move(MOVE, place(src), place(dst), int(n or 1))]
        for m in made:
            st.play(m)
            out.append(m)
    return out


def compare_klondike(variant: str, deals: range) -> dict[str, int]:
    """Counts, over ``deals`` of Klondike ``variant``: lines of Klondike-Solver that win under
    our rules (``agreed``: our solver won them too; a deal it called lost fails), that take a
    card back off a foundation (``back``), that our rules refuse otherwise (``refused``: the
    stock turned over in the single pass), and deals it did not solve (``unsolved``)."""
    rules = engine.get("klondike", variant)
    seen = {"agreed": 0, "back": 0, "refused": 0, "unsolved": 0}
    for i in deals:
        st = rules.deal(i.to_bytes(4, "big"))
        ours = solve(st, Budget(positions=2_000_000, seconds=20))
        ks = pyksolve.Solitaire()
        ks.load_solitaire(ksolve_deal(st))
        ks.reset_game(rules.stock.draw if rules.stock else 1)
        if not ks.solve_fast(max_closed_count=200_000).name.startswith("Solved"):
            seen["unsolved"] += 1
            continue
        end = st.copy()
        try:
            line = ksolve_line(end, ks.moves_made())
        except engine.IllegalMove:
            seen["refused"] += 1
            continue
        if line is None:
            seen["back"] += 1
            continue
        assert end.status == WON, (variant, i)
        assert ours.outcome is not Outcome.LOST, (variant, i, "lost, but this line wins")
        seen["agreed"] += 1
    return seen


def test_klondike_solvers_wins_that_our_rules_allow_are_never_our_losses() -> None:
    """Klondike easy (drawing three, the stock turned over without limit, as Klondike-Solver
    plays it). Klondike difficult's single pass is left out: Klondike-Solver's lines there
    turn the stock over (9 of its 9 wins on deals 0-9), which our rules refuse."""
    seen = compare_klondike("easy", range(24))
    assert seen["agreed"] >= 15, seen


def test_the_klondike_comparison_catches_a_solver_that_calls_a_won_deal_lost(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.solver import step_rules

    monkeypatch.setattr(step_rules, "solve", lambda st, budget, progress=None: Verdict(
        Outcome.LOST, (), 1, 0.0, complete=True))
    with pytest.raises(AssertionError, match="lost, but this line wins"):
        compare_klondike("easy", range(3))
