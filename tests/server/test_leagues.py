"""Leagues (docs/protocol.md "Leagues") on two real server processes over one real
redis-server: created on one node and joined on the other with the invite code; wrong codes
refused and rate-limited; the league's daily board holds its members only, in the public
board's order, and reaches a member watching live on the other node; non-members and removed
members learn nothing; new codes, closing, bounds and hostile names. Every league reply is
checked against its schema in server/transport/replies.py."""

from __future__ import annotations

import itertools
import time
from typing import Any

import jsonschema
import pytest

from server.daily import daily_rule_sets
from server.transport import replies

from .client import JSON, MSGPACK, Node, Rest, Ws, player
from .stated import unstated
from .test_boards_live import LATE, finish

_names = itertools.count()
#: One-player rule sets from the front of the list (the live-board tests take theirs from the
#: back), one per test that plays the day's deal.
GAMES = iter([(r.id, r.variant) for r in daily_rule_sets()[3:]])


def checked(reply: dict[str, Any]) -> dict[str, Any]:
    """The reply, which must hold its type's schema (server/transport/replies.py)."""
    kind = reply["type"]
    schema = replies.REPLIES.get(kind) or replies.EVENTS[kind]
    errors = [e.message for e in jsonschema.Draft202012Validator(schema[1]).iter_errors(reply)]
    assert not errors, (kind, errors, reply)
    assert not unstated(reply), reply  # a league board's rows too
    return reply


async def human(node: Node) -> tuple[str, str]:
    return await player(node, f"Leaguer {next(_names)}", "human")


async def ok(ws: Ws, message: dict[str, Any], kind: str = "league") -> dict[str, Any]:
    reply = await ws.request(message)
    assert reply["type"] == kind, (message, reply)
    return checked(reply)


async def refused(ws: Ws, message: dict[str, Any], code: str) -> dict[str, Any]:
    reply = await ws.request(message)
    assert reply["type"] == "error" and reply["code"] == code, (message, reply)
    return checked(reply)


async def game_of_today(node: Node) -> tuple[str, str]:
    rest = Rest(node)
    status, day = await rest.call("GET", "/daily")
    await rest.aclose()
    assert status == 200, day
    offered = {(d["game"], d["variant"]) for d in day["deals"]}
    return next(g for g in GAMES if g in offered)


async def test_create_on_one_node_join_on_the_other_and_nobody_else_learns_anything(
        nodes: list[Node]) -> None:
    owner_id, owner_token = await human(nodes[0])
    friend_id, friend_token = await human(nodes[1])
    _, stranger_token = await human(nodes[1])
    a = await Ws.open(nodes[0], owner_token, JSON)
    b = await Ws.open(nodes[1], friend_token, MSGPACK)
    made = await ok(a, {"type": "league.create", "name": "  Friday   Club "})
    lid, code = made["league"], made["code"]
    assert made["name"] == "Friday Club" and made["owner"]["id"] == owner_id
    assert [m["player"] for m in made["members"]] == [owner_id] and len(code) >= 10
    joined = await ok(b, {"type": "league.join", "code": code.upper()})  # any case
    assert [m["player"] for m in joined["members"]] == [owner_id, friend_id]
    assert joined["code"] == code
    await refused(b, {"type": "league.join", "code": code}, "league.joined")
    mine = await ok(b, {"type": "league.list"}, "leagues")
    assert [x["league"] for x in mine["leagues"]] == [lid] and mine["leagues"][0]["members"] == 2
    # Over REST too, on the other node: the same summary.
    rest = Rest(nodes[1], owner_token)
    status, page = await rest.call("GET", f"/leagues/{lid}")
    assert status == 200 and page["members"] == joined["members"], page
    status, listed = await rest.call("GET", "/leagues")
    assert status == 200 and [x["league"] for x in listed["leagues"]] == [lid]
    # A stranger: the same refusal as for a league that does not exist, no name, no code.
    s = await Ws.open(nodes[1], stranger_token, JSON)
    for message in ({"type": "league.get", "league": lid},
                    {"type": "league.get", "league": "lnothere"},
                    {"type": "league.leave", "league": lid},
                    {"type": "league.code", "league": lid},
                    {"type": "league.remove", "league": lid, "player": friend_id},
                    {"type": "board.get", "board": f"league/{lid}/weekly/current"},
                    {"type": "board.subscribe", "board": f"league/{lid}/weekly/current"},
                    {"type": "board.get", "board": f"league/{lid}/daily/today/golf/easy"}):
        err = await refused(s, message, "league.unknown")
        assert code not in err["message"] and "Friday" not in err["message"]
    stranger = Rest(nodes[0], stranger_token)
    status, err = await stranger.call("GET", f"/leagues/{lid}")
    assert status == 404 and err["code"] == "league.unknown", err
    status, err = await stranger.call("GET", f"/boards/league/{lid}/weekly/current")
    assert status == 404 and err["code"] == "league.unknown", err
    status, listed = await stranger.call("GET", "/leagues")
    assert listed == {"leagues": []}
    # Only the owner removes members or makes a new code.
    await refused(b, {"type": "league.code", "league": lid}, "league.not_owner")
    await refused(b, {"type": "league.remove", "league": lid, "player": owner_id},
                  "league.not_owner")
    await refused(a, {"type": "league.remove", "league": lid, "player": "pnobody"},
                  "league.not_member")
    for ws in (a, b, s):
        await ws.close()
    for r in (rest, stranger):
        await r.aclose()


async def test_a_wrong_code_is_unknown_and_rate_limited(nodes: list[Node]) -> None:
    _, owner_token = await human(nodes[0])
    _, guesser_token = await human(nodes[1])
    a = await Ws.open(nodes[0], owner_token)
    code = (await ok(a, {"type": "league.create", "name": "Locked"}))["code"]
    g = await Ws.open(nodes[1], guesser_token)
    for i in range(10):  # the default burst (league_join_burst)
        await refused(g, {"type": "league.join", "code": f"guess{i:05d}"}, "league.unknown")
    err = await refused(g, {"type": "league.join", "code": "guess99999"}, "rate.limited")
    assert err["retry_after"] > 0
    # The limit is the player's, on every node (Redis holds the bucket), and the right code
    # waits too: a refusal says nothing about the code tried.
    rest = Rest(nodes[0], guesser_token)
    status, err = await rest.call("POST", "/leagues/join", {"code": code})
    assert status == 429 and err["code"] == "rate.limited" and err["retry_after"] > 0, err
    await rest.aclose()
    for ws in (a, g):
        await ws.close()


async def test_a_new_code_stops_the_old_one_and_the_owner_leaving_closes_the_league(
        nodes: list[Node]) -> None:
    _, owner_token = await human(nodes[0])
    _, late_token = await human(nodes[1])
    friend_id, friend_token = await human(nodes[1])
    a = await Ws.open(nodes[0], owner_token)
    made = await ok(a, {"type": "league.create", "name": "Recoded"})
    f = await Ws.open(nodes[1], friend_token)
    await ok(f, {"type": "league.join", "code": made["code"]})
    fresh = await ok(a, {"type": "league.code", "league": made["league"]})
    assert fresh["code"] != made["code"] and len(fresh["members"]) == 2  # members stay
    late = await Ws.open(nodes[1], late_token)
    await refused(late, {"type": "league.join", "code": made["code"]}, "league.unknown")
    await ok(late, {"type": "league.join", "code": fresh["code"]})
    left = await ok(late, {"type": "league.leave", "league": made["league"]}, "league.left")
    assert left == {**left, "league": made["league"], "closed": False}
    closed = await ok(a, {"type": "league.leave", "league": made["league"]}, "league.left")
    assert closed["closed"] is True
    await refused(f, {"type": "league.get", "league": made["league"]}, "league.unknown")
    assert (await ok(f, {"type": "league.list"}, "leagues"))["leagues"] == []
    await refused(late, {"type": "league.join", "code": fresh["code"]}, "league.unknown")
    assert friend_id
    for ws in (a, f, late):
        await ws.close()


async def test_hostile_names_and_the_bounds(nodes: list[Node]) -> None:
    _, token = await human(nodes[0])
    ws = await Ws.open(nodes[0], token)
    await refused(ws, {"type": "league.create", "name": "x" * 33}, "bad.too_long")
    await refused(ws, {"type": "league.create", "name": "   "}, "message.invalid")
    await refused(ws, {"type": "league.create", "name": ""}, "message.invalid")
    await refused(ws, {"type": "league.create", "name": "a\x00b"}, "bad.text")
    await refused(ws, {"type": "league.create", "name": "a\u202eb\n"}, "bad.text")
    await refused(ws, {"type": "league.join", "code": "\ud800"}, "bad.text")
    await refused(ws, {"type": "league.get", "league": "l" * 65}, "bad.too_long")
    odd = await ok(ws, {"type": "league.create", "name": "<b>Ω</b> \u200b"})
    assert odd["name"] == "<b>Ω</b> \u200b"  # text, kept as written: the clients escape it
    for i in range(9):  # the default bound: ten leagues a player, owned ones included
        await ok(ws, {"type": "league.create", "name": f"L{i}"})
    await refused(ws, {"type": "league.create", "name": "One too many"}, "league.too_many")
    rest = Rest(nodes[1], token)
    status, err = await rest.call("POST", "/leagues", {"name": "Over REST"})
    assert status == 409 and err["code"] == "league.too_many", err
    status, err = await rest.call("POST", "/leagues", {"name": "x\x1by"})
    assert status == 400 and err["code"] == "bad.text", err
    await rest.aclose()
    await ws.close()


async def test_the_league_daily_board_live_in_the_public_order_and_removal(
        nodes: list[Node]) -> None:
    game = await game_of_today(nodes[0])
    board = f"daily/today/{game[0]}/{game[1]}"
    people = [await human(nodes[i % 2]) for i in range(4)]  # the last is no member
    (owner_id, owner_token), (bob_id, bob_token), (cy_id, cy_token), (out_id, out_token) = people
    a = await Ws.open(nodes[0], owner_token)
    made = await ok(a, {"type": "league.create", "name": "Dailies"})
    lid = made["league"]
    for _, token in people[1:3]:
        ws = await Ws.open(nodes[1], token)
        await ok(ws, {"type": "league.join", "code": made["code"]})
        await ws.close()
    # Bob watches the league's board on node B; the owner's result goes through node A.
    bob = await Ws.open(nodes[1], bob_token, MSGPACK)
    sub = await bob.request({"type": "board.subscribe", "board": f"league/{lid}/{board}"})
    assert sub["type"] == "subscribed" and sub["board"].startswith(f"league/{lid}/daily/20")
    first = checked(await bob.expect("board.update"))
    assert first["total"] == 0 and first["entries"] == [] and first["you"] is None
    await finish(nodes[0], owner_token, game)
    # Through node A's publish or not at all: node B's reader sleeps until it hears one.
    update = checked(await bob.expect("board.update"))
    assert [e["player"] for e in update["entries"]] == [owner_id] and update["total"] == 1
    for pid, token in ((out_id, out_token), (cy_id, cy_token), (bob_id, bob_token)):
        await finish(nodes[int(pid == cy_id)], token, game)
    deadline = time.monotonic() + LATE
    while update["total"] < 3 and time.monotonic() < deadline:
        update = checked(await bob.expect("board.update"))
    assert update["you"]["player"] == bob_id
    # The public board's order, the members only, ranked among themselves.
    rest = Rest(nodes[0], owner_token)
    status, public = await rest.call("GET", f"/boards/{board}?count=100")
    assert status == 200
    members = {owner_id, bob_id, cy_id}
    expected = [{**e, "rank": i + 1} for i, e in
                enumerate(e for e in public["entries"] if e["player"] in members)]
    assert len(expected) == 3 and out_id in {e["player"] for e in public["entries"]}
    status, league_page = await rest.call("GET", f"/boards/league/{lid}/{board}?count=100")
    assert status == 200 and league_page["entries"] == expected, (league_page, expected)
    assert update["entries"] == expected
    assert all("key" not in e and "member" not in e and "integrity" not in e for e in expected)
    # The week board: points for the places (10, 7, 5), each member's streak of days played.
    status, week = await rest.call("GET", f"/boards/league/{lid}/weekly/current")
    assert status == 200, week
    points = {e["player"]: e["points"] for e in week["entries"]}
    assert [points[e["player"]] for e in expected] == [10, 7, 5]
    assert all(e["streak"] >= 1 for e in week["entries"])
    # The owner removes Cy, who then learns nothing more, not even over a watch.
    cy = await Ws.open(nodes[0], cy_token)
    await ok(cy, {"type": "board.subscribe", "board": f"league/{lid}/weekly/current"},
             "subscribed")
    await cy.expect("board.update")
    removed = await ok(a, {"type": "league.remove", "league": lid, "player": cy_id})
    assert cy_id not in {m["player"] for m in removed["members"]}
    await refused(cy, {"type": "league.get", "league": lid}, "league.unknown")
    await refused(cy, {"type": "board.get", "board": f"league/{lid}/{board}"},
                  "league.unknown")
    assert (await ok(cy, {"type": "league.list"}, "leagues"))["leagues"] == []
    update = checked(await bob.expect("board.update"))  # Cy's entry leaves Bob's board
    assert cy_id not in {e["player"] for e in update["entries"]} and update["total"] == 2
    await cy.drain(1.5)
    assert cy.pending("board.update") == []
    await ok(cy, {"type": "board.unsubscribe", "board": f"league/{lid}/weekly/current"},
             "unsubscribed")
    await rest.aclose()
    for ws in (a, bob, cy):
        await ws.close()


@pytest.mark.parametrize("kind", ["league.create", "league.join"])
async def test_the_documented_routes_answer(nodes: list[Node], kind: str) -> None:
    """The REST routes of the two changes answer as their WebSocket messages do."""
    _, token = await human(nodes[0])
    rest = Rest(nodes[0], token)
    if kind == "league.create":
        status, made = await rest.call("POST", "/leagues", {"name": "Rest made"})
        assert status == 201 and checked({"type": "league", **made})["name"] == "Rest made"
        status, left = await rest.call("POST", f"/leagues/{made['league']}/leave", {})
        assert status == 200 and left["closed"] is True, left
    else:
        status, err = await rest.call("POST", "/leagues/join", {"code": "nothere"})
        assert status == 404 and err["code"] == "league.unknown", err
    await rest.aclose()
