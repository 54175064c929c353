"""A finished game's analysis on its replay, in a real browser against real servers: a practice
Klondike game played a few moves and resigned, "Analyse" on its game-over screen, then on the
replay the bar (one cell per position, each verdict the REST analysis's), the turning point one
click away (the board at the position before the turning move, the sentence in the note) and
moves of the better line played on the replay's board. A game won on the solver's line shows
its moves over par. A race entrant still playing when the race ended at its time limit has
its analysis on the race's replay. A game still being played is never analysed: its replay
shows no bar and asks nothing. And the bar's room is kept from the start: the board does not
move when it arrives, at desktop and phone size.

The games are chosen with the engine here: one whose deal is won from the start and lost some
moves later, so its bar has both verdicts and a turning point that is a move."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

import engine
from engine.analysis import analyse
from engine.solver import Budget, solve

from .conftest import ARTIFACTS, resize

WAIT = 180_000  # the server analyses in the background; the machine is shared
RULES = ("klondike", "difficult")  # one pass through the stock: soon lost by a careless player
WON = ("klondike", "easy")
PLAYED = 30  # moves at most before resigning
View = dict[str, Any]


def a_lost_chance() -> tuple[str, list[str]]:
    """A seed and a careless player's first moves on it (the stock whenever it can, else the
    first card move), after which the deal, winnable at first, is lost."""
    rules = engine.get(*RULES)
    for n in range(1, 60):
        seed = f"{n:02x}"
        st = rules.deal(bytes.fromhex(seed))
        moves: list[str] = []
        while len(moves) < PLAYED and st.status == "playing":
            legal = [engine.move_text(rules, m) for m in st.legal_moves()]
            pick = "s" if "s" in legal else next((m for m in legal if "-" in m), None)
            if pick is None:
                break
            moves.append(pick)
            st.play(engine.parse_move(rules, pick))
        if st.status != "playing":
            continue
        verdicts = [p["verdict"] for p in analyse(rules, bytes.fromhex(seed), moves).to_json()[
            "positions"]]
        if verdicts[0] == "won" and verdicts[-1] == "lost":
            return seed, moves
    raise AssertionError("no Klondike deal was lost along a careless player's moves")


def view_after(seed: str, moves: list[str]) -> View:
    rules = engine.get(*RULES)
    st = rules.deal(bytes.fromhex(seed))
    for m in moves:
        st.play(engine.parse_move(rules, m))
    view: View = st.view()
    return view


# Each pile of the replay's board as it shows, by name in order: its backs and face-up cards.
PILES = """Object.fromEntries([...document.querySelectorAll('.replay-board .pile[data-pile]')]
    .map((p) => [p.dataset.pile, {down: p.querySelectorAll('.card.back').length,
                 up: [...p.querySelectorAll('.card:not(.back)')].map((c) => c.dataset.card)}])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))"""


def piles_of(view: View) -> dict[str, Any]:
    return {k: {"down": view["piles"][k].get("down", 0), "up": list(view["piles"][k]["up"])}
            for k in sorted(view["piles"])}


def expect_board(page: Page, view: View) -> None:
    """Waits until the replay's board shows `view`'s piles, every card of them."""
    want = piles_of(view)
    page.wait_for_function(f"(want) => JSON.stringify({PILES}) === JSON.stringify(want)",
                           arg=want, timeout=WAIT)
    assert page.evaluate(f"() => {PILES}") == want


def play_and_resign(page: Page, seed: str, moves: list[str]) -> str:
    """A practice game on `seed`: `moves` through the page's own connection, then Resign and
    Analyse on the game-over screen. The session's id."""
    base = page.url.split("#")[0]
    page.goto(f"{base}#/play/{RULES[0]}/{RULES[1]}?seed={seed}")
    page.wait_for_selector(".session[data-rev='0']")
    sid = page.locator(".session").get_attribute("data-session")
    assert sid
    for rev, m in enumerate(moves):
        page.evaluate("([sid, move, rev]) => samedeal.net.request({type: 'move', session: sid, "
                      "move, rev})", [sid, m, rev])
    page.reload()  # the practice page resumes the game where it stands
    expect(page.locator(".session")).to_have_attribute("data-rev", str(len(moves)))
    page.get_by_role("button", name="Resign").click()
    over = page.locator(".game-over")
    expect(over).to_contain_text("Game lost")
    over.get_by_role("button", name="Analyse").click()
    expect(page).to_have_url(f"{base}#/replay/session/{sid}")
    return sid


def rest_analysis(page: Page, sid: str) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate(
        "(sid) => samedeal.net.rest('GET', `/sessions/${sid}/analysis`)", sid)
    return answer


def test_the_bar_the_turning_point_and_the_better_line(page_for: Callable[..., Page]) -> None:
    seed, moves = a_lost_chance()
    page = page_for("Analyst")
    sid = play_and_resign(page, seed, moves)
    # The board's place before the analysis is in: the bar's room is already kept above it.
    page.wait_for_selector(".replay-board .pile")
    panel = page.locator(".analysis")
    top, room = page.locator(".replay-board").bounding_box(), panel.bounding_box()
    assert top and room
    state, said = panel.evaluate(
        "(p) => [p.dataset.state, p.querySelector('.analysis-status').textContent]")
    assert said == "analysing…" if state == "pending" else state == "ready", (state, said)
    expect(panel).to_have_attribute("data-state", "ready", timeout=WAIT)
    answer = rest_analysis(page, sid)
    assert answer["state"] == "ready" and answer["session"] == sid
    a = answer["analysis"]
    assert a["moves"] == moves and a["resigned"]
    assert page.locator(".replay-board").bounding_box() == top
    assert panel.bounding_box() == room

    # One cell per position, each with its verdict.
    cells = panel.locator(".analysis-bar .cell")
    expect(cells).to_have_count(len(moves) + 1)
    assert len(a["positions"]) == len(moves) + 1
    shown = cells.evaluate_all("(cs) => cs.map((c) => [c.dataset.verdict, c.className])")
    for (verdict, classes), p in zip(shown, a["positions"], strict=True):
        assert verdict == p["verdict"] and f"v-{p['verdict']}" in classes.split()
    assert {"won", "lost"} <= {p["verdict"] for p in a["positions"]}
    expect(panel.locator(".analysis-status")).to_have_text(a["summary"])

    # The turning point, one click away: the position before the turning move.
    tp = a["turning_point"]
    assert tp and tp["move"] == moves[tp["move_number"] - 1]
    assert a["positions"][tp["move_number"] - 1]["verdict"] == "won"
    before = tp["move_number"] - 1
    panel.get_by_role("button", name=f"Turning point: move {tp['move_number']}").click()
    expect(page.locator(".replay-pos")).to_have_text(f"Move {before} of {len(moves) + 1}")
    expect(page.locator(".replay-note")).to_contain_text(tp["text"])
    expect(cells.nth(before)).to_have_class(re.compile(r"\bcurrent\b"))
    assert "tp" in (cells.nth(before).get_attribute("class") or "").split()
    expect_board(page, view_after(seed, moves[:before]))

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "analysis-desktop.png")

    # The better line from there: one move of it played on the replay's board.
    better = tp["better"]
    assert len(better) > 1  # its last move (the win) is described, not played
    panel.get_by_role("button", name="Play the better line").click()
    expect(page.locator(".replay-pos")).to_have_text(f"Better line 0 of {len(better)}")
    panel.get_by_role("button", name="the better line's next move").click()
    expect(page.locator(".replay-pos")).to_have_text(f"Better line 1 of {len(better)}")
    expect(page.locator(".replay-note")).to_contain_text(f"Better line, move 1 of {len(better)}: ")
    expect_board(page, view_after(seed, moves[:before] + better[:1]))

    # The keys step the line; Escape goes back to the game's position.
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-pos")).to_have_text(f"Better line 2 of {len(better)}")
    if len(better) > 2:
        expect_board(page, view_after(seed, moves[:before] + better[:2]))
    page.keyboard.press("Escape")
    expect(page.locator(".replay-pos")).to_have_text(f"Move {before} of {len(moves) + 1}")
    expect_board(page, view_after(seed, moves[:before]))

    # Clicking a cell goes to its position; the bar is one Tab stop, on the position shown.
    cells.nth(2).click()
    expect(page.locator(".replay-pos")).to_have_text(f"Move 2 of {len(moves) + 1}")
    expect(cells.nth(2)).to_have_attribute("tabindex", "0")
    assert cells.evaluate_all("(cs) => cs.filter((c) => c.tabIndex === 0).length") == 1
    page.locator("[data-step=last]").focus()
    page.keyboard.press("Tab")
    expect(cells.nth(2)).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(cells.nth(3)).to_be_focused()
    expect(page.locator(".replay-pos")).to_have_text(f"Move 3 of {len(moves) + 1}")
    page.keyboard.press("Tab")
    expect(panel.get_by_role("button", name=f"Turning point: move {tp['move_number']}")
           ).to_be_focused()

    # At phone size the bar still fits across and the board keeps its place.
    resize(page, {"width": 390, "height": 844})
    page.reload()
    expect(panel).to_have_attribute("data-state", "ready", timeout=WAIT)
    bar = panel.locator(".analysis-bar").bounding_box()
    assert bar and bar["x"] >= 0 and bar["x"] + bar["width"] <= 390
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    for name in (f"Turning point: move {tp['move_number']}", "Play the better line"):
        box = panel.get_by_role("button", name=name).bounding_box()
        assert box and box["x"] + box["width"] <= 390 and box["height"] > 0
    page.screenshot(path=ARTIFACTS / "analysis-phone.png")


def test_a_game_being_played_is_not_analysed(page_for: Callable[..., Page]) -> None:
    seed, moves = a_lost_chance()
    page = page_for("Player")
    base = page.url.split("#")[0]
    page.goto(f"{base}#/play/{RULES[0]}/{RULES[1]}?seed={seed}")
    page.wait_for_selector(".session[data-rev='0']")
    sid = page.locator(".session").get_attribute("data-session")
    page.evaluate("([sid, move]) => samedeal.net.request({type: 'move', session: sid, move, "
                  "rev: 0})", [sid, moves[0]])
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/analysis" in r.url else None)
    page.goto(f"{base}#/replay/session/{sid}")
    expect(page.locator(".replay-moves li")).to_have_count(1)
    page.wait_for_selector(".replay-board .pile")
    assert page.locator(".analysis").count() == 0
    assert asked == []


def test_a_won_game_shows_its_moves_over_par(page_for: Callable[..., Page]) -> None:
    rules = engine.get(*WON)
    seed = "01"
    line = [engine.move_text(rules, m) for m in
            solve(rules.deal(bytes.fromhex(seed)), Budget(positions=50_000)).moves]
    assert line, "the solver wins this deal"
    page = page_for("Winner")
    base = page.url.split("#")[0]
    page.goto(f"{base}#/play/{WON[0]}/{WON[1]}?seed={seed}")
    page.wait_for_selector(".session[data-rev='0']")
    sid = page.locator(".session").get_attribute("data-session")
    status = page.evaluate("""async ([sid, line]) => { let ack;
        for (let rev = 0; rev < line.length; rev++) {
          ack = await samedeal.net.request({type: 'move', session: sid, move: line[rev], rev}); }
        return ack.view.status; }""", [sid, line])
    assert status == "won"
    page.goto(f"{base}#/replay/session/{sid}")
    panel = page.locator(".analysis")
    expect(panel).to_have_attribute("data-state", "ready", timeout=WAIT)
    a = rest_analysis(page, sid)["analysis"]
    assert a["status"] == "won" and a["turning_point"] is None and a["over_par"] is not None
    said = "On par" if a["over_par"] == 0 else f"{a['over_par']} over par"
    expect(panel.locator(".analysis-status")).to_have_text(f"{said}. {a['summary']}")
    expect(panel.locator(".analysis-bar .cell")).to_have_count(len(line) + 1)
    assert panel.locator(".turning-point, .better-line").count() == 0


def test_a_called_card_grid_has_its_best_scores_on_the_match_replay(
        page_for: Callable[..., Page], web2: str) -> None:
    """A called-card match's player's grid is analysed as a one-player game played for points:
    its replay's bar shows the best score still reachable at each placement."""
    ann, bob = page_for("Caller Ann"), page_for("Caller Bob", web2)
    mid = ann.evaluate("() => samedeal.net.request({type: 'match.create', game: 'poker-square', "
                       "variant: 'easy', seats: 2})")["match"]
    bob.evaluate("(m) => samedeal.net.request({type: 'match.join', match: m})", mid)
    place = """async (m) => { const s = await samedeal.net.request({type: 'match.get', match: m});
        if (s.state === 'ended') return 'ended';
        if (s.you?.waiting) await samedeal.net.request({type: 'match.move', match: m,
                                                        move: s.you.legal[0]});
        return s.state; }"""
    for _ in range(200):
        if "ended" in [p.evaluate(place, mid) for p in (ann, bob)]:
            break
    else:
        raise AssertionError("the match did not end")
    ann.goto(ann.url.split("#")[0] + f"#/replay/match/{mid}")
    panel = ann.locator(".analysis")
    expect(panel).to_have_attribute("data-state", "ready", timeout=WAIT)
    who = ann.locator(".replay-player").input_value()
    a = rest_analysis(ann, f"{mid}.{who}")["analysis"]
    cells = panel.locator(".analysis-bar .cell")
    expect(cells).to_have_count(len(a["positions"]))
    verdicts = cells.evaluate_all("(cs) => cs.map((c) => c.dataset.verdict)")
    assert verdicts == [p["verdict"] for p in a["positions"]] and set(verdicts) == {"best"}
    assert cells.first.get_attribute("aria-label") == \
        f"the deal: best score {a['positions'][0]['score']}"
    expect(panel.locator(".analysis-key")).to_be_hidden()


def test_a_race_entry_still_playing_at_the_time_limit_is_analysed_on_its_replay(
        page_for: Callable[..., Page], web2: str) -> None:
    """A race that ends at its time limit with an entrant still playing: that game is over
    with the race (its session still says ``playing``), and its replay shows its analysis."""
    ann, bob = page_for("Timed Ann"), page_for("Timed Bob", web2)
    rid = ann.evaluate("() => samedeal.net.request({type: 'race.create', game: 'klondike', "
                       "variant: 'easy', seats: 2, countdown: 0, time_limit: 5})")["race"]
    bob.evaluate("(r) => samedeal.net.request({type: 'race.join', race: r})", rid)
    ann_id = ann.evaluate("samedeal.ctx.player.id")
    bob_id = bob.evaluate("samedeal.ctx.player.id")
    played = ann.evaluate("""async (sid) => { const out = [];
        let s = await samedeal.net.request({type: 'session.get', session: sid});
        for (let rev = 0; rev < 3; rev++) {
          const move = s.legal[0];
          s = {...s, ...await samedeal.net.request({type: 'move', session: sid, move, rev})};
          out.push(move); }
        return out; }""", f"{rid}.{ann_id}")
    bob.evaluate("(sid) => samedeal.net.request({type: 'resign', session: sid})",
                 f"{rid}.{bob_id}")
    for _ in range(WAIT // 500):  # the node's sweep ends it at its time limit
        if ann.evaluate("(r) => samedeal.net.rest('GET', `/races/${r}`)", rid)["state"] == "ended":
            break
        ann.wait_for_timeout(500)
    else:
        raise AssertionError("the race did not end at its time limit")
    t = ann.evaluate("(sid) => samedeal.net.rest('GET', `/sessions/${sid}/moves`)",
                     f"{rid}.{ann_id}")
    assert t["status"] == "playing" and t["moves"] == played and t["seed"], t
    ann.goto(ann.url.split("#")[0] + f"#/replay/race/{rid}?player={ann_id}")
    panel = ann.locator(".analysis")
    expect(panel).to_have_attribute("data-state", "ready", timeout=WAIT)
    a = rest_analysis(ann, f"{rid}.{ann_id}")["analysis"]
    assert a["moves"] == played and not a["resigned"]
    expect(panel.locator(".analysis-bar .cell")).to_have_count(len(played) + 1)
    expect(panel.locator(".analysis-status")).to_have_text(a["summary"])
