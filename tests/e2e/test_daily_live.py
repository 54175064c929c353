"""The daily page's leaderboard is published live: another player finishing (through the other
node) shows on the page without a reload, and the page reads no board over REST while its
socket is up."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.server.client import Node

WAIT = 30_000
GAME, VARIANT = "yukon", "easy"  # no other browser test plays this daily deal


def finish_elsewhere(node: Node, name: str) -> str:
    """A player of the other node plays today's ranked attempt and resigns; their id."""
    with httpx.Client(base_url=node.url + "/api/v1", timeout=10) as http:
        r = http.post("/players", json={"name": name, "kind": "human"})
        assert r.status_code == 201, r.text
        who = r.json()
        auth = {"authorization": f"Bearer {who['token']}"}
        r = http.post("/daily", json={"game": GAME, "variant": VARIANT}, headers=auth)
        assert r.status_code == 201, r.text
        r = http.post(f"/sessions/{r.json()['session']}/resign", json={}, headers=auth)
        assert r.status_code == 200, r.text
        return str(who["player"]["id"])


def test_the_daily_board_updates_when_another_player_finishes(page_for, nodes) -> None:
    page = page_for("Lena")
    board_reads: list[str] = []
    page.on("request", lambda r: board_reads.append(r.url) if "/boards/" in r.url else None)
    page.goto(page.url.split("#")[0] + f"#/daily?game={GAME}&variant={VARIANT}")
    board = page.locator(".daily-game .leaderboard")
    expect(board.locator("h3")).to_contain_text("Leaderboard", timeout=WAIT)
    page.evaluate("() => { window.notReloaded = true; }")
    before = int(board.locator("h3").inner_text().split("—")[1].split()[0])

    first = finish_elsewhere(nodes[1], "Otto")
    expect(board.locator(f"tr[data-player={first}]")).to_be_visible(timeout=WAIT)
    expect(board.locator("h3")).to_contain_text(f"{before + 1} player", timeout=WAIT)
    second = finish_elsewhere(nodes[0], "Pia")
    expect(board.locator(f"tr[data-player={second}]")).to_be_visible(timeout=WAIT)
    expect(board.locator("h3")).to_contain_text(f"{before + 2} players", timeout=WAIT)

    assert page.evaluate("() => window.notReloaded === true")  # the same page, updated
    assert board_reads == [], board_reads  # live over the socket: no board read over REST
