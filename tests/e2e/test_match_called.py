"""A called-card match (Poker Square) in the browser: created in the lobby, joined by a second
player over REST on the other node; the page shows the called card, the player's own grid drawn
in the rows its description gives, and everyone's line scores; a placement made with two clicks
shows in the player's row and in the log. On a phone held sideways, whose turn it is, the
called card and the grid all show where the page opens, the grid's cards large enough to read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.e2e.conftest import ARTIFACTS, Api, create_match_in_lobby

WAIT = 30_000
SIDEWAYS: ViewportSize = {"width": 844, "height": 390}
READABLE = 30  # px: a card at least this wide reads at a glance on a phone


def match_state(page: Page, mid: str) -> dict[str, Any]:
    return page.evaluate("(m) => samedeal.net.request({type: 'match.get', match: m})", mid)


def test_a_called_card_match_draws_the_grid_and_the_line_scores(
        page_for: Callable[..., Page], web2: str) -> None:
    ann = page_for("Ann")
    mid = create_match_in_lobby(ann, "poker-square")

    with httpx.Client(base_url=web2 + "/api/v1", timeout=10) as bob:
        reply = bob.post("/players", json={"name": "Bob", "kind": "human"}).json()
        bob.headers["authorization"] = f"Bearer {reply['token']}"
        bob.post(f"/matches/{mid}/join").raise_for_status()

    expect(ann.locator(".match-state")).to_have_text("running", timeout=WAIT)
    expect(ann.locator(".called-card .card")).to_have_count(1, timeout=WAIT)
    expect(ann.locator(".match-turn")).to_contain_text("Your turn", timeout=WAIT)
    rows = ann.locator(".line-scores tbody tr")
    expect(rows).to_have_count(2)

    # The own grid: the description's rows, one section.
    desc = ann.evaluate("() => samedeal.ctx.ruleSet('poker-square', 'easy')")
    [grid] = [g for g in desc["layout"] if g["kind"] == "grid"]
    board = ann.locator(".match-board .board")
    drawn = board.evaluate(
        "(b) => [...b.querySelectorAll('section.group')].map((s) => [...s.querySelectorAll("
        "':scope > .row')].map((r) => [...r.querySelectorAll('.pile')].map("
        "(p) => p.dataset.pile)))")
    assert grid["rows"] in drawn

    # A placement: the called card on the stock, then the space it goes to.
    m = match_state(ann, mid)
    move = m["you"]["legal"][0]
    board.locator(f".pile[data-pile={move.split('-')[0]}] > .card:not(.back)").click()
    board.locator(f".pile[data-pile={move.split('-')[1]}]").click()
    me = ann.evaluate("samedeal.ctx.player.id")
    expect(ann.locator(f".line-scores tr[data-player={me}] td").nth(1)).to_have_text(
        "1", timeout=WAIT)
    expect(ann.locator(".match-log li").first).to_contain_text("Ann placed card 1")
    placed = board.locator(f".pile[data-pile={move.split('-')[1]}] > .card:not(.back)")
    expect(placed).to_have_count(1)


# Where the page opens, unscrolled: the widths of the grid's cards, and the boxes of whose turn
# it is, the called card, the grid's board and the line scores.
OPENED = """
() => {
  const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const cards = document.querySelectorAll('.match-board .pile.kind-grid > .card');
  return {cards: [...cards].map((c) => c.getBoundingClientRect().width),
          turn: box('.match-turn'), called: box('.called-card .card'),
          board: box('.match-board .board'), scores: box('.match-scores .line-scores'),
          scrolled: scrollY, vh: innerHeight, vw: innerWidth};
}
"""


@pytest.mark.parametrize("game", ["poker-square", "cribbage-square"])
def test_a_called_card_match_held_sideways_shows_a_readable_grid(
        page_for: Callable[..., Page], web: str, game: str) -> None:
    # Under whose turn it is and the called card, the grid had about 200 px of the screen's
    # height: its cards shrank to 16 px wide.
    ann, bob = page_for("Ann"), Api(web, "Bob")
    mid = ann.evaluate("(m) => samedeal.net.request(m)", {
        "type": "match.create", "game": game, "variant": "easy", "seats": 2,
        "turn_time": 300})["match"]
    bob.call("POST", f"/matches/{mid}/join")
    for _ in range(3):  # three cards on each grid
        legal = match_state(ann, mid)["you"]["legal"]
        ann.evaluate("(m) => samedeal.net.request(m)", {
            "type": "match.move", "match": mid, "move": next(m for m in legal if "-g" in m)})
        legal = bob.call("GET", f"/matches/{mid}")["you"]["legal"]
        bob.call("POST", f"/matches/{mid}/moves", {"move": next(m for m in legal if "-g" in m)})

    ann.set_viewport_size(SIDEWAYS)
    ann.goto(ann.url.split("#")[0] + f"#/match/{mid}")
    expect(ann.locator(".match-turn")).to_contain_text("Your turn", timeout=WAIT)
    expect(ann.locator(".match-board .pile.kind-grid > .card")).to_have_count(3)
    ann.wait_for_function(
        "() => document.querySelector('.match-board .board')?.style.getPropertyValue('--cw')")
    ann.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    seen = ann.evaluate(OPENED)
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / f"{game}-match-sideways.png"))
    assert seen["scrolled"] == 0
    assert min(seen["cards"]) >= READABLE, f"the grid's cards are {seen['cards']} px wide"
    for what in ("turn", "called", "board"):
        box = seen[what]
        assert box["top"] >= 0 and box["bottom"] <= seen["vh"] + 1, (what, seen)
        assert box["left"] >= 0 and box["right"] <= seen["vw"] + 1, (what, seen)
    # The line scores: beside or under the grid, within the page's width.
    assert seen["scores"]["left"] >= 0 and seen["scores"]["right"] <= seen["vw"] + 1, seen
