"""What a board shows beyond its cards: each empty pile's mark, from its group's `fill` in the
catalog (an Ace or the deal's base rank on a foundation, a K where only Kings fill, a turn-over
mark on an empty stock that can be turned over, nothing where nothing may go), never an internal
pile name; a draw-three waste fanning its last three cards and a draw-one waste its top card; and
a refused move's sentence shown without moving the board."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import engine
from engine.cards import RANK_NAMES
from engine.notation import move_text
from engine.piles import below
from engine.solver import Budget, Outcome, solve
from tests.e2e.conftest import lobby_page, open_context

SEED = "3a4b5c6d7e8f90112233"
RULE_SETS = [(r.id, r.variant) for r in engine.rule_sets()]

# Each pile's mark as drawn (the ::before text of an empty pile, "" for none) and card count.
MARKS = """
() => Object.fromEntries([...document.querySelectorAll('.session .board .pile')].map((p) => {
  const text = getComputedStyle(p, '::before').content;
  return [p.dataset.pile, {cards: p.querySelectorAll(':scope > .card').length,
    mark: text === 'none' || text === 'normal' ? '' : JSON.parse(text)}];
}))
"""

PLAY = """
async ([sid, moves]) => {
  let reply = await samedeal.net.request({type: 'session.get', session: sid});
  for (const move of moves) {
    reply = await samedeal.net.request({type: 'move', session: sid, move, rev: reply.rev});
  }
  return reply;
}
"""


@pytest.fixture(scope="module")
def page(browser: Browser, web: str) -> Iterator[Page]:
    context = open_context(browser, "Marker", viewport={"width": 1366, "height": 768})
    yield lobby_page(context, web)
    context.close()


def practice(page: Page, game: str, variant: str, seed: str = SEED) -> str:
    """A fresh practice game of this deal (not the one this tab would resume)."""
    page.evaluate("() => sessionStorage.clear()")
    page.evaluate("(h) => { location.hash = h; }", f"#/play/{game}/{variant}?seed={seed}")
    page.wait_for_selector(f".session[data-rev='0']:has(.board[data-game='{game}']"
                           f"[data-variant='{variant}'])")
    return page.locator(".session").get_attribute("data-session") or ""


def expected_mark(group: dict[str, Any], pile: str, view: dict[str, Any],
                  legal: list[str]) -> str:
    if group["kind"] == "stock":
        return "↻" if pile in legal else ""
    if group["fill"] == "king":
        return "K"
    if group["fill"] in ("base", "below-base"):
        base = view.get("info", {}).get("base", "Ace")
        if not base:
            return ""
        rank = RANK_NAMES.index(base)
        name = RANK_NAMES[below(rank) if group["fill"] == "below-base" else rank]
        return {"Ace": "A", "Jack": "J", "Queen": "Q", "King": "K"}.get(name, name)
    return ""


@pytest.mark.parametrize(("game", "variant"), RULE_SETS, ids=[f"{g}-{v}" for g, v in RULE_SETS])
def test_every_empty_pile_shows_what_may_start_it(page: Page, game: str, variant: str) -> None:
    sid = practice(page, game, variant)
    desc = page.evaluate("([g, v]) => samedeal.ctx.ruleSet(g, v)", [game, variant])
    state = page.evaluate("(s) => samedeal.net.request({type: 'session.get', session: s})", sid)
    drawn = page.evaluate(MARKS)
    for g in desc["layout"]:
        for p in g["piles"]:
            if drawn[p]["cards"]:
                assert drawn[p]["mark"] == "", f"{game}/{variant} {p}: a pile with cards is marked"
                continue
            want = expected_mark(g, p, state["view"], state["legal"])
            assert drawn[p]["mark"] == want, f"{game}/{variant} empty {p} ({g['fill']})"


def test_an_emptied_column_shows_the_rank_below_the_base(page: Page) -> None:
    """Penguin difficult's columns take only the rank one below the base: played along a
    winning line until a column is empty, that column shows that rank."""
    rules = engine.get("penguin", "difficult")
    columns = [p for g in rules.describe()["layout"] if g["kind"] == "tableau" for p in g["piles"]]
    st = rules.deal(bytes.fromhex(SEED))
    line = solve(st, Budget(positions=200_000))
    assert line.outcome == Outcome.WON
    moves: list[str] = []
    empty: list[str] = []
    for m in line.moves:
        moves.append(move_text(rules, m))
        st.play(m)
        empty = [p for p in columns if not st.piles[rules.pile_index[p]]]
        if empty:
            break
    assert empty, "the line empties a column"
    name = RANK_NAMES[below(st.vars["base"])]
    sid = practice(page, "penguin", "difficult")
    reply = page.evaluate(PLAY, [sid, moves])
    page.reload()
    page.wait_for_selector(f".session[data-rev='{reply['rev']}'] .board")
    want = {"Ace": "A", "Jack": "J", "Queen": "Q", "King": "K"}.get(name, name)
    assert page.evaluate(MARKS)[empty[0]] == {"cards": 0, "mark": want}


@pytest.mark.parametrize(("variant", "shown"), [("easy", 3), ("difficult", 1)])
def test_the_waste_fans_the_cards_the_rules_show(page: Page, variant: str, shown: int) -> None:
    rules = engine.get("klondike", variant)
    waste = next(g for g in rules.describe()["layout"] if g["kind"] == "waste")
    assert waste["show"] == shown
    sid = practice(page, "klondike", variant)
    page.evaluate(PLAY, [sid, ["s", "s", "s"]])
    page.reload()
    page.wait_for_selector(".session[data-rev='3'] .board")
    cards = page.locator(".board .pile[data-pile='w'] > .card")
    lefts = [b["x"] for b in (c.bounding_box() for c in cards.all()) if b]
    assert len(lefts) == 3 * shown, "every waste card is drawn"
    # The cards under the shown ones lie squared under the first shown card; the shown ones
    # step to the right, the top card whole.
    assert len({round(x) for x in lefts}) == shown
    assert lefts == sorted(lefts)


def test_the_empty_stock_shows_whether_it_can_be_turned_over(page: Page) -> None:
    easy = engine.get("klondike", "easy").deal(bytes.fromhex(SEED))
    draws = 0
    while easy.view()["piles"]["s"]["down"]:
        easy.play(engine.parse_move(easy.rules, "s"))
        draws += 1
    for variant, mark in [("easy", "↻"), ("difficult", "")]:
        sid = practice(page, "klondike", variant)
        st = engine.get("klondike", variant).deal(bytes.fromhex(SEED))
        moves = []
        while st.view()["piles"]["s"]["down"]:
            st.play(engine.parse_move(st.rules, "s"))
            moves.append("s")
        if variant == "difficult":  # one pass: past it the stock cannot be turned over
            assert st.refusal(engine.parse_move(st.rules, "s")) is not None
        reply = page.evaluate(PLAY, [sid, moves])
        page.reload()
        page.wait_for_selector(f".session[data-rev='{reply['rev']}'] .board")
        assert page.evaluate(MARKS)["s"] == {"cards": 0, "mark": mark}, variant
    assert draws


def test_a_refused_move_does_not_move_the_board(page: Page) -> None:
    practice(page, "klondike", "easy")
    board = page.locator(".session .board")
    before = board.bounding_box()
    # A card clicked onto a pile that cannot take it: an empty foundation takes only an Ace.
    rules = engine.get("klondike", "easy")
    st = rules.deal(bytes.fromhex(SEED))
    top = st.view()["piles"]["t1"]["up"][-1]
    assert not top.startswith("A")
    page.locator(f".board .pile[data-pile='t1'] > .card[data-card='{top}']").click()
    page.locator(".board .pile[data-pile='f1']").click()
    expect(page.locator(".refusal")).to_be_visible()
    expect(page.locator(".refusal")).not_to_have_text("")
    assert board.bounding_box() == before
