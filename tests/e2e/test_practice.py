"""A practice Klondike game in a real browser: a dragged move, a refused move's sentence, undo,
a double-click to a foundation and a move made with the keyboard alone.

The deal is fixed (seed 00, easy). From the engine: t1 shows 4♥, t3 A♦, t5 9♥, t6 6♣, t7 3♠
(alone); legal are t3 to a foundation, t7-t1 and the stock."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

import engine

SEED = "00"


def refusal_of(moves: list[str], refused: str) -> str:
    """The sentence the engine gives for `refused` after `moves` on this deal."""
    rules = engine.get("klondike", "easy")
    st = rules.deal(bytes.fromhex(SEED))
    for m in moves:
        st.play(engine.parse_move(rules, m))
    with pytest.raises(engine.IllegalMove) as refused_move:
        st.play(engine.parse_move(rules, refused))
    return str(refused_move.value)


def pile(page: Page, name: str) -> Locator:
    return page.locator(f".board .pile[data-pile='{name}']")


def card(page: Page, text: str) -> Locator:
    return page.locator(f".board .card[data-card='{text}']")


def drag(page: Page, source: Locator, target: Locator) -> None:
    """Press on the source card, move in steps onto the target pile, release."""
    a, b = source.bounding_box(), target.bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + 10)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 8, a["y"] + 18, steps=2)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


@pytest.fixture
def game(page_for: Callable[..., Page]) -> Iterator[Page]:
    page = page_for("Practiser")
    page.goto(page.url.split("#")[0] + f"#/play/klondike/easy?seed={SEED}")
    page.wait_for_selector(".session[data-rev='0'] .board[data-game='klondike']")
    # Every move here is the player's own: auto-move (on by default in practice) is switched
    # off, as a player can (tests/e2e/test_conveniences.py covers it).
    page.locator(".session [data-setting=auto-move]").uncheck()
    yield page


def test_drag_refusal_undo_double_click_and_keyboard(game: Page) -> None:
    page = game
    expect(pile(page, "t7").locator(".card")).to_have_count(1)

    # A legal drag: 3♠ from t7 onto the 4♥ of t1.
    drag(page, card(page, "3s"), card(page, "4h"))
    expect(page.locator(".session")).to_have_attribute("data-rev", "1")
    expect(pile(page, "t1").locator(".card[data-card='3s']")).to_have_count(1)
    expect(pile(page, "t7").locator(".card")).to_have_count(0)
    expect(page.locator(".session .moves")).to_have_text("1")

    # A refused drag: 9♥ can't go on 6♣; the server's sentence shows and nothing moves.
    drag(page, card(page, "9h"), card(page, "6c"))
    expect(page.locator(".refusal")).to_have_text(refusal_of(["t7-t1"], "t5-t6"))
    expect(page.locator(".refusal")).to_be_visible()
    expect(page.locator(".session")).to_have_attribute("data-rev", "1")
    expect(pile(page, "t5").locator(".card[data-card='9h']")).to_have_count(1)

    # Undo puts 3♠ back on t7.
    page.get_by_role("button", name="Undo").click()
    expect(page.locator(".session")).to_have_attribute("data-rev", "2")
    expect(pile(page, "t7").locator(".card[data-card='3s']")).to_have_count(1)
    expect(pile(page, "t1").locator(".card")).to_have_count(6 + 1)
    expect(page.locator(".refusal")).to_be_hidden()

    # A double-click sends A♦ to the first foundation that takes it.
    card(page, "Ad").dblclick()
    expect(pile(page, "f1").locator(".card[data-card='Ad']")).to_have_count(1)
    expect(pile(page, "t3").locator(".card.back")).to_have_count(3)
    expect(pile(page, "t3").locator(".card:not(.back)")).to_have_count(1)

    # Keyboard only: t7 selected with Enter, arrows to t1, Enter drops it there.
    pile(page, "t7").focus()
    page.keyboard.press("Enter")
    expect(pile(page, "t7")).to_have_class(re.compile(r"\bselected\b"))
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
    expect(pile(page, "t1")).to_be_focused()
    page.keyboard.press("Enter")
    expect(pile(page, "t1").locator(".card[data-card='3s']")).to_have_count(1)
    expect(pile(page, "t7").locator(".card")).to_have_count(0)
    expect(page.locator(".session .moves")).to_have_text("2")


def test_new_deal_and_won_lost_screen(game: Page) -> None:
    page = game
    first = page.locator(".session").get_attribute("data-session")
    page.get_by_role("button", name="Resign").click()
    over = page.locator(".game-over")
    expect(over).to_be_visible()
    expect(over).to_contain_text("Game lost")
    over.get_by_role("button", name="Play again").click()
    page.wait_for_selector(".session[data-rev='0']")
    assert page.locator(".session").get_attribute("data-session") != first
    assert "seed" not in page.url
