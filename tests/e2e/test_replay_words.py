"""Moves in card words, in a real browser: a replay's steps read "7♥ from column 5 to column 2",
"draw from the stock", "5♣ and 8♦ removed" (the notation kept as each step's title) for a build
game and a remove game, with the game named, not its ids; and words.js itself, run in the page
against real views of every rule set in the catalog, never naming a card the view did not show.

Rule sets are picked from the catalog by their description (`play`, the layout), never by id."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import engine
from tests.server.client import CARD, SYMBOL

from .conftest import lobby_page, open_context

WAIT = 30_000
LETTER = SYMBOL  # "♥" -> "h"
SYMBOL_OF = {v: k for k, v in SYMBOL.items()}  # "h" -> "♥"
NOTATION = re.compile(r"\b[a-z]{1,2}\d+\b|[+:]")  # "t5", "f1", "p7+", "t3:4": not for players

Desc = dict[str, Any]
View = dict[str, Any]


@pytest.fixture
def page(browser: Browser, web: str) -> Iterator[Page]:
    context = open_context(browser, "Reader", viewport={"width": 1280, "height": 900},
                           timezone_id="UTC")
    yield lobby_page(context, web)
    context.close()


# ---- what a player should read, from the description and the view before the move ----

def card_words(text: str) -> str:
    rank, suit = text[:-1].upper(), text[-1].lower()
    return ("10" if rank == "T" else rank) + SYMBOL_OF[suit]


def pile_words(desc: Desc, pile: str) -> str:
    group = next(g for g in desc["layout"] if pile in g["piles"])
    num = pile.lstrip("abcdefghijklmnopqrstuvwxyz")
    return f"{group['word']} {num}" if len(group["piles"]) > 1 and num else f"the {group['word']}"


def expected(desc: Desc, move: str, view: View) -> str:
    piles = view["piles"]
    if move == "s":
        stock = next(g for g in desc["layout"] if g["kind"] == "stock")["piles"][0]
        if piles[stock]["down"] + len(piles[stock]["up"]) == 0:
            return "turn the waste over"
        wastes = [g for g in desc["layout"] if g["kind"] == "waste"]
        one = len(wastes) == 1 and len(wastes[0]["piles"]) == 1
        return "draw from the stock" if one else "deal from the stock"
    if "+" in move:
        names = [card_words(piles[p]["up"][-1]) for p in move.split("+") if p]
        return (" and ".join(names) if len(names) < 3
                else ", ".join(names[:-1]) + " and " + names[-1]) + " removed"
    src, dst = move.split("-")
    src, _, count = src.partition(":")
    n = int(count or 1)
    cards = piles[src]["up"][-n:]
    what = card_words(cards[0]) if n == 1 else \
        f"{card_words(cards[0])}–{card_words(cards[-1])} ({n} cards)"
    return f"{what} from {pile_words(desc, src)} to {pile_words(desc, dst)}"


# ---- playing a game through the page's own connection ----

def start(page: Page, desc: Desc, seed: str) -> dict[str, Any]:
    return page.evaluate("([g, v, seed]) => samedeal.net.request({type: 'solo.start', game: g, "
                         "variant: v, seed})", [desc["id"], desc["variant"], seed])


def move(page: Page, sid: str, text: str, rev: int) -> dict[str, Any]:
    return page.evaluate("([sid, move, rev]) => samedeal.net.request({type: 'move', session: sid, "
                         "move, rev})", [sid, text, rev])


def catalog(page: Page) -> list[Desc]:
    return page.evaluate("samedeal.ctx.catalog")  # type: ignore[no-any-return]


def kinds(desc: Desc, kind: str) -> list[Desc]:
    return [g for g in desc["layout"] if g["kind"] == kind]


def klondike_shaped(d: Desc, columns: int = 2) -> bool:
    """Built on, with columns, several foundations, a stock and one waste pile."""
    wastes, found, cols = kinds(d, "waste"), kinds(d, "foundation"), kinds(d, "tableau")
    return bool(d["play"] == "build" and not d["match"] and kinds(d, "stock")
                and len(wastes) == 1 and len(wastes[0]["piles"]) == 1
                and found and len(found[0]["piles"]) > 1
                and cols and len(cols[0]["piles"]) >= columns)


def a_seed(desc: Desc, pick: Any, count: int, good: Any) -> str:
    """A seed on which `pick` plays moves that `good(moves)` likes, found with the engine."""
    rules = engine.get(desc["id"], desc["variant"])
    for n in range(1, 200):
        seed = f"{n:02x}"
        st = rules.deal(bytes.fromhex(seed))
        moves: list[str] = []
        for _ in range(count):
            m = pick([engine.move_text(rules, x) for x in st.legal_moves()], st.view())
            if m is None:
                break
            moves.append(m)
            st.play(engine.parse_move(rules, m))
        if good(moves):
            return seed
    raise AssertionError(f"no seed suits {desc['name']}")


def play_and_replay(page: Page, desc: Desc, seed: str, pick: Any, count: int
                    ) -> tuple[list[str], list[View]]:
    """Play up to `count` moves chosen by `pick(legal, view)`, then open the game's replay and
    wait until every step reads in words. The moves and the view before each."""
    s = start(page, desc, seed)
    sid, view, legal = s["session"], s["view"], s["legal"]
    moves: list[str] = []
    views: list[View] = []
    for rev in range(count):
        m = pick(legal, view)
        if m is None:
            break
        ack = move(page, sid, m, rev)
        moves.append(m)
        views.append(view)
        view, legal = ack["view"], ack["legal"]
    page.goto(page.url.split("#")[0] + f"#/replay/session/{sid}")
    steps = page.locator(".replay-moves li .replay-move")
    expect(steps).to_have_count(len(moves), timeout=WAIT)
    # the last step's words come once the board before it is here
    expect(steps.last.locator(".mv")).to_have_text(expected(desc, moves[-1], views[-1]),
                                                   timeout=WAIT)
    title = page.locator(".replay h1")
    expect(title).to_contain_text(f"{desc['name']} ({desc['variant']}) game, ")
    for shown in (title, page.locator(".replay .live-meta")):
        assert sid not in shown.inner_text()
    return moves, views


def check_steps(page: Page, desc: Desc, moves: list[str], views: list[View]) -> list[str]:
    """Each step: the expected words, the notation as its title, no notation in the words and
    no card the board before it did not show face up. The words, in order."""
    steps = page.locator(".replay-moves li .replay-move")
    out = []
    for i, (m, v) in enumerate(zip(moves, views, strict=True)):
        step = steps.nth(i)
        words = step.locator(".mv").inner_text()
        assert words == expected(desc, m, v), (i, m)
        assert step.get_attribute("title") == m and step.get_attribute("data-move") == m
        assert not NOTATION.search(words), words
        shown = {c[:-1].upper() + c[-1].lower() for p in v["piles"].values() for c in p["up"]}
        for rank, suit in CARD.findall(words):
            assert ("T" if rank == "10" else rank) + LETTER.get(suit, suit) in shown, (words, m)
        out.append(words)
    # stepping shows the words too
    page.locator("[data-step=next]").click()
    expect(page.locator(".replay-note")).to_contain_text(f"Move 1: {out[0]}", timeout=WAIT)
    return out


def test_a_build_games_replay_reads_in_card_words(page: Page) -> None:
    desc = next(d for d in catalog(page) if klondike_shaped(d))
    stock = kinds(desc, "stock")[0]["piles"][0]

    def pick(legal: list[str], view: View) -> str | None:
        # a card onto a foundation or a column first; else the stock (turned over when empty)
        return next((m for m in legal if "-" in m), "s" if "s" in legal else None)

    waste = kinds(desc, "waste")[0]["piles"][0]
    seed = a_seed(desc, pick, 40, lambda ms: sum("-" in m for m in ms) >= 3
                  and any(m.startswith(f"{waste}-") for m in ms))
    moves, views = play_and_replay(page, desc, seed, pick, 40)
    words = check_steps(page, desc, moves, views)
    assert any(w == "draw from the stock" for w in words)
    assert any(re.fullmatch(r"(10|[A2-9JQK])[♣♦♥♠] from \w[\w ]* \d+ to \w[\w ]* \d+", w)
               for w in words), words
    assert any(f" from the {kinds(desc, 'waste')[0]['word']} to " in w for w in words), words
    if any(views[i]["piles"][stock]["down"] == 0 and m == "s" for i, m in enumerate(moves)):
        assert "turn the waste over" in words


def test_a_remove_games_replay_reads_in_card_words(page: Page) -> None:
    removal = [d for d in catalog(page) if d["play"] == "remove"]
    assert removal
    for desc in removal:  # the first whose deal has a removal at once, for one of a few seeds
        for seed in ("01", "02", "03", "04"):
            s = start(page, desc, seed)
            if any("+" in m for m in s["legal"]):
                break
        else:
            continue
        break
    else:
        pytest.fail("no remove rule set has a removal after the deal on these seeds")

    def pick(legal: list[str], view: View) -> str | None:
        return next((m for m in legal if "+" in m), "s" if "s" in legal else None)

    moves, views = play_and_replay(page, desc, seed, pick, 6)
    words = check_steps(page, desc, moves, views)
    assert re.fullmatch(r"(10|[A2-9JQK])[♣♦♥♠]((, | and )(10|[A2-9JQK])[♣♦♥♠])* removed",
                        words[0]), words


WORDS = "import('/words.js')"


def run(page: Page, script: str, *args: Any) -> Any:
    """`script` is the body of an async function of (w, args): w is words.js, loaded in the
    page as the client loads it."""
    return page.evaluate(f"async (args) => {{ const w = await {WORDS}; {script} }}", list(args))


def test_the_words_module_in_the_browser(page: Page) -> None:
    cat = catalog(page)
    build = next(d for d in cat if klondike_shaped(d, columns=5))
    t = kinds(build, "tableau")[0]["piles"]
    f = kinds(build, "foundation")[0]["piles"]
    s, w = kinds(build, "stock")[0]["piles"][0], kinds(build, "waste")[0]["piles"][0]
    view = {"piles": {t[4]: {"down": 2, "up": ["7h"]}, t[1]: {"down": 0, "up": ["8s"]},
                      t[2]: {"down": 1, "up": ["Ts", "9h", "8c"]}, t[0]: {"down": 3, "up": []},
                      s: {"down": 5, "up": []}, w: {"down": 0, "up": ["Ks"]}}}
    empty = {"piles": {s: {"down": 0, "up": []}, w: {"down": 0, "up": ["2c", "Ks"]}}}
    said = run(page, "const [d, v, e, m] = args; return m.map(([x, view]) => "
               "w.moveWords(d, x, view === 'e' ? e : view === null ? null : v));",
               build, view, empty,
               [[f"{t[4]}-{t[1]}", "v"], [f"{t[2]}:3-{t[4]}", "v"], [f"{w}-{f[0]}", "v"],
                ["s", "v"], ["s", "e"], [f"{t[0]}-{t[1]}", "v"], [f"{t[4]}-{t[1]}", None],
                [f"{t[2]}:3-{t[4]}", None], ["s", None], ["resign", "v"]])
    col = kinds(build, "tableau")[0]["word"]
    num = [p.lstrip("abcdefghijklmnopqrstuvwxyz") for p in (t[0], t[1], t[2], t[4], f[0])]
    assert said == [
        f"7♥ from {col} {num[3]} to {col} {num[1]}",
        f"10♠–8♣ (3 cards) from {col} {num[2]} to {col} {num[3]}",
        f"K♠ from the waste pile to foundation {num[4]}",
        "draw from the stock",
        "turn the waste over",
        f"a card from {col} {num[0]} to {col} {num[1]}",  # face down: not named
        f"a card from {col} {num[3]} to {col} {num[1]}",  # no view: no card
        f"3 cards from {col} {num[2]} to {col} {num[3]}",
        "use the stock",
        "resign",
    ]
    assert "Ks" not in said[4] and "K♠" not in said[4]

    # a removal of two and of one, with and without the cards showing
    remove = next(d for d in cat if d["play"] == "remove")
    rt = kinds(remove, "tableau")[0]["piles"]
    rv = {"piles": {rt[2]: {"down": 0, "up": ["5c"]}, rt[4]: {"down": 0, "up": ["8d"]},
                    rt[6]: {"down": 0, "up": ["Kh"]}, rt[0]: {"down": 1, "up": []}}}
    rword = kinds(remove, "tableau")[0]["word"]
    r0 = rt[0].lstrip("abcdefghijklmnopqrstuvwxyz")
    said = run(page, "const [d, v, m] = args; return m.map((x) => w.moveWords(d, x, v));",
               remove, rv, [f"{rt[2]}+{rt[4]}", f"{rt[6]}+", f"{rt[2]}+{rt[4]}+{rt[6]}",
                            f"{rt[0]}+{rt[2]}"])
    assert said == ["5♣ and 8♦ removed", "K♥ removed", "5♣, 8♦ and K♥ removed",
                    f"the top card of {rword} {r0} and 5♣ removed"]

    # a game's own kinds of move by their names; one single pile is "the" pile
    grid = next(d for d in cat if kinds(d, "grid") and len(kinds(d, "grid")[0]["piles"]) > 1)
    g = kinds(grid, "grid")[0]
    said = run(page, "const [d, p] = args; return [w.moveWords(d, 'redeal', null), "
               "w.moveWords(d, `left:${p}`, null), w.moveWords(d, `kind:${p}:3`, null), "
               "w.pileWords(d, 'nowhere')];", grid, g["piles"][1])
    n1 = g["piles"][1].lstrip("abcdefghijklmnopqrstuvwxyz")
    assert said == ["redeal", f"left ({g['word']} {n1})", f"kind ({g['word']} {n1}, 3)", "nowhere"]
    # the match page's placements say their pile in the same words
    placed = page.evaluate("async ([d, p]) => (await import('/scores.js')).placeName(d, `s-${p}`)",
                           [grid, g["piles"][1]])
    assert placed == f"onto {g['word']} {n1}"

    # races, matches and games by name, variant, players and time (the player's clock: UTC here)
    at = int(datetime(2026, 11, 24, 10, 40, tzinfo=UTC).timestamp() * 1000)
    said = run(page, "const [d, at] = args; return ["
               "w.playWords(d, {game: d.id, variant: d.variant, kind: 'race', players: 3, at}),"
               "w.playWords(d, {game: d.id, variant: d.variant, kind: 'match', players: 1, at}),"
               "w.playWords(null, {game: 'x', variant: 'y', kind: 'game'}),"
               "w.whenWords(at - 400 * 86400000, at)];", build, at)
    name = f"{build['name']} ({build['variant']})"
    assert said == [f"{name} race, 3 players, 24 Nov 10:40",
                    f"{name} match, 1 player, 24 Nov 10:40", "x (y) game", "20 Oct 2025 10:40"]


def test_words_never_name_a_card_the_view_hid(page: Page) -> None:
    """Every legal move after the deal of every rule set, in words from the view the player
    was sent: no notation, and no card that was not face up in that view."""
    for desc in catalog(page):
        if desc["match"] and desc["players"][0] > 1:
            continue
        s = start(page, desc, "07")
        said = run(page, "const [d, v, legal] = args; "
                   "return legal.map((m) => w.moveWords(d, m, v));", desc, s["view"], s["legal"])
        shown = {c[:-1].upper() + c[-1].lower()
                 for p in s["view"]["piles"].values() for c in p["up"]}
        for m, words in zip(s["legal"], said, strict=True):
            assert words and not NOTATION.search(words), (desc["id"], m, words)
            for rank, suit in CARD.findall(words):
                assert ("T" if rank == "10" else rank) + LETTER.get(suit, suit) in shown, \
                    (desc["id"], m, words)
            if "-" in m and ":" not in m:  # one card: named exactly when it shows
                src = m.split("-")[0]
                up = s["view"]["piles"][src]["up"]
                assert words.startswith(card_words(up[-1]) if up else "a card"), (m, words)
