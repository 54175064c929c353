"""The daily page of a server with the winnable-deal rule: a revealed day's deal shows par,
the candidate dealt and its line, and its leaderboard par and each result's moves against it;
an open day's deal says only that it is winnable. A node of its own, on a database of its own,
with a small budget and the rule on two rule sets that decide fast."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from server.boards import Boards
from tests.conftest import FAST, clear_of_midnight, start_node, stop_node, wait_for
from tests.e2e.conftest import lobby_page, open_context
from tests.server.client import Node

ENV = {**FAST, "SAMEDEAL_DAILY_CHAIN": "0", "SAMEDEAL_DAILY_SECRET": "e2e winnable",
       "SAMEDEAL_DAILY_WINNABLE": "1",
       "SAMEDEAL_WINNABLE_POSITIONS": "2000", "SAMEDEAL_WINNABLE_CAP": "6",
       "SAMEDEAL_WINNABLE_ONLY": "klondike/easy,isabel/standard", "SAMEDEAL_DAILY_GRACE": "0",
       "SAMEDEAL_WINNABLE_INTERVAL": "0.3"}


@pytest.fixture
def winnable_node(redis_url: str, tmp_path: Path) -> Iterator[tuple[Node, str, date]]:
    """A node deciding the winnable deals from three days ago; its yesterday."""
    url = redis_url.rsplit("/", 1)[0] + "/15"
    Redis.from_url(url).flushdb()
    today = clear_of_midnight()
    node, proc = start_node(url, tmp_path / "winnable-node.log", **ENV,
                            SAMEDEAL_DAILY_WINNABLE_FROM=str(today - timedelta(3)))
    yield node, url, today - timedelta(1)
    stop_node(proc)


def put_entry(url: str, board: str, moves: int) -> None:
    """A result on a revealed day's board, as a ranked attempt that day would have left."""
    async def put() -> None:
        r = AsyncRedis.from_url(url)
        await Boards(r).put(board, "p-winnable-e2e", 1, 1, {
            "name": "Yesterday's Ann", "kind": "human", "status": "won", "score": 0,
            "moves": moves, "time_ms": 60000})
        await r.aclose()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright holds this thread's loop
        pool.submit(asyncio.run, put()).result()


def test_a_revealed_winnable_deal_shows_par_and_its_board_each_result_against_it(
        browser: Browser, winnable_node: tuple[Node, str, date]) -> None:
    node, url, yesterday = winnable_node
    page_json = httpx.get(f"{node.url}/api/v1/daily/{yesterday}", timeout=120).json()
    found = [d for d in page_json["deals"] if (d.get("winnable") or {}).get("found")]
    assert found, "neither rule set had a candidate won within the budget"
    deal = found[0]
    w = deal["winnable"]
    put_entry(url, f"daily:{yesterday}:{deal['game']}:{deal['variant']}:human", w["par"] + 5)

    context = open_context(browser, "Parker", viewport={"width": 1200, "height": 900})
    page = lobby_page(context, node.url)
    page.goto(f"{node.url}/#/daily/{yesterday}?game={deal['game']}&variant={deal['variant']}")
    note = page.locator(".winnable[data-state=revealed]")
    expect(note.locator(".par")).to_contain_text(f"Par: {w['par']} moves")
    expect(note.locator("code")).to_have_text(w["line"])
    expect(page.locator(".leaderboard .board-par")).to_have_attribute("data-par", str(w["par"]))
    expect(page.locator(".leaderboard tr[data-player=p-winnable-e2e]")).to_contain_text(
        f"{w['par'] + 5} (+5)")

    # Today's deal under the rule (once the node's job has chosen it): winnable, and nothing
    # of which candidate or of par.
    def chosen() -> bool:
        deals = httpx.get(f"{node.url}/api/v1/daily", timeout=10).json()["deals"]
        return any(d["game"] == deal["game"] and d["variant"] == deal["variant"]
                   and "commitment" in d for d in deals)

    wait_for(chosen, "today's choice")
    page.goto(f"{node.url}/#/daily?game={deal['game']}&variant={deal['variant']}")
    today = page.locator(".winnable")
    expect(today).to_have_attribute("data-state", "secret", timeout=60_000)
    expect(today).to_contain_text("first candidate the solver proves winnable")
    assert page.locator(".par, .board-par").count() == 0
    context.close()
