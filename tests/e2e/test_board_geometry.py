"""Every rule set in the catalog is drawn with the geometry its description gives, and nothing
else: each layout group in its band (`area`), headed by its `label`; its piles in the described
`rows`, left to right, each row below the one before (a row longer than the board's `width`
wrapping onto further lines, in reading order); `align: center` rows centred in their
group, `start` rows flush left; piles named in a sentence with the group's `word`; the board
`width` card widths wide; a pile under others (`covered_by`) drawn under them and marked covered
while they hold cards; and a "remove" rule set (`play`) takes two clicked cards together as one
removal, where a "build" one picks a card up and moves it. Checked at desktop and phone width,
from the catalog the page itself loaded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

import engine
from tests.e2e.conftest import lobby_page, open_context, resize

SEED = "5eed0123456789abcdef"
DESKTOP: ViewportSize = {"width": 1100, "height": 900}
PHONE: ViewportSize = {"width": 375, "height": 800}
RULE_SETS = [(r.describe()["id"], r.describe()["variant"]) for r in engine.rule_sets()]
SLACK = 1.5  # px: rounding of fractional card sizes

# Per group, as drawn: the band and section of its piles, the section's accessible name, each
# pile's box, accessible name and covered mark; and the board's column count.
READ = """
(desc) => {
  const board = document.querySelector('.session .board');
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const groups = desc.layout.map((g) => {
    const els = g.piles.map((p) => board.querySelector(`.pile[data-pile="${p}"]`));
    const sections = [...new Set(els.map((e) => e && e.closest('section.group')))];
    const section = sections.length === 1 ? sections[0] : null;
    return {
      one_section: Boolean(section) && els.every(Boolean),
      band: section && (section.closest('.board-top') ? 'top'
        : section.closest('.board-main') ? 'main' : null),
      name: section && section.getAttribute('aria-label'),
      section: section && box(section),
      piles: Object.fromEntries(g.piles.map((p, i) => [p, els[i] && {
        box: box(els[i]), label: els[i].getAttribute('aria-label'),
        covered: els[i].classList.contains('covered')}])),
    };
  });
  return {cols: getComputedStyle(board).getPropertyValue('--cols').trim(), groups,
          page: document.documentElement.scrollWidth};
}
"""

# Sends go through the page's one connection: keep each message it is asked to send.
RECORD = """
() => {
  const net = samedeal.net;
  window.sent = [];
  if (!net.recording) {
    const request = net.request.bind(net);
    net.request = (msg) => { window.sent.push(msg); return request(msg); };
    net.recording = true;
  }
}
"""


@pytest.fixture(scope="module")
def page(browser: Browser, web: str) -> Iterator[Page]:
    """One player, one page for every rule set: each is a new hash route on it."""
    context = open_context(browser, "Geometer", viewport=DESKTOP)
    yield lobby_page(context, web)
    context.close()


def open_rule_set(page: Page, game: str, variant: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The practice board of a fixed deal: (the catalog's description, the server's view)."""
    page.evaluate("(h) => { location.hash = h; }", f"#/play/{game}/{variant}?seed={SEED}")
    board = f".session[data-rev='0']:has(.board[data-game='{game}'][data-variant='{variant}'])"
    page.wait_for_selector(board)
    desc = page.evaluate("([g, v]) => samedeal.ctx.ruleSet(g, v)", [game, variant])
    sid = page.locator(".session").get_attribute("data-session")
    payload = page.evaluate("(s) => samedeal.net.request({type: 'session.get', session: s})", sid)
    return desc, payload


def lines_of(boxes: list[dict[str, float]], what: str) -> list[list[dict[str, float]]]:
    """A row's piles as laid out: one line, or (a row longer than the board's width) several,
    in reading order: each line left to right, each below the one before."""
    lines = [[boxes[0]]]
    for b in boxes[1:]:
        line = lines[-1]
        if abs(b["top"] - line[0]["top"]) <= SLACK:
            assert line[-1]["right"] <= b["left"] + SLACK, f"{what}: not left to right"
            line.append(b)
        else:
            assert b["top"] > line[0]["top"] + SLACK, f"{what}: not in reading order"
            lines.append([b])
    return lines


def check_geometry(desc: dict[str, Any], view: dict[str, Any], drawn: dict[str, Any],
                   width: int) -> None:
    assert drawn["cols"] == str(desc["width"]), "the board is not `width` cards wide"
    assert drawn["page"] <= width, "the board sticks out of the page"
    held = {p: v["down"] + len(v["up"]) for p, v in view["piles"].items()}
    for g, shown in zip(desc["layout"], drawn["groups"], strict=True):
        what = f"{desc['id']}/{desc['variant']} {g['label']}"
        assert shown["one_section"], f"{what}: its piles are not one section"
        assert shown["band"] == g["area"], what
        assert shown["name"] == g["label"], what
        section, piles = shown["section"], shown["piles"]
        assert sorted(p for row in g["rows"] for p in row) == sorted(g["piles"]), what
        last_top = None
        for row in g["rows"]:
            lines = lines_of([piles[p]["box"] for p in row], f"{what}: {row}")
            if len(row) <= desc["width"]:
                assert len(lines) == 1, f"{what}: {row} fits the width but is not one row"
            assert all(len(line) <= desc["width"] for line in lines), f"{what}: wider than width"
            if last_top is not None:
                assert lines[0][0]["top"] > last_top + SLACK, f"{what}: {row} not below the last"
            last_top = lines[-1][0]["top"]
            for line in lines:
                left, right = line[0]["left"], line[-1]["right"]
                if g["align"] == "center":
                    middle = (section["left"] + section["right"]) / 2
                    assert abs((left + right) / 2 - middle) <= SLACK, f"{what}: {row} not centred"
                else:
                    assert abs(left - section["left"]) <= SLACK, f"{what}: {row} not flush left"
        for p in g["piles"]:
            num = p.lstrip("abcdefghijklmnopqrstuvwxyz")
            name = f"{g['word']} {num}" if num else g["word"]
            label = piles[p]["label"]
            assert label == name or label.startswith(f"{name},"), f"{what}: {p} says {label!r}"
        covered_by = g.get("covered_by") or {}
        for p in g["piles"]:
            over = covered_by.get(p, [])
            assert piles[p]["covered"] == any(held.get(c, 0) for c in over), f"{what}: {p}"
            for c in over:  # drawn over it, overlapping
                a, b = piles[p]["box"], piles[c]["box"]
                assert b["top"] > a["top"] + SLACK and b["top"] < a["bottom"], f"{what}: {p} {c}"
                assert b["left"] < a["right"] and a["left"] < b["right"], f"{what}: {p} {c}"


def check_removal(page: Page, desc: dict[str, Any], payload: dict[str, Any]) -> None:
    """Two free face-up cards clicked in turn: a "remove" rule set holds the first selected and
    sends both as one removal (or keeps both selected, part of a larger one); a "build" rule
    set sends a move of cards from pile to pile."""
    view, legal = payload["view"], payload["legal"]
    held = {p: v["down"] + len(v["up"]) for p, v in view["piles"].items()}
    free = [p for g in desc["layout"] if g["kind"] != "stock" for p in g["piles"]
            if view["piles"].get(p, {}).get("up")
            and not any(held.get(c) for c in (g.get("covered_by") or {}).get(p, []))]
    alone = {m[:-1] for m in legal if m.endswith("+")}  # a card removed by itself
    first = next(p for p in free if p not in alone)
    second = next(p for p in free if p != first)
    page.evaluate(RECORD)
    board = page.locator(".session .board")
    board.locator(f".pile[data-pile='{first}'] > .card:not(.back)").last.click()
    if desc["play"] == "remove":
        pile = board.locator(f".pile[data-pile='{first}']")
        assert "selected" in (pile.get_attribute("class") or ""), first
    board.locator(f".pile[data-pile='{second}'] > .card:not(.back)").last.click()
    page.wait_for_function(
        "([a, b]) => window.sent.length || [a, b].every((p) => document.querySelector("
        "`.session .board .pile[data-pile=\"${p}\"]`).classList.contains('selected'))",
        arg=[first, second])
    moves = [m["move"] for m in page.evaluate("window.sent") if m["type"] == "move"]
    if desc["play"] == "remove":
        assert moves == [] or set(moves[-1].split("+")) == {first, second}, moves
    else:
        assert moves and all("+" not in m and "-" in m for m in moves), moves


@pytest.mark.parametrize(("game", "variant"), RULE_SETS, ids=[f"{g}-{v}" for g, v in RULE_SETS])
def test_the_board_has_the_geometry_of_its_description(page: Page, game: str,
                                                       variant: str) -> None:
    desc, payload = open_rule_set(page, game, variant)
    check_geometry(desc, payload["view"], page.evaluate(READ, desc), DESKTOP["width"])
    resize(page, PHONE)
    try:
        drawn = page.evaluate(READ, desc)
    finally:
        resize(page, DESKTOP)
    check_geometry(desc, payload["view"], drawn, PHONE["width"])
    if desc["play"] == "remove":
        check_removal(page, desc, payload)


def test_a_build_rule_set_moves_what_a_remove_one_removes(page: Page) -> None:
    """The same two clicks on a "build" board: the first card picked up and moved."""
    desc, payload = open_rule_set(page, "klondike", "easy")
    assert desc["play"] == "build"
    check_removal(page, desc, payload)
