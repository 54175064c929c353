"""The solver's board (engine/solver/board.py) plays exactly as the engine does, on every rule
set built from the shared declarations alone: the same legal moves in the same order, the
same piles, face-down counts and vars after each move and each take-back, the same status,
and keys that tell positions apart exactly as the solver's key function does."""

from __future__ import annotations

import random

import pytest

import engine
from engine.core import PLAYING, State
from engine.options import Base, Deals, Direction, Fill, SuitRule, Unit
from engine.piles import CELL, FOUNDATION, RESERVE, STOCK_PILE, TABLEAU, WASTE, Build, Group, Stock
from engine.rules import RuleSet
from engine.solver.board import DEAL, Board, Layout, plain
from engine.solver.depth import Choice
from engine.solver.position import key_maker

PLAIN = sorted(r.key for r in engine.rule_sets() if plain(r))


def test_the_plain_rule_sets_are_those_whose_moves_have_no_hook_of_their_own() -> None:
    assert PLAIN == ["agnes-sorel/standard", "bakers-dozen/difficult", "bakers-dozen/easy",
                     "beleaguered-castle/difficult", "beleaguered-castle/easy",
                     "bristol/difficult", "bristol/easy", "canfield/difficult", "canfield/easy",
                     "castile/standard",
                     "eagle-wing/difficult", "eagle-wing/easy",
                     "eight-off/difficult", "eight-off/easy",
                     "eliminator/difficult", "eliminator/easy",
                     "flower-garden/difficult", "flower-garden/easy",
                     "fortress/difficult", "fortress/easy", "golf/difficult", "golf/easy",
                     "klondike/difficult", "klondike/easy", "lady-betty/standard",
                     "penguin/difficult", "penguin/easy", "scorpion/difficult", "scorpion/easy",
                     "shamrocks/difficult", "shamrocks/easy",
                     "spiderette/difficult", "spiderette/easy",
                     "yukon/difficult", "yukon/easy"]
    asking = [key for key in PLAIN if Layout(engine.get(*key.split("/"))).asks]
    assert asking == [key for key in PLAIN if key.split("/")[0] in (
        "agnes-sorel", "bakers-dozen", "beleaguered-castle", "bristol", "canfield",
        "flower-garden", "fortress", "shamrocks")]


def test_no_board_plays_a_rule_set_with_rules_of_its_own() -> None:
    with pytest.raises(ValueError, match="rules of its own"):
        Layout(engine.get("pyramid", "easy"))
    st = engine.get("klondike", "easy").deal(b"\x01")
    st.vars["resigned"] = 1
    with pytest.raises(ValueError, match="no var 'resigned'"):
        Board(st)


def same(board: Board, st: State) -> None:
    assert board.piles() == st.piles
    assert list(board.down) == st.down
    assert board.var_dict() == st.vars


def check_position(board: Board, st: State, rules: RuleSet) -> list[int]:
    moves = board.moves()
    assert [Board.decode(m) for m in moves] == rules.legal_moves(st)
    legal, status = board.legal()
    assert ([Board.decode(m) for m in legal], status) == (st.legal_moves(), st.status)
    talon = Choice(rules).talon_sources  # what a search lists after a deal
    if talon:
        assert [Board.decode(m) for m in board.moves(bytes(talon))] == list(
            rules.moves_from(st, talon))
    same(board, st)
    return moves


DOWN_ALTERNATE, UP_SAME = Build(Direction.DOWN, SuitRule.ALTERNATE), Build(Direction.UP,
                                                                           SuitRule.SAME)


class Cells(RuleSet):
    """Not a game of ours: whole runs move, into cells of two cards; a chosen base."""

    id, name, base = "cells", "Cells", Base.CHOSEN

    def declare(self) -> tuple[Group, ...]:
        return (Group(TABLEAU, 8, deal=(7, 7, 7, 7, 6, 6, 6, 6), build=DOWN_ALTERNATE,
                      unit=Unit.WHOLE, to=(TABLEAU, FOUNDATION, CELL)),
                Group(CELL, 2, capacity=2, build=DOWN_ALTERNATE, unit=Unit.TOP,
                      to=(TABLEAU, FOUNDATION)),
                Group(FOUNDATION, 4, build=UP_SAME, fill=Fill.BASE))


class Rounds(RuleSet):
    """Not a game of ours: the stock deals a round to the columns, which build in suit and
    give up any face-up card; nothing fills a space."""

    id, name = "rounds", "Rounds"

    def declare(self) -> tuple[Group, ...]:
        self.stock = Stock(Deals.TABLEAU)
        return (Group(TABLEAU, 6, deal=(4,) * 6, down=(2,) * 6, turn_up=True, fill=Fill.NONE,
                      build=Build(Direction.DOWN, SuitRule.SAME), unit=Unit.FACEUP,
                      to=(TABLEAU, FOUNDATION)),
                Group(FOUNDATION, 4, build=UP_SAME, fill=Fill.BASE),
                Group(STOCK_PILE))


class TwoWastes(RuleSet):
    """Not a game of ours: the stock deals one card to each of two wastes, two passes."""

    id, name = "two-wastes", "Two wastes"

    def declare(self) -> tuple[Group, ...]:
        self.stock = Stock(Deals.WASTE, passes=2)
        return (Group(TABLEAU, 5, deal=(1, 2, 3, 4, 5), down=(0, 1, 2, 3, 4), turn_up=True,
                      build=DOWN_ALTERNATE, unit=Unit.TAIL, to=(TABLEAU, FOUNDATION)),
                Group(FOUNDATION, 4, build=UP_SAME, fill=Fill.BASE),
                Group(STOCK_PILE),
                Group(WASTE, 2, unit=Unit.TOP, to=(TABLEAU, FOUNDATION)))


class OnePile(RuleSet):
    """Not a game of ours: the stock deals onto one foundation that builds up or down."""

    id, name = "one-pile", "One pile"

    def declare(self) -> tuple[Group, ...]:
        self.stock = Stock(Deals.FOUNDATION)
        return (Group(TABLEAU, 7, deal=(5,) * 7, unit=Unit.TOP, to=(FOUNDATION,)),
                Group(FOUNDATION, build=Build(Direction.EITHER, wrap=True), fill=Fill.NONE),
                Group(STOCK_PILE))


class Dozen(RuleSet):
    """Not a game of ours: columns dealt half face down whose cards leave one at a time."""

    id, name = "dozen", "Dozen"

    def declare(self) -> tuple[Group, ...]:
        return (Group(TABLEAU, 13, deal=(4,) * 13, down=(2,) * 13, turn_up=True,
                      build=Build(Direction.DOWN), fill=Fill.NONE, unit=Unit.TOP,
                      to=(TABLEAU, FOUNDATION)),
                Group(FOUNDATION, 4, build=UP_SAME, fill=Fill.BASE))


class Refill(RuleSet):
    """Not a game of ours: a short reserve refills emptied columns; once it is empty only the
    waste's card starts a column (Canfield's rule, whose other rule a board does not play)."""

    id, name = "refill", "Refill"

    def declare(self) -> tuple[Group, ...]:
        self.stock = Stock(Deals.WASTE, passes=2)
        return (Group(TABLEAU, 4, deal=(3,) * 4, build=DOWN_ALTERNATE, fill_from=(WASTE,),
                      unit=Unit.TAIL, to=(TABLEAU, FOUNDATION)),
                Group(RESERVE, deal=(6,), down=(5,), unit=Unit.TOP, to=(TABLEAU, FOUNDATION),
                      fill=Fill.NONE, turn_up=True, refills=TABLEAU),
                Group(FOUNDATION, 4, build=UP_SAME, fill=Fill.BASE),
                Group(STOCK_PILE),
                Group(WASTE, unit=Unit.TOP, to=(TABLEAU, FOUNDATION)))


OURS = [engine.get(*key.split("/")) for key in PLAIN]
DECLARED = [cls("easy") for cls in (Cells, Rounds, TwoWastes, OnePile, Dozen, Refill)]


@pytest.mark.parametrize("rules", OURS + DECLARED, ids=lambda r: r.key)
def test_a_board_plays_as_the_engine_does(rules: RuleSet) -> None:
    """Random games, each move checked and now and then several taken back: every position
    compared (moves, status, piles, vars), and every key pair collected to compare the
    keys' equalities; the key of a position reached by a deal (``dealt_key``) is equal
    where the key is, and no position's key. The rule sets declared here are not games of
    ours: they reach the declarations no game of ours that a board plays has (whole runs,
    cells, a chosen base, a stock dealing to the columns, to two wastes or to a foundation,
    cards dealt face down that leave one at a time, a reserve refilling columns that only
    the waste starts once it is empty)."""
    assert plain(rules)
    key = rules.key
    engine_key = key_maker(rules)
    pairs: dict[object, bytes] = {}
    reverse: dict[bytes, object] = {}
    dealt: dict[object, object] = {}  # the key -> the key as reached by a deal
    rng = random.Random(key)
    positions = 0
    for deal in range(60):
        if positions >= 900:
            break
        st = rules.deal(deal.to_bytes(4, "big"))
        board = Board(st)
        for _ in range(150):
            moves = check_position(board, st, rules)
            k, b = engine_key(st), board.key()
            assert pairs.setdefault(k, b) == b
            assert reverse.setdefault(b, k) == k
            assert dealt.setdefault(b, board.dealt_key()) == board.dealt_key()
            positions += 1
            if st.status != PLAYING or not moves:
                break
            if st.history and rng.random() < 0.15:
                for _ in range(rng.randint(1, min(5, len(st.history)))):
                    st.pop()
                    board.undo()
                    same(board, st)
                continue
            # Deals often, so the stock goes round and round.
            m = DEAL if DEAL in moves and rng.random() < 0.4 else rng.choice(moves)
            st.push(Board.decode(m))
            board.play(m)
        while st.history:  # all the way back: the deal again
            st.pop()
            board.undo()
        same(board, st)
        assert board.key() == Board(st).key()  # whatever was keyed before
    assert positions >= 900
    assert len(pairs) > 100  # positions met twice by a take-back are one pair
    assert len(set(dealt.values())) == len(dealt) and not set(dealt.values()) & set(reverse)


def test_a_board_plays_a_game_to_a_win() -> None:
    """A winning line of the solver, played on a board: won at its end, as in the engine."""
    from engine.solver import Budget, Outcome, solve

    rules = engine.get("klondike", "easy")
    st = rules.deal(bytes.fromhex("00"))
    v = solve(st, Budget(positions=100_000))
    assert v.outcome is Outcome.WON
    board = Board(st)
    for m in v.moves:
        assert board.status() == PLAYING
        assert Board.encode(m) in board.moves()
        board.play(Board.encode(m))
    assert board.status() == "won"
    assert sum(board.size[f] for f in board.layout.foundations) == 52


def runs(*suits: str) -> dict[str, str]:
    """Columns t1, t2, ... each holding a whole suit, King down to Ace."""
    return {f"t{i + 1}": " ".join(r + s for r in "KQJT98765432A") for i, s in enumerate(suits)}


@pytest.mark.parametrize(("key", "piles", "down", "won"), [
    # Golf's goal is the columns cleared, whatever the stock still holds.
    ("golf/easy", {"f": "8h", "s": "2c 3d"}, {}, True),
    ("golf/easy", {"t7": "9c", "f": "8h", "s": "2c"}, {}, False),
    # Scorpion's: every card in a column, in a run of one suit from a face-up King.
    ("scorpion/easy", runs("c", "d", "h", "s"), {}, True),
    ("scorpion/easy", runs("c", "d", "h", "s"), {"t2": 1}, False),
    ("scorpion/easy", {**runs("c", "d", "h"), "t4": "Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s",
                       "s": "As"}, {}, False),
    ("scorpion/difficult", {**runs("c", "d"), "t3": "Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h As Ah",
                            "t4": "Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s 2h"}, {}, False),
])
def test_a_board_is_won_by_the_rule_sets_declared_goal(key, piles, down, won) -> None:
    """A board judges a win by the goal the rule set declares (``Goal``), as the engine does."""
    rules = engine.get(*key.split("/"))
    st = rules.setup(piles, down)
    assert (st.status == "won") is won
    assert (Board(st).status() == "won") is won


@pytest.mark.parametrize(("rules", "piles", "down", "move"), [
    # The reserve fills the column the move empties, and turns its next card up.
    (engine.get("eagle-wing", "easy"),
     {"t1": "6s", "t2": "8d", "t3": "Ts", "t4": "4c", "r": "3h Jd", "f1": "5s"}, {"r": 1},
     "t1-f1"),
    # While the reserve lasts an empty column takes only its top card.
    (engine.get("eagle-wing", "easy"), {"t2": "8d", "t3": "Ts 9s", "r": "3h Jd", "w": "Kc"},
     {"r": 1}, "r-t1"),
    # Once it is empty, a column's or the waste's card starts one (Eagle Wing) ...
    (engine.get("eagle-wing", "easy"), {"t2": "8d", "t3": "Ts 9s", "w": "4h 5h", "s": "2c"},
     {}, "t3-t1"),
    # ... or the waste's alone, not a column's (``fill_from``).
    (Refill("easy"), {"t2": "8d", "t3": "Ts 9s", "w": "4h 5h", "s": "2c"}, {}, "w-t1"),
], ids=["refilled", "reserve-only", "columns-or-waste", "waste-only"])
def test_a_board_refills_and_fills_columns_as_the_engine_does(rules, piles, down,
                                                             move) -> None:
    """A reserve that refills columns (``Group.refills``) and the columns' ``fill_from``,
    on a board: the same moves before and after, the same piles."""
    check_move(rules.setup(piles, down, base=5), move)


CELLS_BUT_TWO = {f"c{i}": card for i, card in enumerate("Kh Qh Jh Th 9h 8h".split(), 1)}
OTHER_COLUMNS = {"t3": "2d", "t4": "3d", "t5": "4d", "t6": "5d", "t7": "6d"}


@pytest.mark.parametrize(("rules", "piles", "base", "move"), [
    # Two free cells carry three cards: the run of four stays (``Carry.ROOM``) ...
    (engine.get("eight-off", "easy"),
     {"t1": "9s 8s 7s 6s", "t2": "Ts", "t8": "7d", **OTHER_COLUMNS, **CELLS_BUT_TWO}, 1,
     "t1-c7"),
    # ... an empty column other than the target doubles that, where any card starts one ...
    (engine.get("eight-off", "easy"),
     {"t1": "9s 8s 7s 6s", "t2": "Ts", **OTHER_COLUMNS, **CELLS_BUT_TWO}, 1, "t1:4-t2"),
    # ... and not where only Kings do.
    (engine.get("eight-off", "difficult"),
     {"t1": "9s 8s 7s 6s", "t2": "Ts", **OTHER_COLUMNS, **CELLS_BUT_TWO}, 1, "t1-c7"),
    # Only the rank below the base starts a column (``Fill.BELOW_BASE``), wrapping.
    (engine.get("penguin", "difficult"),
     {"t1": "Qd 9s 8s", "t4": "Kd 3s 2s", "c1": "5h", "f1": "4c"}, 4, "t4:2-t2"),
    (engine.get("penguin", "difficult"), {"t1": "Qd Ks", "t2": "Qs", "f1": "Ac"}, 1, "t1-t3"),
], ids=["room", "room-doubled", "room-kings", "below-base", "below-ace"])
def test_a_board_carries_and_fills_as_the_engine_does(rules, piles, base, move) -> None:
    """The room a run of several cards needs and a fill below the base, on a board: the same
    moves before and after, the same piles."""
    check_move(rules.setup(piles, base=base), move)


RUN_TO_TWO = "Kh Qs Jh Ts 9h 8s 7h 6s 5h 4s 3h 2s"


@pytest.mark.parametrize(("key", "piles", "down", "move"), [
    # A move completes a King-to-Ace run: it leaves for the foundation, and the card under
    # it turns up (``Group.collects``) ...
    ("spiderette/easy", {"t1": "4d " + RUN_TO_TWO, "t2": "Ad", "s": "5c"}, {"t1": 1}, "t2-t1"),
    # ... or a deal does; a run short of the Ace stays.
    ("spiderette/difficult", {"t1": RUN_TO_TWO, "t3": "Qd Jd", "s": "5c 6c 7c 8c 9c Tc Ad"},
     {}, "s"),
    ("spiderette/easy", {"t1": RUN_TO_TWO[3:], "t2": "Ks", "f": runs("c")["t1"],
                         "s": "Ad"}, {}, "t1:11-t2"),
], ids=["move", "deal", "short"])
def test_a_board_collects_completed_runs_as_the_engine_does(key, piles, down, move) -> None:
    """Completed runs taken off the columns by themselves, on a board: the same moves before
    and after, the same piles, and the same again once the move is taken back."""
    st = engine.get(*key.split("/")).setup(piles, down)
    board = Board(st.copy())
    before = board.piles()
    check_move(st, move)
    board.play(Board.encode(st.history[-1]))
    assert board.piles() == st.piles
    assert sum(len(st.piles[f]) for f in st.rules.by_kind["foundation"]) % 13 == 0
    board.undo()
    assert board.piles() == before


def check_move(st: State, move: str) -> None:
    """The board made of ``st`` and ``st`` itself agree before and after ``move``."""
    rules = st.rules
    board = Board(st.copy())
    check_position(board, st, rules)
    m = engine.parse_move(rules, move)
    st.play(m)
    board.play(Board.encode(m))
    check_position(board, st, rules)


def test_a_rule_set_with_a_discard_pile_is_searched_on_the_state() -> None:
    """A board keys every foundation by its top card, which a discard pile's key leaves out
    (``RuleSet.discard``): a rule set with one is not plain, even built from the shared
    rules alone, and a search plays it on the state."""
    from engine.solver import Budget, solve

    class Discarding(RuleSet):
        id, name, variants = "discarding", "Discarding", ("easy",)
        discard = True

        def declare(self) -> tuple[Group, ...]:
            return (Group(TABLEAU, 4, deal=(13,) * 4, build=Build(Direction.DOWN),
                          unit=Unit.TOP, to=(TABLEAU, FOUNDATION)),
                    Group(FOUNDATION))

    class Plain(Discarding):
        discard = False

    rules = Discarding("easy")
    assert plain(Plain("easy")) and not plain(rules)
    with pytest.raises(ValueError):
        Layout(rules)
    v = solve(rules.deal(bytes(4)), Budget(positions=3000))
    assert v.positions > 0
