"""Challenges by name in two browsers, one player on each node: Ann challenges Bob from the
lobby's form; the notice reaches Bob on another page of the app; a decline tells Ann; a second
challenge accepted lands both in the one new race, which starts with the two of them."""

from __future__ import annotations

import secrets

from playwright.sync_api import Page, expect

from tests.e2e.test_race import wait_started

WAIT = 30_000


def challenge(page: Page, name: str) -> None:
    form = page.locator("form.challenge-form")
    form.locator("input[name=to]").fill(name)
    form.locator("select[name=rules]").select_option("golf/easy")
    form.get_by_role("button", name="Challenge").click()
    expect(form.locator(".challenge-status")).to_contain_text("Challenge sent", timeout=WAIT)


def test_challenge_declined_then_accepted_between_two_browsers(page_for, web2: str) -> None:
    ann_name, bob_name = f"Ann {secrets.token_hex(3)}", f"Bob {secrets.token_hex(3)}"
    ann = page_for(ann_name)
    bob = page_for(bob_name, web2)
    bob.goto(f"{web2}/#/games")  # anywhere in the app
    bob.wait_for_selector(".page")

    challenge(ann, bob_name.lower())
    offer = bob.locator(".challenges .challenge-offer")
    expect(offer).to_contain_text(f"{ann_name} challenges you to Golf", timeout=WAIT)
    offer.locator("[data-act=decline]").click()
    expect(offer).to_have_count(0)
    expect(ann.locator(".challenges .challenge-told")).to_contain_text(
        f"{bob_name} declined your challenge", timeout=WAIT)
    ann.locator(".challenge-told [data-act=dismiss]").click()

    challenge(ann, bob_name)
    expect(offer).to_have_count(1, timeout=WAIT)
    offer.locator("[data-act=accept]").click()
    # Both land on the one race; it starts once Ann has joined it.
    bob.wait_for_url("**/#/race/*", timeout=WAIT)
    rid = bob.url.rsplit("/", 1)[1]
    ann.wait_for_url(f"**/#/race/{rid}", timeout=WAIT)
    for page in (ann, bob):
        wait_started(page)
    race = ann.evaluate("(r) => samedeal.net.rest('GET', `/races/${r}`)", rid)
    ids = {ann.evaluate("samedeal.ctx.player.id"), bob.evaluate("samedeal.ctx.player.id")}
    assert {e["player"] for e in race["entrants"]} == ids
    assert race["state"] == "running" and race["seats"] == 2


def test_a_challenge_withdrawn_then_one_declined_with_a_block(page_for, web2: str) -> None:
    """Withdraw takes the offer off the other player's page; Decline and block makes the
    next challenge from the same player refused, in words."""
    ann_name, bob_name = f"Ann {secrets.token_hex(3)}", f"Bob {secrets.token_hex(3)}"
    ann = page_for(ann_name)
    bob = page_for(bob_name, web2)
    bob.goto(f"{web2}/#/games")
    bob.wait_for_selector(".page")
    offer = bob.locator(".challenges .challenge-offer")
    form = ann.locator("form.challenge-form")

    challenge(ann, bob_name)
    expect(offer).to_have_count(1, timeout=WAIT)
    form.locator("[data-act=withdraw]").click()
    expect(form.locator(".challenge-status")).to_contain_text("withdrawn", timeout=WAIT)
    expect(offer).to_have_count(0, timeout=WAIT)

    challenge(ann, bob_name)
    expect(offer).to_have_count(1, timeout=WAIT)
    offer.locator("[data-act=block]").click()
    expect(offer).to_have_count(0)
    expect(form.locator("[data-act=withdraw]")).to_have_count(0, timeout=WAIT)
    form.get_by_role("button", name="Challenge").click()
    expect(form.locator(".challenge-status")).to_contain_text(
        "does not take challenges from you", timeout=WAIT)
    expect(offer).to_have_count(0)
