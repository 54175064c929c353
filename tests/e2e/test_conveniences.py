"""The conveniences of play in a real browser: auto-move (on in practice, off in a race until
switched on, every auto move a normal move the server accepted), auto-complete once nothing is
hidden, the question before resigning a race (none in practice), the keyboard help and the U
key, and a practice timer that survives a reload."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import httpx
import redis
from playwright.sync_api import Page, expect

import engine
from engine.cards import TEXT
from engine.safe import safe_moves
from tests.e2e.test_race import create_race_in_lobby, play, wait_started

WAIT = 30_000
KLONDIKE = engine.get("klondike", "easy")

# Practice Klondike, seed 0025: no safe move at the deal; t3-t6 lays the 6♦ on t6 and turns up
# an Ace in t3 (from the engine, checked below).
REVEAL_SEED, REVEAL_MOVE = "0025", "t3-t6"

TRANSCRIPT = """
async (sid) => {
  const token = localStorage.getItem('samedeal.token');
  const res = await fetch(`/api/v1/sessions/${sid}/moves`,
                          {headers: {Authorization: `Bearer ${token}`}});
  return res.json();
}
"""


def open_practice(page: Page, game: str, variant: str, seed: str) -> None:
    page.goto(page.url.split("#")[0] + f"#/play/{game}/{variant}?seed={seed}")
    page.wait_for_selector(f".session .board[data-game='{game}']")


def moves_of(page: Page) -> list[str]:
    sid = page.locator(".session").get_attribute("data-session")
    moves: list[str] = page.evaluate(TRANSCRIPT, sid)["moves"]
    return moves


def safe_chain(st: engine.State) -> list[str]:
    """What auto-move plays from here: the first safe move, again and again."""
    out = []
    while safe := safe_moves(st):
        out.append(engine.move_text(st.rules, safe[0]))
        st.play(safe[0])
    return out


def click_move(page: Page, move: str) -> None:
    """Click the moving card, then the pile it goes to."""
    src, dst = move.split("-")
    cards = page.locator(f".session .pile[data-pile={src}] > .card:not(.back)")
    cards.last.click(position={"x": 6, "y": 6})
    page.locator(f".session .pile[data-pile={dst}]").click()


def test_auto_move_plays_a_revealed_ace_in_practice(page_for) -> None:
    page = page_for("Practiser")
    st = KLONDIKE.deal(bytes.fromhex(REVEAL_SEED))
    assert safe_moves(st) == []
    st.play(engine.parse_move(KLONDIKE, REVEAL_MOVE))
    chain = safe_chain(st)
    assert chain and chain[0].startswith("t3-f")  # the Ace just turned up

    open_practice(page, "klondike", "easy", REVEAL_SEED)
    box = page.locator(".session [data-setting=auto-move]")
    expect(box).to_be_checked()  # on by default in practice
    click_move(page, REVEAL_MOVE)
    total = 1 + len(chain)
    expect(page.locator(".session")).to_have_attribute("data-rev", str(total), timeout=WAIT)
    expect(page.locator(".session .moves")).to_have_text(str(total))
    assert moves_of(page) == [REVEAL_MOVE, *chain]
    ace = st.piles[KLONDIKE.pile_index[chain[0].split("-")[1]]][0]
    expect(page.locator(f".pile[data-pile^=f] .card[data-card={TEXT[ace]}]")
           ).to_have_count(1)

    # U undoes (the last auto move); switched off, a move is only the player's own.
    page.locator("body").press("u")
    expect(page.locator(".session")).to_have_attribute("data-rev", str(total + 1))
    box.uncheck()
    page.reload()
    page.wait_for_selector(".session .board[data-game='klondike']")
    expect(page.locator(".session [data-setting=auto-move]")).not_to_be_checked()  # kept


def test_auto_move_in_a_race_only_when_switched_on(page_for, web2: str, redis_url: str) -> None:
    seed = hashlib.sha256(b"race 1").digest()  # an Ace face up at the deal
    st = KLONDIKE.deal(seed, competitive=True)
    assert safe_moves(st)
    ann = page_for("Ann")
    race = create_race_in_lobby(ann).rsplit("/", 1)[1]
    store = redis.Redis.from_url(redis_url)  # this race deals the known deal
    store.hset(f"sd:{{{race}}}:race", mapping={"seed": seed.hex(),
                                                "commitment": engine.commitment(seed)})
    store.close()
    with httpx.Client(base_url=web2, timeout=10) as http:
        reply = http.post("/api/v1/players", json={"name": "Bob", "kind": "human"}).json()
        http.headers["authorization"] = f"Bearer {reply['token']}"
        http.post(f"/api/v1/races/{race}/join").raise_for_status()
    wait_started(ann)
    board = ann.locator(".race-board .session")
    box = board.locator("[data-setting=auto-move]")
    expect(box).not_to_be_checked()  # off by default in a race

    # A turn of the stock: the Ace stays where it is.
    play(ann, "s")
    ann.wait_for_timeout(1000)
    expect(board).to_have_attribute("data-rev", "1")
    assert moves_of(ann) == ["s"]

    # Switched on, the safe moves go, each a move of the player's the server accepted.
    st.play(engine.parse_move(KLONDIKE, "s"))
    chain = safe_chain(st.copy())
    box.check()
    expect(board).to_have_attribute("data-rev", str(1 + len(chain)), timeout=WAIT)
    played = moves_of(ann)
    assert played == ["s", *chain]
    for m in played[1:]:  # each was a legal, safe move when it was sent
        assert m in [engine.move_text(KLONDIKE, x) for x in safe_moves(st)]
        st.play(engine.parse_move(KLONDIKE, m))
    me = ann.evaluate("samedeal.ctx.player.id")
    expect(ann.locator(f".race-progress tr[data-player={me}] td.moves")).to_have_text(
        str(len(played)), timeout=WAIT)

    # Resigning a race asks first; "Keep playing" changes nothing.
    board.locator("button.resign").click()
    question = ann.locator(".resign-confirm")
    expect(question).to_be_visible()
    expect(question).to_contain_text("Resign this race? You cannot come back.")
    question.get_by_role("button", name="Keep playing").click()
    expect(question).to_have_count(0)
    ann.wait_for_timeout(500)
    expect(board).to_have_attribute("data-status", "playing")
    expect(board).to_have_attribute("data-rev", str(len(played)))
    board.locator("button.resign").click()
    ann.locator(".resign-confirm").get_by_role("button", name="Resign").click()
    expect(board).to_have_attribute("data-status", "lost", timeout=WAIT)


def winning_prefix(rules: engine.RuleSet, seed: bytes) -> list[str]:
    """Moves from the deal to a position that safe moves alone win (a depth-first search,
    foundation moves first)."""
    seen: set[Any] = set()

    def wins_by_safe(st: engine.State) -> bool:
        st = st.copy()
        safe_chain(st)
        return st.status == "won"

    def search(st: engine.State, depth: int) -> list[str] | None:
        if depth and wins_by_safe(st):
            return []
        key = tuple(tuple(p) for p in st.piles)
        if key in seen or depth > 80 or len(seen) > 50_000:
            return None
        seen.add(key)
        legal = sorted(st.legal_moves(), key=lambda m: rules.pile_kinds[m.dst] != "foundation")
        for m in legal:
            nxt = st.copy()
            nxt.play(m)
            rest = search(nxt, depth + 1)
            if rest is not None:
                return [engine.move_text(rules, m), *rest]
        return None

    found = search(rules.deal(seed), 0)
    assert found, "no position that safe moves win"
    return found


def test_auto_complete_wins_once_nothing_is_hidden(page_for) -> None:
    # Beleaguered Castle deals every card face up: nothing is ever hidden. The prefix is played
    # over the page's connection with auto-move off, then the page is read again.
    rules = engine.get("beleaguered-castle", "easy")
    seed = hashlib.sha256(b"ac 6").digest()
    prefix = winning_prefix(rules, seed)
    page = page_for("Finisher")
    open_practice(page, "beleaguered-castle", "easy", seed.hex())
    page.locator(".session [data-setting=auto-move]").uncheck()
    sid = page.locator(".session").get_attribute("data-session")
    page.evaluate("""async ([sid, moves]) => {
      for (const move of moves) await samedeal.net.request({type: 'move', session: sid, move});
    }""", [sid, prefix])
    page.reload()
    session = page.locator(f".session[data-session='{sid}']")
    expect(session).to_have_attribute("data-rev", str(len(prefix)), timeout=WAIT)
    expect(session).to_have_attribute("data-status", "playing")

    button = session.get_by_role("button", name="Auto-complete")
    expect(button).to_be_visible()
    button.click()
    expect(session).to_have_attribute("data-status", "won", timeout=WAIT)
    expect(page.locator(".game-over")).to_contain_text("You won!")
    expect(page.locator(".game-over").get_by_role("button", name="Play again")).to_be_visible()
    played = moves_of(page)
    assert played[:len(prefix)] == prefix and len(played) > len(prefix)
    st = engine.replay("beleaguered-castle", "easy", seed, prefix)
    for m in played[len(prefix):]:  # only safe moves, each accepted as a normal move
        assert m in [engine.move_text(rules, x) for x in safe_moves(st)]
        st.play(engine.parse_move(rules, m))
    assert st.status == "won"


def test_practice_resigns_at_once_and_the_keys_help(page_for) -> None:
    page = page_for("Helper")
    open_practice(page, "klondike", "easy", REVEAL_SEED)
    session = page.locator(".session")
    # Klondike's deal hides cards: no auto-complete.
    expect(session.get_by_role("button", name="Auto-complete")).to_be_hidden()

    # "?" (the key or the button) shows the keys; Escape closes the list.
    help_panel = page.locator(".keys-help")
    expect(help_panel).to_be_hidden()
    page.locator("body").press("?")
    expect(help_panel).to_be_visible()
    expect(help_panel).to_contain_text("undo")
    expect(help_panel).to_contain_text("auto-complete")
    page.keyboard.press("Escape")
    expect(help_panel).to_be_hidden()
    session.get_by_role("button", name="keyboard shortcuts").click()
    expect(help_panel).to_be_visible()
    help_panel.get_by_role("button", name="Close").click()
    expect(help_panel).to_be_hidden()

    session.get_by_role("button", name="Resign").click()
    expect(session).to_have_attribute("data-status", "lost", timeout=WAIT)
    expect(page.locator(".resign-confirm")).to_have_count(0)


def seconds(text: str) -> int:
    m = re.fullmatch(r"(\d+):(\d\d)", text)
    assert m, text
    return int(m[1]) * 60 + int(m[2])


def test_the_practice_timer_survives_a_reload(page_for) -> None:
    page = page_for("Clockwatcher")
    open_practice(page, "klondike", "easy", REVEAL_SEED)
    timer = page.locator(".session .timer")
    expect(timer).to_have_text(re.compile(r"^(?!0:0[0-2]$)\d+:\d\d$"), timeout=WAIT)  # 3 s on
    before = seconds(timer.inner_text())
    sid = page.locator(".session").get_attribute("data-session")
    page.reload()
    page.wait_for_selector(f".session[data-session='{sid}']")  # the same game, resumed
    assert seconds(page.locator(".session .timer").inner_text()) >= before
