"""The Leagues page in a real Chromium against two real nodes: one player creates a league
from the nav, a second browser context (on the other node) joins with the invite code, and the
league's page shows both members to each; the owner's page learns of the new member live (its
week board, followed over the socket) and the owner removes them."""

from __future__ import annotations

from playwright.sync_api import expect

WAIT = 30_000


def test_create_a_league_and_a_friend_joins_by_code(page_for, web2) -> None:
    ann = page_for("Ann")
    ann.get_by_role("link", name="Leagues").click()
    create = ann.locator("form.create-league")
    create.locator("input[name=name]").fill("Tea club")
    create.get_by_role("button", name="Create a league").click()
    expect(ann.locator(".league-head h2")).to_have_text("Tea club", timeout=WAIT)
    code = ann.locator(".league-code code").inner_text()
    ann_id = ann.evaluate("() => window.samedeal.ctx.player.id")
    expect(ann.locator(f".league-week tr[data-player={ann_id}]")).to_be_visible(timeout=WAIT)

    bob = page_for("Bob", web2)  # the other node
    bob.goto(bob.url.split("#")[0] + "#/leagues")
    join = bob.locator("form.join-league")
    join.locator("input[name=code]").fill(code)
    join.get_by_role("button", name="Join").click()
    expect(bob.locator(".league-head h2")).to_have_text("Tea club", timeout=WAIT)
    bob_id = bob.evaluate("() => window.samedeal.ctx.player.id")
    for page in (bob, ann):  # Ann's page learns of Bob live, without a reload
        for who in (ann_id, bob_id):
            member = page.locator(f".league-members li[data-player={who}]")
            expect(member).to_be_visible(timeout=WAIT)
    expect(ann.locator(f".league-week tr[data-player={bob_id}]")).to_be_visible(timeout=WAIT)
    expect(bob.locator(".league-code code")).to_have_text(code)
    # Bob's own list of leagues has it; a wrong code is refused in words.
    bob.goto(bob.url.split("#")[0] + "#/leagues")
    expect(bob.locator(".league-list li a")).to_have_text(["Tea club"], timeout=WAIT)
    join = bob.locator("form.join-league")
    join.locator("input[name=code]").fill("wrong-code")
    join.get_by_role("button", name="Join").click()
    expect(join.locator(".form-status")).to_contain_text("invite code", timeout=WAIT)

    ann.locator(f".league-members li[data-player={bob_id}] button[data-act=remove]").click()
    expect(ann.locator(f".league-members li[data-player={bob_id}]")).to_have_count(0, timeout=WAIT)
    assert ann.locator(f".league-members li[data-player={ann_id}] button").count() == 0
