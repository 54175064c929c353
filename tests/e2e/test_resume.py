"""A dropped connection resumes mid-race: the page reconnects by itself, says `online` again,
catches up the opponent's moves made while it was away, and the player's next move works."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.e2e.test_race import create_race_in_lobby, wait_started

WAIT = 30_000


def test_a_dropped_connection_resumes_the_race(page_for, web2: str) -> None:
    ann = page_for("Ann")
    race = create_race_in_lobby(ann).rsplit("/", 1)[1]

    # Bob plays over REST on the other node: no socket of his is involved.
    with httpx.Client(base_url=web2, timeout=10) as http:
        reply = http.post("/api/v1/players", json={"name": "Bob", "kind": "human"}).json()
        bob = reply["player"]["id"]
        http.headers["authorization"] = f"Bearer {reply['token']}"
        http.post(f"/api/v1/races/{race}/join").raise_for_status()
        wait_started(ann)
        session = f"{race}.{bob}"

        # The drop, and Bob's moves while Ann's page is away (or reconnecting).
        ann.evaluate("samedeal.net.drop()")
        for _ in range(3):
            http.post(f"/api/v1/sessions/{session}/moves", json={"move": "s"}).raise_for_status()

    expect(ann.locator("#net")).to_have_text("online", timeout=WAIT)
    bob_row = ann.locator(f".race-progress tr[data-player={bob}]")
    expect(bob_row.locator("td.moves")).to_have_text("3", timeout=WAIT)

    # Ann's next move goes through on the new socket and shows on her board and in her row.
    board = ann.locator(".race-board .session")
    rev = int(board.get_attribute("data-rev") or "0")
    board.locator(".pile[data-pile=s]").click()
    expect(board).to_have_attribute("data-rev", str(rev + 1), timeout=WAIT)
    me = ann.evaluate("samedeal.ctx.player.id")
    expect(ann.locator(f".race-progress tr[data-player={me}] td.moves")).to_have_text(
        str(rev + 1), timeout=WAIT)
    expect(ann.locator(".race-board .refusal")).to_be_hidden()
