"""The daily page's leaderboard is published live: another player finishing (through the other
node) shows on the page without a reload, and the page reads no board over REST while its
socket is up."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.server.client import Node

WAIT = 30_000


def quiet_deal(node: Node) -> tuple[str, str]:
    """A rule set of today's daily deals whose board nobody is on yet: the tests that ran
    before on this worker's store may have filled any board (a server test of live boards
    puts twenty results on one), and a newcomer's resigned result would then rank below the
    rows the page shows."""
    with httpx.Client(base_url=node.url + "/api/v1", timeout=10) as http:
        r = http.post("/players", json={"name": "Looker", "kind": "human"})
        auth = {"authorization": f"Bearer {r.json()['token']}"}
        for d in http.get("/daily", headers=auth).json()["deals"]:
            board = http.get(f"/boards/daily/today/{d['game']}/{d['variant']}",
                             headers=auth).json()
            if board["total"] == 0:
                return d["game"], d["variant"]
    raise AssertionError("every daily board has results already")


def finish_elsewhere(node: Node, name: str, deal: tuple[str, str]) -> str:
    """A player of the other node plays today's ranked attempt and resigns; their id."""
    with httpx.Client(base_url=node.url + "/api/v1", timeout=10) as http:
        r = http.post("/players", json={"name": name, "kind": "human"})
        assert r.status_code == 201, r.text
        who = r.json()
        auth = {"authorization": f"Bearer {who['token']}"}
        r = http.post("/daily", json={"game": deal[0], "variant": deal[1]}, headers=auth)
        assert r.status_code == 201, r.text
        r = http.post(f"/sessions/{r.json()['session']}/resign", json={}, headers=auth)
        assert r.status_code == 200, r.text
        return str(who["player"]["id"])


def test_the_daily_board_updates_when_another_player_finishes(page_for, nodes) -> None:
    page = page_for("Lena")
    board_reads: list[str] = []
    page.on("request", lambda r: board_reads.append(r.url) if "/boards/" in r.url else None)
    deal = quiet_deal(nodes[0])
    page.goto(page.url.split("#")[0] + f"#/daily?game={deal[0]}&variant={deal[1]}")
    board = page.locator(".daily-game .leaderboard")
    expect(board.locator("h3")).to_contain_text("Leaderboard", timeout=WAIT)
    page.evaluate("() => { window.notReloaded = true; }")
    before = int(board.locator("h3").inner_text().split("—")[1].split()[0])

    first = finish_elsewhere(nodes[1], "Otto", deal)
    expect(board.locator(f"tr[data-player={first}]")).to_be_visible(timeout=WAIT)
    expect(board.locator("h3")).to_contain_text(f"{before + 1} player", timeout=WAIT)
    second = finish_elsewhere(nodes[0], "Pia", deal)
    expect(board.locator(f"tr[data-player={second}]")).to_be_visible(timeout=WAIT)
    expect(board.locator("h3")).to_contain_text(f"{before + 2} players", timeout=WAIT)

    assert page.evaluate("() => window.notReloaded === true")  # the same page, updated
    assert board_reads == [], board_reads  # live over the socket: no board read over REST
