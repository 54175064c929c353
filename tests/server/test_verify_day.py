"""``samedeal chain`` and ``samedeal verify-day`` against a real server process and the real
redis-server: a database of the test's own holds a chain that started five days ago (as one
made by an operator then would), so yesterday is a revealed day of the chain."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis

from clients.verify_day import checks
from server.daily.chain import Chains
from tests.conftest import FAST, ROOT, clear_of_midnight, start_node, stop_node, wait_for

from .client import Node

DB = 12


def samedeal(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


async def old_chain(url: str, today: date) -> str:
    r = Redis.from_url(url)
    await r.flushdb()
    start = today - timedelta(5)
    record = await Chains(r).add(start, start, "made five days ago", first=True)
    await r.aclose()
    assert record is not None
    return record.anchor


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[Node, str, str, date]]:
    """A node on a chain made five days ago: its anchor, and the day the tests run on."""
    url = redis_url.rsplit("/", 1)[0] + f"/{DB}"
    today = clear_of_midnight()
    anchor = asyncio.run(old_chain(url, today))
    node, proc = start_node(url, tmp_path_factory.mktemp("verify") / "node.log", **FAST,
                            SAMEDEAL_DAILY_GRACE="0")  # yesterday revealed from midnight on
    yield node, url, anchor, today
    stop_node(proc)


def test_the_chain_is_public_at_a_stable_url_and_printed_for_operators(
        served: tuple[Node, str, str, date]) -> None:
    node, url, anchor, today = served
    reply = httpx.get(f"{node.url}/api/v1/daily/chain")  # no token needed
    assert reply.status_code == 200
    body = reply.json()
    assert body["current"]["anchor"] == anchor and body["history"] == [body["current"]]
    assert body["current"]["start"] == str(today - timedelta(5))
    assert "root" not in reply.text
    shown = samedeal("chain", "show", "--redis-url", url)
    assert shown.returncode == 0 and anchor in shown.stdout
    assert str(today - timedelta(5)) in shown.stdout


def test_verify_day_checks_a_revealed_day_end_to_end(served: tuple[Node, str, str, date]) -> None:
    """With no account: a day's page is public, so anyone can check a reveal."""
    node, _, anchor, day = served
    yesterday = str(day - timedelta(1))
    done = samedeal("verify-day", yesterday, "--server", node.url, "--anchor", anchor)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ok    day secret: link^5 of it is the anchor")
    assert all(line.startswith("ok    ") for line in lines)
    assert sum(line.endswith(": commitment") for line in lines) >= 40  # every rule set
    wrong = samedeal("verify-day", yesterday, "--server", node.url, "--anchor", "00" * 32)
    assert wrong.returncode == 1 and "FAIL  chain: the anchor is not the one you gave" in \
        wrong.stdout
    today = samedeal("verify-day", str(day), "--server", node.url)
    assert today.returncode == 1
    assert f"{day}: not revealed yet (reveal due at {day + timedelta(1)} 00:00 UTC" in today.stdout
    usage = samedeal("verify-day", "yesterday", "--server", node.url)
    assert usage.returncode == 2 and usage.stderr.count("\n") == 1 and not usage.stdout
    gone = samedeal("verify-day", yesterday, "--server", "http://127.0.0.1:9")
    assert gone.returncode == 1 and "cannot reach" in gone.stderr and not gone.stdout


def test_a_tampered_page_fails_its_checks(served: tuple[Node, str, str, date]) -> None:
    node, _, _, today = served
    page = httpx.get(f"{node.url}/api/v1/daily/{today - timedelta(1)}").json()
    history = httpx.get(f"{node.url}/api/v1/daily/chain").json()["history"]
    assert all(ok for ok, _ in checks(page, history))
    seed = dict(page, deals=[dict(page["deals"][0], seed="00" * 32), *page["deals"][1:]])
    assert next(line for ok, line in checks(seed, history) if not ok).endswith(
        "seed is not the one the day's secret gives")
    secret = dict(page, secret=page["deals"][0]["seed"])
    assert not checks(secret, history)[0][0]
    assert not all(ok for ok, _ in checks(page, []))  # a chain the history does not list


def test_a_rotation_is_refused_for_an_open_day_and_else_public_and_logged(
        served: tuple[Node, str, str, date]) -> None:
    node, url, anchor, today = served
    assert samedeal("chain", "rotate", "--redis-url", url, "--start",
                    str(today + timedelta(3))).returncode == 2  # no reason given
    refused = samedeal("chain", "rotate", "--redis-url", url, "--start", str(today),
                       "--reason", "too late")
    assert refused.returncode == 1 and "after today" in refused.stderr
    later = today + timedelta(3)
    done = samedeal("chain", "rotate", "--redis-url", url, "--start", str(later),
                    "--reason", "a scheduled rotation")
    assert done.returncode == 0, done.stderr
    history = httpx.get(f"{node.url}/api/v1/daily/chain").json()["history"]
    assert history[0]["anchor"] == anchor and len(history) == 2
    assert history[1]["start"] == str(later) and history[1]["reason"] == "a scheduled rotation"
    log = Path(node.log)
    wait_for(lambda: history[1]["anchor"] in log.read_text(), "the rotation in the server log")
    assert samedeal("chain", "init", "--redis-url", url).returncode == 0  # changes nothing
    assert len(httpx.get(f"{node.url}/api/v1/daily/chain").json()["history"]) == 2
