"""The daily challenge in the browser: a ranked attempt (after its warning), finished by a
resign, puts the player on the day's leaderboard, where the page shows their position; the
deal then shows that result instead of offering "Ranked" again, and the unranked replay waits
for the day's reveal."""

from __future__ import annotations

import re

from playwright.sync_api import expect

WAIT = 30_000


def test_ranked_attempt_reaches_the_leaderboard(page_for) -> None:
    page = page_for("Dana")
    me = page.evaluate("samedeal.ctx.player.id")
    page.goto(page.url.split("#")[0] + "#/daily")
    row = page.locator(".daily-deals .daily-variant[data-game=golf][data-variant=easy]")
    expect(row).to_have_count(1, timeout=WAIT)
    expect(page.locator(".streak-days").first).to_have_text("0 days")

    # The warning comes first; nothing is dealt until it is confirmed.
    row.locator("[data-act=ranked]").click()
    warning = page.locator(".daily-confirm")
    expect(warning).to_contain_text("starts when the first card shows")
    assert page.locator(".daily-play .session").count() == 0
    # The commitment is on the deal's own view, not in the list.
    commitment = page.evaluate(
        "samedeal.net.request({type: 'daily.get'})"
        ".then((d) => d.deals.find((x) => x.game === 'golf' && x.variant === 'easy').commitment)")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    expect(page.locator(".daily-game .commitment code")).to_have_text(commitment)
    expect(page.locator(".daily-deals code")).to_have_count(0)
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
    # The all-day daily is an open board, and says what that means (docs/fairness.md).
    expect(board.locator(".board-format[data-format=open]")).to_contain_text("second account")
    expect(page.locator(".streak-days").first).to_have_text("1 day", timeout=WAIT)

    # The attempt is over: its result in place of the offer, here and in the list; the
    # server refuses a second one anyway (tests/server/test_daily.py).
    expect(page.locator(".daily-mode")).not_to_contain_text("clock is running")
    expect(row.locator(".daily-result")).to_contain_text(f"rank {rank} of")
    expect(row.locator("[data-act=ranked]")).to_have_count(0)
    expect(page.locator(".daily-game [data-act=ranked]")).to_have_count(0)
    refused = page.evaluate(
        "samedeal.net.request({type: 'daily.start', game: 'golf', variant: 'easy'})"
        ".then(() => 'dealt', (e) => e.code)")
    assert refused == "daily.played"
    # The unranked replay stays offered, and waits for the day's reveal.
    page.locator(".daily-game [data-act=replay]").click()
    expect(page.locator(".daily-play .refusal-note")).to_contain_text(
        "once the day's seeds are revealed", timeout=WAIT)
