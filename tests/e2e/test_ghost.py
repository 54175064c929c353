"""A ghost race in the browser: a first entrant's run is recorded over REST, then a player
finds the ghost race in the lobby, enters it, plays on their own board and sees the first
entrant's run move beside it, at the moments it happened (ghost.progress), on the ranking."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS

WAIT = 30_000


def first_run(base: str) -> tuple[str, str]:
    """A ghost race of Klondike and its first entrant's run, made over REST: three moves half
    a second apart, then a resignation. (ghost id, the entrant's player id)."""
    with httpx.Client(base_url=base + "/api/v1", timeout=10) as http:
        r = http.post("/players", json={"name": "Ghosty", "kind": "human"})
        player, token = r.json()["player"]["id"], r.json()["token"]
        http.headers["authorization"] = f"Bearer {token}"
        g = http.post("/ghosts", json={"game": "klondike", "variant": "easy", "countdown": 0,
                                       "time_limit": 120}).json()
        entry = http.post(f"/ghosts/{g['ghost']}/enter").json()
        session = entry["session"]
        for _ in range(3):
            time.sleep(0.5)
            session = http.post(f"/sessions/{session['session']}/moves",
                                json={"move": session["legal"][0]}).json()
        time.sleep(0.5)
        assert http.post(f"/sessions/{session['session']}/resign").status_code == 200
        return g["ghost"], player


def test_enter_a_ghost_race_and_see_the_ghost_move(page_for: Callable[..., Page],
                                                  web: str, web2: str) -> None:
    gid, ghost = first_run(web2)  # recorded through the other node
    page = page_for("Walker")
    entry = page.locator(f".open-ghosts li[data-ghost={gid}]")
    expect(entry).to_be_visible(timeout=WAIT)  # the lobby lists it (it refreshes)
    expect(entry).to_contain_text("Ghosty")  # the ghost to beat
    entry.get_by_role("link", name="Enter").click()
    expect(page.locator(".ghost .ghost-state")).to_have_text("open", timeout=WAIT)
    expect(page.locator(".ghost-to-beat")).to_contain_text("Ghosty")
    page.get_by_role("button", name="Enter").click()
    expect(page.locator(".ghost-board .session")).to_be_visible(timeout=WAIT)
    lane = page.locator(f".race-track .track-lane[data-player={ghost}]")
    expect(lane).to_be_visible(timeout=WAIT)  # the first step, half a second into the run
    expect(lane).to_have_attribute("data-status", "playing")
    expect(lane.locator(".track-name")).to_have_text("Ghosty")
    # ...and it moves on, to its resignation two seconds into the run.
    expect(lane).not_to_have_attribute("data-status", "playing", timeout=WAIT)
    expect(page.locator(f".ghost-ranking tr[data-player={ghost}]")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "ghost.png"))
