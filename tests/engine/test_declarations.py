"""A rule set declared with a misspelt option fails when it is registered, saying where.

Before the options were typed, a misspelt suit rule meant any suit and a misspelt direction
built nothing, silently; each test here declares one such typo (as the plain string a game
module would have held) and expects registration to name the rule set, the field and the
words allowed.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import engine
from engine import registry
from engine.piles import FOUNDATION, STOCK_PILE, TABLEAU, WASTE, Build, Group, Stock
from engine.rules import RuleSet


@pytest.fixture(autouse=True)
def registry_unchanged():
    """Whatever a test registers is taken out again, so no other test sees it (every game is
    registered first: a game module imported by a test registers only once)."""
    registry.rule_sets()
    before = dict(registry._RULE_SETS)
    yield
    registry._RULE_SETS.clear()
    registry._RULE_SETS.update(before)


def declare(build: dict[str, Any] | None = None, group: dict[str, Any] | None = None,
            stock: dict[str, Any] | None = None, **attrs: Any) -> type[RuleSet]:
    """A small Klondike-like rule set with one option replaced."""

    def declare(self: RuleSet) -> tuple[Group, ...]:
        self.stock = Stock(**{"to": "waste", **(stock or {})})
        column = {"kind": TABLEAU, "count": 7, "deal": (7, 6, 5, 4, 3, 2, 1),
                  "build": Build(**{"direction": "down", "suit": "alternate", **(build or {})}),
                  "fill": "king", "unit": "tail", "to": (TABLEAU, FOUNDATION), **(group or {})}
        return (
            Group(**column),
            Group(FOUNDATION, 4, build=Build("up", "same"), fill="base"),
            Group(STOCK_PILE),
            Group(WASTE, unit="top", to=(TABLEAU, FOUNDATION), fan="right"),
        )

    return type("Typo", (RuleSet,), {"id": "typo", "name": "Typo", "declare": declare, **attrs})


def refused(cls: type[RuleSet], field: str, value: str, allowed: str) -> None:
    with pytest.raises(ValueError) as e:
        registry.register(cls)
    message = str(e.value)
    assert message.startswith("Typo (typo/easy): "), message
    assert f"{field} is {value!r}" in message, message
    assert allowed in message, message
    assert ("typo", "easy") not in registry._RULE_SETS


@pytest.mark.parametrize(("kwargs", "field", "value", "allowed"), [
    ({"build": {"direction": "dwon"}}, "Build direction", "dwon",
     "'down', 'up', 'either', 'any'"),
    ({"build": {"suit": "alternating"}}, "Build suit", "alternating",
     "'any', 'same', 'alternate', 'colour', 'other'"),
    ({"build": {"suit": "color"}}, "Build suit", "color", "'colour'"),
    ({"group": {"kind": "tablaeu"}}, "Group kind", "tablaeu",
     "'tableau', 'foundation', 'stock', 'waste', 'reserve', 'cell', 'grid'"),
    ({"group": {"fill": "kings"}}, "Group fill", "kings", "'any', 'none', 'king', 'base'"),
    ({"group": {"unit": "run"}}, "Group unit", "run", "'top', 'tail', 'whole', 'faceup', 'packed'"),
    ({"group": {"fan": "rigth"}}, "Group fan", "rigth", "'down', 'right', 'none'"),
    ({"group": {"to": (TABLEAU, "foundations")}}, "Group to", "foundations", "'foundation'"),
    ({"stock": {"to": "wastes"}}, "Stock to", "wastes",
     "'waste', 'tableau', 'foundation', 'none'"),
    ({"scoring": "point"}, "scoring", "point", "'traditional', 'low', 'points'"),
    ({"base": "delt"}, "base", "delt", "'dealt', 'chosen'"),
    ({"group": {"align": "centre"}}, "Group align", "centre", "'start', 'center'"),
    ({"play": "removal"}, "play", "removal", "'build', 'remove'"),
    ({"goal": "clean"}, "goal", "clean", "'foundations', 'clear', 'runs'"),
    ({"group": {"fill_from": ("wastes",)}}, "Group fill_from", "wastes", "'waste'"),
    ({"group": {"count": 1, "deal": (7,), "refills": "column"}}, "Group refills", "column",
     "'tableau'"),
    ({"stock": {"to": "tableau", "rest": "reserves"}}, "Stock rest", "reserves", "'reserve'"),
])
def test_a_misspelt_option_fails_at_registration(kwargs, field, value, allowed):
    refused(declare(**kwargs), field, value, allowed)


def test_a_group_dealing_to_more_piles_than_it_has_fails():
    with pytest.raises(ValueError, match=re.escape(
            "Typo (typo/easy): Group deal gives 6 piles, but the group has 7")):
        registry.register(declare(group={"deal": (6, 5, 4, 3, 2, 1)}))


def test_a_misspelt_match_kind_fails_where_it_is_declared():
    from engine.piles import MatchMode

    with pytest.raises(ValueError, match=re.escape(
            "MatchMode kind is 'turn', which is not one of 'turns', 'called'")):
        MatchMode("turn", (1, 4))


def test_a_base_that_is_no_rank_fails():
    with pytest.raises(ValueError, match=re.escape("Typo (typo/easy): base is 14")):
        registry.register(declare(base=14))


def test_a_group_of_several_piles_cannot_refill():
    with pytest.raises(ValueError, match=re.escape(
            "Typo (typo/easy): Group refills from 7 piles, but only one pile can refill")):
        registry.register(declare(group={"refills": "waste"}))


def test_two_piles_cannot_refill_the_same_kind():
    def declare(self: RuleSet) -> tuple[Group, ...]:
        return (Group(TABLEAU, 4, deal=(10,) * 4, unit="top", to=(FOUNDATION,)),
                Group("reserve", deal=(6,), unit="top", refills=TABLEAU),
                Group("reserve", deal=(6,), unit="top", refills=TABLEAU),
                Group(FOUNDATION, 4, build=Build("up", "same"), fill="base"))

    cls = type("Typo", (RuleSet,), {"id": "typo", "name": "Typo", "declare": declare})
    with pytest.raises(ValueError, match=re.escape(
            "Typo (typo/easy): two piles refill the tableau piles")):
        registry.register(cls)


def test_a_goal_with_no_tableau_to_clear_or_fill_fails():
    with pytest.raises(ValueError, match=re.escape(
            "Typo (typo/easy): goal 'runs' needs a tableau to clear or fill")):
        registry.register(declare(goal="runs", group={"kind": "reserve", "build": None,
                                                      "fill": "none", "unit": "top",
                                                      "to": (FOUNDATION,)}))


@pytest.mark.parametrize(("stock", "why"), [
    ({"rest": "waste"}, "a stock's rest goes with a stock that deals to the tableau"),
    ({"to": "tableau", "rest": "reserve"},
     "the stock's rest names reserve piles, which the rule set does not declare"),
    ({"to": "tableau", "rest": "tableau"},
     "the stock's rest names tableau piles, which the rule set does not declare apart"),
])
def test_a_stock_rest_goes_to_piles_of_their_own_from_a_deal_to_the_columns(stock, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        registry.register(declare(stock=stock))


def test_a_discard_pile_is_the_one_foundation_and_builds_nothing():
    """Only then are its cards the ones no other pile holds and its order read by no rule
    (the solver's key keeps its size alone)."""
    with pytest.raises(ValueError, match=re.escape(
            "Typo (typo/easy): a discard pile is the one foundation, with no build")):
        registry.register(declare(discard=True))  # four foundations, built in suit
    with pytest.raises(ValueError, match=re.escape("Typo (typo/easy): discard is 'yes'")):
        registry.register(declare(discard="yes"))


def test_words_given_as_strings_become_the_typed_options():
    """A declaration in plain words registers and plays like the typed one."""
    registry.register(declare(stock={"draw": 3, "passes": 0}))  # Klondike easy's stock
    rules = engine.get("typo", "easy")
    column = rules.groups[0]
    assert type(column.build.direction).__name__ == "Direction"
    assert type(column.fill).__name__ == "Fill"
    assert column.to == ("tableau", "foundation")
    described = rules.describe()["layout"]
    assert described == engine.get("klondike", "easy").describe()["layout"]


@pytest.mark.parametrize(("kind", "needs"), [
    ("turns", "forfeit, round, scorecards, shown_info, timer_move"),
    ("called", "scored, timer_move"),
])
def test_a_match_kind_without_its_form_fails_at_registration(kind, needs):
    """The server plays a match through its form alone: a rule set that declares a kind of
    match without the form's methods would fail mid-match, so it fails as it registers."""
    from engine.piles import MatchMode

    with pytest.raises(ValueError, match=re.escape(
            f"Typo (typo/easy): match kind {kind!r} needs {needs}")):
        registry.register(declare(match=MatchMode(kind, (2, 4))))
    assert ("typo", "easy") not in registry._RULE_SETS


def test_a_turns_game_missing_one_method_of_its_form_fails():
    from engine.games.bowling import Bowling

    cls = type("Typo", (Bowling,), {"id": "typo", "name": "Typo", "forfeit": None})
    with pytest.raises(ValueError, match=re.escape(
            "Typo (typo/easy): match kind 'turns' needs forfeit")):
        registry.register(cls)


def test_every_game_played_as_a_match_has_its_form():
    from engine import match_forms

    matched = [r for r in engine.rule_sets() if r.match is not None]
    assert {r.id for r in matched} >= {"bowling", "poker-square", "cribbage-square"}
    for r in matched:
        form = match_forms.FORMS[r.match.kind]
        assert isinstance(r, form), r.key
        with pytest.raises(TypeError):  # and not the other form
            (match_forms.called if form is match_forms.TurnsForm else match_forms.turns)(r)
