"""Every kind of page of the web client at the five sizes of the players' trials (two laptops, a
tablet, a phone upright and held sideways): the lobby and its front door, the games, a
practice board and its game-over screen, a finished game's replay with its analysis bar, the
daily pages, a race open, under way and ended, a bot race, a Bowling match and a called-card
match under way, a match's end, a race's and a match's replay, a ghost race, leagues, arenas
(an arena's round under way too) and a challenge's notice. One browser context per size, each
the same player; every server-side state is made once and visited at the five sizes. At each
visit: no page error, no console error and no failed request; the page does not scroll
sideways and nothing shown is cut at the right edge (what a box that scrolls sideways, or clips
on purpose, holds inside it is not cut); no board is taller than the screen. A screenshot of
each visit is saved for review (tests/e2e/artifacts/pages/), not compared."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Response
from playwright.sync_api import TimeoutError as NotShown

from tests.e2e.conftest import ARTIFACTS, TRIAL_SIZES, Api, lobby_page, make_arena, open_context
from tests.e2e.test_analysis import a_lost_chance, play_and_resign
from tests.e2e.test_ghost import first_run

SHOTS = ARTIFACTS / "pages"
WAIT = 30_000
ANALYSED = 180_000  # the server analyses in the background; the machine is shared
SLACK = 1  # px: rounding of fractional sizes
# The arena's one round: dealt while the other pages are visited (about half a minute), and
# lasting long enough to be visited after them.
ARENA_START, ARENA_LENGTH = 20, "600s"

# How far the page scrolls sideways; every element shown whose right edge is past the
# viewport's, unless a box that scrolls sideways (or clips on purpose) and ends inside the
# viewport holds it: what such a box holds is reached by scrolling it, or cut by design; and
# the height of every board taller than the viewport (fitted, none is); the words of a
# line-score table's headers and names split across lines.
SIDEWAYS = """() => {
  const vw = innerWidth, s = SLACK;
  const held = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') {
        return p.getBoundingClientRect().right <= vw + s;
      }
    }
    return false;
  };
  const cut = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= vw + s) continue;
    if (getComputedStyle(el).visibility === 'hidden' || held(el)) continue;
    const cls = typeof el.className === 'string' ? el.className.trim().replace(/\\s+/g, '.') : '';
    cut.push(`${el.tagName.toLowerCase()}.${cls} (right ${Math.round(r.right)}): `
      + (el.textContent || '').trim().slice(0, 30));
  }
  const tall = [...document.querySelectorAll('.board')].map((b) => b.getBoundingClientRect().height)
    .filter((h) => h > innerHeight + s).map(Math.round);
  // A word of a line-score table's header or name split across two lines ("PLAYE R").
  const split = [];
  for (const th of document.querySelectorAll('.line-scores th')) {
    const words = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = words.nextNode(); n; n = words.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if ([...r.getClientRects()].filter((x) => x.width > 0).length > 1) split.push(m[0]);
      }
    }
  }
  return {scroll: document.documentElement.scrollWidth - vw, cut, tall, split};
}""".replace("SLACK", str(SLACK))
# Two frames: the boards are fitted to their room before the next paint (clients/web/fit.js).
SETTLED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


@dataclass
class Tour:
    """The five pages, one per size, each in a context of its own, all one player; what went
    wrong at each page since its last visit; the failures found."""

    pages: dict[str, Page]
    errors: dict[str, list[str]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def watch(self) -> None:
        for size, page in self.pages.items():
            listen(page, self.errors.setdefault(size, []))

    def each(self, act: Callable[[Page], object]) -> None:
        for page in self.pages.values():
            act(page)

    def visit(self, kind: str, ready: str, route: str | None = None,
              timeout: float = WAIT) -> None:
        """Every page on `route` (or where it is, its state moved on), once `ready` shows:
        checked and photographed."""
        if route is not None:
            self.each(lambda p: p.evaluate("(h) => { if (location.hash !== h) location.hash = h; }",
                                           route))
        for size, page in self.pages.items():
            what = f"{kind} at {size}"
            try:
                page.wait_for_selector(ready, timeout=timeout)
            except NotShown:  # said, and the picture shows what did
                self.failures.append(f"{what}: {ready} did not show")
            page.evaluate(SETTLED)
            m: dict[str, Any] = page.evaluate(SIDEWAYS)
            if m["scroll"] > SLACK:
                self.failures.append(f"{what}: the page scrolls sideways by {m['scroll']} px")
            if m["cut"]:
                self.failures.append(f"{what}: cut at the right edge: {m['cut'][:4]}")
            if m["tall"]:
                self.failures.append(f"{what}: a board taller than the screen: {m['tall']} px")
            if m["split"]:
                self.failures.append(f"{what}: words split across lines: {m['split'][:4]}")
            errors = self.errors[size]
            if errors:
                self.failures.append(f"{what}: {errors[:3]}")
                errors.clear()
            page.screenshot(path=str(SHOTS / f"{kind}-{size}.jpeg"), full_page=True, quality=80)


def listen(page: Page, errors: list[str]) -> None:
    """Keeps in `errors` the page's errors, console errors, failed requests and requests
    answered with an error status."""
    def console(m: ConsoleMessage) -> None:
        if m.type == "error":
            errors.append(f"console: {m.text}")

    def answered(r: Response) -> None:
        if r.status >= 400:
            errors.append(f"answered {r.status}: {r.request.method} {r.url}")

    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", console)
    page.on("requestfailed", lambda r: errors.append(f"failed: {r.method} {r.url} {r.failure}"))
    page.on("response", answered)


@pytest.fixture(scope="module")
def players(web: str, web2: str) -> Iterator[tuple[Api, Api]]:
    """The visitor (the five pages' player, on the first node) and a rival on the other."""
    made = Api(web, "Visitor"), Api(web2, "Rival")
    yield made
    for p in made:
        p.http.close()


@pytest.fixture(scope="module")
def tour(browser: Browser, web: str, players: tuple[Api, Api]) -> Iterator[Tour]:
    visitor = players[0]
    contexts = []
    pages = {}
    for size, viewport in TRIAL_SIZES.items():
        context = open_context(browser, visitor.name, viewport=viewport)
        context.add_init_script(f"localStorage.setItem('samedeal.token', {visitor.token!r});")
        contexts.append(context)
        pages[size] = lobby_page(context, web)
    SHOTS.mkdir(parents=True, exist_ok=True)
    t = Tour(pages)
    t.watch()
    yield t
    for context in contexts:
        context.close()


def session_of(summary: dict[str, Any], player: Api) -> str:
    """The player's session in a race summary."""
    return str(next(e["session"] for e in summary["entrants"] if e["player"] == player.id))


def resign_once_started(player: Api, session: str) -> None:
    """Resign a race's session, after its countdown (a resignation before is refused)."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        r = player.http.post(f"/sessions/{session}/resign")
        if r.status_code != 409 or r.json()["code"] != "race.not_started":
            break
        assert time.monotonic() < deadline, r.text
        time.sleep(0.2)
    assert r.status_code == 200, r.text


def test_every_page_kind_at_the_five_sizes(tour: Tour, players: tuple[Api, Api], web2: str,
                                          redis_url: str) -> None:
    visitor, rival = players
    with ThreadPoolExecutor(2) as background:
        # Made while the first pages are visited: an arena, whose round is dealt while the rest
        # is, and a ghost race's first run (two seconds of moves).
        arena = background.submit(make_arena, redis_url, "klondike", "easy",
                                  start=f"+{ARENA_START}s", duration=ARENA_LENGTH,
                                  interval=ARENA_LENGTH, name="Pages arena")
        ghost = background.submit(first_run, web2)
        # A game with a turning point, lost on one page and analysed meanwhile by the server.
        seed, moves = a_lost_chance()
        analysed = play_and_resign(tour.pages["laptop"], seed, moves)

        tour.visit("lobby", ".lobby .front-door .door", "#/")
        tour.visit("games", ".page details", "#/games")
        tour.visit("practice", ".session[data-rev='0'] .board .pile",
                   "#/play/klondike/easy?seed=00")
        tour.each(lambda p: p.get_by_role("button", name="Resign").click())
        tour.visit("practice-over", ".session .game-over:visible")
        tour.visit("replay-analysed", ".analysis[data-state=ready] .analysis-bar .cell",
                   f"#/replay/session/{analysed}", timeout=ANALYSED)

        aid = arena.result()
        visitor.call("POST", f"/arenas/{aid}/join")  # before its round is dealt, to play it
        tour.visit("arenas", f".arena-item[data-arena={aid}] a", "#/arenas")
        tour.visit("arena", f".arena[data-arena={aid}] [data-act=arena-leave]", f"#/arena/{aid}")

        gid, _ = ghost.result()
    tour.visit("ghost", ".ghost-to-beat:text('Ghosty')", f"#/ghost/{gid}")
    tour.each(lambda p: p.locator(".enter-ghost").click())  # one run: entered, then resumed
    tour.visit("ghost-run", ".ghost-board .session .board .pile")

    # A challenge to the visitor shows above every page until it is answered.
    c = rival.call("POST", "/challenges", {"player": visitor.id, "game": "golf",
                                           "variant": "easy"})
    tour.visit("challenged", ".challenges .challenge-offer [data-act=block]", "#/")
    visitor.call("POST", f"/challenges/{c['challenge']}/decline")

    tour.visit("daily", ".daily-deals .daily-variant[data-game=golf][data-variant=easy]",
               "#/daily")
    tour.visit("daily-deal", ".daily-game[data-game=golf] [data-act=ranked]",
               "#/daily?game=golf&variant=easy")
    # The front door's daily: the ranked attempt, begun on one page and resumed on the others.
    tour.visit("daily-attempt", ".daily-play .session .board .pile",
               "#/daily?game=golf&variant=easy&start=ranked")
    today = date.fromisoformat(visitor.call("GET", "/daily")["day"])
    yesterday = (today - timedelta(days=1)).isoformat()
    tour.visit("daily-yesterday", f".daily h1:text('{yesterday}')", f"#/daily/{yesterday}")

    # A bot race in its countdown; it ends after the race with the rival below.
    bot = visitor.call("POST", "/races/bot", {"game": "klondike", "variant": "easy"})
    tour.visit("bot-race", ".race[data-state=running] .race-board .session .board .pile",
               f"#/race/{bot['race']}")
    race = rival.call("POST", "/races", {"game": "klondike", "variant": "easy", "seats": 2,
                                         "countdown": 0})
    rid = race["race"]
    tour.visit("race-open", ".race[data-state=open] [data-act=join]", f"#/race/{rid}")
    race = visitor.call("POST", f"/races/{rid}/join")
    rival.call("POST", f"/sessions/{session_of(race, rival)}/moves", {"move": "s"})
    tour.visit("race", ".race[data-state=running] .race-board .session .board .pile")
    for p in players:
        p.call("POST", f"/sessions/{session_of(race, p)}/resign")
    tour.visit("race-end", ".race-results .proof .seed-check[data-ok=yes]")
    tour.visit("replay-race", ".replay-board .pile", f"#/replay/race/{rid}")
    resign_once_started(visitor, session_of(bot, visitor))  # the bot resigns too
    tour.visit("bot-race-end", ".race:has(.race-results .proof) [data-act=race-bot-again]",
               f"#/race/{bot['race']}")

    made = {}
    for game in ("bowling", "poker-square"):
        made[game] = visitor.call("POST", "/matches", {"game": game, "variant": "easy",
                                                       "seats": 2, "turn_time": 300})["match"]
        rival.call("POST", f"/matches/{made[game]}/join")
    running = ".match:has(.match-state:text-is('running'))"
    tour.visit("match-bowling", f"{running} .match-board .pile", f"#/match/{made['bowling']}")
    tour.visit("match-called", f"{running} .called-card .card",
               f"#/match/{made['poker-square']}")
    for p in players:  # leaving for good: everyone left, it is over
        for m in made.values():
            p.call("POST", f"/matches/{m}/leave")
    tour.visit("match-end", ".match-results .proof .seed-check[data-ok=yes]")
    tour.visit("replay-match", ".replay-board .pile", f"#/replay/match/{made['poker-square']}")

    league = visitor.call("POST", "/leagues", {"name": "Tea club"})
    rival.call("POST", "/leagues/join", {"code": league["code"]})
    tour.visit("leagues", f".league-list li[data-league={league['league']}] a", "#/leagues")
    tour.visit("league", f".league-week tr[data-player={rival.id}]",
               f"#/league/{league['league']}")

    # The arena's round, dealt meanwhile: its race, the visitor's board in it.
    tour.visit("arena-round", ".arena-race .race-board .session .board .pile", f"#/arena/{aid}")
    assert not tour.failures, "\n".join(tour.failures)
