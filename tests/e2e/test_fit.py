"""Every board fits its screen: for each of the 60 rule sets, at a laptop's and a large desktop's
viewport and a phone's in both orientations, the practice page shows the whole board without
scrolling either way, every pile and every card inside it, after the deal and in a grown state
(a long game played through the server that lengthens columns and fills the waste). And the
board never moves under a finger: at the five sizes of the players' trials (two laptops, a
tablet, a phone upright and sideways), 30 moves played by clicks leave its box where it was at
the deal, with the page unscrolled and every playable card on screen. Screenshots of a few
boards are saved for review (tests/e2e/artifacts), not compared."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

import engine
from tests.e2e.board_clicks import OFF_SCREEN, PLAY_BY_CLICKS
from tests.e2e.conftest import ARTIFACTS, TRIAL_SIZES, lobby_page, open_context, resize

SEED = "f17f17f17f17f17f17f1"
VIEWPORTS: dict[str, ViewportSize] = {
    "laptop": {"width": 1366, "height": 768},
    "desktop": {"width": 1920, "height": 1080},
    "phone": {"width": 390, "height": 844},
    "landscape": {"width": 844, "height": 390},
}
CLICKED_MOVES = 30
# Moves are played by hand here: auto-move would play moves of its own between them.
NO_AUTO_MOVE = "localStorage.setItem('samedeal.automove.practice', '0');"
RULE_SETS = [(r.id, r.variant) for r in engine.rule_sets()]
SLACK = 1.0  # px: rounding of fractional sizes
GROWN_MOVES = 160
SHOTS = {("klondike", "easy"), ("pyramid", "easy"), ("bowling", "easy"), ("la-belle-lucie", "easy")}

# What overflows: the page's scroll size against the viewport, the board's box, every pile
# and card whose box leaves the board's (or the viewport's), and facts cut at a side.
MEASURE = """
() => {
  const board = document.querySelector('.session .board');
  const r = (el) => el.getBoundingClientRect();
  const b = r(board);
  const vw = innerWidth, vh = innerHeight, s = SLACK;
  const out = [];
  const inside = (x, box, what) => {
    if (x.left < box.left - s || x.right > box.right + s || x.top < box.top - s
        || x.bottom > box.bottom + s) out.push(what);
  };
  inside(b, {left: 0, top: 0, right: vw, bottom: vh}, 'board');
  for (const el of board.querySelectorAll('.pile, .pile > .card')) {
    const card = el.classList.contains('card') ? ' card ' + (el.dataset.card || 'back') : '';
    const what = (el.dataset.pile || '') + card;
    inside(r(el), b, what);
  }
  // The facts under or beside the cards (a line-score table) shown whole, not cut at a side.
  const info = board.querySelector('.board-info');
  if (info && info.scrollWidth > info.clientWidth + s) out.push('facts');
  const doc = document.documentElement;
  return {overflow: out, scroll: [doc.scrollWidth - vw, doc.scrollHeight - vh],
          cw: parseFloat(board.style.getPropertyValue('--cw'))};
}
""".replace("SLACK", str(SLACK))

# Plays moves through the page's own connection, each at the revision the last reply gave.
PLAY = """
async ([sid, moves]) => {
  let reply = await samedeal.net.request({type: 'session.get', session: sid});
  for (const move of moves) {
    reply = await samedeal.net.request({type: 'move', session: sid, move, rev: reply.rev});
  }
  return reply.rev;
}
"""


def grown_line(game: str, variant: str, seed: str, moves: int = GROWN_MOVES) -> list[str]:
    """A long game from the deal that keeps the game going and makes piles long: at each step
    one of the moves that most lengthen the longest piles (columns, fans, the waste)."""
    rules = engine.get(game, variant)
    st = rules.deal(bytes.fromhex(seed))
    pick = random.Random(seed + game + variant)
    found = {g.name(i) for g in rules.groups if g.kind == "foundation" for i in range(g.count)}

    def length(state: engine.State) -> int:
        sizes = [p["down"] + len(p["up"]) for name, p in state.view()["piles"].items()
                 if name not in found]
        return sum(n * n for n in sizes)

    line: list[str] = []
    for _ in range(moves):
        scored = []
        for m in st.legal_moves():
            st.play(m)
            if st.status == engine.PLAYING:
                scored.append((length(st) + pick.random() * 4, m))
            st.undo()
        if not scored:
            break
        scored.sort(key=lambda x: -x[0])
        move = pick.choice(scored[:2])[1]
        st.play(move)
        line.append(engine.move_text(rules, move))
    return line


@pytest.fixture(scope="module")
def page(browser: Browser, web: str) -> Iterator[Page]:
    context = open_context(browser, "Fitter", viewport=VIEWPORTS["laptop"])
    yield lobby_page(context, web)
    context.close()


def open_practice(page: Page, game: str, variant: str, rev: int = 0) -> str:
    page.evaluate("(h) => { location.hash = h; }", f"#/play/{game}/{variant}?seed={SEED}")
    board = f".board[data-game='{game}'][data-variant='{variant}']"
    page.wait_for_selector(f".session[data-rev='{rev}']:has({board})")
    # The board is fitted to its room by a ResizeObserver, before the frame is painted: what
    # the player first sees is the next frame, not the moment the board joins the page.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.locator(".session").get_attribute("data-session") or ""


def check_fits(page: Page, what: str, shot: str | None = None) -> list[str]:
    """The board measured at every viewport, starting from the page's own (the board was
    fitted there when it was drawn) and staying at the last: each resize fits the board
    again, the costly part of this test, and a return to one size would be one more."""
    names = list(VIEWPORTS)
    now = page.viewport_size
    start = next((i for i, name in enumerate(names) if VIEWPORTS[name] == now), 0)
    failures = []
    for name in names[start:] + names[:start]:
        resize(page, VIEWPORTS[name])
        m: dict[str, Any] = page.evaluate(MEASURE)
        problems = fit_problems(m)
        if problems:
            failures.append(f"{what} at {name} (card {m['cw']} px): " + "; ".join(problems))
        if shot:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"fit-{shot}-{name}.png"))
    return failures


@pytest.mark.parametrize(("game", "variant"), RULE_SETS, ids=[f"{g}-{v}" for g, v in RULE_SETS])
def test_every_board_fits_after_the_deal_and_grown(page: Page, game: str, variant: str) -> None:
    shot = f"{game}-{variant}" if (game, variant) in SHOTS else None
    sid = open_practice(page, game, variant)
    failures = check_fits(page, f"{game}/{variant} after the deal", shot and shot + "-dealt")
    line = grown_line(game, variant, SEED)
    rev = page.evaluate(PLAY, [sid, line])
    assert rev == len(line)
    # A reload resumes the session: the board is drawn afresh in its grown state.
    page.reload()
    page.wait_for_selector(f".session[data-rev='{rev}'] .board")
    failures += check_fits(page, f"{game}/{variant} after {len(line)} moves",
                           shot and shot + "-grown")
    assert not failures, "\n".join(failures)


@pytest.fixture(scope="module")
def sized_pages(browser: Browser, web: str) -> Iterator[dict[str, Page]]:
    contexts = []
    pages = {}
    for name, size in TRIAL_SIZES.items():
        # Cards animate at the first size only: an animation's copy is fixed in place and takes
        # no pointer events (motion.js), so it never moves the board's box, scrolls the page
        # or takes a click, whatever the size; drawing it is a quarter of this test's time.
        motion = "no-preference" if name == next(iter(TRIAL_SIZES)) else "reduce"
        context = open_context(browser, f"Clicker {name}", viewport=size, reduced_motion=motion)
        context.add_init_script(NO_AUTO_MOVE)
        contexts.append(context)
        pages[name] = lobby_page(context, web)
    yield pages
    for context in contexts:
        context.close()


@pytest.mark.parametrize(("game", "variant"), RULE_SETS, ids=[f"{g}-{v}" for g, v in RULE_SETS])
def test_the_board_never_moves_under_a_finger(sized_pages: dict[str, Page], game: str,
                                               variant: str) -> None:
    line = grown_line(game, variant, SEED, CLICKED_MOVES)
    failures = []
    for name, page in sized_pages.items():
        what = f"{game}/{variant} at {name}"
        open_practice(page, game, variant)
        dealt = fit_problems(page.evaluate(MEASURE)) + off_screen(page)
        played: dict[str, Any] = page.evaluate(PLAY_BY_CLICKS, [line])
        grown = fit_problems(page.evaluate(MEASURE)) + off_screen(page)
        if dealt:
            failures.append(f"{what} at the deal: " + "; ".join(dealt))
        if played["failed"] or played["played"] != len(line):
            failures.append(f"{what}: {played['played']} of {len(line)} moves played by clicks, "
                            f"then {played['failed']}")
        if played["moved"]:
            first = played["moved"][0]
            failures.append(f"{what}: the board moved from {played['box']} to {first[1]} at "
                            f"{first[0]} ({len(played['moved'])} moves with it elsewhere)")
        if played["scrolled"]:
            failures.append(f"{what}: the page scrolled at {played['scrolled'][:3]}")
        if grown:
            failures.append(f"{what} after {played['played']} moves: " + "; ".join(grown))
    assert not failures, "\n".join(failures)


def fit_problems(m: dict[str, Any]) -> list[str]:
    problems = []
    if m["scroll"][0] > SLACK or m["scroll"][1] > SLACK:
        problems.append(f"the page scrolls by {m['scroll']}")
    if m["overflow"]:
        problems.append(f"outside: {m['overflow'][:6]}")
    return problems


def off_screen(page: Page) -> list[str]:
    cards: list[str] = page.evaluate(OFF_SCREEN)
    return [f"playable cards off screen: {cards[:6]}"] if cards else []


def longest_column_row(game: str, variant: str) -> int:
    """The most columns (piles fanned down) a row of the description stands side by side."""
    desc = engine.get(game, variant).describe()
    return max((len(row) for g in desc["layout"] if g["fan"] == "down"
                for row in (g.get("rows") or [g["piles"]])), default=0)


LONG_ROWS = [(g, v) for g, v in RULE_SETS
             if longest_column_row(g, v) > engine.get(g, v).describe()["width"]]
# Wrapped, these rows' cards were 23-28 px wide held sideways; in one line, wider than this.
SIDEWAYS_CW = 30

# How many lines the longest row of columns stands on, and the card width.
ROW_LINES = """
() => {
  const board = document.querySelector('.session .board');
  const rows = [...board.querySelectorAll('.board-main .group.fan-down > .row')];
  const row = rows.sort((a, b) => b.children.length - a.children.length)[0];
  const tops = new Set([...row.querySelectorAll(':scope > .pile')]
    .map((p) => Math.round(p.getBoundingClientRect().top)));
  return {lines: tops.size, piles: row.children.length,
          cw: parseFloat(board.style.getPropertyValue('--cw'))};
}
"""


@pytest.mark.parametrize(("game", "variant"), LONG_ROWS, ids=[f"{g}-{v}" for g, v in LONG_ROWS])
def test_a_long_row_of_columns_stands_in_one_line_held_sideways(
        sized_pages: dict[str, Page], game: str, variant: str) -> None:
    # Baker's Dozen's 13 columns wrapped 10 + 3 on a phone held sideways, with cards 23-28 px
    # wide; in one line they come larger, and the board still fits (checked above).
    page = sized_pages["landscape"]
    page.evaluate("(h) => { location.hash = h; }", f"#/play/{game}/{variant}?seed={SEED}")
    # Measured once fitted to its room (fit.js gives it its card width), the frame after: as
    # soon as it joined the page, a busy machine had not fitted it yet. (The deal played
    # above resumes here, at its own rev: open_practice's wait for rev 0 would not do.)
    board = f".session .board[data-game='{game}'][data-variant='{variant}']"
    page.wait_for_function(
        "(b) => parseFloat(document.querySelector(b)?.style.getPropertyValue('--cw')) > 0",
        arg=board)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    m: dict[str, Any] = page.evaluate(ROW_LINES)
    assert m["piles"] == longest_column_row(game, variant)
    assert m["lines"] == 1 and m["cw"] > SIDEWAYS_CW, m
    assert not fit_problems(page.evaluate(MEASURE))
