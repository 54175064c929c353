"""Properties every registered rule set must have; later games get these for free."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

import engine
from engine.cards import show
from engine.core import MOVE, PLAYING, Move
from engine.rules import RuleSet

from .walk import (
    assert_view_hides,
    assert_whole_deck,
    candidates,
    fingerprint,
    replay_of,
    walk,
)

RULE_SETS = engine.rule_sets()
IDS = [r.key for r in RULE_SETS]
seeds = st_.binary(min_size=1, max_size=32)
choices = st_.lists(st_.integers(min_value=-3, max_value=10_000), min_size=1, max_size=150)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
@settings(max_examples=12)
@given(seed=seeds, picks=choices)
def test_random_play_keeps_the_invariants(rules, seed, picks):
    st = rules.deal(seed)
    assert_whole_deck(st)
    assert_view_hides(st)
    walk(st, picks)
    assert st.status in ("playing", "won", "lost", "finished")
    assert_view_hides(st)
    # snapshot -> restore: same position, same moves, same view
    back = engine.restore(st.snapshot())
    assert fingerprint(back) == fingerprint(st)
    # replay(seed, moves) rebuilds the live game exactly
    assert fingerprint(replay_of(st)) == fingerprint(st)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
@settings(max_examples=8)
@given(seed=seeds, picks=choices)
def test_legal_moves_are_exactly_the_unrefused_ones(rules, seed, picks):
    st = rules.deal(seed)
    walk(st, picks, check_every=50)
    if st.status != PLAYING:
        return
    legal = set(st.legal_moves())
    assert len(legal) == len(st.legal_moves()), "a legal move is listed twice"
    for m in candidates(st):
        why = st.refusal(m)
        assert (why is None) == (m in legal), (rules.key, m, why)
        if why is not None:
            assert why.code and why.message  # every refusal explains itself


REFUSING_MORE = [r for r in RULE_SETS if r.refuses_more]


def test_the_rule_sets_that_refuse_more_say_so():
    assert {r.id for r in REFUSING_MORE} == {"slide"}


@pytest.mark.parametrize("rules", REFUSING_MORE, ids=[r.key for r in REFUSING_MORE])
@settings(max_examples=8)
@given(seed=seeds, picks=choices)
def test_a_rule_set_that_refuses_more_refuses_all_the_shared_rule_does(rules, seed, picks):
    """``refuses_more`` lets listing moves skip the rule set's own refusal wherever the
    shared rule's table refuses: so the shared refusal must imply the rule set's own."""
    st = rules.deal(seed)
    walk(st, picks, check_every=50)
    for src in rules.sources:
        pile = st.piles[src]
        for dst in rules.targets[src]:
            for n in range(1, len(pile) + 1):
                card = pile[-n]
                if RuleSet.target_refusal(rules, st, src, dst, card, n) is not None:
                    assert rules.target_refusal(st, src, dst, card, n) is not None, (
                        rules.key, src, dst, n)


SEARCHING = [r for r in RULE_SETS if type(r).searched is not RuleSet.searched]


def test_the_rule_sets_whose_end_rule_searches_say_which_moves():
    assert {r.id for r in SEARCHING} == {"bakers-dozen", "beleaguered-castle", "bristol",
                                         "flower-garden", "fortress", "shamrocks"}


@pytest.mark.parametrize("rules", SEARCHING, ids=[r.key for r in SEARCHING])
@settings(max_examples=10)
@given(seed=seeds, picks=choices)
def test_asking_the_searched_moves_last_changes_no_status(rules, seed, picks):
    """``going_on`` asks the moves ``useful`` searches for last: the same status as asking
    every move in order, at every position of a random game."""
    st = rules.deal(seed)
    for choice in picks:
        moves = rules.legal_moves(st)
        in_order = PLAYING if any(rules.useful(st, m) for m in moves) else "lost"
        assert rules.going_on(st, moves) == in_order
        if in_order != PLAYING:
            break
        st.push(moves[choice % len(moves)])


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
@settings(max_examples=6)
@given(seed=seeds, picks=choices)
def test_reaching_for_face_down_cards_never_names_them(rules, seed, picks):
    st = rules.deal(seed)
    walk(st, picks, check_every=50)
    if st.status != PLAYING:
        return
    hidden = [show(c) for c in st.hidden_cards()]
    legal = st.legal_moves()
    for src, pile in enumerate(st.piles):
        for n in range(len(pile) - st.down[src] + 1, len(pile) + 1):
            for dst in range(len(st.piles)):
                if dst == src:
                    continue
                m = Move(MOVE, src, dst, n)
                why = st.refusal(m)
                if why is None:  # the one blind play a rule allows: Slide's stock top card
                    assert m in legal and src == rules.stock_pile and n == 1, (rules.key, m)
                    continue
                assert not any(h in why.message for h in hidden), why.message


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_random_games_end(rules):
    """Random legal play ends (won, lost or finished) or, at the move cap, is still open.

    docs/rules/decisions.md caps random play: a game where cards can trade places for ever is not
    over by its rules. An ended game has no legal move left; every rule set's end is reached
    by some of 20 random games, so end detection that never fires fails here.
    """
    ended = 0
    for i in range(20):
        st = rules.deal(bytes([i]))
        walk(st, [(i * 7919 + k * 104729) % 100_003 for k in range(1500)], check_every=100)
        if st.status == PLAYING:
            assert st.legal_moves(), f"{rules.key}: playing with no legal move"
        else:
            ended += 1
            assert st.legal_moves() == []
        assert_view_hides(st)
    assert ended >= 1, f"{rules.key}: none of 20 random games ended"


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_competitive_undo_never_takes_back_a_shown_card(rules):
    st = rules.deal(b"competitive", competitive=True)
    shown_some = False
    for k in range(300):
        if st.over:
            break
        moves = st.legal_moves()
        st.play(moves[(k * 31) % len(moves)])
        why = st.can_undo()
        if st.revealed[-1]:
            shown_some = True
            assert why is not None and why.code == "undo.revealed"
            with pytest.raises(engine.IllegalMove):
                st.undo()
        else:
            assert why is None
    if rules.id in ("klondike", "golf", "poker-square"):
        assert shown_some


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_views_are_json_and_describe_every_pile(rules):
    st = rules.deal(b"view")
    view = json.loads(json.dumps(st.view()))
    assert set(view["piles"]) == set(rules.pile_names)
    described = [p for g in rules.describe()["layout"] for p in g["piles"]]
    assert described == rules.pile_names


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_the_description_says_how_to_draw_and_play(rules):
    """What a renderer or bot learns from the catalog instead of from the game's id."""
    d = rules.describe()
    assert d["play"] in ("build", "remove") and d["width"] >= 4
    assert d["match"] is None or (d["match"]["kind"] in ("turns", "called")
                                  and 1 <= d["match"]["seats"][0] <= d["match"]["seats"][1])
    for g in d["layout"]:
        assert sorted(p for row in g["rows"] for p in row) == sorted(g["piles"])
        assert g["area"] in ("top", "main") and g["align"] in ("start", "center")
        assert g["label"] and g["word"]
        for pile, over in g.get("covered_by", {}).items():
            assert pile in g["piles"] and over and set(over) <= set(g["piles"])


def test_traits_clients_used_to_guess_from_ids():
    registry = engine.registry
    bowling = registry.get("bowling", "easy").describe()
    pins, balls = bowling["layout"][0], bowling["layout"][1]
    assert pins["rows"] == [["p7", "p8", "p9", "p10"], ["p4", "p5", "p6"], ["p2", "p3"], ["p1"]]
    assert (pins["word"], balls["word"], pins["align"]) == ("pin", "ball", "center")
    assert bowling["match"] == {"kind": "turns", "seats": [1, 4]}
    assert registry.get("poker-square", "easy").describe()["match"]["kind"] == "called"
    assert registry.get("klondike", "easy").describe()["match"] is None
    pyramid = registry.get("pyramid", "easy").describe()
    assert pyramid["play"] == "remove" and len(pyramid["layout"][0]["rows"]) == 7
    assert pyramid["layout"][0]["covered_by"]["p1"] == ["p2", "p3"]
    assert "p22" not in pyramid["layout"][0]["covered_by"]
    gaps = registry.get("gaps", "easy").describe()
    assert [len(r) for r in gaps["layout"][0]["rows"]] == [13] * 4


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
@settings(max_examples=8)
@given(seed=seeds, picks=choices)
def test_a_view_built_from_the_moved_piles_is_the_whole_view(rules, seed, picks):
    """``view_after`` (the view from the one before and the piles a change touched) is what
    ``view`` builds from scratch, after every move, undo and resignation: a server sending
    only the changed piles never leaves a client with a stale one."""
    st = rules.deal(seed)
    view = st.view()
    for choice in picks:
        if st.over:
            break
        if choice == -3:
            st.resign()
            moved = st.moved_piles()
        elif choice < 0 and st.history and st.can_undo() is None:
            moved = st.moved_piles()
            st.undo()
        else:
            moves = st.legal_moves()
            st.play(moves[abs(choice) % len(moves)])
            moved = st.moved_piles()
        after = st.view_after(view, moved)
        view = st.view()
        assert after == view, rules.key
        assert list(after) == list(view)  # the same order of fields on the wire
