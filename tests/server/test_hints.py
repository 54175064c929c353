"""Hints (server/hints/__init__.py) on two real nodes over a real redis-server: given in practice,
the next move of the solver's line after the hinted move is played (from the other node too: the
line is kept in Redis), a position proved lost said to be so, refused in races, ranked daily
attempts and matches, rate limited per player, answered on a game over with ``game.over``, and
searched off the event loop."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import engine
from engine.hints import SOLVER, hint
from engine.solver import Budget, Outcome, solve
from engine.words import move_words
from server.transport import replies

from ..conftest import SUITE_ACCOUNTS, start_node, stop_node
from .client import JSON, MSGPACK, V2_JSON, Node, Rest, Ws, player

KLONDIKE = engine.get("klondike", "easy")
#: A deal the solver wins at once (docs/solver.md: 5,625 positions).
WON_AT_ONCE = "00"
STEADY = Budget(positions=20000)


@pytest.fixture(scope="module")
def hint_node(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    """A node whose hint searches take long (2 s) and whose players get three hints at once,
    one more every ten seconds."""
    logs = tmp_path_factory.mktemp("hints")
    node, proc = start_node(redis_url, logs / "hints.log", SAMEDEAL_HINT_SECONDS="2",
                            SAMEDEAL_HINT_POSITIONS="100000000", SAMEDEAL_HINT_BURST="3",
                            SAMEDEAL_HINT_PER_MINUTE="6", **SUITE_ACCOUNTS)
    yield node
    stop_node(proc)


@pytest.fixture(scope="module")
def steady_node(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    """A node whose hint searches end on their positions (20,000), never on the clock, so
    the line it finds is the one an in-process search with that budget finds."""
    logs = tmp_path_factory.mktemp("steady")
    node, proc = start_node(redis_url, logs / "steady.log", SAMEDEAL_HINT_SECONDS="600",
                            SAMEDEAL_HINT_POSITIONS=str(STEADY.positions), **SUITE_ACCOUNTS)
    yield node
    stop_node(proc)


#: A Klondike (easy) deal the solver leaves undecided after 10 s (deal 20: docs/solver.md,
#: Figures), so a hint's search there runs its whole time budget (2 s on ``hint_node``) on any
#: machine up to five times this one's speed.
UNDECIDED = "00000014"


@pytest.mark.parametrize("protocol", [JSON, MSGPACK, V2_JSON])
async def test_a_practice_hint_is_the_solver_line_from_either_node(
        nodes: list[Node], protocol: str) -> None:
    _, token = await player(nodes[0], "Hinted", "human")
    a = await Ws.open(nodes[0], token, protocol)
    b = await Ws.open(nodes[1], token, protocol)
    s = await a.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                         "seed": WON_AT_ONCE})
    sid = s["session"]
    h = await a.request({"type": "hint", "session": sid})
    assert h["type"] == "suggestion" and h["session"] == sid and h["rev"] == 0, h
    assert h["source"] == "solver" and h["move"] in s["legal"] and h["hints"] == 1
    # The engine's hint with the node's budget: the search's line, made short as par is.
    line = hint(KLONDIKE.deal(bytes.fromhex(WON_AT_ONCE)), Budget(positions=20000)).line
    assert h["line_left"] == len(line) and h["move"] == engine.move_text(KLONDIKE, line[0])
    # In card words too, as the board shows it: the A♦ of column 3 goes up.
    assert h["move"] == "t3-f1" and h["words"] == "the A♦ to the foundation", h
    # A hint changes nothing: same revision, same view.
    again = await a.request({"type": "session.get", "session": sid})
    assert again["rev"] == 0 and again["view"] == s["view"]
    # Playing the hinted moves, the next hints are the line's next moves, on either node.
    for i in range(1, 6):
        sock = (a, b)[i % 2]
        ack = await sock.request({"type": "move", "session": sid, "move": h["move"],
                                  "rev": i - 1})
        assert ack["type"] == "ack" and ack["rev"] == i, ack
        h = await sock.request({"type": "hint", "session": sid})
        assert h["source"] == "solver" and h["rev"] == i and h["hints"] == i + 1
        assert h["move"] == engine.move_text(KLONDIKE, line[i])
        assert h["line_left"] == len(line) - i
        here = engine.replay("klondike", "easy", bytes.fromhex(WON_AT_ONCE), line[:i])
        assert h["words"] == move_words(here, line[i]), h
    # The transcript counts the hints.
    rest = Rest(nodes[1], token)
    status, t = await rest.call("GET", f"/sessions/{sid}/moves")
    assert status == 200 and t["hints"] == 6
    # REST gives the same.
    status, r = await rest.call("POST", f"/sessions/{sid}/hint")
    assert status == 200 and r["move"] == engine.move_text(KLONDIKE, line[5]), r
    await rest.aclose()
    await a.close()
    await b.close()


async def test_a_move_off_the_line_gets_a_fresh_hint(steady_node: Node) -> None:
    _, token = await player(steady_node, "Wanderer", "human")
    ws = await Ws.open(steady_node, token)
    s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                          "seed": WON_AT_ONCE})
    h = await ws.request({"type": "hint", "session": s["session"]})
    other = next(m for m in s["legal"] if m != h["move"])
    ack = await ws.request({"type": "move", "session": s["session"], "move": other})
    h2 = await ws.request({"type": "hint", "session": s["session"]})
    assert h2["rev"] == 1 and h2["move"] in ack["legal"], (h2, ack["legal"])
    st = KLONDIKE.deal(bytes.fromhex(WON_AT_ONCE))
    st.play(engine.parse_move(KLONDIKE, other))
    # A new search from the new position: the line a hint with the node's budget gives.
    fresh = hint(st, STEADY)
    assert fresh.source == SOLVER and h2["source"] == "solver", (fresh, h2)
    assert h2["line_left"] == len(fresh.line)
    assert h2["move"] == engine.move_text(KLONDIKE, fresh.line[0])
    await ws.close()


@pytest.mark.parametrize("protocol", [JSON, MSGPACK, V2_JSON])
async def test_a_position_proved_lost_gets_a_likely_move_and_says_so(
        steady_node: Node, protocol: str) -> None:
    """Scorpion difficult deal 01 is lost as dealt (its cards wait in a circle): the search
    proves it at once, so the hint is the heuristic's move and ``lost`` says why no line
    comes with it; a hint with a winning line carries no ``lost``."""
    _, token = await player(steady_node, "Hopeless", "human")
    ws = await Ws.open(steady_node, token, protocol)
    s = await ws.request({"type": "solo.start", "game": "scorpion", "variant": "difficult",
                          "seed": "01"})
    h = await ws.request({"type": "hint", "session": s["session"]})
    st = engine.get("scorpion", "difficult").deal(b"\x01")
    assert solve(st, STEADY).outcome == Outcome.LOST
    assert h["source"] == "heuristic" and h["lost"] is True and h["move"] in s["legal"], h
    assert "line_left" not in h
    assert h["words"] == move_words(st, engine.parse_move(st.rules, h["move"])), h
    schema = replies.REPLIES["suggestion"][1]
    jsonschema.validate(h, schema)  # as docs/protocol.md declares it
    won = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                            "seed": WON_AT_ONCE})
    h = await ws.request({"type": "hint", "session": won["session"]})
    assert h["source"] == "solver" and "lost" not in h, h
    jsonschema.validate(h, schema)
    rest = Rest(steady_node, token)
    status, r = await rest.call("POST", f"/sessions/{s['session']}/hint")
    assert status == 200 and r["lost"] is True and r["source"] == "heuristic", r
    await rest.aclose()
    await ws.close()


async def test_hints_are_refused_in_races_ranked_daily_attempts_and_matches(
        nodes: list[Node]) -> None:
    a_id, a_token = await player(nodes[0], "Racer", "human")
    _, b_token = await player(nodes[1], "Rival", "human")
    a = await Ws.open(nodes[0], a_token)
    b = await Ws.open(nodes[1], b_token)
    race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                            "seats": 2, "countdown": 0})
    await b.request({"type": "race.join", "race": race["race"]})
    started = await a.expect("race.started")
    sid = started["sessions"][a_id]
    refused = await a.request({"type": "hint", "session": sid})
    assert refused["type"] == "error" and refused["code"] == "hint.not_allowed", refused
    assert "race" in refused["message"]
    daily = await a.request({"type": "daily.start", "game": "klondike", "variant": "easy"})
    assert daily["type"] == "session" and daily["mode"] == "daily", daily
    refused = await a.request({"type": "hint", "session": daily["session"]})
    assert refused["code"] == "hint.not_allowed" and "daily" in refused["message"]
    match = await a.request({"type": "match.create", "game": "bowling", "variant": "easy",
                             "seats": 2})
    assert match["type"] == "match", match
    refused = await a.request({"type": "hint", "session": match["match"]})
    assert refused["code"] == "hint.not_allowed" and "match" in refused["message"]
    rest = Rest(nodes[1], a_token)
    status, body = await rest.call("POST", f"/sessions/{sid}/hint")
    assert status == 403 and body["code"] == "hint.not_allowed"
    # Someone else's practice game, and one that does not exist.
    solo = await b.request({"type": "solo.start", "game": "klondike", "variant": "easy"})
    refused = await a.request({"type": "hint", "session": solo["session"]})
    assert refused["code"] == "session.not_yours"
    refused = await a.request({"type": "hint", "session": "snothere"})
    assert refused["code"] == "session.unknown"
    # Nothing moved in the refused sessions.
    again = await a.request({"type": "session.get", "session": daily["session"]})
    assert again["rev"] == 0
    await rest.aclose()
    for ws in (a, b):
        await ws.close()


async def test_a_game_over_gets_game_over(nodes: list[Node]) -> None:
    _, token = await player(nodes[1], "Quitter", "human")
    ws = await Ws.open(nodes[1], token)
    s = await ws.request({"type": "solo.start", "game": "golf", "variant": "easy"})
    await ws.request({"type": "resign", "session": s["session"]})
    refused = await ws.request({"type": "hint", "session": s["session"]})
    assert refused["type"] == "error" and refused["code"] == "game.over", refused
    rest = Rest(nodes[0], token)
    status, body = await rest.call("POST", f"/sessions/{s['session']}/hint")
    assert status == 422 and body["code"] == "game.over"
    await rest.aclose()
    await ws.close()


async def timed_ping(ws: Ws) -> float:
    t0 = time.monotonic()
    pong = await ws.request({"type": "ping"})
    assert pong["type"] == "pong"
    return time.monotonic() - t0


async def test_the_node_answers_others_while_a_hint_is_searched(hint_node: Node) -> None:
    """The search (2 s here) runs in the hint pool: another socket's pings on the same node
    are answered at once meanwhile. Then the player's hint limit (three at once)."""
    _, token = await player(hint_node, "Patient", "human")
    _, other_token = await player(hint_node, "Other", "human")
    ws = await Ws.open(hint_node, token)
    other = await Ws.open(hint_node, other_token)
    await timed_ping(other)
    s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                          "seed": UNDECIDED})
    t0 = time.monotonic()
    asking = asyncio.create_task(ws.request({"type": "hint", "session": s["session"]}))
    await asyncio.sleep(0.3)  # the search is under way
    pings = [await timed_ping(other) for _ in range(5)]
    h = await asking
    took = time.monotonic() - t0
    assert h["type"] == "suggestion" and h["source"] == "heuristic" and h["move"] in s["legal"], h
    assert "line_left" not in h
    assert took >= 1.5, took  # it did search for its whole budget
    assert max(pings) < 0.5, pings  # while the node kept answering
    # The limit: three at once, the first spent above; the fourth is refused with the wait.
    solo = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                             "seed": WON_AT_ONCE})
    for _ in range(2):
        assert (await ws.request({"type": "hint", "session": solo["session"]}))[
            "type"] == "suggestion"
    refused = await ws.request({"type": "hint", "session": solo["session"]})
    assert refused["type"] == "error" and refused["code"] == "rate.limited", refused
    assert 0 < refused["retry_after"] <= 10
    rest = Rest(hint_node, token)
    status, body = await rest.call("POST", f"/sessions/{solo['session']}/hint")
    assert status == 429 and body["code"] == "rate.limited"
    await rest.aclose()
    for sock in (ws, other):
        await sock.close()


async def test_a_player_following_hints_is_never_limited(hint_node: Node) -> None:
    """The limit (three at once, one more every ten seconds here) counts the hints a player
    asks for without playing the one before: taking a hint, playing it, taking the next, 30
    moves long and as fast as a socket goes, is never refused, in card words all along. Asking
    again without playing spends the bucket as before."""
    _, token = await player(hint_node, "Follower", "human")
    ws = await Ws.open(hint_node, token)
    s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                          "seed": WON_AT_ONCE})
    sid = s["session"]
    st = KLONDIKE.deal(bytes.fromhex(WON_AT_ONCE))
    for i in range(30):
        h = await ws.request({"type": "hint", "session": sid})
        assert h["type"] == "suggestion" and h["rev"] == i and h["hints"] == i + 1, h
        m = engine.parse_move(KLONDIKE, h["move"])
        assert h["words"] == move_words(st, m)
        st.play(m)
        ack = await ws.request({"type": "move", "session": sid, "move": h["move"], "rev": i})
        assert ack["type"] == "ack" and ack["rev"] == i + 1, ack
    # Asked again and again in the same place, the bucket (three at most) runs dry.
    asked = [await ws.request({"type": "hint", "session": sid}) for _ in range(4)]
    assert asked[0]["type"] == "suggestion" and asked[0]["rev"] == 30, asked[0]
    assert asked[-1]["type"] == "error" and asked[-1]["code"] == "rate.limited", asked
    await ws.close()


async def test_hints_are_counted_in_the_metrics(nodes: list[Node]) -> None:
    _, token = await player(nodes[0], "Counted", "human")
    ws = await Ws.open(nodes[0], token)
    rest = Rest(nodes[0])

    async def solver_hints() -> float:
        r = await rest.http.get("/metrics")
        lines = [line for line in r.text.splitlines()
                 if line.startswith('samedeal_hints_total{') and 'source="solver"' in line]
        return sum(float(line.rsplit(" ", 1)[1]) for line in lines)

    before = await solver_hints()
    s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                          "seed": WON_AT_ONCE})
    h: dict[str, Any] = await ws.request({"type": "hint", "session": s["session"]})
    assert h["source"] == "solver"
    assert await solver_hints() == before + 1
    await rest.aclose()
    await ws.close()


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    out = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(d.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
async def test_the_hint_pool_ends_with_its_node(redis_url: str, tmp_path: Path,
                                                how: signal.Signals) -> None:
    """Stopped (SIGTERM: the lifespan stops the pool) or killed (SIGKILL: each pool process
    dies with its parent), a node leaves no hint process behind."""
    node, proc = start_node(redis_url, tmp_path / "node.log", **SUITE_ACCOUNTS)
    try:
        _, token = await player(node, "Last", "human")
        ws = await Ws.open(node, token)
        s = await ws.request({"type": "solo.start", "game": "klondike", "variant": "easy",
                              "seed": WON_AT_ONCE})
        assert (await ws.request({"type": "hint", "session": s["session"]}))["source"] == "solver"
        await ws.close()
        pool = {p for c in children(proc.pid) for p in {c, *children(c)}}
        assert pool  # the pool's processes (and multiprocessing's tracker)
    finally:
        proc.send_signal(how)
        proc.wait(10)
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pool) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not [p for p in pool if alive(p)]
