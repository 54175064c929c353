"""Card faces read at a glance (clients/web/style.css, look.css): on a phone the corner's rank
and suit are drawn large for the size the cards are, and show in a column's strip under the
next card; the suits' colours stay apart for players with each kind of colour blindness, in
the two- and the four-colour deck and in both themes.

The colour check simulates protanopia, deuteranopia and tritanopia (Machado, Oliveira and
Fernandes 2009, full severity, on linear RGB) and asks every two suit colours of a deck to
differ by a CIE 1976 ΔE of at least ``APART`` (about five times a just noticeable step: apart
at a glance in a small glyph), and every suit colour to stand on the card's face with a WCAG
contrast of at least 3."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.e2e.conftest import open_context, wait_online

PHONE = {"width": 390, "height": 844}
#: CSS px: the least ink height of a corner's rank (and suit) on a phone.
TALL = 12.0
APART = 25.0
ON_FACE = 3.0

#: Machado et al. 2009, severity 1.0: linear RGB to the colour a dichromat sees.
SIMULATIONS: dict[str, list[list[float]]] = {
    "normal": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
}

# Every face-up card's corner: the rank's and the suit's ink height (the glyphs as drawn, in
# the font the page resolved, measured on a canvas), the card's top and the corner's bottom,
# and the top of the card over it in its pile (null for a pile's top card).
CORNERS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const measure = (el) => {
    ctx.font = getComputedStyle(el).font;
    return ctx.measureText(el.textContent);
  };
  const ink = (el) => {
    const m = measure(el);
    return m.actualBoundingBoxAscent + m.actualBoundingBoxDescent;
  };
  // Where the glyphs' ink ends: the baseline sits in the line box (line-height 1) as the
  // font's ascent and descent centre it, the ink goes down from it by its own descent.
  const inkBottom = (el) => {
    const m = measure(el), box = el.getBoundingClientRect();
    const base = box.top + (box.height - m.fontBoundingBoxAscent - m.fontBoundingBoxDescent) / 2
      + m.fontBoundingBoxAscent;
    return base + m.actualBoundingBoxDescent;
  };
  return [...document.querySelectorAll('.session .board .pile > .card:not(.back)')].map((c) => {
    const rank = c.querySelector('.corner b'), suit = c.querySelector('.corner i');
    const next = c.nextElementSibling?.classList.contains('card') ? c.nextElementSibling : null;
    return {card: c.dataset.card, rank: ink(rank), suit: ink(suit),
            top: c.getBoundingClientRect().top, cw: c.getBoundingClientRect().width,
            rankBottom: inkBottom(rank), suitBottom: inkBottom(suit),
            strip: c.parentElement.classList.contains('fan-down') && !!next,
            nextTop: next ? next.getBoundingClientRect().top : null};
  });
}"""

# The computed text colour and face colour of a card of each suit, drawn by the page's CSS.
SUIT_COLOURS = """() => {
  const board = document.querySelector('.session .board');
  const out = {};
  for (const [suit, colour] of [['s', 'black'], ['h', 'red'], ['d', 'red'], ['c', 'black']]) {
    const el = document.createElement('div');
    el.className = `card ${colour} suit-${suit}`;
    board.append(el);
    const s = getComputedStyle(el);
    out[suit] = [s.color, s.backgroundColor];
    el.remove();
  }
  return out;
}"""


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Any]:
    made: list[BrowserContext] = []

    def make(name: str, **options: Any) -> BrowserContext:
        context = open_context(browser, name, **options)
        made.append(context)
        return context

    yield make
    for c in made:
        c.close()


def practice(context: BrowserContext, web: str, game: str = "klondike") -> Page:
    page = context.new_page()
    page.goto(f"{web}/#/play/{game}/easy?seed=00")
    page.wait_for_selector(f".session[data-rev='0'] .board[data-game='{game}']")
    wait_online(page)
    return page


def test_the_corner_is_large_on_a_phone(contexts: Any, web: str) -> None:
    """Klondike on a phone held upright: every face-up card's corner rank and suit are drawn
    at least TALL px high, a "10" and a ♦ alike."""
    context = contexts("Phone Faces", viewport=PHONE, is_mobile=True, has_touch=True)
    corners = practice(context, web).evaluate(CORNERS)
    assert len(corners) >= 7, corners  # one face up on each column at the deal
    for c in corners:
        assert c["rank"] >= TALL and c["suit"] >= TALL, c
    print("klondike corners (card width, rank, suit):",
          sorted({(round(c["cw"], 1), c["rank"], c["suit"]) for c in corners}))


# Every face-up card's width and the height its large suit (the pip) is drawn at.
PIPS = """() => [...document.querySelectorAll('.session .board .pile > .card:not(.back)')].map(
  (c) => [c.getBoundingClientRect().width,
          c.querySelector('.pip').getBoundingClientRect().height])"""


@pytest.mark.parametrize(("game", "small"), [("klondike", False), ("gaps", True)])
def test_small_cards_keep_only_the_corner(contexts: Any, web: str, game: str,
                                          small: bool) -> None:
    """On a phone, Gaps' fourteen columns come 36 px wide or less: their large suit is not
    drawn, so it never crowds the corner; Klondike's seven columns show it."""
    context = contexts("Phone Pips", viewport=PHONE, is_mobile=True, has_touch=True)
    cards = practice(context, web, game).evaluate(PIPS)
    assert len(cards) >= 7, cards
    for width, pip in cards:
        assert (width <= 36) == small and (pip == 0) == small, (width, pip)


def test_a_column_reads_down_its_strips_on_a_phone(contexts: Any, web: str) -> None:
    """Yukon deals its columns with five face-up cards each: on a phone, in every column, each
    card's rank shows whole above the card laid over it."""
    context = contexts("Phone Strips", viewport=PHONE, is_mobile=True, has_touch=True)
    corners = practice(context, web, "yukon").evaluate(CORNERS)
    strips = [c for c in corners if c["strip"]]
    assert len(strips) >= 24, corners  # four under the top card in each of six columns
    for c in strips:
        assert c["rank"] >= TALL and c["rankBottom"] <= c["nextTop"] + 0.5, c
    print("yukon strips (step, rank's ink bottom below the card's top):",
          sorted({(round(c["nextTop"] - c["top"], 1), round(c["rankBottom"] - c["top"], 1))
                  for c in strips}))


def rgb(css: str) -> tuple[float, float, float]:
    r, g, b = (float(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return r, g, b


def linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def seen(colour: tuple[float, float, float], how: str) -> list[float]:
    """The linear RGB a viewer with ``how`` sees."""
    lin = [linear(c) for c in colour]
    return [min(1.0, max(0.0, sum(m * x for m, x in zip(row, lin, strict=True))))
            for row in SIMULATIONS[how]]


def lab(lin: list[float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def contrast(a: list[float], b: list[float]) -> float:
    la, lb = (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] for c in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def test_lab_and_the_simulations_are_sound() -> None:
    """The arithmetic the colour check rests on: white is L* 100, black 0; a dichromat sees
    red and green alike where a normal eye tells them far apart; greys pass unchanged."""
    assert lab([1, 1, 1])[0] == pytest.approx(100, abs=0.1) and lab([0, 0, 0])[0] == 0
    red, green = (200.0, 40.0, 40.0), (90.0, 110.0, 40.0)
    normal = math.dist(lab(seen(red, "normal")), lab(seen(green, "normal")))
    deutan = math.dist(lab(seen(red, "deuteranopia")), lab(seen(green, "deuteranopia")))
    assert normal > 40 and deutan < normal / 2, (normal, deutan)
    for how in SIMULATIONS:
        assert seen((128, 128, 128), how) == pytest.approx([linear(128)] * 3, abs=0.01)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("deck", ["two", "four"])
def test_suit_colours_stay_apart_for_colour_blind_players(
        contexts: Any, web: str, theme: str, deck: str) -> None:
    context = contexts(f"Colours {theme} {deck}", viewport=PHONE)
    context.add_init_script(f"localStorage.setItem('samedeal.theme', '{theme}');"
                            f"localStorage.setItem('samedeal.deck', '{deck}');")
    page = practice(context, web)
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    assert page.evaluate("document.documentElement.dataset.deck") == deck
    drawn = page.evaluate(SUIT_COLOURS)
    inks = {suit: rgb(ink) for suit, (ink, _) in drawn.items()}
    faces = {rgb(face) for _, face in drawn.values()}
    assert len(faces) == 1, drawn  # one card face
    face = faces.pop()
    # The suits a player must tell apart: red from black, and in the four-colour deck all four.
    colours = {inks["s"], inks["h"]} if deck == "two" else set(inks.values())
    assert len(colours) == (2 if deck == "two" else 4), inks
    for how in SIMULATIONS:
        for a, b in itertools.combinations(sorted(colours), 2):
            apart = math.dist(lab(seen(a, how)), lab(seen(b, how)))
            assert apart >= APART, (how, a, b, apart)
        for c in colours:
            assert contrast(seen(c, how), seen(face, how)) >= ON_FACE, (how, c, face)
