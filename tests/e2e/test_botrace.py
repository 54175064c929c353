"""Racing a bot from the lobby: one click starts a race against a server-run bot, on the
rule set chosen, and the race page shows the bot as an entrant whose moves count up live."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

WAIT = 30_000


def test_one_click_in_the_lobby_races_a_bot_whose_progress_shows(
        page_for: Callable[..., Page]) -> None:
    page = page_for("Robin")
    form = page.locator("form.race-bot")
    form.locator("select[name=game]").select_option("klondike")
    form.locator("select[name=variant]").select_option("easy")
    expect(form.locator("select[name=strength]")).to_have_value("medium")  # the default
    form.get_by_role("button", name="Race a bot").click()
    expect(page.locator(".race .race-state")).to_have_text("running", timeout=WAIT)
    expect(page.locator(".race")).to_contain_text("against Medium bot (medium)")
    bot = page.locator("tr", has=page.locator("span.kind"))
    expect(bot.locator("th")).to_contain_text("Medium bot")
    expect(page.locator(".race-board .session")).to_be_visible(timeout=WAIT)
    # The bot moves at a person's pace (the countdown, then about 1.6 s a move): its move
    # count rises on the page as its race.progress events arrive.
    expect(bot.locator("td.moves")).to_have_text(re.compile(r"^[1-9]\d*$"), timeout=WAIT)
    page.locator(".race-board button.resign").click()  # the bot resigns too; the race ends
    page.locator(".resign-confirm [data-act=resign]").click()
    expect(page.locator(".race .race-state")).to_have_text("ended", timeout=WAIT)
    # Its end offers the same again: another race against the bot, on a new deal.
    first = page.url
    page.locator("[data-act=race-bot-again]").click()
    expect(page.locator(".race .race-state")).to_have_text("running", timeout=WAIT)
    assert page.url != first
    page.locator(".race-board button.resign").click()
    page.locator(".resign-confirm [data-act=resign]").click()
    expect(page.locator(".race .race-state")).to_have_text("ended", timeout=WAIT)
