"""The step search (engine/solver/steps.py, step_rules.py): where it applies, and that its
key, which leaves out how face-up runs are arranged, and its steps, which leave out every
move that only rearranges them, answer as a search over the engine's own moves does.

Its verdicts are held to the depth-first search over the engine's moves (``DepthFirst``
alone, every move but the pruned ones of docs/solver.md, on the exact piles) and, near the
end of a game, to the plain exhaustive search of tests/engine/solver_plain.py; every line
it finds is replayed by ``State.play``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

import engine
import engine.cards
import engine.piles
from engine.core import MOVE, PLAYING, WON, Move
from engine.games.klondike import Klondike
from engine.options import Fill, SuitRule, Unit
from engine.piles import Build
from engine.solver import Budget, Outcome, solve, step_rules
from engine.solver.depth import DepthFirst
from tests.engine.solver_plain import plain_search

KLONDIKE = [engine.get("klondike", "easy"), engine.get("klondike", "difficult")]


class SuitedKlondike(Klondike):
    """Klondike whose columns build down in suit: every card a type of its own, so the step
    search applies as it does to alternating colours."""

    id = "klondike-in-suit"

    def declare(self) -> tuple[engine.piles.Group, ...]:
        col, *rest = super().declare()
        return (replace(col, build=Build(col.build.direction, SuitRule.SAME)), *rest)  # type: ignore[union-attr]


class AnyFillKlondike(Klondike):
    """Klondike whose spaces take any card: which card lies where then matters."""

    id = "klondike-any-fill"

    def declare(self) -> tuple[engine.piles.Group, ...]:
        col, *rest = super().declare()
        return (replace(col, fill=Fill.ANY), *rest)


class TopOnlyKlondike(Klondike):
    """Klondike whose columns give up only their top card."""

    id = "klondike-top"

    def declare(self) -> tuple[engine.piles.Group, ...]:
        col, *rest = super().declare()
        return (replace(col, unit=Unit.TOP), *rest)


def positions(rules: engine.RuleSet, seed: int) -> Iterator[engine.State]:
    """Each position once (with no winning line every stage is the deal)."""
    seen: set[bytes] = set()
    for st in stages(rules, seed):
        if (key := st.snapshot()) not in seen:
            seen.add(key)
            yield st


def stages(rules: engine.RuleSet, seed: int) -> Iterator[engine.State]:
    """Positions of every stage of a game: along a winning line where the deal is won, each
    also a random move off it (often lost), and along random play (mostly lost). Many lie
    in the middle of a pass through the stock with nothing played from it."""
    rng = random.Random(seed)
    deal = rules.deal(seed.to_bytes(4, "big"))
    v = solve(deal, Budget(positions=400_000))
    line = list(v.moves) if v.outcome is Outcome.WON else []
    for at in (0.0, 0.2, 0.4, 0.6, 0.8):
        st = deal.copy()
        for m in line[:round(at * len(line))]:
            st.play(m)
        if st.status == PLAYING:
            yield st.copy()
            st.play(rng.choice(st.legal_moves()))
            if st.status == PLAYING:
                yield st
    st = deal.copy()
    foundations = set(rules.by_kind[engine.piles.FOUNDATION])
    for ply in (15, 40, 80):
        while len(st.history) < ply and st.status == PLAYING:
            legal = st.legal_moves()
            home = [m for m in legal if m.kind == MOVE and m.dst in foundations]
            st.play(rng.choice(home if home and rng.random() < 0.7 else legal))
        if st.status == PLAYING:
            yield st.copy()


def generic(st: engine.State, cap: int) -> Outcome:
    """The depth-first search over the engine's moves, alone: won, lost or unknown."""
    return DepthFirst(st, None).run(cap).outcome


def replays(st: engine.State, moves: tuple[Move, ...]) -> bool:
    st = st.copy()
    for m in moves:
        st.play(m)
    return st.status == WON


def test_the_step_search_plays_the_rule_sets_its_declarations_allow() -> None:
    fits = {r.key for r in engine.rule_sets() if step_rules.plan(r).fits}
    assert fits == {"klondike/easy", "klondike/difficult"}
    assert step_rules.plan(SuitedKlondike("easy")).fits
    for rules, why in ((AnyFillKlondike("easy"), "Kings filling"),
                       (TopOnlyKlondike("easy"), "any run moving"),
                       (engine.get("yukon", "easy"), ""),
                       (engine.get("canfield", "easy"), "")):
        plan = step_rules.plan(rules)
        assert not plan.fits and why in plan.why


@pytest.mark.parametrize(("rules", "wins"), [(KLONDIKE[0], 20), (KLONDIKE[1], 8),
                                             (SuitedKlondike("easy"), 0),
                                             (SuitedKlondike("difficult"), 0)],
                         ids=lambda x: getattr(x, "key", str(x)))
def test_verdicts_agree_with_the_search_over_the_engines_moves(rules: engine.RuleSet,
                                                               wins: int) -> None:
    """Positions from every stage of a game: where the search over the engine's moves
    decides within its cap, the step search says the same, and each of its wins replays.
    Both verdicts occur (few deals of Klondike in suit are won)."""
    seen = {Outcome.WON: 0, Outcome.LOST: 0}
    for seed in range(14):
        for st in positions(rules, seed):
            v = solve(st, Budget(positions=400_000))
            if v.outcome is Outcome.WON:
                assert replays(st, v.moves)
            other = generic(st, 60_000)
            if other is not Outcome.UNKNOWN and v.decided:
                assert other is v.outcome, (rules.key, seed)
                seen[other] += 1
    assert seen[Outcome.WON] >= wins and seen[Outcome.LOST] >= 10, seen


@pytest.mark.parametrize("rules", KLONDIKE, ids=lambda r: r.key)
def test_verdicts_agree_with_a_plain_exhaustive_search_near_the_end(rules: engine.RuleSet) -> None:
    """Near the end of random games, taken back a few moves: the plain search (every legal
    move, exact positions) decides them, and the step search agrees."""
    agreed = 0
    for seed in range(40):
        rng = random.Random(seed)
        st = rules.deal((7_000 + seed).to_bytes(4, "big"))
        while st.status == PLAYING and len(st.history) < 300:
            st.play(rng.choice(st.legal_moves()))
        for back in (1, 2, 4, 8):
            for _ in range(min(back, len(st.history))):
                st.pop()
            if st.status != PLAYING:
                continue
            plain = plain_search(st, 3000)
            if plain is None:
                continue
            v = solve(st, Budget(positions=200_000))
            assert v.decided and (v.outcome is Outcome.WON) == plain, (seed, back)
            agreed += 1
    assert agreed >= 40


def test_a_card_under_a_run_goes_home_after_the_run_moves_onto_its_twin() -> None:
    """The 5 of hearts, which the hearts need next, lies under the 4 of clubs; the 5 of
    diamonds lies free. Its step home is two moves: the 4 onto the 5 of diamonds, then the
    5 of hearts home."""
    rules = engine.get("klondike", "difficult")
    st = rules.setup({"t1": "6s 5h 4c", "t2": "6c 5d", "f1": "Ah 2h 3h 4h",
                      "f2": "Ad 2d 3d 4d", "f3": "Ac 2c"})
    five = engine.cards.parse_card("5h")
    moves = step_rules.realize(st, [(step_rules.HOME, five)])
    names = rules.pile_names
    assert [(names[m.src], names[m.dst], m.n) for m in moves] == [("t1", "t2", 1),
                                                                   ("t1", "f1", 1)]


def test_a_position_the_engine_calls_over_is_lost_at_once() -> None:
    """The stock dealt out with nothing played since it was turned, and no other move
    useful: the engine will not turn it again, the game is over, and so is the search."""
    rules = engine.get("klondike", "easy")
    st = rules.setup({"f1": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
                      "f2": "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks",
                      "f3": "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd", "t1": "Kd",
                      "w": "Ac 2c 3c 4c Qd 6c 7c 8c 9c Tc Jc Qc Kc 5c"}, progress=0)
    assert st.status != PLAYING
    v = solve(st, Budget(positions=1000))
    assert v.outcome is Outcome.LOST and v.complete


def test_random_positions_include_the_stock_mid_pass_with_nothing_played() -> None:
    """The comparison above covers the rule for turning the stock mid-pass (``flag``)."""
    flagged = sum(step_rules.start(st).flag
                  for seed in range(14) for st in positions(KLONDIKE[0], seed))
    assert flagged >= 5
