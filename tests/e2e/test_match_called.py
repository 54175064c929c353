"""A called-card match (Poker Square) in the browser: created in the lobby, joined by a second
player over REST on the other node; the page shows the called card, the player's own grid drawn
in the rows its description gives, and everyone's line scores; a placement made with two clicks
shows in the player's row and in the log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.conftest import create_match_in_lobby

WAIT = 30_000


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
