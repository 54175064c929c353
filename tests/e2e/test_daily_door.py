"""The front door's daily button starts the ranked clock only with the whole board in view: the
attempt opens at the top of the page (nothing above its board but the header, the attempt's
line and the session bar; the day's list below), on a phone and on a laptop. And the player
knows before the clock starts whether the attempt will rank: where it would not (a node whose
operator keeps accounts made today off the boards), the warning says so and why, and nothing
is dealt until the player confirms."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from redis import Redis

from tests.conftest import FAST, start_node, stop_node
from tests.e2e.conftest import wait_online
from tests.e2e.test_front_door import fresh, front_door
from tests.server.client import Node

SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "laptop": {"width": 1366, "height": 768},
}

# The board's box, the page's scroll, and every visible leaf above the board that is not part
# of the header, the attempt's line or the session bar.
IN_VIEW = """
() => {
  const board = document.querySelector('.daily-play .session .board');
  const b = board.getBoundingClientRect();
  const above = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.children.length || el.closest('header.site, .daily-mode, .session-bar')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.bottom <= b.top) above.push(el.className || el.tagName);
  }
  return {box: [b.left, b.top, b.right, b.bottom], view: [innerWidth, innerHeight],
          scrolled: [scrollX, scrollY], above};
}
"""


def assert_board_in_view(page: Page) -> None:
    expect(page.locator(".daily-play .session .board")).to_be_visible()
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    m: dict[str, Any] = page.evaluate(IN_VIEW)
    left, top, right, bottom = m["box"]
    width, height = m["view"]
    assert m["scrolled"] == [0, 0], m
    assert left >= 0 and top >= 0 and right <= width + 1 and bottom <= height + 1, m
    assert not m["above"], m


@pytest.fixture
def unranked_node(redis_url: str, tmp_path: Path) -> Iterator[Node]:
    """A node on a database of its own whose operator keeps accounts made today off the boards
    (its own database: the suite's nodes all let them rank)."""
    url = redis_url.rsplit("/", 1)[0] + "/12"
    Redis.from_url(url).flushdb()
    env = FAST | {"SAMEDEAL_DAILY_RANK_NEW_ACCOUNTS": "0"}
    node, proc = start_node(url, tmp_path / "unranked-node.log", **env)
    yield node
    stop_node(proc)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_daily_door_starts_with_the_board_in_view(browser: Browser, web: str,
                                                      size: str) -> None:
    context = fresh(browser)
    try:
        page = front_door(context, web)
        page.set_viewport_size(SIZES[size])
        wait_online(page)
        page.locator("[data-door=daily]").click()
        expect(page.locator(".daily-mode")).to_contain_text("the clock is running")
        assert_board_in_view(page)
        # The day's list is still on the page, below the attempt.
        expect(page.locator(".daily-deals li.daily-deal").first).to_be_attached()
    finally:
        context.close()


def test_the_daily_door_says_first_when_the_attempt_will_not_rank(browser: Browser,
                                                                  unranked_node: Node) -> None:
    context = fresh(browser)
    try:
        page = front_door(context, unranked_node.url)
        page.set_viewport_size(SIZES["phone"])
        wait_online(page)
        rs = page.evaluate("samedeal.ctx.catalog.find((r) => r.featured)")
        day = page.evaluate("samedeal.net.request({type: 'daily.get'})")
        deal = next(d for d in day["deals"]
                    if (d["game"], d["variant"]) == (rs["id"], rs["variant"]))
        assert deal["you"]["ranked"] is False
        reason = deal["you"]["unranked_reason"]
        assert reason

        page.locator("[data-door=daily]").click()
        warning = page.locator(".daily-confirm")
        expect(warning).to_be_visible()
        expect(warning.locator("[data-unranked]")).to_have_text(
            f"This attempt will not go on the boards: {reason}.")
        page.wait_for_timeout(300)
        expect(page.locator(".daily-play .session")).to_have_count(0)  # no clock yet
        mine = page.evaluate("samedeal.net.request({type: 'daily.get'})")["deals"]
        assert not any(d["you"].get("played") for d in mine)  # nothing started on the server

        warning.locator("[data-act=confirm]").click()
        expect(page.locator(".daily-mode")).to_contain_text(f"off the boards: {reason}")
        assert_board_in_view(page)
    finally:
        context.close()
