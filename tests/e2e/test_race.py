"""A race in two browsers, one player on each node: created in the lobby, joined through the
shared link, a countdown, each player's own board, the other's progress as it happens, the
finish order, and for both the results with the seed checked against its commitment."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route, expect

# A mid-race moment, kept with the other artifacts; docs/images/race.png (the README's) is a
# copy of one.
IMAGE = Path(__file__).resolve().parent / "artifacts" / "race.png"
WAIT = 30_000


def create_race_in_lobby(page: Page) -> str:
    """Create a two-seat Klondike race with the lobby's form; the race page's share link."""
    form = page.locator("form.create-race")
    form.locator("select[name=game]").select_option("klondike")
    form.locator("select[name=variant]").select_option("easy")
    form.locator("input[name=seats]").fill("2")
    form.get_by_role("button", name="Create race").click()
    expect(page.locator(".race .race-state")).to_have_text("open", timeout=WAIT)
    return page.locator("input.share-url, #share input").first.input_value()


def on_node(link: str, base: str) -> str:
    """The same page on another node: the link's hash on `base`."""
    return base + "/" + link[link.index("#"):]


def own_session(page: Page) -> dict[str, Any]:
    """The player's race session as the server has it now (position and legal moves)."""
    sid = page.locator(".race-board .session").get_attribute("data-session")
    return page.evaluate("(sid) => samedeal.net.request({type: 'session.get', session: sid})", sid)


def play(page: Page, move: str) -> None:
    """Play a move on the page's own board the way a player does: click the card, then the
    target column (or the stock for `s`), and wait for the server's answer to show."""
    board = page.locator(".race-board")
    rev = int(board.locator(".session").get_attribute("data-rev") or "0")
    if move == "s":
        board.locator(".pile[data-pile=s]").click()
    else:
        src, dst = move.split("-")
        pile, _, count = src.partition(":")
        cards = board.locator(f".pile[data-pile={pile}] > .card:not(.back)")
        # The top-left corner: the part of a card that shows when others lie on it.
        cards.nth(cards.count() - int(count or 1)).click(position={"x": 6, "y": 6})
        board.locator(f".pile[data-pile={dst}]").click()
    expect(board.locator(".session")).to_have_attribute("data-rev", str(rev + 1), timeout=WAIT)


def some_moves(page: Page, count: int, stock: int = 99) -> int:
    """Up to `count` sensible moves, as a player makes them: to a foundation first, then a move
    onto a column that uncovers a card or plays from the waste, else the stock (at most
    `stock` times: stop before more). How many were played."""
    played = 0
    for _ in range(count):
        s = own_session(page)
        piles = s["view"]["piles"]

        def useful(m: str, piles: dict[str, Any] = piles) -> bool:
            src = m.split("-")[0].split(":")[0]
            return src == "w" or piles[src]["down"] > 0

        legal = s["legal"]
        move = next((m for m in legal if m.split("-")[-1].startswith("f")), None)
        move = move or next((m for m in legal if m.split("-")[-1].startswith("t") and useful(m)),
                            "s")
        if move == "s":
            if stock == 0:
                break
            stock -= 1
        play(page, move)
        played += 1
    return played


def wait_started(page: Page) -> None:
    expect(page.locator(".race-board .session")).to_be_visible(timeout=WAIT)
    expect(page.locator(".race-clock")).to_contain_text("Time left", timeout=WAIT)


def resign(page: Page) -> None:
    page.locator(".race-board button.resign").click()
    page.locator(".resign-confirm [data-act=resign]").click()  # "Resign this race?"


def test_two_browsers_race_one_deal(page_for, web: str, web2: str) -> None:
    ann = page_for("Ann")
    link = create_race_in_lobby(ann)
    race = link.rsplit("/", 1)[1]
    bob = page_for("Bob", web2)
    bob.goto(on_node(link, web2))
    bob.locator("[data-act=join]").click()

    # The countdown, then each player's own board.
    for page in (ann, bob):
        wait_started(page)
    ann_id = ann.evaluate("samedeal.ctx.player.id")
    bob_id = bob.evaluate("samedeal.ctx.player.id")
    assert ann.locator(".race-board .pile").count() > 0
    assert bob.locator(".race-board .pile").count() > 0

    # Each sees the other's progress after the other moves; never their cards.
    some_moves(bob, 5)
    expect(ann.locator(f".race-progress tr[data-player={bob_id}] td.moves")).to_have_text(
        "5", timeout=WAIT)
    # (At most one turn of the stock: the picture shows a game under way, not a long waste.)
    ann_moves = some_moves(ann, 8, stock=1)
    expect(bob.locator(f".race-progress tr[data-player={ann_id}] td.moves")).to_have_text(
        str(ann_moves), timeout=WAIT)
    assert bob.locator(f".race-progress tr[data-player={ann_id}] .card").count() == 0

    # A mid-race moment for the README: Ann's board and Bob's progress.
    ann.set_viewport_size({"width": 1280, "height": 800})
    ann.locator(".race-board .session").scroll_into_view_if_needed()
    ann.evaluate("window.scrollTo(0, 0)")
    IMAGE.parent.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(IMAGE))

    sessions = {pid: page.locator(".race-board .session").get_attribute("data-session")
                for pid, page in ((ann_id, ann), (bob_id, bob))}
    # Bob resigns first: he is first in the finish order for both.
    resign(bob)
    expect(ann.locator(".race-finish li").first).to_contain_text("Bob", timeout=WAIT)
    resign(ann)

    for page in (ann, bob):
        results = page.locator(".race-results")
        expect(results).to_be_visible(timeout=WAIT)
        expect(results.locator("tbody tr")).to_have_count(2)
        expect(page.locator(".race-state")).to_have_text("ended")
        expect(results.locator(".seed-check")).to_have_attribute("data-ok", "yes", timeout=WAIT)
        seed = results.locator("code.seed").inner_text()
        assert len(seed) == 64
        expect(results.locator("a.verify-link")).to_have_attribute("href", f"#/replay/race/{race}")
    finish = ann.locator(".race-finish li")
    expect(finish).to_have_count(2)
    expect(finish.nth(0)).to_contain_text("Bob")

    # "Verify this deal": step through Ann's game on the revealed deal. The game shown first
    # (the ranking's first) is answered only after the other one was chosen: the choice wins.
    held: list[Route] = []

    def hold_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    ann.route("**/api/v1/sessions/*/moves", hold_first)
    ann.locator("a.verify-link").click()
    chooser = ann.locator("select.replay-player")
    chosen = bob_id if chooser.input_value() == ann_id else ann_id
    chooser.select_option(chosen)
    shown = ann.locator("div.replay")
    expect(shown).to_have_attribute("data-session", sessions[chosen], timeout=WAIT)
    assert len(held) == 1
    with ann.expect_response(lambda r: r.request == held[0].request):
        held[0].continue_()
    ann.unroute("**/api/v1/sessions/*/moves")
    ann.evaluate("() => new Promise((r) => setTimeout(r, 200))")  # what it would open, opened
    expect(shown).to_have_attribute("data-session", sessions[chosen])
    chooser.select_option(ann_id)
    total = ann_moves + 1  # and the resign
    expect(ann.locator(".replay-pos")).to_have_text(f"Move 0 of {total}", timeout=WAIT)
    expect(ann.locator(".replay-board .pile").first).to_be_visible()
    # Away from the player <select> first: arrow keys there change the player, as they should.
    ann.locator(".replay-note").click()
    ann.keyboard.press("ArrowRight")
    expect(ann.locator(".replay-pos")).to_have_text(f"Move 1 of {total}", timeout=WAIT)
    ann.locator("[data-step=last]").click()
    expect(ann.locator(".replay-note")).to_have_text(f"Move {total}: resigned.", timeout=WAIT)
    # Named in words, not ids: the race's game, entrants and start; each move in card words
    # ("7♥ from column 5 to column 2", "draw from the stock"), its notation the title.
    title = ann.locator(".replay h1")
    expect(title).to_contain_text("Klondike (easy) race, 2 players, ")
    assert race not in title.inner_text()
    steps = ann.locator(".replay-moves .replay-move")
    expect(steps.last.locator(".mv")).to_have_text("resign")
    for i in range(ann_moves):
        notation = steps.nth(i).get_attribute("title") or ""
        words = steps.nth(i).locator(".mv").inner_text()
        if notation == "s":
            assert words in ("draw from the stock", "turn the waste over"), words
        else:
            # one card ("7♥ from column 5 to column 2"), or a run of them ("8♠–4♠ (5 cards)")
            card = r"(10|[A2-9JQK])[♣♦♥♠]"
            assert re.fullmatch(rf"{card}(–{card} \(\d+ cards\))? from (column \d|the waste "
                                r"pile) to (column|foundation) \d", words), (notation, words)
