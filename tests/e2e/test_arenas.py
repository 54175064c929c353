"""An arena in the browser: a player opens an arena made with the operator's command, joins
it, sees its round begin on the page (the round's race, their own board), plays it (resigns),
and sees the live arena board and the winner, without a reload."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import make_arena

WAIT = 30_000
GAME, VARIANT = "cribbage-square", "difficult"


def test_a_player_joins_an_arena_and_plays_its_round(page_for, redis_url) -> None:
    page = page_for("Arlo")
    aid = make_arena(redis_url, GAME, VARIANT)
    page.goto(page.url.split("#")[0] + "#/arenas")
    page.locator(f".arena-item[data-arena={aid}] a").click()
    arena = page.locator(f".arena[data-arena={aid}]")
    expect(arena.locator("h1")).to_have_text("Browser arena", timeout=WAIT)
    page.evaluate("() => { window.notReloaded = true; }")
    arena.locator("button[data-act=arena-join]").click()
    expect(arena.locator("button[data-act=arena-leave]")).to_be_visible(timeout=WAIT)
    me = page.evaluate("() => JSON.parse(localStorage.getItem('samedeal.player')).id")

    # The round begins on this page: its race, with the player's own board in it.
    round_ = arena.locator(".arena-race[data-round='0']")
    expect(round_).to_be_visible(timeout=WAIT)
    resign = round_.locator("button.resign")
    expect(resign).to_be_enabled(timeout=WAIT)
    resign.click()
    page.locator("dialog.resign-confirm button[data-act=resign]").click()

    # The arena board shows the round's points (a resignation scores 0), then the winner.
    row = arena.locator(f".arena-board tr[data-player={me}]")
    expect(row.locator("td.points")).to_have_text("0", timeout=WAIT)
    expect(arena.locator(".arena-winner")).to_contain_text("Winner: Arlo", timeout=WAIT)
    expect(arena.locator(".arena-state")).to_have_text("ended")
    assert page.evaluate("() => window.notReloaded === true")
