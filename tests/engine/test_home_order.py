"""``home_order.HomeOrder``: where columns move their runs only whole, cards that must each
go home before the other prove a position lost."""

from __future__ import annotations

import random

import pytest

import engine
from engine.cards import RANK, SUIT
from engine.core import MOVE, PLAYING, State
from engine.options import Unit
from engine.piles import FOUNDATION, TABLEAU
from engine.solver import Budget, Outcome, solve
from engine.solver.board import Board
from engine.solver.depth import DepthFirst
from engine.solver.home_order import home_order

CANFIELD = engine.get("canfield", "difficult")


def circled(st: State) -> bool:
    """The same question answered another way: the cards not home, each before the card it
    lies on in a run of a column that moves only whole and before the next card of its suit;
    a circle is what a topological sort cannot take apart."""
    rules = st.rules
    base = st.vars["base"]
    home = {c for f in rules.by_kind[FOUNDATION] for c in st.piles[f]}
    before: dict[int, list[int]] = {c: [] for c in range(52) if c not in home}
    for c in before:
        if (RANK[c] - base) % 13 < 12:
            before[c].append(next(d for d in range(52) if SUIT[d] == SUIT[c]
                                  and (RANK[d] - base) % 13 == (RANK[c] - base) % 13 + 1))
    for p, g in enumerate(rules.pile_group):
        if g.unit == Unit.PACKED and g.build is not None:
            pile = st.piles[p]
            for i in range(st.down[p] + 1, len(pile)):
                if g.build.fits(pile[i - 1], pile[i]):
                    before[pile[i]].append(pile[i - 1])
    waiting = {c: 0 for c in before}
    for c in before:
        for d in before[c]:
            waiting[d] += 1
    free = [c for c, n in waiting.items() if not n]
    while free:
        c = free.pop()
        del waiting[c]
        for d in before[c]:
            waiting[d] -= 1
            if not waiting[d]:
                free.append(d)
    return bool(waiting)


def test_only_columns_that_move_runs_whole_have_a_home_order() -> None:
    held = [r.key for r in engine.rule_sets() if home_order(r, r.deal(b"\x01")) is not None]
    assert held == ["canfield/difficult"]


def test_in_random_games_it_finds_each_circle_and_a_circle_stays() -> None:
    """At every position of random games (cards laid on columns where they can be, as
    circles need): hopeless exactly where ``circled`` finds a circle, and once it holds it
    holds to the end (no move takes a card out of a circle)."""
    rng = random.Random(11)
    flagged_games = 0
    for deal in range(80):
        st = CANFIELD.deal(deal.to_bytes(4, "big"))
        check = home_order(CANFIELD, st)
        assert check is not None
        flagged = False
        for _ in range(300):
            hopeless = bool(check.hopeless(Board(st)))
            assert hopeless == circled(st), (deal, st.ply)
            assert hopeless or not flagged, (deal, st.ply)
            flagged = hopeless
            moves = st.legal_moves()
            if st.status != PLAYING or not moves:
                break
            onto = [m for m in moves if m.kind == MOVE and CANFIELD.pile_kinds[m.dst] == TABLEAU]
            st.play(rng.choice(onto if onto and rng.random() < 0.8 else moves))
        flagged_games += flagged
    assert flagged_games >= 5, flagged_games


def test_no_winning_line_passes_a_circle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The searches without the check: no position of a winning line is hopeless, and no
    deal they win is proved lost with it."""
    with monkeypatch.context() as m:
        m.setattr("engine.solver.depth.home_order", lambda rules, start: None)
        plain = [solve(CANFIELD.deal(d.to_bytes(4, "big")), Budget(positions=30_000))
                 for d in range(40)]
    won = 0
    for deal, v in enumerate(plain):
        st = CANFIELD.deal(deal.to_bytes(4, "big"))
        check = home_order(CANFIELD, st)
        assert check is not None
        checked = solve(st, Budget(positions=30_000))
        assert {v.outcome, checked.outcome} != {Outcome.WON, Outcome.LOST}, deal
        if v.outcome is Outcome.WON:
            won += 1
            for move in v.moves:
                assert not check.hopeless(Board(st)), (deal, st.ply)
                st.play(move)
    assert won >= 10, won


def test_it_proves_lost_what_a_search_without_it_leaves_open() -> None:
    """Canfield difficult deal 1: depth first proves it lost in under a million positions,
    where without the check it took nine million (docs/solver.md)."""
    v = DepthFirst(CANFIELD.deal((1).to_bytes(4, "big")), None).run(1_000_000)
    assert (v.outcome, v.complete) == (Outcome.LOST, True)
