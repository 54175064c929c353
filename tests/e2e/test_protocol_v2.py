"""The web client on protocol v2, in a real browser against real nodes: its socket speaks
samedeal.v2.json, the server's acks carry only what changed, and the page still draws the whole
session (rebuilt by net.js) exactly as the server has it; in a race the player's own row moves
on from the ack, though no race.progress of their own reaches their socket."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, WebSocket, expect

from tests.e2e.conftest import wait_online
from tests.e2e.test_race import create_race_in_lobby, on_node, own_session, play, wait_started

WAIT = 30_000


def frames(page: Page) -> list[dict[str, Any]]:
    """Every message the page's WebSockets receive from now on."""
    got: list[dict[str, Any]] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framereceived", lambda data: got.append(json.loads(data)))

    page.on("websocket", watch)
    return got


def kept(page: Page, sid: str) -> dict[str, Any]:
    """The whole payload net.js keeps for a session (what the page was given)."""
    out: dict[str, Any] = page.evaluate(
        "(sid) => { const p = samedeal.net.sessions.get(sid); return p && "
        "{session: p.session, rev: p.rev, view: p.view, legal: p.legal, safe: p.safe, "
        "can_undo: p.can_undo}; }", sid)
    return out


def server_view(page: Page, sid: str) -> dict[str, Any]:
    s = page.evaluate("(sid) => samedeal.net.request({type: 'session.get', session: sid})", sid)
    return {k: s[k] for k in ("session", "rev", "view", "legal", "safe", "can_undo")}


def test_practice_acks_are_changes_and_the_page_has_the_whole_game(
        page_for: Callable[..., Page]) -> None:
    page = page_for("Differ")
    got = frames(page)
    page.reload()  # the socket opened after the watch
    page.goto(page.url.split("#")[0] + "#/play/klondike/easy?seed=00")
    page.wait_for_selector(".session[data-rev='0'] .board[data-game='klondike']")
    page.locator(".session [data-setting=auto-move]").uncheck()
    assert page.evaluate("samedeal.net.ws.protocol") == "samedeal.v2.json"
    sid = page.locator(".session").get_attribute("data-session") or ""
    for rev, move in enumerate(["t7-t1", "s", "s", "s"], start=1):
        if move == "s":
            page.locator(".board .pile[data-pile=s]").click()
        else:  # click the card, then the column
            page.locator(".board .card[data-card='3s']").click()
            page.locator(".board .pile[data-pile=t1]").click()
        expect(page.locator(".session")).to_have_attribute("data-rev", str(rev), timeout=WAIT)
        assert kept(page, sid) == server_view(page, sid)
    page.get_by_role("button", name="Undo").click()
    expect(page.locator(".session")).to_have_attribute("data-rev", "5", timeout=WAIT)
    assert kept(page, sid) == server_view(page, sid)
    acks = [m for m in got if m.get("type") == "ack"]
    assert len(acks) == 5 and all("changes" in m and "view" not in m for m in acks), acks


def test_a_race_players_own_row_moves_on_from_the_ack(page_for: Callable[..., Page], web2: str
                                                      ) -> None:
    ann = page_for("Ann")
    got = frames(ann)
    ann.reload()  # the socket opened after the watch
    wait_online(ann)
    link = create_race_in_lobby(ann)
    bob = page_for("Bob", web2)
    bob.goto(on_node(link, web2))
    bob.locator("[data-act=join]").click()
    for page in (ann, bob):
        wait_started(page)
    ann_id = ann.evaluate("samedeal.ctx.player.id")
    for _ in range(3):
        legal = own_session(ann)["legal"]
        play(ann, next((m for m in legal if m.endswith(("t1", "t2", "t3", "t4", "t5", "t6",
                                                       "t7"))), "s"))
    expect(ann.locator(f".race-progress tr[data-player={ann_id}] td.moves")).to_have_text(
        "3", timeout=WAIT)
    expect(bob.locator(f".race-progress tr[data-player={ann_id}] td.moves")).to_have_text(
        "3", timeout=WAIT)
    mine = [m for m in got if m.get("type") == "race.progress" and m["player"] == ann_id]
    acks = [m for m in got if m.get("type") == "ack"]
    assert not mine and len(acks) == 3 and all("seq" in m and "changes" in m for m in acks)
    sid = ann.locator(".race-board .session").get_attribute("data-session") or ""
    assert kept(ann, sid) == server_view(ann, sid)


def test_an_acks_own_progress_names_the_race_its_session_payload_names(
        page_for: Callable[..., Page]) -> None:
    """Ids carry no meaning: the race of the progress a race ack stands in for is the session
    payload's ``race``, never cut out of the session's id (here one that holds no race id)."""
    page = page_for("Ida")
    progress = page.evaluate("""async () => {
      const { applyAck, ownProgress } = await import('/acks.js');
      const before = {session: 's-9', rev: 4, race: 'race-Q',
                      view: {moves: 4, score: 10, status: 'playing', piles: {}}};
      const ack = {type: 'ack', session: 's-9', rev: 5, seq: 7, cards: 1,
                   changes: {moves: 5, score: 15}};
      return ownProgress(applyAck(before, ack), ack, 'p-1');
    }""")
    assert progress == {"type": "race.progress", "race": "race-Q", "player": "p-1", "moves": 5,
                        "score": 15, "cards": 1, "status": "playing", "seq": 7}
