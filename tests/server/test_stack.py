"""The server on each of its event loops (the ``uvloop`` setting, docs/operations.md): uvloop,
and asyncio's own. Each node is a real ``samedeal serve`` process on the suite's redis-server,
played over real sockets: REST, a race over WebSockets in both encodings, a request the HTTP
parser must refuse and a hostile header the server must answer with its own JSON error."""

from __future__ import annotations

import asyncio
import random
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import FAST, start_node, stop_node

from .client import JSON, MSGPACK, Node, Ws, player

#: the uvloop setting -> the event loop the node must run on.
LOOPS = {"1": "uvloop", "0": "asyncio"}


@pytest.fixture(scope="module", params=sorted(LOOPS))
def stack_node(request: pytest.FixtureRequest, redis_url: str,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Node, str]]:
    log = tmp_path_factory.mktemp("stack") / "node.log"
    node, proc = start_node(redis_url, log, SAMEDEAL_UVLOOP=request.param, **FAST)
    yield node, request.param
    stop_node(proc)


def test_the_node_runs_on_the_loop_the_setting_chose(stack_node: tuple[Node, str]) -> None:
    node, setting = stack_node
    loop = LOOPS[setting]
    started = Path(node.log).read_text()
    assert f"({loop} event loop)" in started, started
    metrics = httpx.get(f"{node.url}/metrics", timeout=5).text
    assert re.search(rf'^samedeal_event_loop{{loop="{loop}"}} 1\.0$', metrics, re.M), (
        [line for line in metrics.splitlines() if "event_loop" in line])


def test_a_broken_request_line_is_refused_by_either_parser(
        stack_node: tuple[Node, str]) -> None:
    node, _ = stack_node
    port = int(node.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), 5) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n")
        answer = s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:80]


def test_a_control_character_in_a_header_gets_the_servers_own_error(
        stack_node: tuple[Node, str]) -> None:
    """The HTTP parser lets the request through to the server, which answers in its words."""
    node, _ = stack_node
    answer = httpx.get(f"{node.url}/api/v1/players/me", timeout=5,
                       headers={"authorization": "Bearer abc\x01def"})
    assert answer.status_code == 400 and answer.json()["code"] == "bad.text", answer.text


@pytest.mark.parametrize("protocol", [JSON, MSGPACK])
async def test_a_race_is_played_on_either_stack(stack_node: tuple[Node, str],
                                                protocol: str) -> None:
    node, _ = stack_node
    a_id, a_token = await player(node, "Ann", "human")
    _, b_token = await player(node, "Bob", "bot")
    a = await Ws.open(node, a_token, protocol)
    b = await Ws.open(node, b_token, protocol)
    race = await a.request({"type": "race.create", "game": "klondike", "variant": "easy",
                            "seats": 2, "countdown": 0})
    await b.request({"type": "race.join", "race": race["race"]})
    session = await a.expect("session")
    await b.expect("session")
    rng = random.Random(25)
    for moves in range(1, 9):
        if not session["legal"]:  # a deal lost early (only the stock moved for a pass)
            break
        move = rng.choice(session["legal"])
        reply = await a.request({"type": "move", "session": session["session"], "move": move,
                                 "rev": session["rev"]})
        assert reply["type"] == "ack" and reply["rev"] == moves, reply
        session = reply
        seen = await b.expect("race.progress", player=a_id)
        assert seen["moves"] == moves and seen["score"] == session["view"]["score"]
    refused = await a.request({"type": "move", "session": session["session"], "move": "t1-t1",
                               "rev": session["rev"]})
    over = session["view"]["status"] != "playing"
    assert refused["type"] == "error" and (
        refused["code"] == "game.over" if over else refused["code"].startswith("move.")), refused
    await asyncio.gather(a.close(), b.close())
