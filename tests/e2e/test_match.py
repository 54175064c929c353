"""A Bowling match between two browsers, one bowler on each node: created in the lobby,
joined through its link; the second bowler's page hears only that the first bowler's turn
passed, not its pins, its cards nor how many there were (the second bowler bowls the same
deck next), and the frame lands on both scorecards once both have bowled it."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import create_match_in_lobby

WAIT = 30_000
#: The card bowled has left the page's stock: the next card is up, or the turn passed.
GONE = "(c) => !document.querySelector(`.match-board .pile[data-pile=s] .card[data-card='${c}']`)"


def match_state(page: Page, mid: str) -> dict[str, Any]:
    return page.evaluate("(m) => samedeal.net.request({type: 'match.get', match: m})", mid)


def bowl(page: Page, move: str) -> None:
    """Place the card being bowled: click it on the stock, then click the pin or ball pile."""
    board = page.locator(".match-board")
    board.locator(".pile[data-pile=s] > .card:not(.back)").click()
    board.locator(f".pile[data-pile={move.split('-')[1]}]").click()


def test_a_bowling_turn_updates_the_other_bowlers_scorecard(page_for, web2: str) -> None:
    ann = page_for("Ann")
    mid = create_match_in_lobby(ann, "bowling")

    bob = page_for("Bob", web2)
    bob.goto(f"{web2}/#/match/{mid}")
    bob.locator("[data-act=join]").click()
    for page in (ann, bob):
        expect(page.locator(".match-state")).to_have_text("running", timeout=WAIT)
    # Seats are in joining order: Ann bowls first, and both pages say so.
    expect(ann.locator(".match-turn")).to_contain_text("Your turn", timeout=WAIT)
    expect(bob.locator(".match-turn")).to_contain_text("Ann is bowling")
    frame = bob.locator(".scorecard tr[data-bowler='1'] td[data-frame='1']")

    # Ann bowls her first frame card by card; Bob's page hears nothing of her cards, not
    # even how many: only that her turn passed, once.
    mine = ann.locator(".scorecard tr[data-bowler='1'] td[data-frame='1']")
    begun = match_state(bob, mid)["seq"]
    placed = 0
    while True:
        m = match_state(ann, mid)
        if m["turn"]["bowler"] != 1:
            break
        # Bob watches Ann's lane face down: this frame's deck is his next
        expect(bob.locator(".match-board .pile[data-pile=s] .card")).not_to_have_count(0)
        expect(bob.locator(".match-board .card:not(.back)")).to_have_count(0)
        top = m["you"]["view"]["piles"]["s"]["up"][0]
        bowl(ann, m["you"]["legal"][0])
        placed += 1
        # Ann's page has her placement (the reply to it): her next card, or her turn over
        ann.wait_for_function(GONE, arg=top)
        expect(ann.locator(".match-log li").first).to_contain_text("Ann bowled")
        if match_state(ann, mid)["turn"]["bowler"] == 1:  # a card that kept her turn
            assert bob.locator(".match").get_attribute("data-seq") == str(begun)
            expect(bob.locator(".match-log")).not_to_contain_text("Ann has bowled")
        if placed == 1:  # Ann sees her ball in progress; Bob only that she is bowling
            expect(mine.locator(".pins")).to_contain_text(re.compile(r"ball \d+: \d+ pin"))
            expect(frame.locator(".pins")).to_have_text("bowling…")
            expect(frame.locator(".marks")).to_have_text("")
    bob.wait_for_function("(s) => +document.querySelector('.match').dataset.seq > s",
                          arg=begun)
    expect(bob.locator(".match-log li").first).to_have_text("Ann has bowled frame 1.")

    # Ann's frame is over, not frame 1: Bob's turn. Ann keeps her own marks; Bob's page
    # shows her frame hidden until he has bowled it, and never told him a pin.
    expect(bob.locator(".match-turn")).to_contain_text("Your turn", timeout=WAIT)
    expect(mine.locator(".marks")).not_to_have_text("")
    expect(frame.locator(".pins")).to_have_text("…")
    expect(frame.locator(".marks")).to_have_text("")
    expect(bob.locator(".match-log")).not_to_contain_text("Ann bowled")
    expect(ann.locator(".match-turn")).to_contain_text("Bob is bowling")
    # Bob's own lane shows him the card he bowls; Ann now sees it face down
    expect(bob.locator(".match-board .pile[data-pile=s] > .card:not(.back)")).to_have_count(1)
    expect(ann.locator(".match-board .card:not(.back)")).to_have_count(0)
    expect(ann.locator(".match-players li.turn")).to_contain_text("Bob")
    expect(bob.locator(".frame-cards")).to_have_count(0)  # frame 1 is not complete yet

    # Bob bowls his frame 1: frame 1 is complete, and both pages show its cards, bowler by
    # bowler, the same cards in the same order (one deck for the frame).
    while True:
        m = match_state(bob, mid)
        if m["turn"]["bowler"] != 2:
            break
        top = m["you"]["view"]["piles"]["s"]["up"][0]
        bowl(bob, m["you"]["legal"][0])
        bob.wait_for_function(GONE, arg=top)
    for page in (ann, bob):
        cards = page.locator(".frame-cards[data-frame='1']")
        expect(cards.locator(".frame-lane")).to_have_count(2, timeout=WAIT)
        expect(cards.locator(".frame-lane[data-bowler='1'] .who")).to_have_text("Ann")
    expect(frame.locator(".marks")).not_to_have_text("")  # Ann's frame, on Bob's page now
    expect(frame.locator(".pins")).to_have_count(0)
    lanes = [ann.locator(f".frame-cards .frame-lane[data-bowler='{b}'] .card")
             for b in (1, 2)]
    first = [lane.evaluate_all("(es) => es.map((e) => e.dataset.card)") for lane in lanes]
    n = min(len(first[0]), len(first[1]))
    assert n and first[0][:n] == first[1][:n]
