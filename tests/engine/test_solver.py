"""The solver (engine/solver) on every rule set: what it says must replay through the engine.

A ``won`` line replays with ``State.play`` from a fresh deal to a win, a ``best`` line to the
score it claims, and a small budget answers ``unknown`` (or a win that replays), never a
loss the larger budget does not confirm."""

from __future__ import annotations

import gc
import random

import pytest

import engine
from engine.cards import RANK
from engine.core import PLAYING, REMOVE, STOCK, WON, Move
from engine.games.pyramid import Pyramid
from engine.piles import FOUNDATION, TABLEAU
from engine.solver import Budget, Outcome, Verdict, solve
from engine.solver.beam import beam
from engine.solver.bestfirst import Promise, best_first
from engine.solver.board import Board
from engine.solver.depth import Choice, DepthFirst, chosen, stuck
from engine.solver.moves import successors, talon_piles, twin_groups
from engine.solver.position import (
    card_codes,
    dealt_columns,
    interchangeable,
    key_maker,
    sink_piles,
    suit_blind,
)
from engine.solver.state_board import board_for

RULE_SETS = engine.rule_sets()
SEEDS = (b"\x00", b"\x01", b"\x02")
BUDGET = Budget(positions=1500)  # no clock: the same answer however busy the machine


def promise(st: engine.State) -> int:
    """The best-first search's promise of ``st`` (``bestfirst.Promise``), on its board."""
    return Promise(st.rules).score(board_for(st))


def replayed(rules: engine.RuleSet, seed: bytes, moves: tuple[engine.Move, ...],
             before: tuple[engine.Move, ...] = ()) -> engine.State:
    """A fresh deal with ``before`` and then ``moves`` played, each checked by the engine."""
    st = rules.deal(seed)
    for m in (*before, *moves):
        st.play(m)
    return st


def check(rules: engine.RuleSet, seed: bytes, v: Verdict,
          before: tuple[engine.Move, ...] = ()) -> None:
    if v.outcome == Outcome.WON:
        assert replayed(rules, seed, v.moves, before).status == WON
    elif v.outcome == Outcome.BEST:
        st = replayed(rules, seed, v.moves, before)
        assert st.over and st.score == v.score
    else:
        assert v.moves == () and v.score is None
    assert v.positions >= 1 and v.seconds >= 0


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.key)
def test_every_answer_replays_through_the_engine(rules: engine.RuleSet) -> None:
    scored = rules.scoring == engine.rules.Scoring.POINTS
    for seed in SEEDS:
        st = rules.deal(seed)
        before = st.snapshot()
        v = solve(st, BUDGET)
        assert st.snapshot() == before and not st.history  # the caller's state is untouched
        check(rules, seed, v)
        assert v.positions <= 1500
        if scored:
            assert v.outcome in (Outcome.BEST, Outcome.UNKNOWN)
        else:
            assert v.outcome in (Outcome.WON, Outcome.LOST, Outcome.UNKNOWN)
            assert v.outcome != Outcome.LOST or v.complete
        small = solve(st, Budget(positions=40))
        check(rules, seed, small)
        if small.outcome == Outcome.LOST:
            assert v.outcome == Outcome.LOST  # a proof does not depend on the budget
        elif not scored:
            assert small.outcome in (Outcome.UNKNOWN, Outcome.WON)
            assert small.outcome == Outcome.WON or small.positions == 40


@pytest.mark.parametrize("rules", RULE_SETS[::3], ids=lambda r: r.key)
def test_a_search_from_the_middle_of_a_game_answers_from_there(rules: engine.RuleSet) -> None:
    rng = random.Random(rules.key)
    st = rules.deal(b"\x05")
    for _ in range(8):
        if st.status != PLAYING:
            break
        st.play(rng.choice(st.legal_moves()))
    v = solve(st, BUDGET)
    check(rules, b"\x05", v, tuple(st.history))


def test_known_deals_answer_as_measured() -> None:
    """Fixed answers: a change in them is a change in the solver to look at."""
    klondike = engine.get("klondike", "easy")
    v = solve(klondike.deal(b"\x00"), Budget(positions=10000))
    assert v.outcome == Outcome.WON and v.moves[0] == engine.parse_move(klondike, "t3-f1")
    v = solve(engine.get("klondike", "difficult").deal(b"\x01"), Budget(positions=20000))
    assert v.outcome == Outcome.LOST and v.complete
    # Once wrongly "lost" (tests/engine/test_solver_lost.py); more positions since its
    # foundations, which build either way, have no safe moves (solver version 14).
    v = solve(engine.get("eliminator", "easy").deal(b"\x02"), Budget(positions=50000))
    assert v.outcome == Outcome.WON


def test_a_finished_position_is_answered_at_once() -> None:
    rules = engine.get("klondike", "easy")
    won = rules.setup({f"f{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK")
                       for i, s in enumerate("cdhs")})
    v = solve(won)
    assert v.outcome == Outcome.WON and v.moves == () and v.positions == 1
    lost = rules.setup({"t1": "2h", "f1": "Ah", "f2": "As", "f3": "Ac", "f4": "Ad",
                        "t2": "3h", "t3": "4h"})
    # 2h to f1 is the only way on; then 3h, 4h: a win is impossible without the other cards,
    # so the search must run out of moves and say lost.
    v = solve(lost)
    assert v.outcome == Outcome.LOST and v.complete


def test_an_endless_stock_is_searched_to_the_end() -> None:
    """Draw three with unlimited passes: turning the stock for ever must come back to
    positions already met, so a stuck game is proved lost, not searched for ever."""
    rules = engine.get("klondike", "easy")
    st = rules.setup({"s": "Kh Qh 2c", "t1": "Ks", "t2": "Kd", "t3": "Kc", "t4": "Ac"})
    v = solve(st, Budget(seconds=20))
    assert v.outcome == Outcome.LOST and v.complete and v.positions < 200


def test_pile_kinds_decide_the_shortcuts_never_the_game() -> None:
    """Which piles are interchangeable, twins or the talon is read from declarations."""
    klondike = engine.get("klondike", "easy")
    names = klondike.pile_names
    assert [[names[p] for p in g] for g in interchangeable(klondike)] == [
        [f"t{i}" for i in range(1, 8)], [f"f{i}" for i in range(1, 5)]]
    assert sorted(names[p] for p in talon_piles(klondike)) == ["s", "w"]
    spiderette = engine.get("spiderette", "easy")  # the stock deals to each column by place
    assert interchangeable(spiderette) == [] and twin_groups(spiderette) == []
    assert dealt_columns(spiderette) == (spiderette.by_kind[TABLEAU], 0)
    agnes = engine.get("agnes-sorel", "standard")  # its last two stock cards go to reserves
    assert dealt_columns(agnes) == (agnes.by_kind[TABLEAU], 2)
    assert dealt_columns(klondike) == ([], 0)
    pyramid = engine.get("pyramid", "easy")  # piles cover one another
    assert interchangeable(pyramid) == [] and twin_groups(pyramid) == []
    lucie = engine.get("la-belle-lucie", "easy")  # a redeal gathers the columns in order
    assert twin_groups(lucie) == []


def test_the_key_forgets_the_history_and_an_endless_stock_s_passes() -> None:
    rules = engine.get("klondike", "easy")
    key = key_maker(rules)
    a = rules.deal(b"\x00")
    b = rules.deal(b"\x00")
    b.vars["pass"] = 7
    assert key(a) == key(b)
    c = rules.deal(b"\x00")
    c.piles[0], c.piles[1] = c.piles[1], c.piles[0]
    c.down[0], c.down[1] = c.down[1], c.down[0]
    assert key(c) == key(a)  # two columns swapped: one position
    c.down[0] -= 1
    assert key(c) != key(a)  # a card face up is not the same position
    limited = engine.get("klondike", "difficult")
    d, e = limited.deal(b"\x00"), limited.deal(b"\x00")
    e.vars["pass"] = 2
    assert key_maker(limited)(d) != key_maker(limited)(e)  # passes left matter here


def test_safe_moves_are_played_without_branching() -> None:
    rules = engine.get("klondike", "easy")
    st = rules.setup({"t1": "Kc Ah", "t2": "5d", "t3": "6s", "w": "2c"}, down={"t1": 1})
    assert [engine.move_text(rules, m) for m in chosen(st)] == ["t1-f1"]
    # Without the safe-move rule the same position branches, foundation moves first.
    moves = chosen(st, safe=False)
    assert len(moves) > 1 and rules.pile_kinds[moves[0].dst] == "foundation"


def test_a_lone_king_of_pyramid_is_removed_without_branching() -> None:
    """A King leaves alone and joins no set, so removing it only uncovers cards
    (``Matching.costless``): the search tries nothing else from there."""
    rules = engine.get("pyramid", "difficult")
    st = rules.deal(bytes(4))
    legal = st.legal_moves()
    lone = [m for m in legal if m.kind == REMOVE and len(m.piles) == 1]
    assert len(lone) == 1 and len(legal) > 1
    assert chosen(st, legal) == lone
    assert len(chosen(st, legal, safe=False)) == len(legal)  # a scored search
    assert not any(rules.costless(st, m) for m in legal if m not in lone)  # pairs: a choice
    klondike = engine.get("klondike", "easy")
    k = klondike.deal(b"\x00")
    assert not any(klondike.costless(k, m) for m in k.legal_moves())

    class KingsPairWithAces(Pyramid):
        """A King that could also pair with an Ace still out is a choice to remove alone."""

        def set_refusal(self, st: engine.State, cards: list[int]) -> engine.Refusal | None:
            if sorted(RANK[c] for c in cards) == [1, 13]:
                return None
            return super().set_refusal(st, cards)

    other = KingsPairWithAces("difficult")
    st = other.deal(bytes(4))
    (king,) = [m for m in st.legal_moves() if m.kind == REMOVE and len(m.piles) == 1]
    assert not other.costless(st, king)
    for p, pile in enumerate(st.piles):  # every Ace gone: the King can join nothing now
        pile[:] = [c for c in pile if RANK[c] != 1]
        st.down[p] = min(st.down[p], len(pile))
    st.piles[other.foundation] += [c for c in range(52) if RANK[c] == 1]
    assert other.costless(st, king)


def test_a_search_starting_just_after_a_deal_tries_every_move() -> None:
    """The stock shortcut (only talon moves after a deal) holds inside a search, which tried
    the other moves before the deal; a search that starts after a deal has not."""
    rules = engine.get("klondike", "difficult")
    # The only way on is t1-t2 (the 7♥ onto the 8♠); the stock is a card nothing takes.
    st = rules.setup({"t1": "7h", "t2": "8s", "s": "Kc 2d"})
    st.play(engine.parse_move(rules, "s"))
    moves = chosen(st)
    assert "t1-t2" in [engine.move_text(rules, m) for m in moves]
    assert "t1-t2" not in [engine.move_text(rules, m) for m in chosen(st, after_deal=True)]


def test_a_foundation_no_card_leaves_is_keyed_by_its_size_and_top() -> None:
    """Two orders of play to the same discard pile are one position in a game played to a
    win; in a game scored from that pile's order (Slide's sets) they are not."""
    rules = engine.get("golf", "easy")
    key = key_maker(rules)
    a = rules.setup({"t1": "5c", "f": "3d 4h 5s 6h"})
    b = rules.setup({"t1": "5c", "f": "5s 4h 3d 6h"})
    assert key(a) == key(b)
    assert key(a) != key(rules.setup({"t1": "5c", "f": "3d 4h 5s 7h"}))
    assert key_maker(rules, sinks=False)(a) != key_maker(rules, sinks=False)(b)


DISCARDING = [r for r in RULE_SETS if r.discard]


@pytest.mark.parametrize("rules", DISCARDING, ids=lambda r: r.key)
def test_no_rule_reads_the_order_of_a_discard_pile_and_the_key_forgets_it(
        rules: engine.RuleSet) -> None:
    """A rule set that declares its foundation a discard pile (``RuleSet.discard``) plays
    the same whatever the order of that pile's cards: at each position of random games, the
    same position with the pile's cards reversed, or its top card swapped with the one under
    it, has the same legal moves, status and key (which keeps the pile's size alone)."""
    rng = random.Random(rules.key)
    key = key_maker(rules)
    (f,) = rules.by_kind[FOUNDATION]
    met = 0
    for seed in range(6):
        st = rules.deal(bytes([seed]))
        while st.status == PLAYING and len(st.history) < 150:
            if len(st.piles[f]) >= 2:
                for turned in (st.piles[f][::-1], st.piles[f][:-2] + st.piles[f][:-3:-1]):
                    other = st.copy()
                    other.piles[f][:] = turned
                    assert other.piles[f] != st.piles[f]
                    assert other.legal_moves() == st.legal_moves()
                    assert other.status == st.status and key(other) == key(st)
                    met += 1
            st.play(rng.choice(st.legal_moves()))
    assert met >= 20
    assert DISCARDING and {r.id for r in DISCARDING} >= {"pyramid", "aces-up", "nestor"}


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.key)
def test_the_key_tells_two_positions_apart_exactly_where_a_rule_could(
        rules: engine.RuleSet) -> None:
    """The piles' part of a key is equal for two positions exactly when their piles are,
    but for the order of an interchangeable group's piles (and of the columns the stock
    deals no more cards to), in a foundation no card leaves, the cards below its top and,
    where no rule reads a card's suit, which card of a rank lies where: checked against that
    definition, written out plainly here, on positions of a random game of every rule set
    and on the same positions with two piles of a group swapped, one face-down card fewer,
    a foundation's top card swapped with another pile's, or two cards of a rank swapped."""
    rng = random.Random(rules.key)
    key = key_maker(rules)
    groups = interchangeable(rules)
    dealt, keep = dealt_columns(rules)
    sunk = set(sink_piles(rules))
    grouped = {p for g in groups for p in g}
    codes = card_codes(rules)

    def free(st: engine.State) -> list[int]:
        """The columns the stock deals no more cards to (all but its next deals' by place)."""
        return dealt[max(len(st.piles[rules.stock_pile]) - keep, 0):] if dealt else []

    def plainly(st: engine.State) -> object:
        def part(p: int) -> object:
            pile = list(bytes(st.piles[p]).translate(codes))
            if p in sunk and rules.discard:
                return (st.down[p], len(pile))
            return (st.down[p], len(pile), tuple(pile[-1:])) if p in sunk else (
                st.down[p], tuple(pile))
        alike = [*groups, free(st)]
        return ([part(p) for p in range(len(st.piles)) if p not in grouped | set(alike[-1])],
                [sorted(part(p) for p in g) for g in alike])  # type: ignore[type-var]

    seen: list[tuple[object, bytes]] = []
    st = rules.deal(b"\x05")
    for _ in range(40):
        seen.append((plainly(st), key(st)[0]))
        for g in [*groups, free(st)]:
            if len(g) < 2:
                continue
            i, j = rng.sample(g, 2)
            twin = st.copy()
            twin.piles[i], twin.piles[j] = twin.piles[j], twin.piles[i]
            twin.down[i], twin.down[j] = twin.down[j], twin.down[i]
            assert key(twin)[0] == key(st)[0]
            seen.append((plainly(twin), key(twin)[0]))
        tops = [p for p, pile in enumerate(st.piles) if pile]
        for p in tops:
            other = rng.choice(tops)
            changed = st.copy()
            if changed.down[p]:
                changed.down[p] -= 1
            elif p in sunk and other != p:
                a, b = changed.piles[p], changed.piles[other]
                a[-1], b[-1] = b[-1], a[-1]
            else:
                continue
            seen.append((plainly(changed), key(changed)[0]))
        at = {c: (p, i) for p, pile in enumerate(st.piles) for i, c in enumerate(pile)}
        for c in rng.sample(sorted(at), min(4, len(at))):
            twin_card = next((d for d in at if d != c and d % 13 == c % 13), None)
            if twin_card is not None:
                (p, i), (q, j) = at[c], at[twin_card]
                changed = st.copy()
                changed.piles[p][i], changed.piles[q][j] = twin_card, c
                seen.append((plainly(changed), key(changed)[0]))
        moves = st.legal_moves()
        if not moves:
            break
        st.push(rng.choice(moves))
    for a, ka in seen:
        for b, kb in seen:
            assert (a == b) == (ka == kb)


def test_where_no_rule_reads_suits_cards_are_keyed_by_rank() -> None:
    """Judged from the declarations: every pile builds by rank alone and nothing else reads
    a suit. Spiderette builds in any suit but moves and collects runs of one; Bristol
    difficult's foundations build in suit. There two cards of a rank swapped are one
    position to the board's key as to the engine's; in Klondike they are two."""
    blind = {r.key for r in RULE_SETS if suit_blind(r)}
    assert blind == {"beleaguered-castle/easy", "bristol/easy", "eliminator/easy",
                     "golf/easy", "golf/difficult"}
    for key, alike in (("bristol/easy", True), ("klondike/easy", False)):
        rules = engine.get(*key.split("/"))
        st = rules.deal(b"\x05")
        flat = [(p, i) for p, pile in enumerate(st.piles) for i in range(len(pile))]
        (p, i), (q, j) = next((a, b) for a in flat for b in flat if a[0] != b[0] and (
            st.piles[a[0]][a[1]] % 13 == st.piles[b[0]][b[1]] % 13))
        twin = st.copy()
        twin.piles[p][i], twin.piles[q][j] = st.piles[q][j], st.piles[p][i]
        assert (key_maker(rules)(twin) == key_maker(rules)(st)) == alike
        assert (Board(twin).key() == Board(st).key()) == alike


@pytest.mark.parametrize("variant", ["easy", "difficult"])
def test_columns_no_stock_card_reaches_are_keyed_as_one_group(variant: str) -> None:
    """Scorpion's stock deals its three cards to the first three columns: two of those
    swapped are another position until it has, the last four swapped never are; once it
    is empty no column is told apart by place. The board keys them as the engine does."""
    rules = engine.get("scorpion", variant)
    key = key_maker(rules)

    def swapped(st: engine.State, i: int, j: int) -> engine.State:
        twin = st.copy()
        twin.piles[i], twin.piles[j] = twin.piles[j], twin.piles[i]
        twin.down[i], twin.down[j] = twin.down[j], twin.down[i]
        return twin

    st = rules.deal(b"\x03")
    assert key(swapped(st, 0, 1)) != key(st) and key(swapped(st, 5, 6)) == key(st)
    assert Board(swapped(st, 0, 1)).key() != Board(st).key()
    assert Board(swapped(st, 5, 6)).key() == Board(st).key()
    st.play(Move(STOCK))
    assert key(swapped(st, 0, 1)) == key(st) and key(swapped(st, 0, 6)) == key(st)
    assert Board(swapped(st, 0, 6)).key() == Board(st).key()


def test_a_deal_the_depth_first_search_loses_itself_in_is_won_best_first() -> None:
    """Yukon easy, deal 0: depth first spends 20,000 positions under its first choices and
    finds nothing; the searches that take over after its share win."""
    st = engine.get("yukon", "easy").deal((0).to_bytes(4, "big"))
    assert DepthFirst(st, None).run(20_000).outcome == Outcome.UNKNOWN
    v = solve(st, Budget(positions=20_000))
    assert v.outcome == Outcome.WON and v.positions < 20_000
    for m in v.moves:
        st.play(m)
    assert st.status == WON


def assert_won_best_first(rules: engine.RuleSet, deal: int, positions: int) -> None:
    """Best first wins deal ``deal`` within ``positions``, by a line that replays to a win."""
    st = rules.deal(deal.to_bytes(4, "big"))
    v = best_first(st, positions, None)
    assert v.outcome == Outcome.WON, deal
    for m in v.moves:
        st.play(m)
    assert st.status == WON


def test_best_first_orders_an_open_game_by_its_blocked_cards() -> None:
    """Eight Off is dealt face up: a card lying on one of lower rank counts against a
    position, and with that best first wins each of the first five deals in a few hundred
    positions (by the foundations alone, it won one of them within 5,000)."""
    rules = engine.get("eight-off", "easy")
    st = rules.setup({"t1": "5c Kd 2c", "t2": "Ah 3s 9s", "f1": "Ac"})
    # blocked: Kd (above the 5c), 3s and 9s (above the Ah); not the 2c, lower than all below.
    # The Ah, which hearts need next, lies under two, but an open game does not count that.
    assert promise(st) == 3 * 1 - 3
    for deal in range(5):
        assert_won_best_first(rules, deal, 5000)


@pytest.mark.parametrize("variant", ["easy", "difficult"])
def test_a_grid_is_ordered_by_its_cards_in_place(variant: str) -> None:
    """Gaps has no foundation: a position's promise is three per card in place (each row's
    unbroken run from its Two, the rule set's score) along random games; with it a beam wins
    Gaps easy deal 21, which no search had won within 10 s when every position looked
    alike to it."""
    rules = engine.get("gaps", variant)
    rng = random.Random(11)
    scores = set()
    for deal in range(10):
        st = rules.deal(deal.to_bytes(4, "big"))
        while st.status == PLAYING and st.legal_moves() and st.ply < 60:
            assert promise(st) == 3 * rules.score(st), (deal, st.ply)
            scores.add(rules.score(st))
            st.play(rng.choice(st.legal_moves()))
    assert len(scores) >= 6, scores
    if variant == "easy":
        v = beam(rules.deal((21).to_bytes(4, "big")), 200_000, None)
        assert v.outcome is Outcome.WON
        assert replayed(rules, (21).to_bytes(4, "big"), v.moves).status == WON


def test_a_game_dealt_face_down_is_ordered_by_its_face_down_cards() -> None:
    """Klondike: blocked cards do not count where cards lie face down and runs move whole
    (counting them lost quick wins), so a position's promise is its foundation cards and
    face-down cards."""
    rules = engine.get("klondike", "easy")
    st = rules.setup({"t1": "5c Kd 2c", "t2": "Ah 3s 9s", "f1": "Ac"})
    assert promise(st) == 3 * 1 - sum(st.down)
    st = rules.deal(b"\x05")
    assert promise(st) == -sum(st.down) == -(21 + 24)  # the stock lies face down too


def test_where_cards_leave_one_at_a_time_blocked_cards_count_face_down_or_not() -> None:
    """Baker's Dozen is dealt with cards face down, but a card leaves a column alone: a
    blocked card counts there (the search sees the face-down cards), and so do the cards on
    the card a foundation needs next. With that, best first wins each of these deals within
    1,100 positions; by the face-down cards alone it won none of them within 20,000."""
    rules = engine.get("bakers-dozen", "easy")
    st = rules.setup({"t1": "Kc 2c 9h", "t2": "7s Ac 8d", "f1": "Ah"}, down={"t1": 1})
    # blocked: 9h (above the 2c), 8d (above the 7s); the Ac, which clubs need next, has one
    # card on it
    assert promise(st) == 3 * 1 - 1 - 2 - 2 * 1
    for deal in (3, 8, 15, 17):
        assert_won_best_first(rules, deal, 1_100)


def test_where_the_foundations_start_at_any_rank_blocked_cards_count_from_there() -> None:
    """Shamrocks easy: the first foundation card sets the base rank, and the foundations
    wrap from King to Ace. A card is blocked when it goes home after a card under it, so
    ranks count from the base: with the 9h home, a 4 is the ninth card a foundation takes
    and a King the fifth. With that, the first beam (500 wide) wins deals 3 and 10, which
    a beam ordered by the ranks from the Ace won only at 2,000 wide (740,000 and 914,000
    positions)."""
    rules = engine.get("shamrocks", "easy")
    layout = {"t1": "2c Kd", "t2": "9s 4h", "t3": "Jc 3s"}
    st = rules.setup({**layout, "f1": "9h"}, base=9)
    # blocked: the 4h and the 3s (home after the 9s and the Jc under them); not the Kd,
    # home before the 2c
    assert promise(st) == 3 * 1 - 2
    unset = rules.setup(layout)
    assert unset.vars["base"] == 0  # no base yet: ranks from the Ace, the Kd blocked
    assert promise(unset) == -1
    for deal in (3, 10):
        st = rules.deal(deal.to_bytes(4, "big"))
        v = beam(st, 500_000, None)
        assert v.outcome is Outcome.WON, deal
        for m in v.moves:
            st.play(m)
        assert st.status == WON


def test_the_card_a_suit_needs_next_counts_from_the_foundations_base() -> None:
    """Canfield easy deals its reserve face down, a card leaving it at a time, and its
    foundations start at the dealt rank and wrap: the card each suit needs next is known
    once the base is, so the cards lying on it in the reserve count against a position."""
    rules = engine.get("canfield", "easy")
    st = rules.setup({"f1": "Jh Qh", "r": "Kh 4c 7s"}, down={"r": 1}, base=11)
    # Hearts need the Kh next, under two cards; from the Jack, the 4c and the 7s both go
    # home after the Kh under them: blocked.
    assert promise(st) == 3 * 2 - 1 - 2 - 2 * 2


def test_a_narrowed_search_leaves_out_shuffles_and_proves_nothing() -> None:
    """The one way on is a shuffle (Jc-10d onto the Qd, turning nothing up): the narrowed
    searches, which leave such moves out, run dry and answer unknown, never lost; the whole
    search wins."""
    rules = engine.get("klondike", "easy")
    st = rules.setup({"f1": "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc", "f2": "Ad 2d 3d 4d 5d 6d 7d 8d",
                      "f3": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh",
                      "f4": "As 2s 3s 4s 5s 6s 7s 8s 9s Ts",
                      "t1": "9d Jc Td", "t2": "Ks Qh", "t3": "Kd Qs Jd", "t4": "Kc",
                      "t5": "Kh Qc", "t6": "Qd", "t7": "Js"})
    shuffle = engine.parse_move(rules, "t1:2-t6")
    assert shuffle.n == 2 and shuffle in chosen(st, safe=False)
    assert shuffle not in chosen(st, safe=False, narrow=True)
    narrowed = DepthFirst(st, None, narrow=True).run()
    assert narrowed.outcome == Outcome.UNKNOWN and not narrowed.complete
    assert best_first(st, None, None, narrow=True).outcome == Outcome.UNKNOWN
    assert best_first(st, None, None).outcome == Outcome.WON
    v = solve(st, Budget(positions=10_000))
    assert v.outcome == Outcome.WON
    for m in v.moves:
        st.play(m)
    assert st.status == WON


@pytest.mark.parametrize("rules", [r for r in RULE_SETS if Choice(r).talon_sources],
                         ids=lambda r: r.key)
def test_after_a_deal_only_the_talons_moves_are_listed_and_the_search_tries_the_same(
        rules: engine.RuleSet) -> None:
    """``Choice.after_deal`` lists the moves from the stock and wastes alone. At every
    position a search reaches by a deal, what it then tries must be what it would try from
    the whole list, and nothing where the engine says the game is over. (Within a search
    only: a safe move elsewhere, which a deal cannot make, was the one move tried before.)"""
    checked = 0

    class Compared(Choice):
        def after_deal(self, board: Board) -> list[int] | None:
            nonlocal checked
            quick = super().after_deal(board)
            assert quick is not None
            whole, status = board.legal()
            if status == PLAYING:
                assert self.choose(board, quick, True) == self.choose(board, whole, True)
            else:
                assert quick == []
            checked += 1
            return quick

    for seed in (*SEEDS, b"\x03"):  # (Bristol easy's first three reach few deals)
        st = rules.deal(seed)
        search = DepthFirst(st, None)
        search.choice = Compared(rules, start=st)
        search.run(3000)
    assert checked > 100


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_off_while_searching_and_as_it_was_after(enabled: bool) -> None:
    """The cyclic collector pauses for a search (its table is millions of objects in no
    cycle) and comes back as the caller had it, also when the search raises."""
    seen: list[bool] = []
    st = engine.get("klondike", "easy").deal((20).to_bytes(4, "big"))  # undecided in 10 s
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        solve(st, Budget(seconds=1.2), lambda n, s: seen.append(gc.isenabled()))
        assert seen and not any(seen)
        assert gc.isenabled() is enabled

        def fails(n: int, s: float) -> None:
            raise RuntimeError("stop")
        with pytest.raises(RuntimeError):
            solve(st, Budget(seconds=1.2), fails)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_cards_waiting_on_each_other_in_a_circle_are_a_lost_position() -> None:
    """Scorpion difficult: the 5♠ lies on the 8♥ and the 7♥ on the 6♠, and each can only
    ever go onto its successor in suit, so neither can move until the other has
    (``moves.successors``): the search tries nothing from there, though moves are legal. A
    King lying on a successor may go to an empty column, and a card whose successor is
    covered by a card that can leave waits for that one only."""
    rules = engine.get("scorpion", "difficult")
    succ = successors(rules)
    assert succ is not None
    columns = rules.by_kind["tableau"]
    st = rules.setup({"t1": "6s 7h", "t2": "8h 5s", "t3": "5c", "t4": "4c"})
    assert stuck(st.piles, columns, succ)
    assert st.legal_moves() and chosen(st) == []
    for piles in ({"t1": "6s Kh", "t2": "8h 5s"},  # the King may leave
                  {"t1": "6s 9d 5s", "t2": "Td"},  # the 9♦ carries the 5♠ off the 6♠
                  {"t1": "6s 7h", "t2": "8h 5s 4s"}):  # still a circle: the 4♠ changes nothing
        assert stuck(rules.setup(piles).piles, columns, succ) == (piles["t2"] == "8h 5s 4s")
    # Only where every card must end on the one card it can be laid on.
    assert [r.key for r in RULE_SETS if successors(r) is not None] == ["scorpion/difficult"]


def test_a_position_judged_stuck_is_lost_and_the_board_judges_alike() -> None:
    """Positions of random games of Scorpion difficult judged stuck: the plain exhaustive
    search finds no win from those it finishes, and the board's check agrees with the
    state's at every position."""
    from tests.engine.solver_plain import plain_search

    rules = engine.get("scorpion", "difficult")
    succ = successors(rules)
    assert succ is not None
    columns = rules.by_kind["tableau"]
    choice = Choice(rules)
    proved = 0
    for seed in range(30):
        rng = random.Random(seed)
        st = rules.deal(seed.to_bytes(4, "big"))
        while st.status == PLAYING and len(st.history) < 200:
            here = stuck(st.piles, columns, succ)
            assert choice.stuck(Board(st)) == here
            if here and proved < 20:
                truth = plain_search(st, 3000)
                assert truth is not True
                proved += truth is False
            st.play(rng.choice(st.legal_moves()))
    assert proved >= 20
