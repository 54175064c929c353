"""``home_order.HomeOrder``: where cards stay on the cards they lie on in columns, cards that
must each go home before the other prove a position lost."""

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

BOTH = [engine.get("canfield", v) for v in ("easy", "difficult")]
CANFIELD = BOTH[1]


def circled(st: State) -> bool:
    """The same question answered another way: the cards not home, each before the card it
    lies on in a run of a column that moves only whole and before the next card of its suit;
    where runs move in parts, only once every other card it could lie on is home; a circle
    is what a topological sort cannot take apart."""
    rules = st.rules
    base = st.vars["base"]
    home = {c for f in rules.by_kind[FOUNDATION] for c in st.piles[f]}
    before: dict[int, list[int]] = {c: [] for c in range(52) if c not in home}
    for c in before:
        if (RANK[c] - base) % 13 < 12:
            before[c].append(next(d for d in range(52) if SUIT[d] == SUIT[c]
                                  and (RANK[d] - base) % 13 == (RANK[c] - base) % 13 + 1))
    for p, g in enumerate(rules.pile_group):
        if g.kind == TABLEAU and g.build is not None:
            build = g.build
            pile = st.piles[p]
            for i in range(st.down[p] + 1, len(pile)):
                over, under = pile[i], pile[i - 1]
                elsewhere = {u for u in range(52) if build.fits(u, over)} - {under} - home
                if build.fits(under, over) and (g.unit == Unit.PACKED or not elsewhere):
                    before[over].append(under)
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


def test_only_canfields_columns_keep_cards_on_their_cards() -> None:
    """Of the 60 rule sets, only Canfield's columns, whose runs move into no space, and
    whose foundations build up in suit from a base."""
    held = [r.key for r in engine.rule_sets() if home_order(r, r.deal(b"\x01")) is not None]
    assert held == ["canfield/difficult", "canfield/easy"]


@pytest.mark.parametrize(("rules", "games", "least"), [(BOTH[0], 30, 0), (BOTH[1], 80, 5)],
                         ids=["canfield/easy", "canfield/difficult"])
def test_in_random_games_it_finds_each_circle_and_a_circle_stays(rules: engine.RuleSet,
                                                                  games: int, least: int) -> None:
    """At every position of random games (cards laid on columns where they can be, as
    circles need): hopeless exactly where ``circled`` finds a circle, and once it holds it
    holds to the end (no move takes a card out of a circle). Difficult's games meet
    circles; easy's need cards home that random play seldom sends (the next test)."""
    rng = random.Random(11)
    flagged_games = 0
    for deal in range(games):
        st = rules.deal(deal.to_bytes(4, "big"))
        check = home_order(rules, st)
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
            onto = [m for m in moves if m.kind == MOVE and rules.pile_kinds[m.dst] == TABLEAU]
            st.play(rng.choice(onto if onto and rng.random() < 0.8 else moves))
        flagged_games += flagged
    assert flagged_games >= least, flagged_games


def test_where_runs_move_in_parts_a_card_stays_once_its_other_places_are_home() -> None:
    """Canfield easy, base King: the Q♥ on the K♠ and the 2♠ on the 3♥ close a circle (Q♥
    before K♠, spades up to 2♠, 2♠ before 3♥, hearts up to Q♥) once the K♣ and the 3♦, the
    other cards they could move to, are home; with the 3♦ out, the 2♠ can move to it."""
    rules = engine.get("canfield", "easy")
    st = rules.deal(b"\x01")
    st.vars["base"] = 13
    columns = {0: [51, 37], 1: [28, 40]}  # K♠ Q♥, 3♥ 2♠ (card = suit x 13 + rank - 1)
    foundations = [[12], [25, 13, 14, 15]]  # K♣; K♦ A♦ 2♦ 3♦
    places = dict(columns) | dict(zip(rules.by_kind[FOUNDATION], foundations, strict=False))
    laid = {c for cards in places.values() for c in cards}
    for p in range(len(st.piles)):
        st.piles[p][:] = places.get(p, [])
        st.down[p] = 0
    stock = rules.stock_pile
    st.piles[stock][:] = [c for c in range(52) if c not in laid]
    st.down[stock] = len(st.piles[stock])
    check = home_order(rules, st)
    assert check is not None
    assert check.hopeless(Board(st)) and circled(st)
    three = st.piles[rules.by_kind[FOUNDATION][1]].pop()
    st.piles[stock].append(three)
    st.down[stock] += 1
    assert not check.hopeless(Board(st)) and not circled(st)


@pytest.mark.parametrize("rules", BOTH, ids=lambda r: r.key)
def test_no_winning_line_passes_a_circle(rules: engine.RuleSet,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The searches without the check: no position of a winning line is hopeless, and no
    deal they win is proved lost with it."""
    with monkeypatch.context() as m:
        m.setattr("engine.solver.depth.home_order", lambda rules, start: None)
        plain = [solve(rules.deal(d.to_bytes(4, "big")), Budget(positions=30_000))
                 for d in range(40)]
    won = 0
    for deal, v in enumerate(plain):
        st = rules.deal(deal.to_bytes(4, "big"))
        check = home_order(rules, st)
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
