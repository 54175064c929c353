"""Player names are other players' words: a name made of markup, a right-to-left override or
the longest name allowed shows as text on every page that names players (the lobby's open races
and matches, a race, a match and its results, the match replay, the daily leaderboard), nothing
in it runs or becomes an element, and no page (a practice game's too) breaks its
Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Api

WAIT = 30_000
NAMES = [
    "<img src=x onerror=__pwned=1>",
    "<script>__pwned=1</script>",
    "\"'><svg onload=__pwned=1>",
    "\u202eevil\u202c <b>bold</b>",
    "W" * 32,  # the longest name a player may take
]
# Before the page's own scripts: a flag any injected handler would set, and every CSP report.
GUARD = """
window.__pwned = 0;
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""
# Nothing a name could have turned into: an image, an inline script, an svg, an inline handler.
INJECTED = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (tag === 'img' || tag === 'svg' || (tag === 'script' && !el.src)) found.push(tag);
    for (const a of el.attributes) if (a.name.startsWith('on')) found.push(`${tag} ${a.name}`);
  }
  return found;
}"""
# What sticks out past the window's right edge (a name that would not wrap).
WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map((e) => `${e.tagName}.${e.className}: ${(e.textContent || '').slice(0, 40)}`)"""


@pytest.fixture
def players(web: str) -> Iterator[list[Api]]:
    made = [Api(web, name) for name in NAMES]
    yield made
    for p in made:
        p.http.close()


def check(page: Page, errors: list[str]) -> None:
    """Nothing ran, nothing was injected, no policy was broken, nothing overflows sideways."""
    assert page.evaluate("window.__pwned") == 0
    assert page.evaluate(INJECTED) == []
    assert page.evaluate("window.__csp") == []
    assert errors == []
    wide = page.evaluate(WIDE)
    assert not wide, wide


def test_hostile_names_stay_text_on_every_page(page_for, web: str,
                                               players: list[Api]) -> None:
    assert [p.name for p in players] == [" ".join(n.split()) for n in NAMES]
    host, guest, bowler, other, third = players
    race = host.call("POST", "/races", {"game": "golf", "variant": "easy", "seats": 3,
                                        "start": "manual"})["race"]
    guest.call("POST", f"/races/{race}/join")
    match = bowler.call("POST", "/matches", {"game": "bowling", "variant": "easy",
                                             "seats": 4, "start": "manual"})["match"]
    for p in (other, third):
        p.call("POST", f"/matches/{match}/join")
    for p in players:  # everyone on today's golf leaderboard: one ranked attempt, resigned
        s = p.call("POST", "/daily", {"game": "golf", "variant": "easy"})
        p.call("POST", f"/sessions/{s['session']}/resign")

    page = page_for("Watcher")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.context.add_init_script(GUARD)
    page.reload()
    page.wait_for_selector(".lobby")

    # the lobby: the open race and the open match, by their creators
    expect(page.locator(f".open-races li[data-race={race}]")).to_contain_text(
        f"by {host.name}", timeout=WAIT)
    expect(page.locator(f".open-matches li[data-match={match}]")).to_contain_text(
        f"by {bowler.name}", timeout=WAIT)
    check(page, errors)

    # the race page: its entrants
    page.goto(f"{web}/#/race/{race}")
    for p in (host, guest):
        expect(page.locator(".live")).to_contain_text(p.name, timeout=WAIT)
    check(page, errors)

    # the match page: seats, then the results once everyone has left
    page.goto(f"{web}/#/match/{match}")
    seats = page.locator(".match-players")
    for p in (bowler, other, third):
        expect(seats).to_contain_text(p.name, timeout=WAIT)
    expect(page.locator(".live-meta")).to_contain_text(f"created by {bowler.name}")
    check(page, errors)
    bowler.call("POST", f"/matches/{match}/start")
    for p in (bowler, other, third):
        p.call("POST", f"/matches/{match}/leave")
    results = page.locator(".match-results")
    expect(results).to_be_visible(timeout=WAIT)
    for p in (bowler, other, third):
        expect(results).to_contain_text(p.name)
        expect(page.locator(".match-scores .scorecard")).to_contain_text(p.name)
    check(page, errors)

    # the match's replay: whose game to step through
    page.goto(f"{web}/#/replay/match/{match}")
    options = page.locator("select.replay-player option")
    expect(options).to_have_count(3, timeout=WAIT)
    labels = options.all_inner_texts()
    for p, label in zip((bowler, other, third), labels, strict=True):
        assert label.startswith(f"{p.name} — score"), label
    # named for players: the game, its variant, the players and the start; not the match's id
    expect(page.locator(".replay h1")).to_contain_text("Bowling (easy) match, 3 players, ")
    assert match not in page.locator(".replay h1").inner_text()
    check(page, errors)

    # a practice game (no names; the policy holds on the board page too)
    page.goto(f"{web}/#/play/klondike/easy")
    expect(page.locator(".session .pile").first).to_be_visible(timeout=WAIT)
    check(page, errors)

    # the daily leaderboard for golf
    page.goto(f"{web}/#/daily")
    page.locator(".daily-deals .daily-variant[data-game=golf][data-variant=easy] "
                 "[data-act=board]").click()
    board = page.locator(".leaderboard")
    for p in players:
        expect(board.locator(f"tr[data-player={p.id}] th").first).to_have_text(p.name,
                                                                              timeout=WAIT)
    check(page, errors)
