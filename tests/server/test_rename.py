"""Choosing a new name, over REST (PATCH /players/me) and on the WebSocket (player.rename), on
real nodes over a real redis-server: the name is checked as at registration, a refusal changes
nothing, and what is joined afterwards (on any socket of the player, any node) carries the new
name, while what was recorded before keeps the old one."""

from __future__ import annotations

from .client import JSON, MSGPACK, Node, Rest, Ws, player


async def name_of(rest: Rest) -> str:
    status, me = await rest.call("GET", "/players/me")
    assert status == 200, me
    return str(me["name"])


async def test_rename_over_rest(nodes: list[Node]) -> None:
    _, token = await player(nodes[0], "Guest 4821", "human")
    rest = Rest(nodes[0], token)
    status, out = await rest.call("PATCH", "/players/me", {"name": "  Ann   Lee "})
    assert status == 200, out
    assert out["player"]["name"] == "Ann Lee" and out["player"]["kind"] == "human"
    assert await name_of(Rest(nodes[1], token)) == "Ann Lee"  # every node reads the store

    for body, code in (({"name": "   "}, "message.invalid"), ({"name": ""}, "message.invalid"),
                       ({"name": "x" * 33}, "bad.too_long"), ({"name": "a\x00b"}, "bad.text"),
                       ({"name": 7}, "message.invalid"), ({}, "message.invalid"),
                       ({"name": "Bo", "kind": "bot"}, "message.invalid")):
        status, err = await rest.call("PATCH", "/players/me", body)
        assert status == 400 and err["code"] == code, (body, status, err)
    assert await name_of(rest) == "Ann Lee"  # refusals changed nothing

    status, err = await rest.call("PATCH", "/players/me", {"name": "Eve"}, token="nope")
    assert status == 401 and err["code"] == "auth.invalid", err
    await rest.aclose()


async def test_rename_on_the_websocket_and_what_carries_the_new_name(nodes: list[Node]) -> None:
    _, host_token = await player(nodes[0], "Host", "human")
    pid, token = await player(nodes[0], "Guest 1234", "human")
    host = await Ws.open(nodes[0], host_token, JSON)
    ws = await Ws.open(nodes[0], token, MSGPACK)
    other = await Ws.open(nodes[1], token, JSON)  # the same player's other tab, another node

    # Joined under the guest name: that race keeps it.
    before = await host.request({"type": "race.create", "game": "golf", "variant": "easy",
                                 "seats": 3, "start": "manual"})
    joined = await ws.request({"type": "race.join", "race": before["race"]})
    assert {e["name"] for e in joined["entrants"]} == {"Host", "Guest 1234"}, joined

    bad = await ws.request({"type": "player.rename", "name": "\t \n"})
    assert bad["type"] == "error" and bad["code"] in ("bad.text", "message.invalid"), bad
    out = await ws.request({"type": "player.rename", "name": " Zoë  Q "})
    assert out["type"] == "player" and out["player"] == {"id": pid, "name": "Zoë Q",
                                                         "kind": "human"}, out

    # The renaming socket and the other tab (which said hello under the old name) both join
    # under the new name.
    race = await host.request({"type": "race.create", "game": "golf", "variant": "easy",
                               "seats": 3, "start": "manual"})
    mine = await other.request({"type": "race.join", "race": race["race"]})
    assert [e["name"] for e in mine["entrants"] if e["player"] == pid] == ["Zoë Q"], mine
    match = await host.request({"type": "match.create", "game": "poker-square",
                                "variant": "easy", "seats": 2, "start": "manual"})
    seated = await ws.request({"type": "match.join", "match": match["match"]})
    assert [p["name"] for p in seated["players"] if p["player"] == pid] == ["Zoë Q"], seated

    status, summary = await Rest(nodes[0], host_token).call("GET", f"/races/{before['race']}")
    assert status == 200
    assert [e["name"] for e in summary["entrants"] if e["player"] == pid] == ["Guest 1234"]
    for s in (host, ws, other):
        await s.close()
