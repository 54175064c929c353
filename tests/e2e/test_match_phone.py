"""Bowling on a phone: with the lane scrolled into view, the lane and the scorecard are both on
the screen at once, upright (the scorecard under the lane, ten frames across without scrolling
sideways) and held sideways (the scorecard beside the lane); and a refused placement's
sentence leaves the lane where it was."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.e2e.conftest import ARTIFACTS

PHONES: dict[str, ViewportSize] = {
    "upright": {"width": 390, "height": 844},
    "sideways": {"width": 844, "height": 390},
}

# The lane brought to the top of the screen; then where the lane and the scorecard are.
SCROLLED = """
() => {
  const lane = document.querySelector('.match-board .board');
  scrollTo(0, lane.getBoundingClientRect().top + scrollY - 4);
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const scores = document.querySelector('.match-scores');
  return {lane: box(lane), card: box(scores.querySelector('.scorecard')),
          across: [document.documentElement.scrollWidth, innerWidth],
          table: [scores.scrollWidth, scores.clientWidth], vh: innerHeight};
}
"""


def request(page: Page, msg: dict[str, Any]) -> dict[str, Any]:
    return page.evaluate("(m) => samedeal.net.request(m)", msg)


@pytest.mark.parametrize("held", list(PHONES))
def test_the_lane_and_the_scorecard_share_the_phones_screen(page_for, held: str) -> None:
    ann, bob = page_for("Ann"), page_for("Bob")
    m = request(ann, {"type": "match.create", "game": "bowling", "variant": "easy", "seats": 2,
                      "turn_time": 300})
    request(bob, {"type": "match.join", "match": m["match"]})
    # Ann bowls a few cards, so the scorecard has marks in it.
    for _ in range(4):
        state = request(ann, {"type": "match.get", "match": m["match"]})
        if state["turn"]["bowler"] != 1:
            break
        request(ann, {"type": "match.move", "match": m["match"], "move": state["you"]["legal"][0]})
    ann.set_viewport_size(PHONES[held])
    ann.goto(ann.url.split("#")[0] + f"#/match/{m['match']}")
    expect(ann.locator(".match-scores .scorecard")).to_be_visible()
    ann.wait_for_function(
        "() => document.querySelector('.match-board .board')?.style.getPropertyValue('--cw')")
    ann.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    seen = ann.evaluate(SCROLLED)
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / f"bowling-match-phone-{held}.png"))
    lane, card, vh = seen["lane"], seen["card"], seen["vh"]
    assert seen["across"][0] <= seen["across"][1], "the page scrolls sideways"
    assert seen["table"][0] <= seen["table"][1] + 1, "the scorecard scrolls sideways"
    assert lane["bottom"] <= vh and card["bottom"] <= vh and card["top"] >= 0, (
        f"lane {lane} and scorecard {card} are not both on a {vh} px high screen")
    if held == "sideways":
        assert card["left"] >= lane["right"] - 1, "the scorecard is not beside the lane"
    else:
        assert card["top"] >= lane["bottom"] - 1, "the scorecard is not under the lane"


def test_a_refused_placement_leaves_the_lane_where_it_was(page_for) -> None:
    ann = page_for("Ann")
    m = request(ann, {"type": "match.create", "game": "bowling", "variant": "easy", "seats": 1,
                      "turn_time": 300})
    # Place cards until some pile cannot take the next one (every empty pin takes any card).
    wrong = None
    while wrong is None:
        state = request(ann, {"type": "match.get", "match": m["match"]})
        legal = state["you"]["legal"]
        wrong = next((p for p in state["you"]["view"]["piles"] if p != "s"
                      and not any(mv.endswith(f"-{p}") for mv in legal)), None)
        if wrong is None:
            request(ann, {"type": "match.move", "match": m["match"], "move": legal[0]})
    ann.goto(ann.url.split("#")[0] + f"#/match/{m['match']}")
    lane = ann.locator(".match-board .board")
    expect(lane.locator(".pile[data-pile=s] > .card:not(.back)")).to_have_count(1)
    before = lane.bounding_box()
    lane.locator(".pile[data-pile=s] > .card:not(.back)").click()
    lane.locator(f".pile[data-pile={wrong}]").click()
    expect(ann.locator(".match .refusal")).to_be_visible()
    expect(ann.locator(".match .refusal")).not_to_have_text("")
    assert lane.bounding_box() == before


# The lane where the page opens, unscrolled: its box, its front pin's, and the page's scroll.
UNSCROLLED = """
() => {
  const lane = document.querySelector('.match-board .board');
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return {lane: box(lane), front: box(lane.querySelector('.pile[data-pile=p1]')),
          scrolled: scrollY, vh: innerHeight, vw: innerWidth};
}
"""


@pytest.mark.parametrize("held", list(PHONES))
def test_the_whole_lane_shows_without_scrolling(page_for, held: str) -> None:
    # The lane stood under the match's details: its front pin was cut off at the bottom of the
    # screen, 628 px of scrolling away on a phone held upright.
    ann, bob = page_for("Ann"), page_for("Bob")
    m = request(ann, {"type": "match.create", "game": "bowling", "variant": "easy", "seats": 2,
                      "turn_time": 300})
    request(bob, {"type": "match.join", "match": m["match"]})
    ann.set_viewport_size(PHONES[held])
    ann.goto(ann.url.split("#")[0] + f"#/match/{m['match']}")
    expect(ann.locator(".match .match-state")).to_have_text("running")
    ann.wait_for_function(
        "() => document.querySelector('.match-board .board')?.style.getPropertyValue('--cw')")
    ann.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    seen = ann.evaluate(UNSCROLLED)
    assert seen["scrolled"] == 0
    for what in ("lane", "front"):
        box = seen[what]
        assert box["top"] >= 0 and box["bottom"] <= seen["vh"] + 1, (what, seen)
        assert box["left"] >= 0 and box["right"] <= seen["vw"] + 1, (what, seen)
