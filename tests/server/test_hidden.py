"""No message a race entrant receives, for any rule set, names a card hidden from them: every
view is exactly the engine's view of the true game, and nothing else names an unseen card;
over protocol v1 and v2 (acks with what changed, and a resync after a dropped connection)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.cards import TEXT

from .client import (
    JSON,
    MSGPACK,
    V2_JSON,
    V2_MSGPACK,
    Node,
    Rest,
    Ws,
    apply_ack,
    cards_in,
    player,
    view_cards,
)

RULE_SETS = [f"{r.id}/{r.variant}" for r in engine.rule_sets() if r.players[0] == 1]


def reach_into_hidden(view: dict[str, Any], rng: random.Random) -> str | None:
    """A move that grabs one face-down card too many, or ``None`` if nothing is face down."""
    piles = view["piles"]
    covered = [name for name, p in piles.items() if p["down"]]
    if not covered:
        return None
    src = rng.choice(covered)
    dst = rng.choice([name for name in piles if name != src])
    return f"{src}:{len(piles[src]['up']) + 1}-{dst}"


def is_legal(rules: engine.RuleSet, move: str, legal: list[str]) -> bool:
    """Some face-down cards may be taken (a stock's top card, in Slide): that shows the card."""
    return engine.parse_move(rules, move) in [engine.parse_move(rules, m) for m in legal]


async def race_of_two(node_a: Node, node_b: Node, game: str, variant: str,
                      protocols: tuple[str, str] = (JSON, JSON)) -> tuple[Ws, Ws, str]:
    _, a_token = await player(node_a, "Ann")
    _, b_token = await player(node_b, "Bob")
    a = await Ws.open(node_a, a_token, protocols[0])
    b = await Ws.open(node_b, b_token, protocols[1])
    race = await a.request({"type": "race.create", "game": game, "variant": variant,
                            "seats": 2, "countdown": 0})
    assert race["type"] == "race", race
    joined = await b.request({"type": "race.join", "race": race["race"]})
    assert joined["type"] == "race", joined
    return a, b, race["race"]


def without(message: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in message.items() if k not in names}


#: v1: both sockets v1 (JSON and msgpack); v2: both v2, with Ann's socket dropped mid-game
#: (she resumes from the last number she had and her session is sent whole)
PROTOCOLS = {"v1": (JSON, MSGPACK), "v2": (V2_JSON, V2_MSGPACK)}


@pytest.mark.parametrize("version", sorted(PROTOCOLS))
@pytest.mark.parametrize("key", RULE_SETS)
async def test_no_message_names_a_hidden_card(nodes: list[Node], key: str,
                                              version: str) -> None:
    game, variant = key.split("/")
    rules = engine.get(game, variant)
    a, b, rid = await race_of_two(nodes[0], nodes[1], game, variant, PROTOCOLS[version])
    rng = random.Random(key)
    played: dict[str, list[tuple[str, dict[str, Any]]]] = {"a": [], "b": []}
    socks = {"a": a, "b": b}
    received: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}  # every socket's
    first = {"a": await a.expect("session"), "b": await b.expect("session")}
    current = {k: without(v, "type", "id") for k, v in first.items()}  # what each one has
    last_seq = {"a": 0, "b": 0}
    for turn in range(10):
        if version == "v2" and turn == 5:  # Ann's connection drops; she resumes
            await a.drain(0.1)
            last_seq["a"] = max(m["seq"] for m in a.received if "seq" in m)
            received["a"] += a.received
            await a.close()
            a = socks["a"] = await Ws.open(nodes[1], a.token, V2_JSON)
            await a.send({"type": "race.subscribe", "race": rid, "after": last_seq["a"]})
            resumed = without(await a.expect("session"), "type", "id")
            assert resumed == current["a"], "resumed where she was, whole"
            current["a"] = resumed
        for who, ws in socks.items():
            last = current[who]
            probe = reach_into_hidden(last["view"], rng)
            if probe is not None and not is_legal(rules, probe, last["legal"]):
                refused = await ws.request({"type": "move", "session": last["session"],
                                            "move": probe})
                assert refused["type"] == "error" and refused["message"], refused
            if last["view"]["status"] != "playing":
                continue
            move = rng.choice(last["legal"])
            ack = await ws.request({"type": "move", "session": last["session"], "move": move})
            assert ack["type"] == "ack", ack
            current[who] = apply_ack(last, ack) if version == "v2" else without(
                ack, "type", "id")
            played[who].append((move, current[who]))
    for who, ws in socks.items():
        if current[who]["view"]["status"] == "playing":
            ack = await ws.request({"type": "resign", "session": current[who]["session"]})
            assert ack["type"] == "ack"
    ended = [m for m in received["a"] if m.get("type") == "race.ended"]  # before the drop
    seed = (ended[0] if ended else await a.expect("race.ended"))["seed"]
    await b.expect("race.ended")

    for who, ws in socks.items():
        # Every view is the engine's view of the true game after the moves acknowledged.
        st = rules.deal(bytes.fromhex(seed), competitive=True)
        assert first[who]["view"] == st.view()
        for move, payload in played[who]:
            st.play(engine.parse_move(rules, move))
            assert payload["view"] == st.view()
            assert payload["legal"] == [engine.move_text(rules, m) for m in st.legal_moves()]
        # Everything else names only cards already shown to this player; a v2 ack's changes
        # name only cards of the view it builds.
        seen: set[str] = set()
        shown: dict[str, Any] | None = None
        for m in received[who] + ws.received:
            if m.get("type") == "session" or (m.get("type") == "ack" and "view" in m):
                shown = without(m, "type", "id", "seq", "cards")
                seen |= view_cards(m["view"])
            elif m.get("type") == "ack":
                assert shown is not None and version == "v2", m
                if m["rev"] <= shown["rev"]:  # a pushed session overtook it: shown already
                    assert cards_in(m) <= seen, m
                    continue
                shown = apply_ack(shown, m)
                assert cards_in(m) <= view_cards(shown["view"]), m
                seen |= view_cards(shown["view"])
            else:
                assert cards_in(m) <= seen, m
        await ws.close()


# ----- Bowling matches: one deck per frame for every bowler ----------------------------


class FrameScan:
    """The hidden-card scan of one socket's messages in a Bowling match, kept up as they come:
    no message names a card of frame k's deck before this player has been shown it as the
    bowler of frame k (``bowler``: their 0-based place; ``None``: a spectator, shown a frame's
    cards only once it is complete). Every frame deals the same deck to each bowler (and any
    card of it could be next), so while frame k is being bowled no card may show at all."""

    def __init__(self, bowler: int | None) -> None:
        self.bowler = bowler
        self.bowled: set[int] = set()  # frames this player has been shown as their bowler
        self.done = 0  # messages scanned

    def scan(self, messages: list[dict[str, Any]]) -> None:
        for m in messages[self.done:]:
            own = m if m.get("type") == "match.you" else m.get("you")
            if own is not None and self.bowler is not None:
                info = own["view"]["info"]
                assert info["bowler"] == self.bowler + 1, own  # only ever the bowler's own
                self.bowled.add(info["frame"])
                assert cards_in(own) <= view_cards(own["view"]), own
            if m.get("type") == "match.you":
                continue
            public = {k: v for k, v in m.items() if k not in ("you", "frames")}
            view = public.get("view")
            if public.get("type") == "match.ended" or public.get("state") == "ended" or (
                    view is not None and "frame" not in view["info"]):
                continue  # every frame complete: the cards are everyone's
            frame = view["info"]["frame"] if view is not None else None
            # a complete frame's cards are everyone's: only frames before the one being bowled
            assert all(f["frame"] < (frame or 0) for f in m.get("frames", [])), m
            turn = public.get("turn") or {}
            if self.bowler is not None and turn.get("bowler") == self.bowler + 1:
                self.bowled.add(frame)  # their own lane as they bowl it
            assert frame in self.bowled or not cards_in(public), (
                f"frame {frame}: {public.get('type')} names {sorted(cards_in(public))} to "
                f"{'bowler ' + str(self.bowler + 1) if self.bowler is not None else 'a spectator'}"
                " before they bowled it")
        self.done = len(messages)


async def next_match_event(ws: Ws, mid: str, after: int) -> dict[str, Any]:
    """The match's next numbered event after ``after`` (sync messages and own lanes wait)."""
    while True:
        for i, m in enumerate(ws._buffer):
            if m.get("match") == mid and m.get("seq", 0) > after and m["type"] != "match":
                return ws._buffer.pop(i)
        ws._buffer.append(await ws._next(20))


async def test_no_bowler_sees_a_frames_cards_before_bowling_it(nodes: list[Node]) -> None:
    """Four bowlers on both nodes and spectators, played through with one bowler leaving: a
    frame's cards show only to the bowler bowling them until every bowler still in the match
    has bowled that frame, in events, sync messages, replies and REST reads alike."""
    rng = random.Random("frames")
    ids, socks = [], []
    for i in range(4):
        pid, token = await player(nodes[i % 2], f"Bowler{i + 1}", "human")
        ids.append(pid)
        # bowler 2 on protocol v2: matches are the same on it
        socks.append(await Ws.open(nodes[i % 2], token,
                                   MSGPACK if i == 3 else V2_JSON if i == 1 else JSON))
    _, spy_token = await player(nodes[1], "Watcher", "human")
    spy = await Ws.open(nodes[1], spy_token)
    spy_rest = Rest(nodes[0], spy_token)
    rest_reads: list[dict[str, Any]] = []  # what the spectator read over REST
    rest_scan = FrameScan(None)
    created = await socks[0].request({"type": "match.create", "game": "bowling",
                                      "variant": "difficult", "seats": 4, "turn_time": 120})
    mid = created["match"]
    await spy.send({"type": "match.subscribe", "match": mid})
    await spy.expect("match")
    for ws in socks[1:]:
        assert (await ws.request({"type": "match.join", "match": mid}))["type"] == "match"
    scans = {ws: FrameScan(i) for i, ws in enumerate(socks)} | {spy: FrameScan(None)}
    watchers = [*socks, spy]
    current = await socks[0].expect("match.started")
    for ws in watchers[1:]:
        await ws.expect("match.started")
    late: Ws | None = None
    left = False
    kept: dict[str, Any] | None = None  # the bowler's next card, from the ack of a turn kept
    while current["turn"] is not None:
        for ws, scan in scans.items():
            scan.scan(ws.received)
        rest_scan.scan(rest_reads)
        k = current["turn"]["bowler"] - 1
        frame = current["view"]["info"]["frame"]
        if frame == 4 and k == 0 and not left:  # bowler 3 leaves for good mid-frame
            assert (await socks[2].request({"type": "match.leave", "match": mid}))[
                "type"] == "match"
            left = True
            for ws in watchers:
                event = await next_match_event(ws, mid, current["seq"])
                assert event["type"] == "match.forfeit", event
            current = event
            continue
        if frame == 6 and late is None:  # a spectator arriving mid-match: a full sync
            late = await Ws.open(nodes[0], spy_token, MSGPACK)
            await late.send({"type": "match.subscribe", "match": mid})
            await late.expect("match")
            scans[late] = FrameScan(None)
        if current["view"]["info"]["ball"] == 1 and current["view"]["info"]["pins"] == 0:
            status, body = await spy_rest.call("GET", f"/matches/{mid}")
            assert status == 200 and "you" not in body
            rest_reads.append(body)
        you = kept or await socks[k].expect("match.you")
        while you["as_of"] < current["seq"]:
            you = await socks[k].expect("match.you")
        move = rng.choice(you["legal"])
        ack = await socks[k].request({"type": "match.move", "match": mid, "move": move})
        assert ack["type"] == "match.ack", ack
        kept = ack.get("you")
        if kept is not None:  # a card that keeps the turn: the bowler's alone, no event
            continue
        for ws in watchers + ([late] if late else []):  # the pin: the bowler's alone until
            event = await next_match_event(ws, mid, current["seq"])  # the frame is complete
            assert event["type"] == "match.moved", event
            assert event["move"] == (move if ws is socks[k] or "frames" in event else None)
        current = event

    ended = await next_match_event(spy, mid, current["seq"])
    assert ended["type"] == "match.ended"
    for ws, scan in scans.items():
        await ws.drain(0.3)
        scan.scan(ws.received)
    rest_scan.scan(rest_reads)
    # each complete frame's cards were shown to all, as bowled: the spectator's frames, from
    # the events as frames completed, are the transcript's cards and placements
    status, transcript = await spy_rest.call("GET", f"/matches/{mid}/transcript")
    assert status == 200
    rules = engine.get("bowling", "difficult")
    st = rules.deal(bytes.fromhex(transcript["seed"]), competitive=True, players=4)
    truth: dict[tuple[int, int], list[dict[str, str]]] = {}
    for entry in transcript["moves"]:
        if entry["move"] == "forfeit":
            rules.forfeit(st, entry["bowler"] - 1)  # type: ignore[attr-defined]
            continue
        card = TEXT[st.piles[rules.stock_pile][-1]]
        truth.setdefault((st.vars["frame"], entry["bowler"]), []).append(
            {"card": card, "move": entry["move"]})
        st.play(engine.parse_move(rules, entry["move"]), player=entry["bowler"] - 1)
    told = {(f["frame"], b["bowler"]): b["cards"] for m in spy.received
            for f in m.get("frames", []) for b in f["bowlers"]}
    assert told == truth
    status, summary = await spy_rest.call("GET", f"/matches/{mid}")
    assert [f["frame"] for f in summary["frames"]] == list(range(1, 11))
    assert {(f["frame"], b["bowler"]): b["cards"] for f in summary["frames"]
            for b in f["bowlers"]} == truth

    # the scan saw what it should: each bowler shown their own frames, bowler 3 up to frame 4
    assert [sorted(scans[ws].bowled) for ws in socks] == [
        list(range(1, 11)), list(range(1, 11)), [1, 2, 3], list(range(1, 11))]
    await spy_rest.aclose()
    for ws in scans:
        await ws.close()


# ----- called-card matches: the next card, the starter and the deck order -----------------


@pytest.mark.parametrize("game", ["poker-square", "cribbage-square"])
async def test_no_card_shows_before_it_is_called_for_everyone(nodes: list[Node],
                                                              game: str) -> None:
    """Three players (the easy variant: discards, so grids fill in different rounds) and a
    spectator: scanned in the order received, every message names only cards already called
    to everyone, never the next one early (a player who has placed this round waits without
    it), never the deck's order, and Cribbage Square's starter only once the match is over."""
    rng = random.Random(game)
    socks = []
    for i in range(3):
        _, token = await player(nodes[i % 2], f"Caller{i + 1}", "human")
        socks.append(await Ws.open(nodes[i % 2], token,  # player 2 on protocol v2
                                   MSGPACK if i == 2 else V2_JSON if i == 1 else JSON))
    _, spy_token = await player(nodes[1], "Watcher", "human")
    spy = await Ws.open(nodes[1], spy_token)
    mid = (await socks[0].request({"type": "match.create", "game": game, "variant": "easy",
                                   "seats": 3, "turn_time": 120}))["match"]
    await spy.send({"type": "match.subscribe", "match": mid})
    await spy.expect("match")
    for ws in socks[1:]:
        assert (await ws.request({"type": "match.join", "match": mid}))["type"] == "match"
    mine = [await ws.expect("match.you") for ws in socks]
    ended, last = None, 0
    while ended is None:
        for i, ws in enumerate(socks):
            if mine[i]["waiting"]:
                move = rng.choice(mine[i]["legal"])
                ack = await ws.request({"type": "match.move", "match": mid, "move": move})
                assert ack["type"] == "match.ack", ack
        event = await next_match_event(spy, mid, last)
        while event["type"] not in ("match.card", "match.ended"):
            event = await next_match_event(spy, mid, event["seq"])
        last = event["seq"]
        if event["type"] == "match.ended":
            ended = event
            break
        mine = [await ws.expect("match.you") for ws in socks]
    for ws in [*socks, spy]:
        await ws.drain(0.3)
        shown: set[str] = set()  # cards called to everyone so far, in the order received
        over = False
        for m in ws.received:
            if m.get("type") in ("match.started", "match.card") or (
                    m.get("type") == "match" and m.get("card")):
                shown.add(m["card"])
            over = over or m.get("type") == "match.ended" or m.get("state") == "ended"
            allowed = shown | ({ended["results"]["starter"]} if over and ended["results"].get(
                "starter") else set())
            assert cards_in(m) <= allowed, (m.get("type"), cards_in(m) - allowed)
        await ws.close()
