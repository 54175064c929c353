"""Game knowledge belongs to the engine's games: outside engine/ (and in the solver, which
works from pile kinds and declarations), no code names a rule set's id.

Server and clients learn a rule set's traits from its description in the catalog
(docs/protocol.md, "The catalog"), so a 61st rule set touches engine/games/ and nothing else.
Tests, docs, benchmarks and the example bots (which say what they play) may name games.

Code names a game where a string is its id ("bowling", "klondike/easy"), a CSS class or
attribute selects it (.game-pyramid), or an identifier is made of it (BOWLING, pyramidRows).
Prose may still use the words ("slide the row", "is bowling" in a comment or a sentence).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("server", "clients", "engine/solver")  # the solver learns from declarations
EXEMPT = ("clients/examples/",)
IDS = frozenset(r.id for r in registry.rule_sets())
WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
JS_STRING = re.compile(r"""(["'`])((?:\\.|(?!\1)[^\\\n])*)\1""")
JS_NAME = re.compile(r"\b[A-Za-z_$][\w$]*\b")
JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
SELECTOR = re.compile(r"""game-([a-z0-9-]+)|data-game=["']?([a-z0-9-]+)""")


def literal(text: str) -> set[str]:
    """The game a string literal is the id of ("klondike", "klondike/easy")."""
    game = text.strip().split("/", 1)[0]
    return {game} if game in IDS else set()


def identifier(name: str) -> set[str]:
    """Games an identifier is made of: BOWLING, PYRAMID_ROWS, pokerSquare, isBowling."""
    words = [w.lower() for w in WORDS.findall(name)]
    found = set()
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + 3) + 1):
            if "-".join(words[i:j]) in IDS:
                found.add("-".join(words[i:j]))
    return found


def python_names(source: str) -> set[str]:
    found: set[str] = set()
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            found |= literal(node.value)
        elif isinstance(node, ast.Name):
            found |= identifier(node.id)
        elif isinstance(node, ast.Attribute):
            found |= identifier(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found |= identifier(node.name)
        elif isinstance(node, ast.arg):
            found |= identifier(node.arg)
    return found


def js_names(source: str) -> set[str]:
    found: set[str] = set()
    code = JS_COMMENT.sub("", source)
    for m in JS_STRING.finditer(code):
        found |= literal(m.group(2))
        found |= {g for pair in SELECTOR.findall(m.group(2)) for g in pair if g in IDS}
    for m in JS_NAME.finditer(JS_STRING.sub('""', code)):
        found |= identifier(m.group(0))
    return found


def css_names(source: str) -> set[str]:
    return {g for pair in SELECTOR.findall(CSS_COMMENT.sub("", source)) for g in pair
            if g in IDS}


def code_files() -> list[Path]:
    out = []
    for top in CHECKED:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.is_file() and path.suffix in (".py", ".js", ".css", ".html") \
                    and not rel.startswith(EXEMPT):
                out.append(path)
    return out


def names_in(path: Path) -> set[str]:
    text = path.read_text()
    return {".py": python_names, ".js": js_names}.get(path.suffix, css_names)(text)


@pytest.mark.parametrize("path", code_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_game_id_outside_the_engine(path: Path) -> None:
    found = names_in(path)
    assert not found, (f"{path.relative_to(ROOT)} names {sorted(found)}: learn the trait from "
                       "the rule set's description (RuleSet.describe) instead")


def test_the_check_finds_a_named_game() -> None:
    assert python_names('if rules.id == "bowling":\n    pass\n') == {"bowling"}
    assert python_names('KINDS = ("poker-square", "x")\nPYRAMID_ROWS = 7\n') == {
        "poker-square", "pyramid"}
    assert python_names('"""Bowling: pins."""\nx = "slide the row"  # golf\n') == set()
    assert js_names('const g = new Set(["pyramid"]); // golf\nconst isBowling = 1;') == {
        "pyramid", "bowling"}
    assert js_names('el.className = `board game-${id}`; b.title = "slide row";') == set()
    assert css_names(".board.game-gaps .pile { top: 0 } /* .game-golf */") == {"gaps"}
