"""Auto-complete is offered only where it will finish, at Klondike's deal 00 (easy: draw three,
passes without limit) along a winning line the solver finds. Once nothing is hidden but the
waste still holds cards it is not offered, and the A key does nothing (it used to turn the stock
pass after pass and stop with the game unwon); once the stock and the waste are empty too it is
offered, and one press wins the game, each card sent up by a move the server accepted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

import engine
from engine.solver import Budget, Outcome, solve
from tests.e2e.test_conveniences import WAIT, moves_of, open_practice

SEED = "00"
RULES = engine.get("klondike", "easy")
Piles = dict[str, Any]

PLAY = """async ([sid, moves]) => {
  for (const move of moves) await samedeal.net.request({type: 'move', session: sid, move});
}"""


def winning_line() -> list[str]:
    verdict = solve(RULES.deal(bytes.fromhex(SEED)), Budget(positions=200_000))
    assert verdict.outcome == Outcome.WON
    return [engine.move_text(RULES, m) for m in verdict.moves]


def first_after(line: list[str], wanted: Callable[[Piles], bool]) -> int:
    """How many moves of `line` lead to the first position `wanted` says yes to."""
    st = RULES.deal(bytes.fromhex(SEED))
    for i, move in enumerate(line):
        if wanted(st.view()["piles"]):
            return i
        st.play(engine.parse_move(RULES, move))
    raise AssertionError("no such position on the line")


def nothing_hidden(piles: Piles) -> bool:
    return not any(p["down"] for p in piles.values())


def play_and_reload(page: Page, moves: list[str], rev: int) -> None:
    sid = page.locator(".session").get_attribute("data-session")
    page.evaluate(PLAY, [sid, moves])
    page.reload()
    expect(page.locator(".session")).to_have_attribute("data-rev", str(rev), timeout=WAIT)


def test_auto_complete_only_where_it_finishes_and_then_it_wins(
        page_for: Callable[..., Page]) -> None:
    line = winning_line()
    waste_left = first_after(line, lambda p: nothing_hidden(p) and bool(p["w"]["up"]))
    cleared = first_after(line, lambda p: nothing_hidden(p) and not p["w"]["up"])
    assert waste_left < cleared

    page = page_for("Completer")
    open_practice(page, "klondike", "easy", SEED)
    session = page.locator(".session")
    button = session.get_by_role("button", name="Auto-complete")

    # Nothing hidden, the stock used up, cards still in the waste: not offered, A does nothing.
    play_and_reload(page, line[:waste_left], waste_left)
    expect(session).to_have_attribute("data-status", "playing")
    expect(button).to_be_hidden()
    page.locator("body").press("a")
    page.wait_for_timeout(500)
    expect(session).to_have_attribute("data-rev", str(waste_left))

    # The waste played out too: offered, and it wins.
    play_and_reload(page, line[waste_left:cleared], cleared)
    expect(button).to_be_visible()
    button.click()
    expect(session).to_have_attribute("data-status", "won", timeout=WAIT)
    played = moves_of(page)
    assert played[:cleared] == line[:cleared]
    st = engine.replay("klondike", "easy", bytes.fromhex(SEED), line[:cleared])
    up = sum(len(st.view()["piles"][f"f{i}"]["up"]) for i in range(1, 5))
    assert len(played) - cleared == 52 - up
    assert all(m.split("-")[1].startswith("f") for m in played[cleared:])
