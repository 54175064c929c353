"""GreedyBot: only legal moves, every game ends, and it wins fixed easy deals of Klondike,
Golf and Pyramid more often than random play (both deterministic on these seeds). It plays by
the rule set's description, never by a game's name (tests/test_game_ids.py checks the code)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from clients.bots.greedy import GreedyBot, parse, predict
from clients.bots.measure import RandomBot, main, measure, play_game, seed_of
from clients.local import LocalGame


@pytest.mark.parametrize("rules", engine.rule_sets(), ids=lambda r: r.key)
def test_legal_moves_only_and_every_game_ends(rules: engine.RuleSet) -> None:
    for i in range(3):
        game = LocalGame(rules.id, rules.variant, seed_of(i))
        bot = GreedyBot()
        end = play_game(bot, game)  # raises on a move not in ``legal``
        assert end["view"]["status"] != "playing"
        assert end["legal"] == []
        # the bot's own say ended it, not the driver's cap
        assert end["view"]["moves"] < 2000


# (deals, greedy wins, random wins) measured on deals 0..n-1 with
# ``python -m clients.bots.measure --games n --rules ...``; fewer Pyramid deals, whose search is
# the slowest (docs/bots.md has the 200-deal figures). The floors leave a margin of 2.
MEASURED = {"klondike/easy": (30, 8, 2), "golf/easy": (30, 5, 0), "pyramid/easy": (20, 8, 0)}


@pytest.mark.parametrize("rule", sorted(MEASURED))
def test_wins_easy_deals_and_beats_random(rule: str) -> None:
    deals, expected_greedy, expected_random = MEASURED[rule]
    greedy = measure(rule, "greedy", deals)["won"]
    random = measure(rule, "random", deals)["won"]
    assert greedy >= max(1, expected_greedy - 2)
    assert greedy > random
    assert random <= expected_random + 2


def test_the_bot_is_deterministic_and_forgets_a_finished_game() -> None:
    def moves(bot: GreedyBot) -> list[str]:
        game = LocalGame("klondike", "easy", seed_of(7))
        out = []
        p = game.payload
        while p["view"]["status"] == "playing":
            out.append(bot.choose(p["view"], p["legal"]))
            if bot.stuck:
                break
            p = game.move(out[-1])
        return out

    bot = GreedyBot()
    first = moves(bot)
    assert bot.seen  # it remembered the positions...
    second = moves(bot)  # ...and starts afresh when the move count is back to 0
    assert first == second == moves(GreedyBot())


def told(rules: dict[str, Any]) -> GreedyBot:
    bot = GreedyBot()
    bot.learn(rules)
    return bot


GOLF_VIEW = {"game": "golf", "variant": "easy", "score": 4, "moves": 3,
             "piles": {"t1": {"down": 0, "up": ["9c", "8d"]}, "t2": {"down": 0, "up": ["6h"]},
                       "f": {"down": 0, "up": ["7s"]}, "s": {"down": 5, "up": []}}}


def test_golf_plays_the_longest_chain() -> None:
    # 6h leads nowhere; 8d then 9c is a chain of two
    bot = told(engine.get("golf", "easy").describe())
    assert bot.choose(GOLF_VIEW, ["t1-f", "t2-f", "s"]) == "t1-f"


def test_the_bot_plays_by_the_description_not_by_the_games_name() -> None:
    renamed = {**engine.get("golf", "easy").describe(), "id": "links"}
    view = {**GOLF_VIEW, "game": "links"}
    assert told(renamed).choose(view, ["t1-f", "t2-f", "s"]) == "t1-f"
    # not told, it only scores the moves: emptying a column looks best
    assert GreedyBot().choose(view, ["t1-f", "t2-f", "s"]) == "t2-f"


def test_a_grids_width_comes_from_its_rows() -> None:
    rows = [["g1", "g2", "g3"], ["g4", "g5", "g6"]]
    rules = {"id": "hands", "variant": "easy", "play": "build",
             "layout": [{"kind": "grid", "piles": [p for r in rows for p in r], "rows": rows},
                        {"kind": "stock", "piles": ["s"], "rows": [["s"]]}]}
    piles = {f"g{k}": {"down": 0, "up": []} for k in range(1, 7)}
    piles["g3"]["up"] = ["9s"]
    piles["s"] = {"down": 9, "up": ["5s"]}
    view = {"game": "hands", "variant": "easy", "score": 0, "moves": 1, "piles": piles}
    # a card goes into a row with one of its suit: drawn so, g1 is in the Nine's row
    assert told(rules).choose(view, ["s-g5", "s-g1"]) == "s-g1"
    # drawn otherwise, g5 is
    other = [["g1", "g2", "g4"], ["g3", "g5", "g6"]]
    moved = {**rules, "layout": [{**rules["layout"][0], "rows": other}, rules["layout"][1]]}
    assert told(moved).choose(view, ["s-g1", "s-g5"]) == "s-g5"


def test_pyramid_prefers_the_pair_that_opens_more() -> None:
    view = {"game": "pyramid", "variant": "difficult", "score": 0, "moves": 1,
            "piles": {**{f"p{k}": {"down": 0, "up": []} for k in range(1, 29)},
                      "f": {"down": 0, "up": []}, "s": {"down": 10, "up": []},
                      "w1": {"down": 0, "up": ["6c"]}, "w2": {"down": 0, "up": []}}}
    piles = view["piles"]
    piles["p21"]["up"] = ["5d"]  # covered by p27 and p28
    piles["p27"]["up"] = ["7h"]
    piles["p28"]["up"] = ["6s"]
    piles["p26"]["up"] = ["8s"]
    # p28+w1 or p27+w1 leave 5d covered; p27+p28 opens it for p26 (8 + 5)
    legal = ["p27+p28", "p27+w1", "p28+w1", "s"]
    assert told(engine.get("pyramid", "difficult").describe()).choose(view, legal) == "p27+p28"


def test_no_going_back_and_forth() -> None:
    piles = {"t1": {"down": 0, "up": ["9c", "8d"]}, "t2": {"down": 0, "up": ["9s"]},
             "s": {"down": 0, "up": []}}
    after = predict(piles, "t1-t2")
    assert after is not None and after["t2"]["up"] == ["9s", "8d"]
    assert predict(piles, "s") is None
    bot = GreedyBot()
    view = {"game": "x", "variant": "easy", "score": 0, "moves": 1, "piles": piles}
    bot.observe(view)
    back = {"game": "x", "variant": "easy", "score": 0, "moves": 2, "piles": after}
    # moving the 8 back would return to a position already seen: the stock is better
    assert bot.choose(back, ["t2-t1", "s"]) == "s"


def test_parse_reads_every_form_of_the_notation() -> None:
    assert parse("t3:4-t5") == ("move", ["t3", "t5"], 4)
    assert parse("p22+p28") == ("remove", ["p22", "p28"], 1)
    assert parse("p7+") == ("remove", ["p7"], 1)
    assert parse("left:r2") == ("left", ["r2"], 1)
    assert parse("s") == ("stock", ["s"], 1)


def test_random_bot_and_the_measure_command(capsys: pytest.CaptureFixture[str]) -> None:
    view = LocalGame("golf", "easy", seed_of(0)).payload
    assert RandomBot(1).choose(view["view"], view["legal"]) in view["legal"]
    assert main(["--games", "3", "--rules", "golf/easy"]) == 0
    out = capsys.readouterr().out
    assert "seeds 0000..0002" in out and "| golf/easy | 0/3 (0.0%) | 0/3 (0.0%) |" in out
