"""The daily challenge in the browser: a ranked attempt (after its warning), finished by a
resign, puts the player on the day's leaderboard, where the page shows their position."""

from __future__ import annotations

import re

from playwright.sync_api import expect

WAIT = 30_000


def test_ranked_attempt_reaches_the_leaderboard(page_for) -> None:
    page = page_for("Dana")
    me = page.evaluate("samedeal.ctx.player.id")
    page.goto(page.url.split("#")[0] + "#/daily")
    row = page.locator(".daily-deals tr[data-game=golf][data-variant=easy]")
    expect(row).to_have_count(1, timeout=WAIT)
    expect(row.locator("code.commitment")).to_have_attribute("title", re.compile(r"^[0-9a-f]{64}$"))
    expect(page.locator(".streak-days").first).to_have_text("0 days")

    # The warning comes first; nothing is dealt until it is confirmed.
    row.locator("[data-act=ranked]").click()
    warning = page.locator(".daily-confirm")
    expect(warning).to_contain_text("starts when the first card shows")
    assert page.locator(".daily-play .session").count() == 0
    warning.locator("[data-act=confirm]").click()
    session = page.locator(".daily-play .session")
    expect(session).to_be_visible(timeout=WAIT)
    expect(page.locator(".daily-mode")).to_have_attribute("data-mode", "daily")

    # One move, then resign: the attempt is over and on the board.
    legal = page.evaluate(
        "(sid) => samedeal.net.request({type: 'session.get', session: sid})",
        session.get_attribute("data-session"))["legal"]
    assert legal
    session.locator("button.resign").click()
    page.locator(".resign-confirm [data-act=resign]").click()  # "Resign this ranked attempt?"
    expect(session).to_have_attribute("data-status", "lost", timeout=WAIT)

    board = page.locator(".leaderboard")
    mine = board.locator(f"tr.me[data-player={me}]").first
    expect(mine).to_be_visible(timeout=WAIT)
    rank = mine.get_attribute("data-rank")
    assert rank and int(rank) >= 1
    expect(board.locator(".board-position")).to_contain_text(f"Your position: {rank} of")
    expect(page.locator(".streak-days").first).to_have_text("1 day", timeout=WAIT)

    # A second ranked attempt is refused; so is the unranked replay, until the day's reveal.
    page.locator(".daily-game [data-act=ranked]").click()
    page.locator(".daily-confirm [data-act=confirm]").click()
    expect(page.locator(".daily-play .refusal-note")).to_contain_text("played today")
    page.locator(".daily-game [data-act=replay]").click()
    expect(page.locator(".daily-play .refusal-note")).to_contain_text(
        "once the day's seeds are revealed", timeout=WAIT)
