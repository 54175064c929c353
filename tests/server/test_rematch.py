"""Rematches of races and matches, on two real nodes over a real redis-server and a Redis
Cluster: entrants asking at once from different nodes make one new race or match, the others
are told by an event, only the old entrants may ask or join, and nothing is asked before the
end."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from .client import Node, Rest, Ws, player

pytestmark = pytest.mark.both_stores  # one redis-server, then a Redis Cluster


async def people(nodes: list[Node], *names: str) -> list[tuple[str, Ws, Node]]:
    """A player per name, each on a socket to the nodes in turn: (id, socket, node)."""
    out = []
    for i, name in enumerate(names):
        node = nodes[i % len(nodes)]
        pid, token = await player(node, name, "human")
        out.append((pid, await Ws.open(node, token), node))
    return out


async def get(node: Node, ws: Ws, path: str) -> Any:
    """A REST GET as the socket's player."""
    rest = Rest(node, ws.token)
    status, body = await rest.call("GET", path)
    await rest.aclose()
    assert status == 200, body
    return body


async def test_entrants_asking_at_once_on_two_nodes_make_one_rematch(
        nodes: list[Node]) -> None:
    (a, wa, na), (b, wb, _), (d, wd, _), (_, wc, nc) = await people(
        nodes, "Ann", "Bob", "Dee", "Cy")
    race = await wa.request({"type": "race.create", "game": "klondike", "variant": "easy",
                             "seats": 3, "countdown": 0, "time_limit": 120})
    rid = race["race"]
    for ws in (wb, wd):
        assert (await ws.request({"type": "race.join", "race": rid}))["type"] == "race"
    await wa.expect("race.started", race=rid)
    # Nothing to rematch while it runs, and only entrants may ask.
    no = await wa.request({"type": "race.rematch", "race": rid})
    assert no["type"] == "error" and no["code"] == "race.not_over", no
    assert "over" in no["message"]
    no = await wc.request({"type": "race.rematch", "race": rid})
    assert no["code"] == "race.not_entrant", no
    for pid, ws in ((a, wa), (b, wb), (d, wd)):
        done = await ws.request({"type": "resign", "session": f"{rid}.{pid}"})
        assert done["type"] == "ack", done
    ended = await wd.expect("race.ended", race=rid)
    old_seq = ended["seq"]

    # Ann (node 0) and Bob (node 1) ask at the same moment: one new race, both seated in it.
    ra, rb = await asyncio.gather(wa.request({"type": "race.rematch", "race": rid}),
                                  wb.request({"type": "race.rematch", "race": rid}))
    assert ra["type"] == rb["type"] == "race", (ra, rb)
    new = ra["race"]
    assert rb["race"] == new != rid
    assert ra["rematch_of"] == rid
    # Redis counted both seats in the one race: the later reply sees both entrants.
    seated = await get(na, wa, f"/races/{new}")
    assert {e["player"] for e in seated["entrants"]} == {a, b}, seated
    assert seated["state"] == "open" and seated["seats"] == 3
    assert seated["game"] == "klondike" and seated["time_limit"] == 120
    assert seated["countdown"] == 0
    assert seated["commitment"] != race["commitment"]  # a new secret deal
    assert "seed" not in seated

    # Dee, who did not ask, is told once, with the new race and who asked first.
    told = await wd.expect("race.rematched", race=rid)
    assert told["rematch"] == new and told["by"]["id"] in (a, b), told
    assert told["seq"] == old_seq + 1
    await wd.drain(0.5)
    assert not wd.pending("race.rematched"), "one rematch, announced once"
    summary = await get(nc, wc, f"/races/{rid}")
    assert summary["rematch"] == new and summary["rematch_by"] == told["by"]["id"]

    # Not among the open races; someone who was not in the old race can't join it.
    assert new not in [r["race"] for r in (await get(nc, wc, "/races"))["races"]]
    no = await wc.request({"type": "race.join", "race": new})
    assert no["code"] == "race.not_invited" and "rematch" in no["message"], no
    no = await wc.request({"type": "race.rematch", "race": rid})
    assert no["code"] == "race.not_entrant", no
    # Asking again is the same race; Dee accepting seats her and fills it: it starts.
    again = await wa.request({"type": "race.rematch", "race": rid})
    assert again["race"] == new and "joined_seq" not in again
    accepted = await wd.request({"type": "race.rematch", "race": rid})
    assert accepted["race"] == new and accepted["joined_seq"] > 0, accepted
    started = await wa.expect("race.started", race=new)
    assert set(started["sessions"]) == {a, b, d}
    for ws in (wa, wb, wc, wd):
        await ws.close()


async def test_match_rematch_on_two_nodes(nodes: list[Node]) -> None:
    (a, wa, na), (b, wb, _), (d, wd, _), (_, wc, nc) = await people(
        nodes, "Ann", "Bob", "Dee", "Cy")
    made = await wa.request({"type": "match.create", "game": "poker-square",
                             "variant": "easy", "seats": 3, "turn_time": 60})
    mid = made["match"]
    for ws in (wb, wd):
        assert (await ws.request({"type": "match.join", "match": mid}))["type"] == "match"
    await wa.expect("match.started", match=mid)
    no = await wb.request({"type": "match.rematch", "match": mid})
    assert no["code"] == "match.not_over", no
    no = await wc.request({"type": "match.rematch", "match": mid})
    assert no["code"] == "match.not_player", no
    for ws in (wa, wb, wd):  # everyone leaves: the match is over
        await ws.request({"type": "match.leave", "match": mid})
    await wd.expect("match.ended", match=mid)

    ra, rb = await asyncio.gather(wa.request({"type": "match.rematch", "match": mid}),
                                  wb.request({"type": "match.rematch", "match": mid}))
    assert ra["type"] == rb["type"] == "match", (ra, rb)
    new = ra["match"]
    assert rb["match"] == new != mid and ra["rematch_of"] == mid
    assert ra["game"] == "poker-square" and ra["seats"] == 3 and ra["turn_time"] == 60
    told = await wd.expect("match.rematched", match=mid)
    assert told["rematch"] == new and told["by"]["id"] in (a, b)
    await wd.drain(0.5)
    assert not wd.pending("match.rematched")
    assert new not in [m["match"] for m in (await get(nc, wc, "/matches"))["matches"]]
    no = await wc.request({"type": "match.join", "match": new})
    assert no["code"] == "match.not_invited" and "rematch" in no["message"], no
    rest = Rest(na, wa.token)
    status, body = await rest.call("POST", f"/matches/{mid}/rematch")  # REST: the same
    assert status == 200 and body["match"] == new, body
    await rest.aclose()
    accepted = await wd.request({"type": "match.rematch", "match": mid})
    assert accepted["match"] == new and accepted["state"] == "running", accepted
    started = await wa.expect("match.started", match=new)
    assert {o["player"] for o in started["order"]} == {a, b, d}
    for ws in (wa, wb, wc, wd):
        await ws.close()


async def test_a_rematch_of_an_unknown_race_or_match(nodes: list[Node]) -> None:
    ((_, ws, node),) = await people(nodes, "Eve")
    no = await ws.request({"type": "race.rematch", "race": "rnothere"})
    assert no["code"] == "race.unknown", no
    no = await ws.request({"type": "match.rematch", "match": "mnothere"})
    assert no["code"] == "match.unknown", no
    rest = Rest(node, ws.token)
    status, body = await rest.call("POST", "/races/rnothere/rematch")
    assert status == 404 and body["code"] == "race.unknown"
    await rest.aclose()
    await ws.close()
