"""``samedeal analyse URL`` on a real server's transcript of a race entry: refused while the
race runs (its seed is secret), then, once the race is over, the server's own analysis on this
machine (the same budget gives the same JSON), with its progress bar on a terminal and none
on a pipe."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from clients.sdk import Client
from tests.conftest import FAST
from tests.server.client import Node

ROOT = Path(__file__).resolve().parents[2]
#: The test nodes' analysis budget (tests/conftest.py FAST): the command given the same one.
BUDGET = ["--positions", FAST["SAMEDEAL_ANALYSIS_POSITIONS"],
          "--total", FAST["SAMEDEAL_ANALYSIS_TOTAL"]]
#: How long a test waits for the server's analysis at most: a cap against hanging.
PATIENCE = 180


async def samedeal(*args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "engine.cli", *args, cwd=ROOT, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), PATIENCE)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def on_a_terminal(*args: str) -> tuple[int, str, str]:
    """The command with its standard error on a pseudo-terminal, as a person runs it: its
    exit code, standard output and what the terminal showed."""
    main, other = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", *args], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=other)
    os.close(other)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError as e:  # the command closed the terminal: it has ended
            assert e.errno == errno.EIO, e
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    proc.stdout.close()
    return proc.wait(PATIENCE), out, shown.decode()


async def served(url: str) -> dict[str, Any]:
    """The server's analysis, asked for until it is ready, as its ``retry_ms`` says."""
    end = time.monotonic() + PATIENCE
    async with httpx.AsyncClient() as http:
        while True:
            body = (await http.get(url)).json()
            if body["state"] == "ready":
                return body["analysis"]  # type: ignore[no-any-return]
            assert time.monotonic() < end, "no analysis"
            await asyncio.sleep(body["retry_ms"] / 1000)


async def test_analyse_a_race_entry_by_its_url(nodes: list[Node]) -> None:
    _, token = await Client.register(nodes[0].url, "Url Analyst", "human")
    _, rival = await Client.register(nodes[1].url, "Url Rival", "human")
    async with Client(nodes[0].url, token) as c, Client(nodes[1].url, rival) as r:
        race = await c.create_race("klondike", "easy", 2, countdown=0)
        await r.join_race(race.id)
        mine = await c.wait_race_session(race.id, timeout=10)
        theirs = await r.wait_race_session(race.id, timeout=10)
        assert mine is not None and theirs is not None
        s = mine
        for _ in range(6):
            s = await c.move(s.id, s.legal[0], rev=s.rev)
        await c.resign(s.id, rev=s.rev)
        url = f"{nodes[1].url}/api/v1/sessions/{mine.id}/moves"
        # The race runs on: its player's own transcript has no seed, so no analysis yet.
        code, out, err = await samedeal("analyse", url, "--token", token)
        assert code == 1 and out == "" and "not revealed yet" in err, err
        await r.resign(theirs.id)
        await c.wait_race_end(race.id, timeout=30)
    # Over: the public transcript, no token, judged here as the server judged it.
    analysis = await served(f"{nodes[0].url}/api/v1/sessions/{mine.id}/analysis")
    assert len(analysis["moves"]) == 6 and analysis["resigned"]
    code, out, err = await samedeal("analyse", url, "--json", *BUDGET)
    assert code == 0, err
    assert json.loads(out) == analysis
    assert "positions" not in err  # no bar on a pipe
    code, out, shown = await asyncio.to_thread(on_a_terminal, "analyse", url, *BUDGET)
    assert code == 0, shown
    lines = out.splitlines()
    assert lines[0] == "Klondike (easy), 6 moves, lost (resigned)"
    assert lines[3] == analysis["summary"]
    n = len(analysis["positions"])
    assert "analysing [" in shown and f"] {n}/{n} positions" in shown, shown
