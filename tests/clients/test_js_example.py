"""The JavaScript example (clients/examples/random-bot.mjs) run by a real Node against a real
server: it speaks protocol v2, and the game it rebuilt from the acks' changes ends as the
server's move list says, in practice and in a race."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from clients.bots.random import RandomBot
from clients.sdk import Client
from clients.sdk.play import play_session
from tests.server.client import Node

BOT = Path(__file__).parents[2] / "clients" / "examples" / "random-bot.mjs"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node (20+)")
ENDED = re.compile(r"session (\S+): (\w+), score (-?\d+), (\d+) moves")


async def run_bot(*args: str) -> str:
    assert NODE is not None
    proc = await asyncio.create_subprocess_exec(
        NODE, "--experimental-websocket", "--no-warnings", str(BOT), *args,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    return out.decode()


async def check_against_transcript(node: Node, token: str, said: str) -> None:
    """The bot's last word on its game is the server's: status, score and moves."""
    found = ENDED.search(said)
    assert found, said
    sid, status, score, moves = found.groups()
    async with Client(node.url, token) as c:
        transcript = await c.transcript(sid)
    assert (transcript["status"], transcript["score"], len(transcript["moves"])) == (
        status, int(score), int(moves)), said


async def test_the_js_bot_plays_practice_on_v2(node: Node) -> None:
    said = await run_bot(node.url)
    assert "(samedeal.v2.json)" in said, said
    token = re.search(r"token \(shown once\): (\S+)", said)
    assert token, said
    await check_against_transcript(node, token.group(1), said)


async def test_the_js_bot_plays_a_race_on_v2(nodes: list[Node]) -> None:
    _, bot_token = await Client.register(nodes[1].url, "js-racer", "bot")
    _, token = await Client.register(nodes[0].url, "Ann", "bot")
    async with Client(nodes[0].url, token) as ann:
        race = await ann.create_race("golf", "easy", 2, countdown=1)
        bot = asyncio.create_task(run_bot(nodes[1].url, bot_token, race.id))
        mine = await ann.wait_race_session(race.id, timeout=30)
        assert mine is not None
        await play_session(ann, RandomBot(3), mine)
        said = await bot
    assert "(samedeal.v2.json)" in said and "seed " in said, said
    await check_against_transcript(nodes[1], bot_token, said)


def test_without_websocket_the_js_bot_says_what_to_do_before_registering(node: Node) -> None:
    assert NODE is not None
    out = subprocess.run([NODE, "--no-experimental-websocket", str(BOT), node.url],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""  # nothing registered: no token printed
    assert "This Node has no WebSocket: use Node 22 or later" in out.stderr
