"""A "lost" must be a proof: the solver against a plain exhaustive search (no safe moves, no
pruning, no symmetry; tests/engine/solver_plain.py) on positions small enough for it.

The positions: a deal played at random to its end and taken back a few moves, and one move
off a winning line near its end; on every rule set that is played to a win. Where the plain search
finishes, the two must agree on whether a win is reachable."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterator

import pytest

import engine
import engine.safe
from engine.cards import TEXT, parse_card
from engine.core import MOVE, PLAYING, REDEAL, WON
from engine.hints import SOLVER, hint
from engine.piles import FOUNDATION
from engine.rules import Scoring
from engine.safe import safe_moves
from engine.solver import Budget, Outcome, depth, solve
from engine.solver import moves as solver_moves
from engine.solver.bestfirst import best_first
from engine.solver.board import Board
from engine.solver.depth import Choice, DepthFirst, chosen
from engine.solver.state_board import StateBoard, board_for
from tests.engine.solver_plain import plain_search
from tests.engine.test_beam import replays_to_a_win

WIN_GAMES = [r for r in engine.rule_sets() if r.scoring != Scoring.POINTS]
PLAIN_CAP = 2000
FOLLOW_CAP = 3000
ALL = (1 << 52) - 1


def small_positions(rules: engine.RuleSet, seed: int) -> Iterator[engine.State]:
    """Positions near an end: random play to the end (or 400 moves), taken back a few moves
    at a time."""
    rng = random.Random(seed)
    st = rules.deal(seed.to_bytes(2, "big"))
    while st.status == PLAYING and len(st.history) < 400:
        st.play(rng.choice(st.legal_moves()))
    for back in (1, 2, 4, 8):  # 1, 3, 7 and 15 moves before the end
        for _ in range(min(back, len(st.history))):
            st.pop()
        if st.status == PLAYING:
            yield st.copy()


def few_left(rules: engine.RuleSet, seed: int) -> Iterator[engine.State]:
    """Positions with few cards off the foundations but the stock or a redeal still to come,
    which play to the end seldom leaves: play that sends cards home when it can and mostly
    holds back the stock and the redeals, stopped with 6 to 16 cards out, then taken back
    a few moves."""
    rng = random.Random(seed)
    st = rules.deal((50_000 + seed).to_bytes(4, "big"))
    foundations = rules.by_kind.get(FOUNDATION, [])
    for left in (16, 11, 6):
        while st.status == PLAYING and len(st.history) < 600:
            if foundations and 52 - sum(len(st.piles[f]) for f in foundations) <= left:
                break
            legal = st.legal_moves()
            home = [m for m in legal if m.kind == MOVE and m.dst in foundations]
            held = [m for m in legal if m.kind == MOVE]
            r = rng.random()
            st.play(rng.choice(home if home and r < 0.85 else
                               held if held and r < 0.93 else legal))
        while st.history and st.status != PLAYING:
            st.pop()
        for _ in range(min(rng.choice((0, 1, 3)), len(st.history))):
            st.pop()
        if st.status == PLAYING:  # dealt again, to keep the moves that reach it
            yield engine.replay(rules.id, rules.variant, st.seed, st.history)


def near_wins(rules: engine.RuleSet, seed: int) -> Iterator[engine.State]:
    """Positions beside a winning line: a few moves before its end, one other move played
    (won or lost, which is where a pruned-away win would show)."""
    rng = random.Random(seed)
    st = rules.deal(seed.to_bytes(2, "big"))
    v = solve(st, Budget(positions=3000))
    if v.outcome != Outcome.WON:
        return
    for before_end in (4, 8, 16, 32):
        if before_end > len(v.moves):
            break
        here = st.copy()
        for m in v.moves[:-before_end]:
            here.play(m)
        others = [m for m in here.legal_moves() if m != v.moves[-before_end]]
        if others:
            here.play(rng.choice(others))
            if here.status == PLAYING:
                yield here


def compare(rules: engine.RuleSet, seeds: range) -> tuple[int, int]:
    """(lost, won) answers where the plain search finished and the solver agreed: the whole
    solver, and its best-first search alone (which the whole one reaches only once its
    depth-first share is spent, so rarely on positions this small)."""
    lost = won = 0
    for seed in seeds:
        for st in itertools.chain(small_positions(rules, seed), few_left(rules, seed),
                                  near_wins(rules, seed)):
            truth = plain_search(st, PLAIN_CAP)
            if truth is None:
                continue
            for v in (solve(st, Budget(positions=20_000)),
                      best_first(st, 20_000, None)):
                if v.outcome == Outcome.UNKNOWN:  # no answer is no wrong answer
                    continue
                assert (v.outcome == Outcome.WON) == truth, (rules.key, seed, st)
                if truth:
                    final = st.copy()
                    for m in v.moves:
                        final.play(m)
                    assert final.status == WON
                    won += 1
                else:
                    lost += 1
    return lost, won


@pytest.mark.parametrize("rules", WIN_GAMES, ids=lambda r: r.key)
def test_lost_agrees_with_a_plain_exhaustive_search(rules: engine.RuleSet) -> None:
    compare(rules, range(1))


def test_the_comparison_covers_many_lost_and_won_positions() -> None:
    """The check above is only as good as the positions the plain search finishes on."""
    lost = won = 0
    for rules in WIN_GAMES[::4]:
        a, b = compare(rules, range(1, 2))
        lost, won = lost + a, won + b
    assert lost >= 15 and won >= 3


class Careless(Choice):
    """A choice of moves that tries only the first of them."""

    def choose(self, board: Board, legal: list[int], after_deal: bool) -> list[int]:
        return super().choose(board, legal, after_deal)[:1]


def careless(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search of the test chooses its moves carelessly (``Careless``)."""
    monkeypatch.setattr(depth, "choice_for", lambda rules, safe=True, narrow=False,
                        start=None: Careless(rules, safe, narrow, start))


def through_the_state(st: engine.State) -> DepthFirst:
    """Depth first from ``st`` through the engine's state, which asks the rule set's own
    end rule at every position (a search's ``Board`` does not)."""
    search = DepthFirst(st, None)
    search.board = StateBoard(st)
    return search


def test_the_comparison_catches_a_solver_that_drops_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A solver that tries only its first move must be caught claiming a loss."""
    careless(monkeypatch)
    caught = 0
    for key in ("yukon/easy", "eliminator/easy", "scorpion/easy"):
        try:
            compare(engine.get(*key.split("/")), range(2))
        except AssertionError:
            caught += 1
    assert caught >= 1


FOLLOWED = [r for r in WIN_GAMES if solver_moves.followed(r)]


def with_follow(rules: engine.RuleSet, seed: int) -> Iterator[engine.State]:
    """Positions where ``follow`` calls more moves safe (engine/safe.py): on a winning line
    (far into a game, where such moves are and a search ends), and one other move off it."""
    rng = random.Random(seed)
    st = rules.deal(seed.to_bytes(2, "big"))
    v = solve(st, Budget(positions=100_000))
    if v.outcome != Outcome.WON:
        return
    for m in v.moves:
        legal = st.legal_moves()
        if len(safe_moves(st, legal, follow=True)) > len(safe_moves(st, legal)):
            yield st.copy()
            off = st.copy()
            off.play(rng.choice(legal))
            if off.status == PLAYING:
                yield off
        st.play(m)


def follow_checks(rules: engine.RuleSet, seeds: range) -> int:
    """At positions where ``follow`` calls more moves safe, depth first with it and without
    it (which the comparison above holds to the plain search) agree wherever both decide,
    and so does the plain search wherever it finishes. How many answers were compared."""
    compared = 0
    for seed in seeds:
        for st in with_follow(rules, seed):
            verdicts = []
            for follow in (True, False):  # (the second is searched only if the first decided)
                search = DepthFirst(st, None)
                search.choice.follow = follow
                verdicts.append(search.run(FOLLOW_CAP).outcome)
                if verdicts[-1] == Outcome.UNKNOWN:
                    break
            if Outcome.UNKNOWN in verdicts:
                continue
            assert verdicts[0] == verdicts[1], (rules.key, seed, st)
            truth = plain_search(st, PLAIN_CAP)
            assert truth is None or truth == (verdicts[0] == Outcome.WON), (rules.key, seed, st)
            compared += 1
    return compared


@pytest.mark.parametrize("rules", FOLLOWED, ids=lambda r: r.key)
def test_a_card_the_waiting_cards_can_follow_home_keeps_every_win(
        rules: engine.RuleSet) -> None:
    compared = follow_checks(rules, range(6))
    if rules.id in ("klondike", "bakers-dozen", "bristol", "castile") or (
            rules.key == "flower-garden/easy"):
        assert compared >= 10  # the check is only as good as the positions it meets


def test_a_rule_that_lets_any_card_go_home_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 5♥ must hold the 4♣ while the 3♣ goes home: sent home first, it loses the
    game. ``follow`` keeps it back (the 4♣ can't go home yet); a rule that let every card
    follow would not."""
    rules = engine.get("klondike", "easy")
    st = rules.setup({"f1": "As 2s 3s 4s", "f2": "Ac 2c", "f3": "Ad 2d 3d 4d 5d",
                      "f4": "Ah 2h 3h 4h", "t1": "3c 4c", "t2": "5h",
                      "t3": "Ks Qs Js Ts 9s 8s 7s 6s 5s", "t4": "Kc Qc Jc Tc 9c 8c 7c 6c 5c",
                      "t5": "Kd Qd Jd Td 9d 8d 7d 6d", "t6": "Kh Qh Jh Th 9h 8h 7h 6h"})
    assert plain_search(st, 10_000) is True
    assert DepthFirst(st, None).run(20_000).outcome == Outcome.WON
    after = st.copy()
    after.play(engine.parse_move(rules, "t2-f4"))
    assert DepthFirst(after, None).run(20_000).outcome == Outcome.LOST

    class Everyone(Choice):
        def followers(self, home: int, takes: int) -> int:
            return ALL

    search = DepthFirst(st, None)
    search.choice = Everyone(rules, start=st)
    assert search.run(20_000).outcome == Outcome.LOST


SCORPION = engine.get("scorpion", "difficult")
#: Deals of it the search wins within a hundred positions.
WON_SCORPION = (148, 783, 139, 337, 528, 691, 91, 111)


def dealt_positions(seed: int) -> Iterator[engine.State]:
    """Scorpion difficult with the stock dealt: a game played at random to its end (or 400
    moves), taken back 1, 3, 7 and 15 moves, while the stock stays dealt."""
    rng = random.Random(seed)
    st = SCORPION.deal(seed.to_bytes(4, "big"))
    while st.status == PLAYING and len(st.history) < 400:
        st.play(rng.choice(st.legal_moves()))
    for back in (1, 2, 4, 8):
        for _ in range(min(back, len(st.history))):
            st.pop()
        if st.status == PLAYING and not st.piles[SCORPION.stock_pile]:
            yield st.copy()


def dealt_near_wins(deal: int) -> Iterator[engine.State]:
    """Scorpion difficult with the stock dealt, beside a winning line: 4 to 32 moves before
    its end, on the line and one other move off it."""
    rng = random.Random(deal)
    st = SCORPION.deal(deal.to_bytes(4, "big"))
    v = solve(st, Budget(positions=3000))
    assert v.outcome == Outcome.WON
    for before_end in (4, 8, 16, 24, 32):
        here = st.copy()
        for m in v.moves[:-before_end]:
            here.play(m)
        if here.piles[SCORPION.stock_pile]:
            break
        yield here.copy()
        others = [m for m in here.legal_moves() if m != v.moves[-before_end]]
        if others:
            here.play(rng.choice(others))
            yield here


def test_a_card_laid_on_the_card_it_ends_on_alone_keeps_every_win() -> None:
    """Scorpion difficult, the stock dealt: a card goes onto the one card it ends on before
    anything else (``Choice.linked``), unless a card under that one may still move or lies
    face down. Deal 179 some moves before its end: laid first, the 5 of spades and the cards
    on it would cover the 4 of spades, which must come to rest on the 5 (a rule without the
    exception called this won position lost). And where the plain search finishes, on
    positions of random games and beside winning lines, the two agree, the rule having
    chosen at many of them."""
    st = SCORPION.setup({
        "t1": "Jd 4s 3s 2s As 7s 6s",
        "t2": "6d 3d Td 9d 8d 7d Th 9h 8h 7h 6h 4h Ks Qs 8c 7c 6c 5c 4c",
        "t3": "3c 5d", "t4": "2c Ac 5h 5s Js Ts 9s 8s 3h 2h Ah", "t5": "Kd Qd",
        "t6": "Kh Qh Jh 2d Ad", "t7": "Kc Qc Jc Tc 9c 4d"}, down={"t1": 1, "t2": 2, "t3": 1})
    search = DepthFirst(st, None)
    board = Board(st, ask=False)
    assert search.choice.linked(board, board.legal()[0]) == -1
    v = search.run(20_000)
    assert v.outcome == Outcome.WON and replays_to_a_win(st, v)
    compared = chose = won = 0
    for here in itertools.chain(*map(dealt_positions, range(60)),
                                *map(dealt_near_wins, WON_SCORPION)):
        truth = plain_search(here, PLAIN_CAP)
        if truth is None:
            continue
        v = DepthFirst(here, None).run(FOLLOW_CAP)
        if v.outcome == Outcome.UNKNOWN:
            continue
        assert (v.outcome == Outcome.WON) == truth, here
        compared += 1
        won += truth
        board = Board(here, ask=False)
        chose += Choice(SCORPION, start=here).linked(board, board.legal()[0]) >= 0
    assert compared >= 200 and chose >= 50 and won >= 50, (compared, chose, won)


def test_a_card_that_regroups_the_stock_is_never_played_unasked() -> None:
    """Found by the deeper census: in Klondike easy deal 697, with the A♠ and A♣ home, the
    2♠ on the waste could be laid only on the red Aces, which can go home at any time. But
    sent home, it leaves the talon a card short, each later pass of three groups the cards
    otherwise, and no card the columns need comes up again: lost, where leaving it won."""
    rules = engine.get("klondike", "easy")
    st = rules.deal((697).to_bytes(4, "big"))
    for text in "s w-f1 s s w-f2 s".split():
        st.play(engine.parse_move(rules, text))
    home = engine.parse_move(rules, "w-f1")
    assert st.piles[rules.pile_index["w"]][-1] == parse_card("2s")
    after = st.copy()
    after.play(home)
    assert DepthFirst(st, None).run(20_000).outcome == Outcome.WON
    assert DepthFirst(after, None).run(20_000).outcome == Outcome.LOST
    assert home in safe_moves(st, follow=True)  # as far as the cards that could follow go
    board = board_for(st)
    assert board.code_of(home) not in Choice(rules).safe_moves(board, board.legal()[0])
    assert solve(rules.deal((697).to_bytes(4, "big")), Budget(positions=20_000)).outcome == (
        Outcome.WON)


@pytest.mark.parametrize("deal", [502, 441, 88])
def test_deals_an_early_card_from_the_waste_had_lost_are_won(deal: int) -> None:
    """Deals of Klondike easy the search had proved lost while it sent home any safe card
    from the waste (an Ace, or a card nothing still out could be laid on): a win needs the
    card kept in the talon for the later passes' grouping. Each is won now, and the line
    replays."""
    st = engine.get("klondike", "easy").deal(deal.to_bytes(4, "big"))
    v = solve(st, Budget(positions=200_000))
    assert v.outcome == Outcome.WON and replays_to_a_win(st, v)


#: La Belle Lucie difficult, played at random to a dozen cards with a redeal left.
BEFORE_A_REDEAL = {
    720: "t8-t7 t10-t3 t15-t1 t11-t10 t15-f2 t4-f1 t2-t7 t5-f2 t4-t5 t11-t9 t16-t11 t4-f1 "
         "t15-t10 t11-f1 t14-t6 t14-t2 t11-f1 t6-f1 t14-t8 t6-f1 t6-t2 redeal t10-t2 t13-f3 "
         "t7-f1 t14-f2 t7-t10 t9-t13 t1-t8 t1-t9 t12-f4 t12-t7 t5-t4 t5-t2 t5-t8 t8-f1 t8-f1 "
         "t8-t4 t8-t13 t2-f3 t8-f2 t4-f1 t4-f1 t2-f3 t2-f3 t7-f2 t2-f3 t7-f2 t13-f2 t1-f3 "
         "t13-f2 t4-f1 t13-f2 t13-f4 t11-t4 t4-f4 t4-t12 t12-f4 t12-t4 t11-t9 t4-f4 t3-t11 "
         "t4-t9 t3-t6 t9-f4 t9-f4 t9-f4 t9-f4",
    1002: "t4-t3 t13-t3 t8-t16 t2-t1 t15-t14 t15-t11 t2-t6 t3-f2 t2-t8 t13-t10 t3-f2 t3-f2 "
          "t11-f2 t11-t6 t3-t16 t6-f2 t9-t11 t9-t12 t5-t12 t6-f2 t9-f1 t12-f1 t12-f1 redeal "
          "t1-t4 t12-f3 t7-t11 t5-t11 t2-t4 t4-f3 t4-f3 t8-f2 t3-t9 t3-t1 t3-t12 t7-t8 t4-f3 "
          "t13-f1 t1-f4 t7-t9 t12-f2 t2-t9 t12-f2 t5-t9 t12-t8 t10-t8 t10-f2 t1-f4 t10-f4 "
          "t6-t5 t6-f1 t2-t5 t6-f1 t8-f1 t8-f1 t8-f1 t8-f1 t4-f1 t8-t11 t4-t13 t13-f2 t13-f2 "
          "t13-f4 t5-f4 t5-f4 t5-t11 t11-f4 t11-f4 t11-f4",
}


@pytest.mark.parametrize("deal", sorted(BEFORE_A_REDEAL))
def test_nothing_is_played_unasked_before_a_shuffled_redeal(
        deal: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """La Belle Lucie's redeal shuffles the cards left in the columns, so a card sent home
    before it changes what it deals. These positions are won, by a line that leaves a safe
    card where it is until the redeal; playing the safe cards unasked proved them lost."""
    st = engine.replay("la-belle-lucie", "difficult", deal.to_bytes(4, "big"),
                       BEFORE_A_REDEAL[deal].split())
    assert st.rules.redeal_ahead(st) and safe_moves(st)
    assert plain_search(st, 400_000) is True
    v = DepthFirst(st, None).run(20_000)
    assert v.outcome == Outcome.WON and replays_to_a_win(st, v)
    monkeypatch.setattr(type(st.rules), "redeal_ahead", lambda self, st: False)
    assert DepthFirst(st, None).run(20_000).outcome == Outcome.LOST


def test_every_rule_set_with_a_redeal_says_one_is_ahead() -> None:
    """Every redeal the engine has shuffles the cards it gathers: a rule set that offers one
    at the deal must say so to the solver (``RuleSet.redeal_ahead``)."""
    with_redeal = 0
    for rules in engine.rule_sets():
        st = rules.deal(bytes(4))
        offered = any(m.kind == REDEAL for m in st.legal_moves())
        assert rules.redeal_ahead(st) == offered, rules.key
        with_redeal += offered
    assert with_redeal == 3


@pytest.mark.parametrize("variant", ["easy", "difficult"])
def test_safe_moves_are_played_alone_after_the_last_redeal(variant: str) -> None:
    rules = engine.get("la-belle-lucie", variant)
    for deal in range(100):
        st = rules.deal(deal.to_bytes(4, "big"))
        if safe_moves(st):
            break
    assert len(chosen(st)) > 1
    st.vars["redeal"] = rules.redeals
    assert not rules.redeal_ahead(st)
    assert chosen(st) == safe_moves(st)[:1]


def mid_pass() -> engine.State:
    """Canfield easy with the stock dealt out since its last turn and nothing taken from
    the talon since (no progress), t2 empty: won by turning the stock over, dealing three
    and laying the K♦ in t2; the 4♣ there instead loses."""
    rules = engine.get("canfield", "easy")
    return rules.setup({"t1": "As Kh Qc Jd Tc 9d 8c 7d 6c", "t3": "Ad Kc Qd Jc Td 9c 8d 7c",
                        "t4": "5c", "f1": "2c", "f2": "2d 3d 4d 5d 6d",
                        "f3": "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks",
                        "f4": "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh", "w": "Ah 3c Kd Ac 4c"},
                       base=2, **{"pass": 5, "progress": 0})


def test_a_search_from_mid_pass_turns_the_stock_with_nothing_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by play to a few cards with a pass under way: a search leaves out turning the
    stock over with nothing played since the last turn, as every move since could have
    been made before that turn, to the same position. That needs the last turn inside the
    search; from a position mid-way through a pass, it came before, and this turn is the
    only way to bring the waste's cards round again (``moves.open_pass``)."""
    st = mid_pass()
    assert plain_search(st, 20_000) is True
    for search in (through_the_state(st), DepthFirst(st, None)):
        v = search.run(20_000)
        assert v.outcome == Outcome.WON and replays_to_a_win(st, v)
    assert Choice(st.rules, start=st).open_pass == 5
    h = hint(st, Budget(positions=20_000))  # a player asking here was told "lost"
    assert h.source == SOLVER and not h.lost and h.move == engine.parse_move(st.rules, "s")
    deal = st.rules.deal(bytes(4))  # from a deal, whose first pass a search makes whole
    assert Choice(deal.rules, start=deal).open_pass == 0
    monkeypatch.setattr(depth, "open_pass", lambda start: 0)
    assert through_the_state(st).run(20_000).outcome == Outcome.LOST
    assert hint(st, Budget(positions=20_000)).lost
    assert DepthFirst(st, None).run(20_000).outcome == Outcome.LOST


def golf_four_left() -> engine.State:
    """Golf easy with the 4♣ on the foundation and every card not named there: the 3♣
    laid on it now shuts out no card (every other 3 and every 5 is home), but the win
    deals first and needs the pile to go the other way."""
    piles = {"t4": "2h", "t5": "3c", "t6": "4d Ad 9c 8c", "s": "7c Js 2d 9h Jd"}
    named = {parse_card(c) for cards in piles.values() for c in cards.split()}
    named.add(parse_card("4c"))
    piles["f"] = " ".join(TEXT[c] for c in range(52) if c not in named) + " 4c"
    return engine.get("golf", "easy").setup(piles)


def eliminator_twenty_left() -> engine.State:
    """Eliminator easy with every foundation started: the Q♠ on the K♣ shuts out no card
    (the K♦ still takes the Queens and Aces), but the win needs the K♣ to take them."""
    return engine.get("eliminator", "easy").setup({
        "t1": "Js As 6s 7c 6d Qs", "t2": "6c Jd 4c", "t3": "5h Jh Td",
        "t4": "Ac Kh 9h 9c 8s 5d Qc", "f1": "6h 7d 8c 7s", "f2": "Qh Kc",
        "f3": "5c 4h 5s 4s 3h 4d 3c 2d", "f4": "8d 7h", "f5": "Th 9s Tc 9d Ts Jc",
        "f6": "Qd Ks Ah Kd", "f7": "8h", "f8": "Ad 2s 3s 2c 3d 2h"})


@pytest.mark.parametrize("position", [golf_four_left, eliminator_twenty_left])
def test_a_foundation_that_builds_either_way_has_no_safe_move(
        position: Callable[[], engine.State]) -> None:
    """Found by play to a few cards: a card laid on a foundation that builds up or down
    chooses which way it goes next. Sent there unasked because it shut out no card now,
    it lost these won positions."""
    st = position()
    assert safe_moves(st) == []
    assert plain_search(st, 100_000) is True
    v = solve(st, Budget(positions=100_000))
    assert v.outcome == Outcome.WON and replays_to_a_win(st, v)


def test_an_empty_foundation_any_card_may_start_is_a_choice_not_a_safe_move() -> None:
    """Found by the comparison above: every card to an empty Eliminator foundation passes
    ``safe_moves``, but eight foundations can start only eight runs. Playing the first such
    move without branching lost this won position."""
    rules = engine.get("eliminator", "difficult")
    st = rules.setup({"t1": "3c Kh Kd 4c 8d Jd As 3h 6d 2d",
                      "t2": "4s 6s Jh Ks 3s 5c 6c 6h 5d Js Jc 2s",
                      "t3": "8h Ac 9d 8s Ah Kc Th 9c 7h 7d 8c 9h 4d",
                      "t4": "2h Ts 3d 5h 9s 7c 5s Ad 2c Tc Qc Qs",
                      "r": "7s", "f1": "Td", "f4": "Qh", "f5": "4h", "f8": "Qd"})
    assert plain_search(st, 5000) is True
    v = solve(st, Budget(positions=20_000))
    assert v.outcome != Outcome.LOST


@pytest.mark.parametrize("key,seed", [("klondike/difficult", 5), ("nestor/difficult", 3),
                                      ("eagle-wing/difficult", 0), ("scorpion/difficult", 1)])
def test_whole_deals_proved_lost_are_lost(key: str, seed: int) -> None:
    """Whole deals the solver proves lost, where the plain search can go through them all."""
    rules = engine.get(*key.split("/"))
    st = rules.deal(bytes([seed]))
    v = solve(st, Budget(positions=50_000))
    assert v.outcome == Outcome.LOST and v.complete
    assert plain_search(st, 200_000) is False


def test_the_wide_check_runs_and_reports_a_wrong_loss(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/engine/wide_check.py, the comparison on many more positions, as its command."""
    from tests.engine import wide_check  # (here: it imports this module)

    assert wide_check.main(["--seeds", "4", "--seconds", "0.5", "spiderette/easy"]) == 0
    out = capsys.readouterr().out
    assert "spiderette/easy: " in out and " 0 disagree" in out
    careless(monkeypatch)
    # Bounded by positions alone, so that a busy machine cannot leave the search unfinished.
    assert wide_check.main(["--first", "2", "--seeds", "2", "--positions", "20000",
                            "--seconds", "600", "spiderette/easy"]) == 1
    out = capsys.readouterr().out
    assert "the plain search won after" in out
    line = next(x for x in out.splitlines() if "the plain search won after" in x)
    seed = bytes.fromhex(line.split()[2].rstrip(":"))  # its moves reach its position
    assert engine.replay("spiderette", "easy", seed, line.split(" after ")[1].split()).history
    # Seeds 2 and 3 alone: their deals are 50,002 and 50,003 (``few_left``).
    assert set(re.findall(r"seed ([0-9a-f]+)", out)) <= {f"{50_002:08x}", f"{50_003:08x}"}
