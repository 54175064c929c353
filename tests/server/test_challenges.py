"""Challenges by name, on two real nodes over one real redis-server, then over a Redis Cluster
(every challenge's keys and its players' channels share one hash tag): the challenge reaches
every socket of the challenged player on any node and their listing; accepting makes one race
only the two may join; declining, withdrawing and expiry tell both; two answers at once on two
nodes give one outcome; the limits and refusals."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import FAST, start_node, stop_node

from .client import MSGPACK, Node, Rest, Ws, player

pytestmark = pytest.mark.both_stores

TTL = 2  # seconds a challenge waits for its answer, on these nodes
KLONDIKE = {"game": "klondike", "variant": "easy"}
INCOMING = 3  # challenges one player may be sent at once, on the patient nodes


@pytest.fixture(scope="module")
def pair(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    """Two nodes with short challenges: 2 s to answer, two pending per sender."""
    logs = tmp_path_factory.mktemp("challenges")
    started = [start_node(store_url, logs / f"node{i}.log", SAMEDEAL_CHALLENGE_TTL=str(TTL),
                          SAMEDEAL_CHALLENGES_PENDING="2", SAMEDEAL_SWEEP_INTERVAL="0.2",
                          **FAST) for i in range(2)]
    yield [n for n, _ in started]
    for _, proc in started:
        stop_node(proc)


@pytest.fixture(scope="module")
def patient(store_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    """Two nodes with challenges that wait their default time, three at most to one player."""
    logs = tmp_path_factory.mktemp("patient")
    started = [start_node(store_url, logs / f"node{i}.log", SAMEDEAL_CHALLENGES_INCOMING=str(
        INCOMING), **FAST) for i in range(2)]
    yield [n for n, _ in started]
    for _, proc in started:
        stop_node(proc)


def unique(name: str) -> str:
    """A name nobody else on the shared store has (the index is case-blind)."""
    return f"{name} {secrets.token_hex(4)}"


async def someone(node: Node, name: str, kind: str = "human") -> tuple[str, str, Ws]:
    pid, token = await player(node, name, kind)
    return pid, token, await Ws.open(node, token)


async def rest(node: Node, token: str, method: str, path: str,
               body: Any = None) -> tuple[int, Any]:
    r = Rest(node, token)
    try:
        return await r.call(method, path, body)
    finally:
        await r.aclose()


async def test_a_challenge_by_name_reaches_every_socket_and_ends_in_one_race(
        pair: list[Node]) -> None:
    n0, n1 = pair
    ann_name, bob_name = unique("Ann"), unique("Bob")
    a, a_token, wa = await someone(n0, ann_name)
    b, b_token, wb = await someone(n1, bob_name)
    wb0 = await Ws.open(n0, b_token)  # Bob's second socket, on the other node
    _, _, wc = await someone(n1, unique("Cy"))

    # Ann challenges Bob by his name in other letters' case, over REST.
    status, sent = await rest(n0, a_token, "POST", "/challenges",
                              {"to": bob_name.upper(), **KLONDIKE})
    assert status == 201, sent
    assert sent["state"] == "pending" and sent["to"]["id"] == b and sent["from"]["id"] == a
    assert sent["race"] is None
    for ws in (wb, wb0):
        got = await ws.expect("challenge.received", challenge=sent["challenge"])
        assert got["from"] == {"id": a, "name": ann_name, "kind": "human"}
        assert got["game"] == "klondike" and got["name"] == sent["name"]
        assert not {"seed", "commitment"} & set(got), "nothing of a deal before the race"
    status, listed = await rest(n1, b_token, "GET", "/challenges")
    assert status == 200 and listed["challenges"][0]["challenge"] == sent["challenge"]
    mine = (await wa.request({"type": "challenge.list"}))["challenges"]
    assert [c["challenge"] for c in mine if c["state"] == "pending"] == [sent["challenge"]]

    # Bob accepts on node 1: a new race, only him seated; Ann is told its id on node 0.
    race = await wb.request({"type": "challenge.accept", "challenge": sent["challenge"]})
    assert race["type"] == "race", race
    rid = race["race"]
    assert [e["player"] for e in race["entrants"]] == [b] and race["seats"] == 2
    assert race["state"] == "open" and "seed" not in race
    told = await wa.expect("challenge.answered", challenge=sent["challenge"])
    assert told["state"] == "accepted" and told["race"] == rid
    assert (await wb0.expect("challenge.answered"))["race"] == rid  # his other tab too
    status, open_races = await rest(n0, a_token, "GET", "/races")
    assert rid not in [r["race"] for r in open_races["races"]], "not listed"

    # Nobody else may take the seat; Ann's join starts it.
    no = await wc.request({"type": "race.join", "race": rid})
    assert no["code"] == "race.not_invited", no
    joined = await wa.request({"type": "race.join", "race": rid})
    assert joined["type"] == "race", joined
    await wa.expect("race.started", race=rid)
    await wb.expect("race.started", race=rid)
    status, listed = await rest(n1, b_token, "GET", "/challenges")
    assert listed["challenges"][0]["state"] == "accepted"
    assert listed["challenges"][0]["race"] == rid
    for ws in (wa, wb, wb0, wc):
        await ws.close()


async def test_decline_withdraw_and_block(pair: list[Node]) -> None:
    n0, n1 = pair
    _, _, wa = await someone(n0, unique("Ann"))
    b, _, wb = await someone(n1, unique("Bob"), "bot")  # bots are challenged the same way

    first = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    assert first["type"] == "challenge", first
    await wb.expect("challenge.received", challenge=first["challenge"])
    no = await wb.request({"type": "challenge.decline", "challenge": first["challenge"]})
    assert no["type"] == "challenge" and no["state"] == "declined", no
    told = await wa.expect("challenge.answered", challenge=first["challenge"])
    assert told["state"] == "declined" and told["race"] is None
    late = await wb.request({"type": "challenge.accept", "challenge": first["challenge"]})
    assert late["code"] == "challenge.answered" and "declined" in late["message"], late

    second = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    gone = await wa.request({"type": "challenge.withdraw", "challenge": second["challenge"]})
    assert gone["state"] == "withdrawn", gone
    told = await wb.expect("challenge.answered", challenge=second["challenge"])
    assert told["state"] == "withdrawn"
    # Only the challenged answer, only the challenger withdraws.
    no = await wa.request({"type": "challenge.accept", "challenge": second["challenge"]})
    assert no["code"] == "challenge.unknown", no

    third = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    no = await wb.request({"type": "challenge.decline", "challenge": third["challenge"],
                           "block": True})
    assert no["state"] == "declined"
    refused = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    assert refused["code"] == "challenge.refused", refused
    await wa.close()
    await wb.close()


async def test_an_unanswered_challenge_expires(pair: list[Node]) -> None:
    n0, n1 = pair
    _, _, wa = await someone(n0, unique("Ann"))
    b, b_token, wb = await someone(n1, unique("Bob"))
    sent = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    assert sent["expires_at"] - sent["created"] == TTL * 1000
    for ws in (wa, wb):
        told = await ws.expect("challenge.answered", timeout=TTL + 5,
                               challenge=sent["challenge"])
        assert told["state"] == "expired"
    late = await wb.request({"type": "challenge.accept", "challenge": sent["challenge"]})
    assert late["code"] == "challenge.answered" and "expired" in late["message"], late
    status, listed = await rest(n1, b_token, "GET", "/challenges")
    assert status == 200 and listed["challenges"][0]["state"] == "expired"
    # No longer pending: it counts against no limit.
    again = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    assert again["type"] == "challenge", again
    await wa.close()
    await wb.close()


async def test_answers_at_once_on_two_nodes_give_one_outcome(pair: list[Node]) -> None:
    n0, n1 = pair
    _, _, wa = await someone(n0, unique("Ann"))
    b, b_token, wb1 = await someone(n1, unique("Bob"))
    wb0 = await Ws.open(n0, b_token)

    # Two accepts at once, one per node: one race, Bob seated once, Ann told once.
    sent = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    r0, r1 = await asyncio.gather(
        wb0.request({"type": "challenge.accept", "challenge": sent["challenge"]}),
        wb1.request({"type": "challenge.accept", "challenge": sent["challenge"]}))
    assert r0["type"] == r1["type"] == "race", (r0, r1)
    assert r0["race"] == r1["race"]
    status, race = await rest(n1, b_token, "GET", f"/races/{r0['race']}")
    assert status == 200 and [e["player"] for e in race["entrants"]] == [b]
    told = await wa.expect("challenge.answered", challenge=sent["challenge"])
    assert told["race"] == r0["race"]
    await wa.drain(0.5)
    assert not wa.pending("challenge.answered"), "one outcome, told once"

    # An accept and a decline at once: whichever Redis took first, the other is refused.
    sent = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    yes, no = await asyncio.gather(
        wb0.request({"type": "challenge.accept", "challenge": sent["challenge"]}),
        wb1.request({"type": "challenge.decline", "challenge": sent["challenge"]}))
    told = await wa.expect("challenge.answered", challenge=sent["challenge"])
    if told["state"] == "accepted":
        assert yes["type"] == "race" and yes["race"] == told["race"]
        assert no["code"] == "challenge.answered", no
    else:
        assert told["state"] == "declined" and no["state"] == "declined"
        assert yes["code"] == "challenge.answered", yes
    await wa.drain(0.5)
    assert not wa.pending("challenge.answered")
    for ws in (wa, wb0, wb1):
        await ws.close()


async def test_limits_and_refusals(pair: list[Node]) -> None:
    n0, n1 = pair
    ann_name = unique("Ann")
    a, a_token, wa = await someone(n0, ann_name)
    b, _, wb = await someone(n1, unique("Bob"))
    d, _, wd = await someone(n1, unique("Dee"))
    e, _, we = await someone(n1, unique("Eve"))

    no = await wa.request({"type": "challenge.send", "to": ann_name.lower(), **KLONDIKE})
    assert no["code"] == "challenge.self", no
    no = await wa.request({"type": "challenge.send", "to": unique("Nobody"), **KLONDIKE})
    assert no["code"] == "player.unknown", no
    twins = unique("Twin")
    await player(n0, twins, "human")
    await player(n1, twins, "human")
    no = await wa.request({"type": "challenge.send", "to": twins, **KLONDIKE})
    assert no["code"] == "player.ambiguous", no
    no = await wa.request({"type": "challenge.send", "to": twins, "player": b, **KLONDIKE})
    assert no["code"] == "message.invalid", no
    no = await wa.request({"type": "challenge.send", "player": b, "game": "no-such-game",
                           "variant": "easy"})
    assert no["code"] == "game.unknown", no

    # One pending challenge per player challenged, two in all (on these nodes).
    assert (await wa.request({"type": "challenge.send", "player": b, **KLONDIKE}))["type"] \
        == "challenge"
    no = await wa.request({"type": "challenge.send", "player": b, **KLONDIKE})
    assert no["code"] == "challenge.too_many" and 0 < no["retry_after"] <= TTL, no
    assert (await wa.request({"type": "challenge.send", "player": d, **KLONDIKE}))["type"] \
        == "challenge"
    status, no = await rest(n0, a_token, "POST", "/challenges", {"player": e, **KLONDIKE})
    assert status == 429 and no["code"] == "challenge.too_many", no
    await wb.expect("challenge.received")
    await wd.expect("challenge.received")
    await we.drain(0.3)
    assert not we.pending("challenge.received"), "a refused challenge is sent to nobody"

    # Someone else's challenge is nobody else's business.
    mine = (await wb.request({"type": "challenge.list"}))["challenges"]
    cid = mine[0]["challenge"]
    for kind in ("challenge.accept", "challenge.decline"):
        no = await we.request({"type": kind, "challenge": cid})
        assert no["code"] == "challenge.unknown", no
    assert (await we.request({"type": "challenge.list"}))["challenges"] == []

    # A new name is found, the old one no more.
    new_name = unique("Ada")
    renamed = await wa.request({"type": "player.rename", "name": new_name})
    assert renamed["type"] == "player", renamed
    no = await we.request({"type": "challenge.send", "to": ann_name, **KLONDIKE})
    assert no["code"] == "player.unknown", no
    got = await we.request({"type": "challenge.send", "to": new_name, **KLONDIKE})
    assert got["type"] == "challenge" and got["to"]["id"] == a, got
    for ws in (wa, wb, wd, we):
        await ws.close()


async def test_a_player_is_sent_so_many_challenges_at_once(patient: list[Node]) -> None:
    """So many senders reach a player; one more is told the player is busy, until one of
    those is answered."""
    pair = patient
    n1 = pair[1]
    v, _, wv = await someone(n1, unique("Vic"))
    senders = [await someone(pair[i % 2], unique(f"Fan{i}")) for i in range(INCOMING + 1)]
    sent = []
    for i, (_, token, ws) in enumerate(senders[:INCOMING]):
        if i % 2:  # over REST, in msgpack
            r = Rest(pair[i % 2], token, msgpack_=True)
            status, got = await r.call("POST", "/challenges", {"player": v, **KLONDIKE})
            await r.aclose()
            assert status == 201, got
        else:
            got = await ws.request({"type": "challenge.send", "player": v, **KLONDIKE})
            assert got["type"] == "challenge", got
        sent.append(got["challenge"])
    _, late_token, late_ws = senders[INCOMING]
    no = await late_ws.request({"type": "challenge.send", "player": v, **KLONDIKE})
    assert no["type"] == "error" and no["code"] == "challenge.busy", no
    assert isinstance(no["id"], int) and 0 < no["retry_after"] <= 600
    assert "waiting for their answer" in no["message"]
    r = Rest(n1, late_token, msgpack_=True)
    status, body = await r.call("POST", "/challenges", {"player": v, **KLONDIKE})
    assert status == 409 and body["code"] == "challenge.busy", body
    listed = (await wv.request({"type": "challenge.list"}))["challenges"]
    assert sorted(c["challenge"] for c in listed if c["state"] == "pending") == sorted(sent)

    # One answered, the sixth gets through.
    no = await wv.request({"type": "challenge.decline", "challenge": sent[0]})
    assert no["state"] == "declined", no
    status, got = await r.call("POST", "/challenges", {"player": v, **KLONDIKE})
    assert status == 201 and got["to"]["id"] == v, got
    await r.aclose()
    for _, _, ws in [*senders, (v, "", wv)]:
        await ws.close()


async def test_a_player_may_refuse_every_challenge(patient: list[Node]) -> None:
    n0, n1 = patient
    v, v_token, wv = await someone(n0, unique("Hermit"), "bot")
    _, a_token, wa = await someone(n1, unique("Ann"))
    waiting = await wa.request({"type": "challenge.send", "player": v, **KLONDIKE})
    assert waiting["type"] == "challenge", waiting

    on = await wv.request({"type": "challenge.refuse", "refuse": True})
    assert on == {"type": "challenge.settings", "refuse": True, "id": on["id"]}, on
    no = await wa.request({"type": "challenge.send", "player": v, **KLONDIKE})
    assert no["code"] == "challenge.closed" and "takes no challenges" in no["message"], no
    status, no = await rest(n1, a_token, "POST", "/challenges", {"player": v, **KLONDIKE})
    assert status == 403 and no["code"] == "challenge.closed", no
    # The setting shows in the listing, on either node and either way; what was waiting stays
    # to be answered.
    status, listed = await rest(n1, v_token, "GET", "/challenges")
    assert status == 200 and listed["refuse"] is True
    ws_msgpack = await Ws.open(n1, v_token, MSGPACK)
    assert (await ws_msgpack.request({"type": "challenge.list"}))["refuse"] is True
    declined = await wv.request({"type": "challenge.decline", "challenge": waiting["challenge"]})
    assert declined["state"] == "declined", declined

    # Hostile values change nothing.
    for bad in ({"refuse": "no"}, {"refuse": 0}, {}, {"refuse": None}):
        no = await ws_msgpack.request({"type": "challenge.refuse", **bad})
        assert no["code"] == "message.invalid", (bad, no)
        status, no = await rest(n0, v_token, "POST", "/challenges/refuse", bad)
        assert status == 400 and no["code"] == "message.invalid", (bad, no)
    assert (await wv.request({"type": "challenge.list"}))["refuse"] is True

    # Taken again, over REST in msgpack.
    r = Rest(n0, v_token, msgpack_=True)
    status, off = await r.call("POST", "/challenges/refuse", {"refuse": False})
    await r.aclose()
    assert status == 200 and off == {"refuse": False}, off
    got = await wa.request({"type": "challenge.send", "player": v, **KLONDIKE})
    assert got["type"] == "challenge", got
    await wv.expect("challenge.received", challenge=got["challenge"])
    assert (await wv.request({"type": "challenge.list"}))["refuse"] is False
    for ws in (wv, wa, ws_msgpack):
        await ws.close()
