"""The winnability table: its verdicts are the solver's, its intervals are right, and the
committed docs/winnability.md is exactly what the committed data renders."""

from __future__ import annotations

import pytest

import engine
from bench import longer
from bench import winnability as w
from engine.solver import Budget, solve


def test_a_won_verdict_is_a_line_that_wins():
    d = w.judge("klondike/easy", 1, 20_000, 30)
    assert d.outcome == "W" and d.moves > 0
    st = engine.get("klondike", "easy").deal(w.seed(1))
    v = solve(st, Budget(positions=20_000))
    for m in v.moves:
        st.play(m)
    assert st.status == "won" and len(v.moves) == d.moves


def test_a_spent_budget_is_unknown_never_lost():
    d = w.judge("klondike/easy", 5, 1, 30)
    assert d.outcome == "U" and d.positions <= 2


def test_a_scored_game_counts_as_won_only_when_its_best_line_wins():
    d = w.judge("poker-square/easy", 0, 2_000, 30)
    assert d.outcome == "U"  # 2,000 positions neither reach the target nor search every line


def test_wilson_interval():
    # 0 of n: the upper end is z^2 / (n + z^2), 3.8416 / 13.8416
    assert w.wilson(0, 10)[0] == 0.0 and abs(w.wilson(0, 10)[1] - 0.27754) < 1e-4
    lo, hi = w.wilson(815, 1000)
    assert 0.789 < lo < 0.790 and 0.837 < hi < 0.838  # around 81.5%, as published for Klondike
    assert w.wilson(10, 10)[1] == 1.0


def test_the_committed_table_is_the_committed_data_rendered():
    data = w.load()
    assert data, "bench/winnability.json is missing: run python -m bench.winnability"
    assert w.DOC.read_text() == w.render(data)
    deep = data.get("deep", {}).get("sets", {})
    assert set(data["sets"]) | set(deep) <= {r.key for r in engine.rule_sets()}
    for rec in [*data["sets"].values(), *deep.values()]:
        n = len(rec["outcomes"])
        assert n == len(rec["positions"]) == len(rec["cpu"]) == len(rec["moves"]) > 0
        assert set(rec["outcomes"]) <= set("WLU")
    within = data["within"]["sets"]
    for key, rec in data.get("longer", {}).get("sets", {}).items():  # deals left undecided
        assert all(within[key]["outcomes"][i] == "U" for i in rec["deals"])
        assert len(rec["deals"]) == len(rec["outcomes"]) == len(rec["cpu"]) > 0


def test_records_made_with_another_budget_or_solver_are_not_added_to():
    holder: dict = {}
    sets = w.records(holder, {"seconds": 10, "solver": 3})
    assert sets == {} and holder["budget"] == {"seconds": 10, "solver": 3}
    assert w.records(holder, {"seconds": 10, "solver": 3}) is sets
    with pytest.raises(SystemExit):
        w.records(holder, {"seconds": 10, "solver": 4})
    within = w.load()["within"]
    assert all(len(r["outcomes"]) == len(r["cpu"]) for r in within["sets"].values())


def test_the_census_goes_in_rounds_and_resumes_where_the_file_stops(tmp_path, monkeypatch,
                                                                     capsys):
    """Every rule set gets a round's deals before any gets more, so a census stopped at any
    point leaves a table with every row about as far along; a second run goes on."""
    monkeypatch.setattr(w, "DATA", tmp_path / "winnability.json")
    monkeypatch.setattr(w, "ROUND", 2)
    keys = ["eliminator/easy", "nestor/difficult"]
    w.census(keys, 3, 2_000, 10.0, 60.0, 1)
    rows = [line.split(":")[0] + " " + line.split("'")[1] for line in
            capsys.readouterr().out.splitlines()]
    assert rows == ["eliminator/easy 2", "nestor/difficult 2", "eliminator/easy 3",
                    "nestor/difficult 3"]
    data = w.census(keys, 5, 2_000, 10.0, 60.0, 1)
    assert [len(data["sets"][k]["outcomes"]) for k in keys] == [5, 5]
    assert w.load() == data
    first = w.judge("nestor/difficult", 4, 2_000, 10.0).outcome
    assert data["sets"]["nestor/difficult"]["outcomes"][4] == first


def test_a_rule_set_stops_at_the_deal_that_spends_its_allowance(tmp_path, monkeypatch):
    """The deals of a round go to the pool together, but a rule set's row ends with the deal
    whose CPU seconds reach its allowance, and a later run adds none."""
    monkeypatch.setattr(w, "DATA", tmp_path / "winnability.json")
    monkeypatch.setattr(w, "ROUND", 3)
    keys = ["klondike/easy", "eliminator/easy"]
    data = w.census(keys, 6, 2_000, 10.0, 0.001, 2)  # a Klondike deal takes far more
    assert len(data["sets"]["klondike/easy"]["outcomes"]) == 1
    assert data["sets"]["klondike/easy"]["cpu"][0] >= 0.001
    assert w.census(keys, 6, 2_000, 10.0, 0.001, 2)["sets"]["klondike/easy"] == \
        data["sets"]["klondike/easy"]



def test_a_row_searched_again_keeps_its_deals_and_budget_and_names_its_version(
        tmp_path, monkeypatch):
    monkeypatch.setattr(w, "DATA", tmp_path / "winnability.json")
    monkeypatch.setattr(w, "ROUND", 2)
    keys = ["eliminator/easy", "nestor/difficult"]
    w.census(keys, 2, 2_000, 10.0, 60.0, 1)
    before = w.load()
    before["sets"]["eliminator/easy"]["outcomes"] = "LL"  # as an older search had it
    w.DATA.write_text(w.json.dumps(before))
    data = w.again(["eliminator/easy"], 1)
    rec = data["sets"]["eliminator/easy"]
    assert rec["outcomes"] == "".join(w.judge("eliminator/easy", i, 2_000, 10.0).outcome
                                      for i in range(2)) != "LL"
    assert rec["solver"] == w.VERSION and data["budget"] == before["budget"]
    assert data["sets"]["nestor/difficult"] == before["sets"]["nestor/difficult"]
    text = w.render(data)
    assert f"| `eliminator/easy` (version {w.VERSION}) | 2 |" in text
    assert "| `nestor/difficult` | 2 |" in text


def test_the_deeper_census_keeps_its_own_records_and_budget(tmp_path, monkeypatch):
    """``--deep`` goes under the file's ``deep`` key with its own budget, beside the table's
    records (another budget there is no clash), and renders as a table of its own."""
    monkeypatch.setattr(w, "DATA", tmp_path / "winnability.json")
    monkeypatch.setattr(w, "ROUND", 2)
    w.census(["eliminator/easy"], 2, 2_000, 10.0, 60.0, 1)
    data = w.census(["eliminator/easy"], 2, 5_000, 10.0, 60.0, 1, deep=True)
    assert data["budget"]["positions"] == 2_000 and data["deep"]["budget"]["positions"] == 5_000
    assert len(data["deep"]["sets"]["eliminator/easy"]["outcomes"]) == 2
    assert len(data["sets"]["eliminator/easy"]["outcomes"]) == 2
    text = w.render(data)
    assert "## Against the published figures" in text and "5,000 positions a deal" in text
    deep_part = text.split("## Against the published figures")[1]
    assert "| `eliminator/easy` | 2 |" in deep_part


def test_the_step_search_census_keeps_its_own_records_and_resumes(tmp_path, monkeypatch):
    """``--steps``: deals searched for seconds under the file's ``steps`` key, beside the
    table's records; a second run with more deals goes on from where the first stopped."""
    monkeypatch.setattr(w, "DATA", tmp_path / "winnability.json")
    monkeypatch.setattr(w, "ROUND", 1)
    data = w.steps(["klondike/difficult"], 3, 5.0, 1)
    rec = data["steps"]["sets"]["klondike/difficult"]
    assert len(rec["outcomes"]) == 3 and "U" not in rec["outcomes"]
    assert data["steps"]["budget"]["seconds"] == 5.0 and "sets" not in data
    rec = w.steps(["klondike/difficult"], 5, 5.0, 1)["steps"]["sets"]["klondike/difficult"]
    assert rec["outcomes"][:3] == data["steps"]["sets"]["klondike/difficult"]["outcomes"]
    assert rec["outcomes"] == "".join(w.judge("klondike/difficult", i, None, 5.0).outcome
                                      for i in range(5))
    text = "\n".join(w.render_steps(w.load()["steps"]))
    assert "--steps 5 --deals 5 --jobs 2 klondike/difficult" in text
    assert "| `klondike/difficult` | 5 |" in text


def test_the_table_within_the_time_says_which_sample_each_rule_set_has():
    """One sample for all: one command. The rule sets held to the target on more deals than
    those out of reach for their state space: both counts, and a command for each."""
    def sets(held: int, others: int) -> dict:
        return {"budget": {"seconds": 10, "solver": 12}, "sets": {
            "klondike/easy": {"outcomes": "W" * held, "cpu": [0.1] * held},
            "bowling/easy": {"outcomes": "U" * others, "cpu": [10.0] * others}}}
    same = "\n".join(w.render_within(sets(20, 20)))
    assert "20 deals each are a small sample (one deal is 5 points)" in same
    assert "--held" not in same and "--within 10 --deals 20 --jobs 2" in same
    mixed = "\n".join(w.render_within(sets(50, 20)))
    assert "each rule set held to it has 50 deals (one deal is 2 points), each of the others 20" \
        in mixed
    assert "--within 10 --deals 50 --held --jobs 2" in mixed
    assert "--within 10 --deals 20 --jobs 2" in mixed
    assert "| `bowling/easy` | 20 | 0 | 0 | 0% | - | state space: scored |" in mixed


def test_more_time_searches_again_the_first_deals_left_undecided(tmp_path, monkeypatch):
    """``--longer``: of each rule set named, the first deals the census within the time left
    undecided, in order, each with the new budget; a second run with more goes on."""
    monkeypatch.setattr(w, "DATA", tmp_path / "winnability.json")
    w.DATA.write_text(w.json.dumps({"within": {"budget": {"seconds": 10.0}, "sets": {
        "eliminator/easy": {"outcomes": "WUWUU", "cpu": [0.1] * 5}}}}))
    data = longer.longer(["eliminator/easy"], 5.0, 2, 1)
    rec = data["longer"]["sets"]["eliminator/easy"]
    assert rec["deals"] == [1, 3]
    assert rec["outcomes"] == "".join(w.judge("eliminator/easy", i, None, 5.0).outcome
                                      for i in (1, 3))
    assert data["longer"]["budget"]["after"] == 10.0 and w.load() == data
    rec = longer.longer(["eliminator/easy"], 5.0, 3, 1)["longer"]["sets"]["eliminator/easy"]
    assert rec["deals"] == [1, 3, 4] and len(rec["cpu"]) == len(rec["outcomes"]) == 3
    data = w.load()
    text = "\n".join(longer.render_longer(data["longer"], data["within"]))
    assert "--longer 5 --per 3 --jobs 2" in text and "| `eliminator/easy` | 1, 3, 4 | 3 |" in text
    assert "Not searched again" not in text
    data["within"]["sets"]["yukon/difficult"] = {"outcomes": "WWU"}  # short, with no row
    text = "\n".join(longer.render_longer(data["longer"], data["within"]))
    assert "Not searched again with this version: `yukon/difficult`, whose" in text


def test_more_time_goes_by_default_to_the_rule_sets_short_of_the_target_for_speed():
    within = {"sets": {
        "yukon/difficult": {"outcomes": "WWU"},  # 67%, short for this search's speed
        "yukon/easy": {"outcomes": "W" * 49 + "U"},  # 98%: the target, reached
        "bowling/easy": {"outcomes": "UUU"},  # out of reach for its state space
        "klondike/easy": {"outcomes": "W" * 48 + "UU"}}}  # 96%, short
    assert w.TARGET == 98
    assert longer.short(within) == ["klondike/easy", "yukon/difficult"]
