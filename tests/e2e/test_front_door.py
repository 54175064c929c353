"""The front door, from a fresh browser (no token, no preset name): the badge never reads
"offline" while the page connects; one click lands on a playable board of the catalog's
featured rule set, and the move that follows is accepted; the guest chooses a name when the
first game ends (and from the header); "Race someone" joins the race that has waited longest,
else opens one to share; the daily door starts today's featured deal, after which that deal
shows the result and no longer offers "Ranked" or says the clock is running; every game is one
click away, one entry per game with its variants and its rules folded."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from redis import Redis

from tests.conftest import FAST, start_node, stop_node
from tests.e2e.conftest import ARTIFACTS, TIMEOUT_MS, wait_online
from tests.server.client import Node

GUEST = re.compile(r"^Guest \d{4}$")
# Every text the header's connection badge shows, from the first parse of the page on.
RECORD_BADGE = """
window.__badge = [];
new MutationObserver(() => {
  const el = document.getElementById('net');
  if (el && window.__badge[window.__badge.length - 1] !== el.textContent) {
    window.__badge.push(el.textContent);
  }
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def fresh(browser: Browser, **options: Any) -> BrowserContext:
    """A browser context as a newcomer's: nothing stored, no preset name."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, **options)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(RECORD_BADGE)
    return context


@pytest.fixture
def newcomer(browser: Browser) -> Iterator[Callable[[], BrowserContext]]:
    """newcomer(): a fresh browser context; all closed after the test."""
    made: list[BrowserContext] = []

    def make() -> BrowserContext:
        made.append(fresh(browser))
        return made[-1]

    yield make
    for c in made:
        c.close()


def front_door(context: BrowserContext, base: str) -> Page:
    page = context.new_page()
    page.goto(f"{base}/#/")
    page.wait_for_selector(".front-door")
    return page


def featured(page: Page) -> dict[str, Any]:
    rs: dict[str, Any] = page.evaluate("samedeal.ctx.catalog.find((r) => r.featured)")
    assert rs, "the catalog features no rule set"
    return rs


def test_one_click_to_a_board_then_a_move(newcomer, web: str) -> None:
    page = front_door(newcomer(), web)
    wait_online(page)
    badge = page.evaluate("window.__badge")
    assert badge[0] == "connecting…" and badge[-1] == "online", badge
    assert "offline" not in badge, badge

    # Registered silently, under a guest name, with the offer to choose one.
    expect(page.locator("header .player-name")).to_have_text(GUEST)
    expect(page.locator("header .choose-name")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "front-door.png"))  # for review, not compared
    rs = featured(page)

    # Click 1: a playable board of the featured rule set.
    page.locator("[data-door=practice]").click()
    session = page.locator(".practice .session")
    expect(session.locator(f".board[data-game='{rs['id']}'][data-variant='{rs['variant']}']")
           ).to_be_visible()
    assert page.url.endswith(f"#/play/{rs['id']}/{rs['variant']}"), page.url
    expect(session).to_have_attribute("data-status", "playing")
    legal = page.evaluate("(sid) => samedeal.net.request({type: 'session.get', session: sid})",
                          session.get_attribute("data-session"))["legal"]
    assert "s" in legal, legal  # a fresh deal can always turn the stock

    # Click 2: the move (the stock's move is a click on it), accepted by the server.
    stock = next(g["piles"][0] for g in rs["layout"] if g["kind"] == "stock")
    session.locator(f".board .pile[data-pile='{stock}']").click()
    # The server took it as the game's first move (auto-move, on by default in practice, may
    # follow it with safe moves of its own: a drawn Ace goes up).
    page.wait_for_function("() => +document.querySelector('.practice .session').dataset.rev >= 1")
    played = page.evaluate("(sid) => samedeal.net.rest('GET', `/sessions/${sid}/moves`)",
                           session.get_attribute("data-session"))
    assert played["moves"][0] == "s", played
    expect(session.locator(".refusal")).to_be_hidden()

    # The first game ends: the guest is offered a name, and takes one.
    page.on("dialog", lambda d: d.accept())
    session.locator("button.resign").click()
    offer = page.locator(".name-offer")
    expect(offer).to_be_visible()
    offer.locator("input[name=name]").fill("  Nova   Reyes ")
    offer.get_by_role("button", name="Save").click()
    expect(offer).to_contain_text("You are Nova Reyes")
    expect(page.locator("header .player-name")).to_have_text("Nova Reyes")
    expect(page.locator("header .choose-name")).to_have_count(0)
    assert page.evaluate("samedeal.net.rest('GET', '/players/me')")["name"] == "Nova Reyes"


def test_rename_from_the_header(newcomer, web: str) -> None:
    page = front_door(newcomer(), web)
    wait_online(page)
    me = page.evaluate("samedeal.ctx.player.id")
    page.locator("header .choose-name").click()
    form = page.locator("header .name-popover form")
    form.locator("input[name=name]").fill(" ")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("header .player-name")).to_have_count(0)  # still asking
    markup = "<img src=x onerror=alert(1)>"  # a name is text, never markup
    form.locator("input[name=name]").fill(markup)
    form.get_by_role("button", name="Save").click()
    expect(page.locator("header .player-name")).to_have_text(markup)
    assert page.locator("header img").count() == 0

    page.locator("header .player-name").click()
    form = page.locator("header .name-popover form")
    form.locator("input[name=name]").fill("Quinn")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("header .player-name")).to_have_text("Quinn")

    # Another player sees the new name; the reload keeps it, with no guest offer.
    assert page.evaluate(f"samedeal.net.rest('GET', '/players/{me}')")["name"] == "Quinn"
    page.reload()
    wait_online(page)
    expect(page.locator("header .player-name")).to_have_text("Quinn")
    expect(page.locator("header .choose-name")).to_have_count(0)


@pytest.fixture
def own_node(redis_url: str, tmp_path: Path) -> Iterator[Node]:
    """A node on a database of its own: no open race left by another test."""
    url = redis_url.rsplit("/", 1)[0] + "/13"
    Redis.from_url(url).flushdb()
    node, proc = start_node(url, tmp_path / "front-door-node.log", **FAST)
    yield node
    stop_node(proc)


def test_race_someone_opens_a_race_then_the_next_newcomer_joins_it(newcomer,
                                                                    own_node: Node) -> None:
    ann = front_door(newcomer(), own_node.url)
    wait_online(ann)
    rs = featured(ann)
    ann.locator("[data-door=race]").click()  # no open race: one is opened, to share
    expect(ann.locator(".race .race-state")).to_have_text("open")
    race = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#share input")).to_have_value(re.compile(f"#/race/{race}$"))
    summary = ann.evaluate(f"samedeal.net.rest('GET', '/races/{race}')")
    assert (summary["game"], summary["variant"]) == (rs["id"], rs["variant"])

    # A second race, newer: the next newcomer joins the one that has waited longest.
    other = newcomer().new_page()
    other.goto(f"{own_node.url}/#/")
    wait_online(other)
    newer = other.evaluate("(rs) => samedeal.net.request({type: 'race.create', game: rs.id, "
                           "variant: rs.variant, seats: 2})", rs)["race"]
    assert newer != race

    bob = front_door(newcomer(), own_node.url)
    wait_online(bob)
    bob.locator("[data-door=race]").click()
    expect(bob).to_have_url(re.compile(f"#/race/{race}$"))
    expect(bob.locator(".race .race-state")).not_to_have_text("open")
    expect(ann.locator(".race .race-state")).not_to_have_text("open")


def test_the_daily_door_then_the_played_deal(newcomer, web: str) -> None:
    page = front_door(newcomer(), web)
    wait_online(page)
    rs = featured(page)
    door = page.locator("[data-door=daily]")
    expect(door).to_contain_text("clock starts")

    # One click: today's featured deal, the attempt dealt (the door said its clock starts).
    door.click()
    session = page.locator(".daily-play .session")
    expect(session).to_be_visible()
    expect(page.locator(".daily-mode")).to_have_attribute("data-mode", "daily")
    expect(page.locator(".daily-mode")).to_contain_text("the clock is running")
    detail = page.locator(".daily-game")
    expect(detail).to_have_attribute("data-game", rs["id"])
    expect(detail.locator(".commitment code")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))

    # The list: one entry per game, its variants side by side, no commitment in it.
    day = page.evaluate("samedeal.net.request({type: 'daily.get'})")
    games = {d["game"] for d in day["deals"]}
    entries = page.locator(".daily-deals li.daily-deal")
    expect(entries).to_have_count(len(games))
    two = next(g for g in games if sum(d["game"] == g for d in day["deals"]) == 2)
    expect(page.locator(f".daily-deals li.daily-deal[data-game='{two}'] .daily-variant")
           ).to_have_count(2)
    expect(page.locator(".daily-deals code, .daily-deals .commitment")).to_have_count(0)
    cell = page.locator(f".daily-deals .daily-variant[data-game='{rs['id']}']"
                        f"[data-variant='{rs['variant']}']")
    expect(cell.locator("[data-act=ranked]")).to_have_count(0)  # it is under way
    expect(cell.locator(".daily-result")).to_have_text("in progress")
    expect(detail.locator("[data-act=resume]")).to_have_count(0)

    # A reload keeps it under way (not started again): the view offers to resume it.
    sid = session.get_attribute("data-session")
    page.reload()
    expect(cell.locator(".daily-result")).to_have_text("in progress")
    expect(detail.locator("[data-act=ranked]")).to_have_count(0)
    detail.locator("[data-act=resume]").click()
    expect(session).to_have_attribute("data-session", sid)
    expect(detail.locator("[data-act=resume]")).to_have_count(0)

    # It ends: the result and rank in place of the offer, here and in the list.
    session.locator("button.resign").click()
    page.locator(".resign-confirm [data-act=resign]").click()  # a ranked attempt asks first
    expect(session).to_have_attribute("data-status", "lost")
    expect(page.locator(".daily-mode")).not_to_contain_text("clock is running")
    expect(page.locator(".daily-mode")).to_contain_text("attempt is over")
    expect(cell.locator(".daily-result")).to_contain_text(
        re.compile(r"lost · score \S+ · rank \d+ of \d+"))
    expect(detail.locator("p.daily-result")).to_contain_text("Your ranked attempt: lost")
    for where in (cell, detail):
        expect(where.locator("[data-act=ranked]")).to_have_count(0)
    expect(detail.locator("[data-act=replay]")).to_be_visible()  # practice stays
    expect(detail.locator("a.practice-link")).to_be_visible()
    assert page.locator(".daily-deals [data-act=ranked]").count() > 0  # the others still do

    # Still so after a reload, and the front door's daily says it was played.
    page.reload()
    expect(cell.locator(".daily-result")).to_contain_text("lost")
    expect(cell.locator("[data-act=ranked]")).to_have_count(0)
    page.goto(page.url.split("#")[0] + "#/")
    expect(page.locator("[data-door=daily]")).to_contain_text("played")

    # Another browser of the same player learns it from the deal's leaderboard.
    token = page.evaluate("localStorage.getItem('samedeal.token')")
    elsewhere = newcomer()
    elsewhere.add_init_script(f"localStorage.setItem('samedeal.token', {token!r});")
    there = elsewhere.new_page()
    there.goto(page.url.split("#")[0] + "#/daily")
    far = there.locator(f".daily-deals .daily-variant[data-game='{rs['id']}']"
                        f"[data-variant='{rs['variant']}']")
    expect(far.locator("[data-act=ranked]")).to_have_count(1)  # not known here yet
    far.locator("[data-act=board]").click()
    expect(far.locator(".daily-result")).to_contain_text("lost")
    expect(far.locator("[data-act=ranked]")).to_have_count(0)
    expect(there.locator(".daily-game [data-act=ranked]")).to_have_count(0)


def test_every_game_a_click_away_grouped_with_its_rules_folded(newcomer, web: str) -> None:
    page = front_door(newcomer(), web)
    wait_online(page)
    catalog = page.evaluate("samedeal.ctx.catalog")
    games: dict[str, list[dict[str, Any]]] = {}
    for r in catalog:
        games.setdefault(r["id"], []).append(r)
    page.locator(".front-door a[href='#/games']").click()
    entries = page.locator(".games li.rule-set")
    expect(entries).to_have_count(len(games))
    for gid, variants in games.items():
        entry = entries.and_(page.locator(f"[data-game='{gid}']"))
        links = entry.locator(".variants a")
        expect(links).to_have_count(len(variants))
        assert sorted(links.evaluate_all("(a) => a.map((x) => x.dataset.ruleSet)")) == sorted(
            f"{gid}/{v['variant']}" for v in variants)
    # The rules are folded until asked for.
    first = entries.first
    rules = first.locator("details.rules p").first
    expect(rules).to_be_hidden()
    first.locator("details.rules summary").click()
    expect(rules).to_be_visible()
    expect(rules).to_have_text(games[first.get_attribute("data-game")][0]["summary"])
    # A variant's link plays it.
    first.locator(".variants a").first.click()
    expect(page.locator(".practice .session .board")).to_be_visible()
