"""Taps on a touch screen (Chromium's touch emulation: a phone's viewport, real touch events):
every tap registers. A finger playing quickly often lands where it landed the moment before (a
card dropped on a column, then that column's card picked up), which the browser takes for a
double tap; that must not put down the card just picked up."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as NoAnswer

import engine
from tests.e2e.conftest import lobby_page, open_context

SEED = "00"
TAPS = 100

# Counts the refusal sentences shown: each refused move sets it afresh.
COUNT_REFUSALS = """
() => {
  window.refusals = 0;
  const el = document.querySelector('.session .refusal');
  new MutationObserver(() => { window.refusals += 1; }).observe(el, {childList: true});
}
"""

# The centre of the visible strip of a column's top card.
TOP_CARD = """
(name) => {
  const cards = document.querySelectorAll(`.session .pile[data-pile="${name}"] > .card`);
  const r = cards[cards.length - 1].getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}
"""


def idle_columns() -> tuple[str, str]:
    """Two columns of Klondike's deal at SEED whose top cards have no move at all: a tap picks
    one up, and dropping it on the other is refused, as often as the test likes."""
    rules = engine.get("klondike", "easy")
    st = rules.deal(bytes.fromhex(SEED))
    moving = {engine.move_text(rules, m).split("-")[0].split(":")[0] for m in st.legal_moves()}
    idle = [f"t{i}" for i in range(1, 8) if f"t{i}" not in moving]
    assert len(idle) >= 2, idle
    a, b = idle[:2]
    assert f"{a}-{b}" not in {engine.move_text(rules, m) for m in st.legal_moves()}
    return a, b


@pytest.fixture
def phone(browser: Browser, web: str) -> Iterator[Page]:
    context = open_context(browser, "Tapper", viewport={"width": 390, "height": 844},
                           has_touch=True, is_mobile=True, device_scale_factor=2)
    context.add_init_script("localStorage.setItem('samedeal.automove.practice', '0');")
    page = lobby_page(context, web)
    yield page
    context.close()


def test_a_hundred_taps_in_a_row_all_register(phone: Page) -> None:
    a, b = idle_columns()
    phone.evaluate("(h) => { location.hash = h; }", f"#/play/klondike/easy?seed={SEED}")
    phone.wait_for_selector(".session[data-rev='0'] .board[data-game='klondike']")
    phone.evaluate(COUNT_REFUSALS)
    spots = {name: phone.evaluate(TOP_CARD, name) for name in (a, b)}
    # Pick up a's card, drop it on b (refused), pick up b's card where the finger just was,
    # drop it on a (refused), pick up a's card there, and so on: every tap lands on the spot
    # of the tap before it.
    held, other = a, b
    lost = []
    for tap in range(TAPS):
        x, y = spots[held if tap % 2 == 0 else other]
        if tap % 2 == 0:
            phone.touchscreen.tap(x, y)
            if not phone.evaluate("(p) => document.querySelector("
                                  "`.session .pile[data-pile='${p}']`).classList.contains("
                                  "'selected')", held):
                lost.append(f"tap {tap + 1}: {held}'s card not picked up")
        else:
            before = phone.evaluate("() => window.refusals")
            phone.touchscreen.tap(x, y)
            try:
                phone.wait_for_function("(n) => window.refusals > n", arg=before, timeout=5000)
            except NoAnswer:
                lost.append(f"tap {tap + 1}: dropping {held}'s card on {other} sent nothing")
            phone.wait_for_function("() => !document.querySelector('.session .resign').disabled")
            held, other = other, held
    assert phone.locator(".session").get_attribute("data-rev") == "0"
    assert not lost, f"{len(lost)} of {TAPS} taps lost: {lost[:5]}"
