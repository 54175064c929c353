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
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from redis import Redis

from tests.conftest import FAST, start_node, stop_node
from tests.e2e.conftest import create_match_in_lobby, lobby_page, open_context
from tests.server.client import Node

# Well under the 45 s the badge used to say "online" on a dead network, well over the few
# seconds it takes now (a ping every 4 s, dropped after 7 s of silence; 4 s with a move out).
NOTICED_MS = 15_000
WAIT = 30_000


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


def match_state(page: Page, mid: str) -> dict[str, Any]:
    return page.evaluate("(m) => samedeal.net.request({type: 'match.get', match: m})", mid)


def place(page: Page, move: str) -> None:
    """The card on the stock, then the pile it goes to (a pin, a ball, a space)."""
    board = page.locator(".match-board")
    src, _, dst = move.partition("-")
    board.locator(f".pile[data-pile={src}] > .card:not(.back)").click()
    board.locator(f".pile[data-pile={dst}]").click()


@pytest.mark.parametrize("game", ["bowling", "poker-square"])
def test_a_match_card_says_it_is_sending_on_a_dead_network(
        browser: Browser, frozen_node: tuple[Node, subprocess.Popen[bytes]], game: str) -> None:
    """The match page (a Bowling lane in turns, a called card on a grid) marks a card in
    flight as the practice board does, and the badge leaves "online" within seconds."""
    node, proc = frozen_node
    context = open_context(browser, "Cut Off", viewport={"width": 1200, "height": 900})
    try:
        page: Page = lobby_page(context, node.url)
        mid = create_match_in_lobby(page, game)
        with httpx.Client(base_url=node.url + "/api/v1", timeout=10) as bob:
            reply = bob.post("/players", json={"name": "Bob", "kind": "human"}).json()
            bob.headers["authorization"] = f"Bearer {reply['token']}"
            bob.post(f"/matches/{mid}/join").raise_for_status()
        expect(page.locator(".match-turn")).to_contain_text("Your turn", timeout=WAIT)
        m = match_state(page, mid)
        legal = m["you"]["legal"]
        note = page.locator(".match-play > .sending")
        expect(note).to_be_hidden()

        os.kill(proc.pid, signal.SIGSTOP)
        place(page, legal[0])
        expect(note).to_be_visible(timeout=2_000)
        expect(note).to_have_text("Sending your move…")
        expect(page.locator("#net")).not_to_have_attribute("data-state", "online",
                                                           timeout=NOTICED_MS)
        assert badge(page) in ("reconnecting", "offline")
        # The board did not move under the note: it lies over the board's top.
        assert note.evaluate("(n) => getComputedStyle(n).position") == "absolute"

        # Back: online, nothing saying "sending", and the card placed (again if it was lost).
        os.kill(proc.pid, signal.SIGCONT)
        expect(page.locator("#net")).to_have_attribute("data-state", "online")
        expect(note).to_be_hidden()
        def placed() -> bool:
            now = match_state(page, mid)
            return bool(now["you"]["legal"] != legal or now["seq"] != m["seq"])

        if not placed():  # lost with the socket: the player places it again
            page.reload()
            expect(page.locator(".match-turn")).to_contain_text("Your turn", timeout=WAIT)
            place(page, legal[0])
        page.wait_for_timeout(200)
        for _ in range(50):
            if placed():
                break
            page.wait_for_timeout(200)
        assert placed()
        expect(note).to_be_hidden()
    finally:
        context.close()
