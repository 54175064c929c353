"""The daily's live edition in the browser: the daily page shows its instant and a Join
button; a player joins, and at the instant the page opens the race of the deal by itself, the
player's own board in it, without a reload."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import FAST, start_node, stop_node
from tests.server.client import Node
from tests.server.test_daily_live import database, instant, now_ms

WAIT = 30_000
GAME, VARIANT = "cribbage-square", "difficult"


@pytest.fixture
def live_node(redis_url: str, tmp_path: Path) -> Iterator[tuple[Node, int]]:
    """A node whose live edition is dealt about thirty seconds from now, on a database of its
    own, and that instant in ms."""
    at, at_ms = instant(30)
    node, proc = start_node(database(redis_url, 7), tmp_path / "live.log", **FAST,
                            SAMEDEAL_SWEEP_INTERVAL="0.2", SAMEDEAL_ARENA_COUNTDOWN="0",
                            SAMEDEAL_DAILY_LIVE_AT=at,
                            SAMEDEAL_DAILY_LIVE_RULES=f"{GAME}/{VARIANT}",
                            SAMEDEAL_DAILY_LIVE_WINDOW="60")
    yield node, at_ms
    stop_node(proc)


def test_joining_on_the_daily_page_opens_the_deal_when_it_is_dealt(page_for, live_node) -> None:
    node, at_ms = live_node
    page = page_for("Liv", node.url)
    page.goto(node.url + "/#/daily")
    box = page.locator(".live-edition")
    expect(box.locator(".live-edition-when")).to_contain_text("(your time)", timeout=WAIT)
    item = box.locator(f".live-edition-item[data-game={GAME}]")
    expect(item).to_contain_text("0 signed up", timeout=WAIT)
    page.evaluate("() => { window.notReloaded = true; }")
    item.locator("button[data-act=live-join]").click()
    expect(item).to_contain_text("1 signed up", timeout=WAIT)
    expect(item).to_contain_text("you are in")
    expect(item.locator("button[data-act=live-join]")).to_have_count(0)

    # At the instant the race of the deal opens by itself, with the player's board. The wait
    # counts from the instant, whatever part of the lead the setup took.
    page.wait_for_url("**/#/race/**", timeout=max(0, at_ms - now_ms()) + WAIT)
    expect(page.locator("button.resign")).to_be_enabled(timeout=WAIT)
    assert page.evaluate("() => window.notReloaded === true")
