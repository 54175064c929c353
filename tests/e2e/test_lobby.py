"""The lobby's forms come from the catalog: the match form offers exactly the rule sets whose
description has a `match` and takes each one's seat range from it; the race form starts on the
catalog's first rule set, and after a race is created on the rule set last chosen."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

WAIT = 30_000
OPTIONS = "(s) => [...document.querySelector(s).options].map((o) => o.value)"


def test_the_match_form_follows_the_descriptions(page_for: Callable[..., Page]) -> None:
    page = page_for("Lin")
    catalog = page.evaluate("samedeal.ctx.catalog")
    matchable = [r for r in catalog if r["match"]]
    assert matchable, "no rule set in the catalog can be played as a match"
    games = list(dict.fromkeys(r["id"] for r in matchable))
    assert page.evaluate(OPTIONS, "form.create-match select[name=game]") == games
    form = page.locator("form.create-match")
    seats = form.locator("input[name=seats]")
    for r in matchable:
        form.locator("select[name=game]").select_option(r["id"])
        form.locator("select[name=variant]").select_option(r["variant"])
        lo, hi = r["match"]["seats"]
        expect(seats).to_have_attribute("min", str(lo))
        expect(seats).to_have_attribute("max", str(hi))
        value = int(seats.input_value())
        assert lo <= value <= hi, (r["id"], r["variant"], value)


def test_the_race_form_keeps_the_last_choice(page_for: Callable[..., Page]) -> None:
    page = page_for("Lou")
    catalog = page.evaluate("samedeal.ctx.catalog")
    solo = [r for r in catalog if r["players"][0] == 1]
    form = page.locator("form.create-race")
    expect(form.locator("select[name=game]")).to_have_value(solo[0]["id"])

    # A race of another rule set: the form offers that one next time.
    other = next(r for r in solo[1:] if r["id"] != solo[0]["id"] and r["variant"] != "easy")
    form.locator("select[name=game]").select_option(other["id"])
    form.locator("select[name=variant]").select_option(other["variant"])
    form.get_by_role("button", name="Create race").click()
    expect(page.locator(".race .race-state")).to_have_text("open", timeout=WAIT)
    page.evaluate("() => { location.hash = '#/'; }")
    form = page.locator(".lobby form.create-race")
    expect(form.locator("select[name=game]")).to_have_value(other["id"])
    expect(form.locator("select[name=variant]")).to_have_value(other["variant"])
