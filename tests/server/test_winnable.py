"""Winnable daily deals (docs/fairness.md, "Winnable daily deals") on two real server processes
over the real redis-server: the job decides each (day, rule set) once between the two nodes,
takes over a claim whose node died (its lease lapsed) from the verdicts it recorded, deals the
k-th candidate, publishes nothing of the choice before the reveal, and after it the choice that
``samedeal verify-day`` checks (and fails when tampered with), and par on the day's board.

A database of the test's own holds a chain that started five days ago, so yesterday is a
revealed chain day; the rule applies from three days ago, to a few rule sets that decide fast,
with a small budget and a short lease."""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import jsonschema
import pytest
from redis.asyncio import Redis

import engine
from clients import verify_day
from clients.sdk.messages import Board, BoardUpdate
from engine import winnable
from engine.solver import VERSION as SOLVER_VERSION
from server.boards import Boards
from server.daily.chain import Chains
from server.daily.winnable import keys
from server.transport.replies import EVENTS, REPLIES
from tests.conftest import FAST, ROOT, clear_of_midnight, start_node, stop_node

from .client import Node, Rest, Ws, player

DB = 14
POSITIONS, CAP = 2000, 6
#: Fast to decide with a small budget: a game nearly always proved lost at once (so every
#: candidate is skipped), and games often won within it, often not.
ONLY = ["nestor/difficult", "klondike/easy", "isabel/standard"]
#: The pair whose claim a dead node left behind, with candidate 0 judged.
PLANTED = ("klondike", "easy")
ENV = {**FAST, "SAMEDEAL_DAILY_WINNABLE": "1",
       "SAMEDEAL_WINNABLE_POSITIONS": str(POSITIONS), "SAMEDEAL_WINNABLE_CAP": str(CAP),
       "SAMEDEAL_WINNABLE_LEASE": "3", "SAMEDEAL_WINNABLE_INTERVAL": "0.3",
       "SAMEDEAL_WINNABLE_ONLY": ",".join(ONLY), "SAMEDEAL_DAILY_GRACE": "0",
       "SAMEDEAL_DAILY_LIVE_RULES": "klondike/easy"}


def samedeal(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


async def secret_of(r: Redis, day: date) -> bytes:
    chains = Chains(r)
    record = Chains.for_day(await chains.history(), day)
    assert record is not None
    return await chains.secret(record, day)


class Served(NamedTuple):
    nodes: list[Node]
    url: str
    planted: dict[str, Any]  # the dead node's verdict
    today: date

    @property
    def yesterday(self) -> date:
        return self.today - timedelta(1)


async def prepare(url: str, today: date) -> dict[str, Any]:
    """A chain from five days ago, and tomorrow's PLANTED pair claimed by a node that died
    after judging candidate 0 (its verdict recorded, its lease running out)."""
    r = Redis.from_url(url)
    await r.flushdb()
    start = today - timedelta(5)
    await Chains(r).add(start, start, "made five days ago", first=True)
    tomorrow = today + timedelta(1)
    secret = await secret_of(r, tomorrow)
    rules = engine.get(*PLANTED)
    seed = winnable.candidate_seed(secret, tomorrow, rules.id, rules.variant, None, 0)
    # What the dead node recorded for candidate 0. Not the solver's own count of positions,
    # so the choice shows whether the node that took over used it or judged it again.
    verdict = dict(winnable.judge(rules.id, rules.variant, seed, POSITIONS).json())
    verdict["positions"] += 1
    _, claim, verdicts = keys(tomorrow, rules, secret, None)
    await r.hset(verdicts, "0", json.dumps(verdict))
    await r.set(claim, "a node that died", px=3000)
    await r.aclose()
    return verdict


async def day_secret(url: str, day: date) -> bytes:
    r = Redis.from_url(url)
    secret = await secret_of(r, day)
    await r.aclose()
    return secret


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    url = redis_url.rsplit("/", 1)[0] + f"/{DB}"
    today = clear_of_midnight()
    planted = asyncio.run(prepare(url, today))
    logs = tmp_path_factory.mktemp("winnable")
    started = [start_node(url, logs / f"node{i}.log", **ENV,
                          SAMEDEAL_DAILY_WINNABLE_FROM=str(today - timedelta(3)))
               for i in range(2)]
    yield Served([n for n, _ in started], url, planted, today)
    for _, proc in started:
        stop_node(proc)


async def choices(url: str, day: date) -> dict[str, dict[str, Any]]:
    """The stored choices of ``day``, by ``game/variant``."""
    r = Redis.from_url(url)
    out = {}
    for key in ONLY:
        rules = engine.get(*key.split("/"))
        raw = await r.get(keys(day, rules, await secret_of(r, day), None)[0])
        if raw is not None:
            out[key] = json.loads(raw)
    await r.aclose()
    return out


def metric(node: Node, name: str) -> float:
    text = httpx.get(f"{node.url}/metrics").text
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith(name + " "))


#: Each pair once, by one of the two nodes, and each day's live Klondike (its own label,
#: decided after the day's deals): the decisions the job makes for today and tomorrow.
EVERY_PAIR = 2 * (len(ONLY) + 1)


class Decided(NamedTuple):
    choices: list[dict[str, dict[str, Any]]]  # today's and tomorrow's, by ``game/variant``
    count: float  # the nodes' ``samedeal_winnable_decided_total``, summed


@pytest.fixture(scope="module")
def decided(served: Served) -> Decided:
    """Once the job has decided every pair of today and tomorrow (within 120 s)."""
    nodes, url, _, today = served
    deadline = time.monotonic() + 120
    days = (today, today + timedelta(1))
    while time.monotonic() < deadline:
        got = [asyncio.run(choices(url, d)) for d in days]
        count = sum(metric(n, "samedeal_winnable_decided_total") for n in nodes)
        if all(len(c) == len(ONLY) for c in got) and count >= EVERY_PAIR:
            return Decided(got, count)
        time.sleep(0.5)
    raise AssertionError(f"the job left pairs undecided: {got}, {count} decided")


def test_the_job_decides_each_pair_once_and_takes_over_a_dead_nodes_claim(
        served: Served, decided: Decided) -> None:
    planted = served.planted
    got = decided.choices
    assert decided.count == EVERY_PAIR
    every = [c for day in got for c in day.values()]
    # The dead node's candidate 0 was taken over as it recorded it, not judged again.
    took_over = got[1]["/".join(PLANTED)]["candidates"][0]
    assert took_over == {"k": 0, "verdict": planted["verdict"],
                         "positions": planted["positions"]}
    for c in every:
        assert [x["k"] for x in c["candidates"]] == list(range(len(c["candidates"])))
        assert all(x["verdict"] != "won" for x in c["candidates"][:-1])
        assert c["found"] == (c["candidates"][-1]["verdict"] == "won")
        assert c["k"] == (len(c["candidates"]) - 1 if c["found"] else 0)
        assert c["budget"] == {"positions": POSITIONS, "solver": SOLVER_VERSION}
        assert c["cap"] == CAP


def test_the_day_deals_the_chosen_candidate_and_says_nothing_of_it_before_the_reveal(
        served: Served, decided: Decided) -> None:
    nodes, url, _, day = served
    today = decided.choices[0]
    reply = httpx.get(f"{nodes[1].url}/api/v1/daily/{day}")
    page = reply.json()
    assert page["state"] == "open"
    # The live edition is a deal of its own, shown whole once it ends (19:10 UTC by default).
    live = page.pop("live")
    for edition in live["editions"]:
        if edition["state"] != "ended":
            assert "winnable" not in edition and "seed" not in edition, edition
    text = json.dumps(page)
    secret = asyncio.run(day_secret(url, day))
    deals = {f"{d['game']}/{d['variant']}": d for d in page["deals"]}
    for key, choice in today.items():
        game, variant = key.split("/")
        deal = deals[key]
        seed = winnable.candidate_seed(secret, day, game, variant, None, choice["k"])
        assert deal["commitment"] == hashlib.sha256(seed).hexdigest()
        assert deal["winnable_rule"] is True
        assert "winnable" not in deal and "seed" not in deal
        if choice["line"]:
            assert choice["line"] not in text
    assert "candidates" not in text and "par" not in text
    others = [d for d in page["deals"] if f"{d['game']}/{d['variant']}" not in ONLY]
    assert others and all("winnable_rule" not in d for d in others)

    async def ranked() -> None:
        _, token = await player(nodes[0], "Winner", "human")
        rest = Rest(nodes[0], token)
        key = next(k for k, c in today.items() if c["k"] > 0 or not c["found"])
        game, variant = key.split("/")
        status, session = await rest.call("POST", "/daily", {"game": game, "variant": variant})
        assert status == 201, session
        await rest.aclose()
        seed = winnable.candidate_seed(secret, day, game, variant, None, today[key]["k"])
        assert session["commitment"] == hashlib.sha256(seed).hexdigest()
        assert "winnable" not in json.dumps(session) and "seed" not in session

    asyncio.run(ranked())
    for n in nodes:
        log = Path(n.log).read_text()
        assert all(c["line"] is None or c["line"] not in log for c in today.values())


def test_verify_day_checks_the_choice_and_fails_a_tampered_one(
        served: Served) -> None:
    nodes, yesterday = served.nodes, served.yesterday
    # Nobody asked for yesterday's deals: its page decides them now, in the worker.
    page = httpx.get(f"{nodes[0].url}/api/v1/daily/{yesterday}", timeout=120).json()
    assert page["state"] == "revealed"
    jsonschema.validate(page, REPLIES["daily"][1])  # the schema holds the new fields
    deals = {f"{d['game']}/{d['variant']}": d for d in page["deals"]}
    chosen = [deals[k]["winnable"] for k in ONLY]
    assert any(w["k"] > 0 or not w["found"] for w in chosen), "no candidate was skipped"
    assert any(w["found"] for w in chosen)
    done = samedeal("verify-day", str(yesterday), "--server", nodes[0].url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sum("the first won one chosen" in line for line in done.stdout.splitlines()) == 3
    skipped = sum(w["k"] if w["found"] else w["cap"] for w in chosen)
    assert done.stdout.count("as published") == skipped

    history = httpx.get(f"{nodes[0].url}/api/v1/daily/chain").json()["history"]
    key = next(k for k in ONLY if deals[k]["winnable"]["found"])
    w = deals[key]["winnable"]

    def tampered(**change: Any) -> list[str]:
        deal = dict(deals[key], winnable=dict(w, **change))
        page2 = dict(page, deals=[deal if d is deals[key] else d for d in page["deals"]])
        return [line for ok, line in verify_day.checks(page2, history) if not ok]

    assert tampered(k=w["k"] + 1)  # another candidate: its seed and its shape fail
    short = " ".join(w["line"].split()[:-1])
    assert any("not won" in line for line in tampered(line=short, par=w["par"] - 1))
    # Verdicts made by another version of the search are not re-checked as if they were ours.
    assert any("solver version 1" in line for line in tampered(
        budget=dict(w["budget"], solver=1)))
    if w["k"] > 0:  # claims a skipped candidate was the first won one
        assert any("first won one" in line for line in tampered(
            k=w["k"] - 1, candidates=w["candidates"][:-1]))

    game, variant = key.split("/")
    seed = deals[key]["seed"]
    ok = samedeal("replay", game, variant, "--seed", seed, "--line", w["line"])
    assert ok.returncode == 0 and "win" in ok.stdout, ok.stdout + ok.stderr
    bad = samedeal("replay", game, variant, "--seed", seed, "--line", short)
    assert bad.returncode == 1 and "not won" in bad.stdout


def test_par_on_a_revealed_days_board_and_each_entry_against_it(
        served: Served) -> None:
    nodes, url, yesterday = served.nodes, served.url, served.yesterday
    page = httpx.get(f"{nodes[0].url}/api/v1/daily/{yesterday}").json()
    found = [d for d in page["deals"] if (d.get("winnable") or {}).get("found")]
    deal = found[0]
    par = deal["winnable"]["par"]
    board = f"daily/{yesterday}/{deal['game']}/{deal['variant']}"

    async def check() -> None:
        who, token = await player(nodes[1], "Par", "human")
        r = Redis.from_url(url)
        await Boards(r).put(f"daily:{yesterday}:{deal['game']}:{deal['variant']}:human", who,
                            1, 1, {"name": "Par", "kind": "human", "status": "won",
                                   "moves": par + 7, "score": 0})
        await r.aclose()
        rest = Rest(nodes[1], token)
        _, got = await rest.call("GET", f"/boards/{board}")
        assert got["par"] == par and got["entries"][0]["vs_par"] == 7
        jsonschema.validate(got, REPLIES["board"][1])
        assert Board.from_raw(got).par == par  # the SDK reads it
        _, today = await rest.call("GET", f"/boards/daily/today/{deal['game']}/"
                                          f"{deal['variant']}")
        assert "par" not in today  # not revealed: no par
        await rest.aclose()
        ws = await Ws.open(nodes[0], token)
        await ws.request({"type": "board.subscribe", "board": board})
        update = await ws.expect("board.update")
        assert update["par"] == par and update["entries"][0]["vs_par"] == 7
        jsonschema.validate(update, EVENTS["board.update"][1])
        assert BoardUpdate.from_raw(update).par == par
        bad = dict(update, par="seven")
        assert not jsonschema.Draft202012Validator(EVENTS["board.update"][1]).is_valid(bad)
        await ws.close()

    asyncio.run(check())
