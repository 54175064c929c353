"""The terminal player and the local engine adapter: driven line by line, drawn for every rule
set (every pile named, never a face-down card), and played against a real server."""

from __future__ import annotations

import argparse
import io
import re
import uuid
from collections.abc import Callable

import pytest

import engine
import engine.cli
from clients import terminal
from clients.bots.greedy import GreedyBot
from clients.local import LocalGame, MoveRefused
from clients.sdk import Session
from engine.cards import TEXT
from tests.server.client import Node

CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def args(*extra: str) -> argparse.Namespace:
    return engine.cli.build_parser().parse_args(["play", *extra])


def play(lines: list[str], *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    code = terminal.run(args(*extra), input=io.StringIO("".join(f"{x}\n" for x in lines)),
                        output=out)
    return code, out.getvalue()


def hidden(st: engine.State) -> set[str]:
    return {TEXT[c] for c in st.hidden_cards()}


def check_drawing(text: str, game: LocalGame) -> None:
    """Every pile's name and top card is drawn; no card appears that the view doesn't show."""
    view = game.payload["view"]
    shown = {c for p in view["piles"].values() for c in p["up"]}
    cards = set(CARD.findall(text))
    assert cards <= shown
    assert not cards & hidden(game.state)
    for name, p in view["piles"].items():
        assert re.search(rf"(^|\s){re.escape(name)}(:|\s|$)", text, re.M), name
        if p["up"]:
            assert p["up"][-1] in cards, (name, p["up"][-1])


def test_the_command_is_registered() -> None:
    a = args("klondike", "easy", "--seed", "00", "--no-color")
    assert a.run is terminal.run and a.seed == "00" and a.color is False


def test_a_few_moves_a_refusal_hint_undo_and_quit() -> None:
    code, out = play(["t7-t1", "t6-t1", "hint", "1", "undo", "bogus", "quit", "t3-f1"],
                     "klondike", "easy", "--seed", "00")
    assert code == 0
    # the refusal names the rule with its stable code, and changes nothing
    assert "6♣ can't go on 3♠: a black 6 goes on a red 7 [build.tableau]" in out
    assert "Legal moves: 1) t3-f1  2) t3-f2  3) t3-f3  4) t3-f4  5) s" in out
    assert "[move.unknown]" in out
    titles = re.findall(r"score (\d+)\s+moves (\d+)\s+(\w+)", out)
    # the deal, t7-t1, hint's move 1 (t3-f1: a card on a foundation), then undo; "quit"
    # stops before the last line
    assert titles == [("0", "0", "playing"), ("0", "1", "playing"), ("1", "2", "playing"),
                      ("0", "1", "playing")]


def test_the_drawing_matches_the_engine_and_hides_face_down_cards() -> None:
    code, out = play([], "klondike", "easy", "--seed", "00", "--no-color")
    assert code == 0
    game = LocalGame("klondike", "easy", "00")
    table = out.split("\n", 1)[1]
    check_drawing(table, game)
    # the columns as the engine deals them: six face-down cards under the 4♥ in t1
    rows = [ln for ln in table.splitlines() if ln.startswith(("##", "4h"))]
    assert rows[:7] == ["##  ##  ##  ##  ##  ##  3s", "##  ##  ##  ##  ##  6c",
                        "##  ##  ##  ##  9h", "##  ##  ##  4c", "##  ##  Ad", "##  6h", "4h"]
    assert "s: ## x24" in table


def test_colour_only_when_asked() -> None:
    _, plain = play([], "golf", "easy", "--seed", "00")  # a StringIO is no terminal
    _, coloured = play([], "golf", "easy", "--seed", "00", "--color")
    assert "\x1b[" not in plain
    assert "\x1b[31m5h\x1b[0m" in coloured


def test_the_end_of_a_game_and_a_new_deal() -> None:
    code, out = play(["resign", "t1-f", "new", "quit"], "golf", "easy", "--seed", "00")
    assert code == 0
    assert "The game is lost." in out
    assert "Seed 00." in out
    assert "the game is over (lost) [game.over]" in out
    assert out.count("New deal") == 2


def test_a_bad_seed_and_an_unknown_game_fail_cleanly() -> None:
    with pytest.raises(SystemExit):  # refused while the command line is read
        play([], "golf", "easy", "--seed", "xyz")
    with pytest.raises(engine.UnknownGame):
        play([], "nosuch", "easy")
    assert engine.cli.main(["play", "golf", "easy", "--seed", "xyz"]) == 2


@pytest.mark.parametrize("rules", engine.rule_sets(), ids=lambda r: r.key)
def test_every_rule_set_opens_and_draws(rules: engine.RuleSet) -> None:
    game = LocalGame(rules.id, rules.variant, "01")
    layout = game.layout()
    check_drawing(terminal.render(layout, game.payload), game)
    bot = GreedyBot()  # a few moves in, so piles have face-down cards under shown ones
    for _ in range(12):
        p = game.payload
        if p["view"]["status"] != "playing":
            break
        game.move(bot.choose(p["view"], p["legal"]))
    check_drawing(terminal.render(layout, game.payload, color=False), game)


def test_local_game_gives_the_session_payload() -> None:
    g = LocalGame("klondike", "easy", "00")
    p = g.payload
    assert set(p) == {"session", "rev", "mode", "view", "legal", "safe", "can_undo",
                      "commitment", "seed"}
    assert (p["rev"], p["mode"], p["can_undo"], p["seed"]) == (0, "practice", False, "00")
    assert p["commitment"] == engine.commitment(b"\x00")
    assert p["legal"] == ["t3-f1", "t3-f2", "t3-f3", "t3-f4", "t7-t1", "s"]
    assert p["safe"] == ["t3-f1"]  # the A♦: one move per card, to the first foundation
    p = g.move({"kind": "move", "from": "t7", "to": "t1", "n": 1})
    assert (p["rev"], p["can_undo"], p["view"]["piles"]["t1"]["up"]) == (1, True, ["4h", "3s"])
    with pytest.raises(MoveRefused) as e:
        g.move("t6-t1")
    assert e.value.code == "build.tableau" and "a black 6 goes on a red 7" in e.value.message
    assert g.rev == 1
    assert g.undo()["rev"] == 2
    with pytest.raises(MoveRefused) as e:
        g.undo()
    assert e.value.code == "undo.nothing"
    end = g.resign()
    assert end["view"]["status"] == "lost" and end["legal"] == []
    with pytest.raises(MoveRefused) as e:
        g.resign()
    assert e.value.code == "game.over"


def test_a_random_deal_shows_its_seed_only_at_the_end() -> None:
    g = LocalGame("golf", "easy")
    assert "seed" not in g.payload and len(g.seed) == 32
    assert g.resign()["seed"] == g.seed.hex()


def test_remote_play_against_a_server(node: Node) -> None:
    name = f"term{uuid.uuid4().hex[:8]}"
    code, out = play(["t7-t1", "t6-t1", "undo", "hint", "quit"], "klondike", "easy",
                     "--seed", "00", "--server", node.url, "--register", name)
    assert code == 0
    assert f"Registered {name}" in out
    assert "6♣ can't go on 3♠: a black 6 goes on a red 7 [build.tableau]" in out
    titles = re.findall(r"score (\d+)\s+moves (\d+)\s+(\w+)", out)
    assert titles == [("0", "0", "playing"), ("0", "1", "playing"), ("0", "0", "playing")]
    assert "Legal moves: 1) t3-f1  2) t3-f2  3) t3-f3  4) t3-f4  5) t7-t1  6) s" in out
    # the same table as the local engine draws for that seed
    local = terminal.render(LocalGame("klondike", "easy", "00").layout(),
                            LocalGame("klondike", "easy", "00").payload)
    assert local.split("\n", 1)[1] in out


class FakeClient:
    """The SDK's blocking contract over a LocalGame: exercises the remote code path (refusals
    as ``ServerError``) without a server."""

    def __init__(self, url: str, token: str) -> None:
        self.token = token
        self.game: LocalGame | None = None

    @staticmethod
    def register(url: str, name: str, kind: str = "human") -> tuple[dict[str, str], str]:
        return {"id": "p1", "name": name, "kind": kind}, "tok"

    def connect(self) -> None:
        assert self.token == "tok"

    def close(self) -> None:
        pass

    def rule_set(self, game: str, variant: str) -> dict[str, object]:
        return engine.get(game, variant).describe()

    def session(self, f: Callable[[], dict[str, object]]) -> Session:
        from clients.sdk import ServerError

        try:
            return Session.from_raw(f())
        except MoveRefused as e:
            raise ServerError(e.code, e.message) from None

    def solo(self, game: str, variant: str, seed: str | None = None) -> Session:
        self.game = LocalGame(game, variant, seed, session="s1")
        return Session.from_raw(self.game.payload)

    def move(self, session_id: str, move: str, rev: int | None = None) -> Session:
        assert self.game is not None and session_id == "s1" and rev == self.game.rev
        return self.session(lambda: self.game.move(move))  # type: ignore[union-attr]

    def undo(self, session_id: str) -> Session:
        return self.session(lambda: self.game.undo())  # type: ignore[union-attr]

    def resign(self, session_id: str) -> Session:
        return self.session(lambda: self.game.resign())  # type: ignore[union-attr]


def test_remote_mode_speaks_the_sdk_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    import clients.sdk

    monkeypatch.setattr(clients.sdk, "BlockingClient", FakeClient)
    code, out = play(["t7-t1", "t6-t1", "undo", "undo", "resign", "quit"], "klondike", "easy",
                     "--seed", "00", "--server", "http://x", "--register", "Ann")
    assert code == 0
    assert "Registered Ann (p1)" in out and "\ntok\n" in out
    assert "a black 6 goes on a red 7 [build.tableau]" in out
    assert "there is no move to undo [undo.nothing]" in out
    titles = re.findall(r"score (\d+)\s+moves (\d+)\s+(\w+)", out)
    assert titles == [("0", "0", "playing"), ("0", "1", "playing"), ("0", "0", "playing"),
                      ("0", "1", "lost")]
    monkeypatch.delenv("SAMEDEAL_TOKEN", raising=False)
    with pytest.raises(ValueError, match="--token"):
        play([], "klondike", "easy", "--server", "http://x")


def test_the_waste_names_its_top_card_and_an_empty_column_is_marked() -> None:
    code, out = play(["s", "s", "s", "t7-t1", "quit"], "klondike", "difficult", "--seed", "00",
                     "--no-color")
    assert code == 0
    last = out.rsplit("moves 4", 1)[1]
    assert "w: 9d 7h 3c (3c on top)" in last
    head, first = last.split("\n")[2:4]
    assert head.split()[-1] == "t7" and first.split()[-1] == "--"  # t7 is empty
    assert len(first.split()) == 7
