"""The end of a race in two browsers, one player on each node: the progress track moving with
the other entrant's play (above the board on a phone), the fairness proof with the browser's own
check, "Race again" making and joining a new race on the same rule set and settings, and a
rematch asked by one and accepted by the other, both then racing the new deal; for a match, the
proof and a rematch declined, then accepted after all."""

from __future__ import annotations

import hashlib
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS, create_match_in_lobby
from tests.e2e.test_race import on_node, play, resign, wait_started

WAIT = 30_000


def create_race(page: Page, game: str) -> str:
    """A two-seat race of ``game`` (easy), made with the lobby's form; its share link."""
    form = page.locator("form.create-race")
    form.locator("select[name=game]").select_option(game)
    form.locator("select[name=variant]").select_option("easy")
    form.locator("input[name=seats]").fill("2")
    form.get_by_role("button", name="Create race").click()
    expect(page.locator(".race .race-state")).to_have_text("open", timeout=WAIT)
    return page.locator("input.share-url, #share input").first.input_value()


def race_of(page: Page) -> str:
    return page.url.rsplit("/", 1)[1]


def summary(page: Page, race: str) -> dict[str, Any]:
    """The race as the server has it (REST, with the page's own token)."""
    return page.evaluate("(r) => samedeal.net.rest('GET', `/races/${r}`)", race)


def test_progress_proof_race_again_and_rematch(page_for, web2: str) -> None:
    ann = page_for("Ann")
    # Golf: every stock turn puts a card on the foundation, so a move always shows on the track.
    link = create_race(ann, "golf")
    old = link.rsplit("/", 1)[1]
    bob = page_for("Bob", web2)
    bob.goto(on_node(link, web2))
    bob.locator("[data-act=join]").click()
    for page in (ann, bob):
        wait_started(page)
    ann_id = ann.evaluate("samedeal.ctx.player.id")
    bob_id = bob.evaluate("samedeal.ctx.player.id")

    # The track: a lane per entrant, Ann's own highlighted; Bob's count moves with his play.
    lanes = ann.locator(".race-track .track-lane")
    expect(lanes).to_have_count(2)
    expect(ann.locator(f".track-lane.me[data-player={ann_id}]")).to_be_visible()
    bobs = ann.locator(f".track-lane[data-player={bob_id}]")
    before = int(bobs.get_attribute("data-cards") or "-1")
    assert before >= 0
    expect(bobs.locator(".track-count")).to_have_text(f"{before}/52")
    play(bob, "s")
    expect(bobs).to_have_attribute("data-cards", str(before + 1), timeout=WAIT)
    expect(bobs.locator(".track-count")).to_have_text(f"{before + 1}/52")
    assert bobs.locator(".card").count() == 0  # counts, never cards
    # On a phone the track sits above the board (pictures kept for review, not compared).
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "race-track.png"))
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.screenshot(path=str(ARTIFACTS / "race-track-phone.png"))
    track_box = ann.locator(".race-track").bounding_box()
    board_box = ann.locator(".race-board").bounding_box()
    assert track_box and board_box and track_box["y"] + track_box["height"] <= board_box["y"] + 1
    ann.set_viewport_size({"width": 1200, "height": 900})

    # Both resign: the race is over, each sees the proof, checked in the browser.
    resign(bob)
    expect(bobs).to_have_attribute("data-status", "resigned", timeout=WAIT)
    expect(bobs.locator(".track-mark")).to_have_text("resigned")
    resign(ann)
    commitment = summary(ann, old)["commitment"]
    for page in (ann, bob):
        proof = page.locator(".race-results .proof")
        expect(proof).to_be_visible(timeout=WAIT)
        expect(proof.locator(".proof-before")).to_contain_text(
            f"Before the race the server committed to the deal: {commitment}")
        expect(proof.locator(".seed-check")).to_have_attribute("data-ok", "yes", timeout=WAIT)
        expect(proof.locator(".seed-check")).to_have_text(
            f"Your browser checked SHA-256(seed) = {commitment} ✓")
        seed = proof.locator("code.seed").inner_text()
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        expect(proof.locator("a.verify-link")).to_have_attribute("href", f"#/replay/race/{old}")
    proof.scroll_into_view_if_needed()
    bob.screenshot(path=str(ARTIFACTS / "race-end.png"), full_page=True)

    # Race again: a new open race, the same rule set and settings, Ann seated in it.
    ann.locator("[data-act=race-again]").click()
    expect(ann).not_to_have_url(link, timeout=WAIT)
    again = race_of(ann)
    expect(ann.locator(".race .race-state")).to_have_text("open", timeout=WAIT)
    expect(ann.locator("[data-act=leave]")).to_be_visible()
    made, was = summary(ann, again), summary(ann, old)
    assert again != old and made["state"] == "open"
    for key in ("game", "variant", "seats", "start", "time_limit", "countdown"):
        assert made[key] == was[key], key
    assert [e["player"] for e in made["entrants"]] == [ann_id]
    ann.go_back()
    expect(ann.locator(".race-results .proof")).to_be_visible(timeout=WAIT)

    # Bob asks for a rematch; Ann is asked, accepts, and both race the new deal.
    bob.locator("[data-act=rematch]").click()
    expect(bob.locator(".race .race-state")).to_have_text("open", timeout=WAIT)
    rematch = race_of(bob)
    assert rematch not in (old, again)
    offer = ann.locator(".rematch-offer")
    expect(offer).to_contain_text("Bob asks for a rematch", timeout=WAIT)
    ann.screenshot(path=str(ARTIFACTS / "race-rematch-offer.png"))
    offer.locator("[data-act=accept]").click()
    expect(ann).to_have_url(f"{ann.url.split('#')[0]}#/race/{rematch}", timeout=WAIT)
    for page in (ann, bob):
        wait_started(page)
    new = summary(ann, rematch)
    assert {e["player"] for e in new["entrants"]} == {ann_id, bob_id}
    assert new["rematch_of"] == old and new["commitment"] != commitment
    assert summary(bob, old)["rematch"] == rematch


def test_a_match_rematch_declined_then_accepted(page_for, web2: str) -> None:
    ann = page_for("Ann")
    mid = create_match_in_lobby(ann, "poker-square")
    bob = page_for("Bob", web2)
    bob.goto(f"{web2}/#/match/{mid}")
    bob.locator("[data-act=join]").click()
    for page in (ann, bob):
        expect(page.locator(".match-state")).to_have_text("running", timeout=WAIT)
        page.on("dialog", lambda d: d.accept())
        page.locator("[data-act=leave]").click()  # leaving for good: everyone left, it is over
    for page in (ann, bob):
        expect(page.locator(".match-state")).to_have_text("ended", timeout=WAIT)
        proof = page.locator(".match-results .proof")
        expect(proof.locator(".proof-before")).to_contain_text(
            "Before the match the server committed to the deal")
        expect(proof.locator(".seed-check")).to_have_attribute("data-ok", "yes", timeout=WAIT)
        expect(proof.locator("a.verify-link")).to_have_attribute("href", f"#/replay/match/{mid}")
    assert bob.locator("[data-act=race-again]").count() == 0  # matches: Rematch only

    ann.locator("[data-act=rematch]").click()
    expect(ann.locator(".match-state")).to_have_text("open", timeout=WAIT)
    rematch = ann.url.rsplit("/", 1)[1]
    assert rematch != mid
    offer = bob.locator(".rematch-offer")
    expect(offer).to_contain_text("Ann asks for a rematch", timeout=WAIT)
    expect(bob.locator(".match-log li").first).to_contain_text("Ann asks for a rematch")
    # Declining only hides the question; Bob can still change his mind with Rematch.
    offer.locator("[data-act=decline]").click()
    expect(offer).to_be_hidden()
    bob.locator("[data-act=rematch]").click()
    expect(bob).to_have_url(f"{web2}/#/match/{rematch}", timeout=WAIT)
    for page in (ann, bob):
        expect(page.locator(".match-state")).to_have_text("running", timeout=WAIT)
