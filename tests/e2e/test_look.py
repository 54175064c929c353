"""How the client looks and sounds (clients/web/look.js, motion.js, look.css): the theme follows
the system's colour scheme until the header's Look menu picks one, kept across visits, with the
cards' light faces and red and black suits in both; a move slides and flips its cards unless the
system asks for reduced motion or the player switches animations off; the four-colour deck
recolours diamonds and clubs; card sounds are off until switched on. The screenshots of the
current look in docs/web.md are taken here (docs/images/look-*.png)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.e2e.conftest import open_context, wait_online

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
# Klondike easy, seed 00 (tests/e2e/test_practice.py): A♦ alone face up on t3, over 3 backs.
DEAL = "#/play/klondike/easy?seed=00"
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
LAPTOP: ViewportSize = {"width": 1024, "height": 640}  # the docs' desktop shot, kept small

# The luminance (0..1) of a computed colour "rgb(r, g, b)".
LUMINANCE = """(css) => {
  const [r, g, b] = css.match(/[\\d.]+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""
# Every card's computed animation and transition durations.
DURATIONS = """() => [...document.querySelectorAll('.board .card')].flatMap((el) => {
  const s = getComputedStyle(el);
  return [s.animationDuration, s.transitionDuration];
})"""


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Any]:
    made: list[BrowserContext] = []

    def make(name: str, **options: Any) -> BrowserContext:
        context = open_context(browser, name, viewport=options.pop("viewport", DESKTOP), **options)
        made.append(context)
        return context

    yield make
    for c in made:
        c.close()


def practice(context: BrowserContext, web: str) -> Page:
    """A page on the fixed Klondike deal, auto-move off (every move here is the test's)."""
    page = context.new_page()
    page.goto(f"{web}/{DEAL}")
    page.wait_for_selector(".session[data-rev='0'] .board[data-game='klondike']")
    wait_online(page)
    page.locator(".session [data-setting=auto-move]").uncheck()
    return page


def style(page: Page, selector: str, prop: str) -> str:
    return str(page.eval_on_selector(selector, "(el, p) => getComputedStyle(el)[p]", prop))


def luminance(page: Page, selector: str, prop: str) -> float:
    return float(page.evaluate(LUMINANCE, style(page, selector, prop)))


def look(page: Page) -> None:
    """Open the header's Look menu."""
    page.locator("#look summary").click()


# Notes the place each animation copy is given as it joins the page (copiesSeen).
WATCH_COPIES = """() => {
  window.copiesSeen = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const el of change.addedNodes) {
        if (!el.classList?.contains('moving')) continue;
        const kind = el.classList.contains('glide') ? 'glide' : 'flip';
        window.copiesSeen.push({kind, left: parseFloat(el.style.left),
                                top: parseFloat(el.style.top), width: parseFloat(el.style.width)});
      }
    }
  }).observe(document.body, {childList: true});
}"""


def play_ace(page: Page) -> None:
    """A♦ to a foundation by double-click: it slides, and the card under it turns up."""
    page.locator(".board .card[data-card='Ad']").dblclick()
    expect(page.locator(".board .pile[data-pile='f1'] .card[data-card='Ad']")).to_have_count(1)


def test_the_theme_follows_the_system_until_the_switch_picks_one(contexts: Any, web: str) -> None:
    page = practice(contexts("Night Owl", color_scheme="dark"), web)
    html = "html"
    assert page.locator(html).get_attribute("data-theme") == "dark"
    assert luminance(page, html, "backgroundColor") < 0.15
    assert luminance(page, ".session-bar", "color") > 0.7  # light words on the dark page
    # The cards keep a light face; red and black suits stay apart on it.
    assert luminance(page, ".card[data-card='Ad']", "backgroundColor") > 0.8
    red = style(page, ".card[data-card='Ad']", "color")
    assert red != style(page, ".card.suit-s, .card.suit-c", "color")

    look(page)
    page.locator("#look select[name=theme]").select_option("light")
    assert page.locator(html).get_attribute("data-theme") == "light"
    assert luminance(page, html, "backgroundColor") > 0.85
    page.reload()
    page.wait_for_selector(".session .board")
    assert page.locator(html).get_attribute("data-theme") == "light"  # kept in localStorage

    # Another page, the system's light scheme: the lobby follows it, and the switch darkens it.
    lobby = contexts("Day Owl", color_scheme="light").new_page()
    lobby.goto(f"{web}/#/")
    lobby.wait_for_selector(".lobby")
    assert lobby.locator(html).get_attribute("data-theme") == "light"
    look(lobby)
    lobby.locator("#look select[name=theme]").select_option("dark")
    assert luminance(lobby, html, "backgroundColor") < 0.15


def test_moves_animate_unless_motion_is_reduced_or_switched_off(contexts: Any, web: str) -> None:
    still = practice(contexts("Still", reduced_motion="reduce"), web)
    assert still.locator("html").get_attribute("data-motion") == "off"
    play_ace(still)
    durations = still.evaluate(DURATIONS)
    assert set(durations) == {"0s"}
    assert still.evaluate("() => document.getAnimations().length") == 0

    moving = practice(contexts("Moving", reduced_motion="no-preference"), web)
    assert moving.locator("html").get_attribute("data-motion") == "on"
    moving.evaluate(WATCH_COPIES)
    play_ace(moving)
    slid = ".board .card.glide[data-card='Ad']"
    turned = ".board .pile[data-pile='t3'] .card.flip"
    expect(moving.locator(slid)).to_have_count(1)
    expect(moving.locator(turned)).to_have_count(1)
    assert style(moving, slid, "animationName") == "card-wait"  # its copy slides over it
    assert style(moving, slid, "animationDuration") == "0.18s"
    assert style(moving, turned, "animationDuration") == "0.18s"
    # The moved card is in its place for a tap at once: the copies take no pointer events.
    assert moving.eval_on_selector(slid, """(el) => { const r = el.getBoundingClientRect();
        return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el; }""")
    # Its copy stood on the card's place, moved from where the card was by a transform alone
    # (as it was put in the page: it is gone once it has slid).
    placed = moving.eval_on_selector(slid, """(el) => {
        const r = el.getBoundingClientRect();
        const c = window.copiesSeen.find((x) => x.kind === 'glide');
        return [c.left, c.top, c.width].map((v, i) => Math.abs(v - [r.left, r.top,
                                                                    r.width][i]) < 0.5); }""")
    assert placed == [True, True, True]

    # The player's switch: the next move is drawn still.
    look(moving)
    moving.locator("#look [data-setting=motion]").uncheck()
    assert moving.locator("html").get_attribute("data-motion") == "off"
    moving.locator(".board .pile[data-pile='s']").click()  # a card from the stock to the waste
    expect(moving.locator(".session")).to_have_attribute("data-rev", "2")
    assert style(moving, ".board .pile[data-pile='w'] .card", "animationDuration") == "0s"


def test_four_colours_and_sounds_are_switched_on_by_the_player(contexts: Any, web: str) -> None:
    page = practice(contexts("Four Colours"), web)
    diamond, spade = ".card[data-card='Ad']", ".card.suit-s"
    assert style(page, diamond, "color") == style(page, ".card.suit-h", "color")
    assert page.locator("html").get_attribute("data-sound") == "off"
    look(page)
    expect(page.locator("#look [data-setting=sound]")).not_to_be_checked()
    page.locator("#look [data-setting=deck]").check()
    four = style(page, diamond, "color")
    assert four not in (style(page, ".card.suit-h", "color"), style(page, spade, "color"))
    assert style(page, ".card.suit-c", "color") not in (four, style(page, spade, "color"))

    play_ace(page)  # sounds off: none played
    assert page.locator("html").get_attribute("data-sounds") is None
    look(page)  # the click on the board closed the menu
    page.locator("#look [data-setting=sound]").check()
    page.locator(".board .pile[data-pile='s']").click()
    expect(page.locator("html")).to_have_attribute("data-sounds", "1")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshots_of_the_look_for_the_docs(contexts: Any, web: str, theme: str,
                                              tmp_path: Path) -> None:
    """docs/images/look-{theme}-{phone,desktop}.png, as docs/web.md shows them: the deal after
    A♦ went up, in the system's theme. Taken on every run; written over the docs' images only
    with ``SAMEDEAL_REGEN=1`` (a clock on the page makes no two runs' bytes the same)."""
    where = IMAGES if os.environ.get("SAMEDEAL_REGEN") else tmp_path
    for size, viewport in (("phone", PHONE), ("desktop", LAPTOP)):
        context = contexts(f"Shot {theme} {size}", color_scheme=theme, viewport=viewport,
                           reduced_motion="reduce")
        page = practice(context, web)
        play_ace(page)
        assert page.locator("html").get_attribute("data-theme") == theme
        path = where / f"look-{theme}-{size}.png"
        page.screenshot(path=str(path))
        assert 0 < path.stat().st_size < 150_000  # small enough to keep in the repo
