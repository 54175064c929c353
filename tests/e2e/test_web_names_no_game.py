"""The web client knows no game: everything it draws or offers comes from the rule sets'
descriptions in the catalog, so no script names a game id as a string (to compare a rule set's
id with, or to list games in), and no style rule selects a game. A 61st rule set then needs no
change here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
IDS = sorted({r.describe()["id"] for r in engine.rule_sets()})
COMMENT = re.compile(r"/\*.*?\*/", re.S)


def strings_naming_a_game(script: str) -> list[str]:
    """String literals that are a game id, or start with one ("bowling/easy")."""
    return [m.group(0) for m in re.finditer(r"""(["'`])([a-z][a-z-]*)(?:/[^"'`]*)?\1""", script)
            if m.group(2) in IDS]


def selectors_naming_a_game(css: str) -> list[str]:
    rules = COMMENT.sub("", css)
    return [i for i in IDS if re.search(rf"(?<![\w-])(game-)?{re.escape(i)}(?![\w-])", rules)]


@pytest.mark.parametrize("path", sorted(WEB.glob("*.js")), ids=lambda p: p.name)
def test_no_script_names_a_game(path: Path) -> None:
    assert strings_naming_a_game(path.read_text()) == []


@pytest.mark.parametrize("path", sorted(WEB.glob("*.css")), ids=lambda p: p.name)
def test_no_style_selects_a_game(path: Path) -> None:
    assert selectors_naming_a_game(path.read_text()) == []


def test_the_check_sees_a_game_id() -> None:
    """The check itself: it finds what it looks for."""
    assert strings_naming_a_game('const A = new Set(["pyramid", "isabel"]);') == [
        '"pyramid"', '"isabel"']
    assert strings_naming_a_game('if (ruleSet.id === "bowling") x(`klondike/easy`);') == [
        '"bowling"', '`klondike/easy`']
    assert strings_naming_a_game('send(`${dir}:${name}`); h("p", {text: "a gap"});') == []
    assert selectors_naming_a_game(".game-bowling .board-main { x: 1 }") == ["bowling"]
    assert selectors_naming_a_game("/* gaps and pyramid */ .fan-down { x: 1 }") == []
