"""Hints in a practice game in a real browser: the Hint button and the H key show the next
move of the solver's line on the board (its card and target outlined, its sentence above the
board) without playing it; a move clears the hint.

The deal is fixed (seed 00, Klondike easy): every solver line starts t3-f1 (the A♦ of t3 to
the first foundation: a safe move, the only one a search tries there). Which line the
server's search finds depends on its budget of seconds as well as positions, so the page is
held to the line it shows: its length, then the next move one shorter."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

import engine
from engine.safe import safe_moves
from engine.words import move_words

SEED = "00"
RULES = engine.get("klondike", "easy")
FIRST = [engine.move_text(RULES, m) for m in safe_moves(RULES.deal(bytes.fromhex(SEED)))]

# The hinted cards and piles the hint note lies over (it takes the board's top or bottom).
UNDER_NOTE = """() => {
  const n = document.querySelector('.session .hint-note').getBoundingClientRect();
  return [...document.querySelectorAll('.board .hinted')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > n.top && r.top < n.bottom && r.right > n.left && r.left < n.right;
  }).map((el) => el.dataset.card || el.dataset.pile);
}"""


def test_the_hint_button_and_the_h_key_show_the_next_move(page_for: Callable[..., Page]
                                                           ) -> None:
    page = page_for("Hinted")
    page.goto(page.url.split("#")[0] + f"#/play/klondike/easy?seed={SEED}")
    page.wait_for_selector(".session[data-rev='0'] .board[data-game='klondike']")
    page.locator(".session [data-setting=auto-move]").uncheck()  # every move the player's own
    note = page.locator(".session .hint-note")
    expect(note).to_be_hidden()

    page.get_by_role("button", name="Hint", exact=True).click()
    assert FIRST == ["t3-f1"]
    # In the server's card words, as the board shows the move.
    expect(note).to_have_text(re.compile(r"^Hint: the A♦ to the foundation "
                                         r"\(a winning line: \d+ moves to go\)$"))
    expect(note).to_have_attribute("title", "t3-f1")
    expect(note).to_have_attribute("data-source", "solver")
    found = re.search(r"(\d+) moves", note.inner_text())
    assert found is not None
    length = int(found[1])
    assert length >= 52  # a winning line sends each of the 52 cards up once
    expect(page.locator(".board .card.hinted")).to_have_count(1)
    expect(page.locator(".board .card.hinted[data-card='Ad']")).to_have_count(1)
    expect(page.locator(".board .pile.hinted[data-pile='f1']")).to_have_count(1)
    # The note names the move without hiding it: over the top row it would cover the
    # foundation, so it lies over the board's bottom instead.
    assert page.evaluate(UNDER_NOTE) == []
    expect(note).to_have_class(re.compile(r"\blow\b"))
    expect(page.locator(".session")).to_have_attribute("data-rev", "0")  # nothing played

    # The player plays it (a double-click sends the A♦ up): the outline goes with the change.
    page.locator(".board .card[data-card='Ad']").dblclick()
    expect(page.locator(".session")).to_have_attribute("data-rev", "1")
    expect(page.locator(".board .hinted")).to_have_count(0)
    expect(note).to_be_hidden()

    # The H key: the line's next move.
    page.locator("body").press("h")
    said = (r"the \S+[♠♥♦♣]( \(\d+ cards\))? "
            r"(onto the \S+[♠♥♦♣]|to the foundation|to column \d)")
    expect(note).to_have_text(re.compile(rf"^Hint: {said} \(a winning line: "
                                         rf"{length - 1} moves to go\)$"))
    assert not re.search(r"\b[a-z]\d+\b", note.inner_text())  # no pile codes
    second = note.get_attribute("data-move")
    assert second is not None and note.get_attribute("title") == second
    src, _, dst = second.partition("-")
    expect(page.locator(f".board .pile.hinted[data-pile='{dst}']")).to_have_count(1)
    expect(page.locator(f".board .card.hinted[data-pile='{src.split(':')[0]}']")
           ).not_to_have_count(0)
    expect(page.locator(".session")).to_have_attribute("data-rev", "1")

    # The end of the game says how many hints it had.
    page.get_by_role("button", name="Resign").click()
    expect(page.locator(".game-over .hints-used")).to_have_text("2 hints used.")


def test_a_hint_in_a_position_proved_lost_says_so(page_for: Callable[..., Page]) -> None:
    """Scorpion difficult deal 01 is lost as dealt (its cards wait in a circle): the hint is
    the heuristic's move, and its sentence says that no winning line is left."""
    page = page_for("Hopeless")
    page.goto(page.url.split("#")[0] + "#/play/scorpion/difficult?seed=01")
    page.wait_for_selector(".session[data-rev='0'] .board[data-game='scorpion']")
    page.locator("body").press("h")
    note = page.locator(".session .hint-note")
    expect(note).to_have_text(re.compile(
        r"^Hint: .+ \(no winning line is left from here: a likely move\)$"))
    # In words: a move of cards names a card; the stock's deal says so.
    move = note.get_attribute("data-move")
    assert move is not None and note.get_attribute("title") == move
    said = "deal from the stock" if move == "s" else "^Hint: the .*[♠♥♦♣].* (onto|to) "
    assert re.search(said, note.inner_text())
    expect(note).to_have_attribute("data-source", "heuristic")


@pytest.mark.parametrize(("game", "variant"), [
    ("pyramid", "easy"), ("isabel", "standard"), ("triplets", "easy"), ("gaps", "easy"),
    ("golf", "easy")])
def test_a_hint_in_any_game_is_said_in_card_words_and_outlined(
        page_for: Callable[..., Page], game: str, variant: str) -> None:
    """Beyond moving columns: the stock or a pair removed (Pyramid), pairs and triples removed
    (Isabel, whose every move is one; Triplets), a card into a gap (Gaps), a card to the
    foundation (Golf). The note says the move as the engine words it from the board before it,
    with no pile code, and outlines its cards (every card of a removal)."""
    page = page_for(f"Hinted {game}")
    page.goto(page.url.split("#")[0] + f"#/play/{game}/{variant}?seed={SEED}")
    page.wait_for_selector(f".session[data-rev='0'] .board[data-game='{game}']")
    board = page.locator(".session .board")
    where = board.bounding_box()
    page.locator("body").press("h")
    note = page.locator(".session .hint-note")
    expect(note).to_have_text(re.compile(r"^Hint: .+ \(.+\)$"))
    assert board.bounding_box() == where  # the note lies over the board: nothing moved
    assert page.evaluate(UNDER_NOTE) == []  # and over none of the move's cards
    move = note.get_attribute("data-move")
    assert move is not None
    rules = engine.get(game, variant)
    before = rules.deal(bytes.fromhex(SEED))
    said = move_words(before, engine.parse_move(rules, move))
    assert note.inner_text().startswith(f"Hint: {said} ("), (note.inner_text(), said)
    assert not re.search(r"\b[a-z]{1,2}\d+\b", said), said
    m = engine.parse_move(rules, move)
    if game == "isabel":
        assert m.kind == "remove" and said.endswith(" removed"), said
    if m.kind == "remove":
        expect(page.locator(".board .card.hinted")).to_have_count(len(m.piles))
    elif m.kind == "move":
        expect(page.locator(".board .card.hinted")).to_have_count(m.n)
        expect(page.locator(f".board .pile.hinted[data-pile='{move.split('-')[1]}']")
               ).to_have_count(1)
    else:
        expect(page.locator(".board .hinted")).not_to_have_count(0)
