"""A dead network shows within a few seconds. The server the page talks to is frozen (SIGSTOP:
its sockets stay open and nothing answers, as when a network dies without a word): the
header's badge leaves "online" within a few seconds on its own, and a move tapped meanwhile
says at once that it is sending, until the server answers again and the game goes on."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from redis import Redis

from tests.conftest import FAST, start_node, stop_node
from tests.e2e.conftest import lobby_page, open_context
from tests.server.client import Node

# Well under the 45 s the badge used to say "online" on a dead network, well over the few
# seconds it takes now (a ping every 4 s, dropped after 7 s of silence; 4 s with a move out).
NOTICED_MS = 15_000


@pytest.fixture
def frozen_node(redis_url: str, tmp_path: Path) -> Iterator[tuple[Node, subprocess.Popen[bytes]]]:
    """A node of this test's own, to freeze and thaw (on a database of its own)."""
    url = redis_url.rsplit("/", 1)[0] + "/11"
    Redis.from_url(url).flushdb()
    node, proc = start_node(url, tmp_path / "frozen-node.log", **FAST)
    yield node, proc
    os.kill(proc.pid, signal.SIGCONT)
    stop_node(proc)


def badge(page: Page) -> str:
    return page.locator("#net").get_attribute("data-state") or ""


def test_a_dead_network_shows_and_a_move_says_it_is_sending(
        browser: Browser, frozen_node: tuple[Node, subprocess.Popen[bytes]]) -> None:
    node, proc = frozen_node
    context = open_context(browser, "Cut Off", viewport={"width": 1200, "height": 900})
    try:
        page: Page = lobby_page(context, node.url)
        page.evaluate("(h) => { location.hash = h; }", "#/play/klondike/easy?seed=00")
        session = page.locator(".session[data-rev='0']")
        expect(session.locator(".board[data-game='klondike']")).to_be_visible()
        stock = session.locator(".pile.kind-stock")

        # Idle: the badge says so on its own.
        os.kill(proc.pid, signal.SIGSTOP)
        expect(page.locator("#net")).not_to_have_attribute("data-state", "online",
                                                           timeout=NOTICED_MS)
        os.kill(proc.pid, signal.SIGCONT)
        expect(page.locator("#net")).to_have_attribute("data-state", "online")

        # A move out when the network dies: "sending" over the board, then the badge.
        os.kill(proc.pid, signal.SIGSTOP)
        stock.click()
        note = page.locator(".session .sending")
        expect(note).to_be_visible(timeout=2_000)
        expect(note).to_have_text("Sending your move…")
        expect(page.locator("#net")).not_to_have_attribute("data-state", "online",
                                                           timeout=NOTICED_MS)
        assert badge(page) in ("reconnecting", "offline")

        # Back: online again, the move sent or read back, nothing left saying "sending".
        os.kill(proc.pid, signal.SIGCONT)
        expect(page.locator("#net")).to_have_attribute("data-state", "online")
        expect(note).to_be_hidden()
        page.locator(".session .pile.kind-stock").click()
        expect(page.locator(".session")).not_to_have_attribute("data-rev", "0")
    finally:
        context.close()
