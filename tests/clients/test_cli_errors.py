"""The samedeal command's failures that involve a server, on real processes against a real
server: ``play --server`` and ``bot`` end with the same code for the same failure, nothing is
registered before the command line is checked, a bot on a human account is warned, and
``replay`` says what the server said."""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from pathlib import Path

import pytest

from clients.sdk import Client
from tests.server.client import Node

ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing listens there


async def samedeal(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "engine.cli", *args, cwd=ROOT, env=os.environ | (env or {}),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 180)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def name() -> str:
    return f"c{uuid.uuid4().hex[:10]}"


@pytest.mark.parametrize("server, token, said", [
    ("node", "bad", "auth.invalid"),
    (NOWHERE, "bad", "127.0.0.1:9"),
])
async def test_play_and_bot_end_with_the_same_code_for_the_same_failure(
        node: Node, server: str, token: str, said: str) -> None:
    url = node.url if server == "node" else server
    play = await samedeal("play", "golf", "easy", "--server", url, "--token", token)
    bot = await samedeal("bot", "clients.bots.random:RandomBot", "--server", url,
                         "--token", token, "--solo", "golf", "easy")
    for code, _, err in (play, bot):
        assert code == 1, err
        assert said in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


async def test_a_bad_argument_is_told_before_the_account_is_registered(node: Node) -> None:
    code, out, err = await samedeal("bot", "clients.bots.random:RandomBot", "--server",
                                    node.url, "--register", name(), "--solo", "golf", "easy",
                                    "--seed", "zz")
    assert code == 2 and "a seed is an even number of hex digits" in err
    assert out == "" and "registered" not in err  # the runner prints every account it makes


async def test_a_bot_on_a_human_account_is_warned(node: Node) -> None:
    _, token = await Client.register(node.url, name(), "human")
    code, _, err = await samedeal("bot", "clients.bots.random:RandomBot", "--server", node.url,
                                  "--token", token, "--solo", "golf", "easy", "--quiet")
    assert code == 0, err
    assert "is a human account" in err and "--register NAME" in err
    _, bot_token = await Client.register(node.url, name(), "bot")
    code, _, err = await samedeal("bot", "clients.bots.random:RandomBot", "--server", node.url,
                                  "--token", bot_token, "--solo", "golf", "easy", "--quiet")
    assert code == 0 and "human account" not in err


async def test_replay_says_what_the_server_said_and_waits_for_the_reveal(node: Node) -> None:
    _, token = await Client.register(node.url, name(), "human")
    async with Client(node.url, token) as c:
        s = await c.start_daily("golf", "easy")
        s = await c.move(s.id, s.legal[0], rev=s.rev)
    url = f"{node.url}/api/v1/sessions/{s.id}/moves"
    code, out, err = await samedeal("replay", url)  # a ranked attempt of a day not over
    assert code == 1
    assert err.strip() == ("samedeal replay: the server refused: auth.required: a ranked "
                           "game's moves are public after the race or the day")
    code, out, err = await samedeal("replay", url, "--token", token)  # its player may read it
    assert code == 1 and "MISMATCH" not in out + err
    assert f"golf/easy: not revealed yet: the seed of the daily challenge of {s.daily}" in err
