"""Every one of the 60 rule sets opens in practice and draws all its piles: each pile named in the
catalog's layout description has its element, each holds as many face-up cards (the same ones, in
order) and backs as the server's view says, and no card that is not face up in the view appears
anywhere in the page. A screenshot of each is kept under artifacts/rule-sets/."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import engine
from tests.e2e.conftest import ARTIFACTS, lobby_page, open_context, resize

SEED = "5eed0123456789abcdef"
DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 375, "height": 800}
SHOTS = ARTIFACTS / "rule-sets"
RULE_SETS = [(r.describe()["id"], r.describe()["variant"]) for r in engine.rule_sets()]
CARD_NAME = re.compile(r"\b(ace|[2-9]|10|jack|queen|king) of (clubs|diamonds|hearts|spades)\b")
RANKS = {"ace": "A", "10": "T", "jack": "J", "queen": "Q", "king": "K"}
SUITS = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}

# What the page shows, read in one go: per pile its cards (text or "back"), every data-card in
# the document, every card named in an aria-label, and the number of backs in the document.
READ_BOARD = """
(names) => {
  const piles = {};
  for (const name of names) {
    const el = document.querySelector(`.board .pile[data-pile="${name}"]`);
    piles[name] = el ? [...el.querySelectorAll(':scope > .card')].map(
      c => c.classList.contains('back') ? 'back' : c.dataset.card) : null;
  }
  const labels = [...document.querySelectorAll('[aria-label]')]
    .map(e => e.getAttribute('aria-label'));
  return {
    piles,
    cards: [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card),
    labels,
    backs: document.querySelectorAll('.card.back').length,
    text: document.body.innerText,
  };
}
"""

WIDTHS = """
() => {
  const board = document.querySelector('.board');
  return {page: document.documentElement.scrollWidth, board: board.scrollWidth,
          boardClient: board.clientWidth};
}
"""

READ_SESSION = """
async (sid) => {
  const token = localStorage.getItem('samedeal.token');
  const res = await fetch(`/api/v1/sessions/${sid}`, {headers: {Authorization: `Bearer ${token}`}});
  return res.json();
}
"""


@pytest.fixture(scope="module")
def page(browser: Browser, web: str) -> Iterator[Page]:
    """One player, one page for all 60: each rule set is a new hash route on it."""
    context = open_context(browser, "Surveyor", viewport=DESKTOP)
    yield lobby_page(context, web)
    context.close()


def layout_of(game: str, variant: str) -> list[dict[str, Any]]:
    return engine.get(game, variant).describe()["layout"]


@pytest.mark.parametrize(("game", "variant"), RULE_SETS, ids=[f"{g}-{v}" for g, v in RULE_SETS])
def test_rule_set_draws_its_layout(page: Page, game: str, variant: str) -> None:
    page.evaluate("(h) => { location.hash = h; }", f"#/play/{game}/{variant}?seed={SEED}")
    board = f".session:has(.board[data-game='{game}'][data-variant='{variant}'])"
    page.wait_for_selector(board)
    sid = page.locator(board).get_attribute("data-session")
    payload = page.evaluate(READ_SESSION, sid)
    view = payload["view"]
    assert (view["game"], view["variant"]) == (game, variant)

    names = [p for group in layout_of(game, variant) for p in group["piles"]]
    shown = page.evaluate(READ_BOARD, names)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{game}-{variant}.png"), full_page=True)

    face_up: Counter[str] = Counter()
    for name in names:
        assert shown["piles"][name] is not None, f"pile {name} is not drawn"
        pile = view["piles"].get(name, {"down": 0, "up": []})
        face_up.update(pile["up"])
        assert shown["piles"][name] == ["back"] * pile["down"] + pile["up"], name
    assert shown["backs"] == sum(p["down"] for p in view["piles"].values())

    # Hidden information: nothing names a card the view does not show face up.
    assert not Counter(shown["cards"]) - face_up
    named = {RANKS.get(r, r) + SUITS[s] for label in shown["labels"]
             for r, s in CARD_NAME.findall(label)}
    assert named <= set(face_up)
    assert "undefined" not in shown["text"] and "NaN" not in shown["text"]

    # At phone width the board scales down: no horizontal scrolling, of the page or the board.
    resize(page, PHONE)
    try:
        widths = page.evaluate(WIDTHS)
        page.screenshot(path=str(SHOTS / f"{game}-{variant}-phone.png"), full_page=True)
    finally:
        resize(page, DESKTOP)
    assert widths["page"] <= PHONE["width"], widths
    assert widths["board"] <= widths["boardClient"] + 1, widths
