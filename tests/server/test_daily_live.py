"""The daily's live edition on two real nodes over one real redis-server, its instant set a few
seconds ahead on Redis's clock (the nodes' own): sign-ups on either node, everyone dealt at once
the same deal, a join after the deal refused, nothing of the deal shown before its end (no
analysis either), the board in the daily order, the seed revealed and checked, every game
analysed after; a node killed just before the instant
with every player still dealt by the other. In process, with the services' clock set by the
test: the refusals and the settings."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import random
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Generic, TypeVar

import jsonschema
import pytest
from redis.asyncio import Redis

import engine
from engine import fairness, winnable
from server import api
from server.accounts import Player
from server.app import build_services
from server.arenas import ARENA_ID
from server.config import Settings
from server.daily.live import edition_id, schedule, seconds_of_day
from server.errors import ApiError
from server.transport import replies
from tests.conftest import FAST, SUITE_NICE, clear_of_midnight

from .client import JSON, V2_MSGPACK, Node, Rest, Ws, player
from .forks import Forks
from .stated import unstated
from .test_arenas import play_out

#: A one-player rule set whose deals end with a score after about sixteen placements.
GAME, VARIANT = "cribbage-square", "difficult"
WINDOW = 5  # seconds: the race's time limit (no countdown here)
ENV = {**FAST, "SAMEDEAL_SWEEP_INTERVAL": "0.2", "SAMEDEAL_FOLLOWUP_GRACE": "0.5",
       "SAMEDEAL_ARENA_COUNTDOWN": "0", "SAMEDEAL_DAILY_LIVE_RULES": f"{GAME}/{VARIANT}",
       "SAMEDEAL_DAILY_LIVE_WINDOW": str(WINDOW)}
HOUR = 3_600_000


def database(redis_url: str, db: int) -> str:
    return redis_url.rsplit("/", 1)[0] + f"/{db}"


def instant(ahead: float) -> tuple[str, int]:
    """The live setting for ``ahead`` seconds from now (whole seconds, UTC) and its ms."""
    clear_of_midnight(ahead + WINDOW + 60)
    at = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=ahead + 1)
    return at.strftime("%H:%M:%S"), int(at.timestamp() * 1000)


def now_ms() -> int:
    return int(datetime.now(UTC).timestamp() * 1000)


@pytest.fixture(scope="module")
def forks(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forks]:
    """The nodes, forked from a process that imported the server (tests/server/forks.py): up
    in a fraction of a second, so their instant is set just ahead of them."""
    f = Forks(redis_url, tmp_path_factory.mktemp("live"), ENV)
    f.ready()
    yield f
    f.close()


#: Seconds from setting the instant to it: time for two forked nodes to start and the
#: players to sign up; a try not done by then (a busy machine) is made again, afresh, with
#: the next lead. Each lead is time the test waits, so they grow by steps: under the suite's
#: load a first try of 12 s failed and the next, of 60, cost the test a minute.
LEADS = (12, 24, 60, 180)
#: How long before the instant what comes before it must be done: the kill of a node "just
#: before the instant" comes this far ahead of it.
LATE_MS = 1000
T = TypeVar("T")


@dataclass
class Ahead(Generic[T]):
    """Two nodes whose instant is just ahead (its setting and ms), and what was done on them
    before it."""
    nodes: list[Node]
    at: str
    at_ms: int
    done: T


async def ahead_of_the_instant(
        forks: Forks, url: str, stack: contextlib.AsyncExitStack,
        before: Callable[[list[Node], str, int, contextlib.AsyncExitStack], Awaitable[T]],
) -> Ahead[T]:
    """Two nodes on ``url`` (emptied first), their instant a lead ahead, and ``before`` run on
    them (given the instant, and ``stack`` for what it opens), done ``LATE_MS`` ahead of the
    instant. A try that failed once that late, or ended after, is made again on fresh nodes
    with the next lead; one that failed earlier fails the test. The nodes stop with
    ``stack``."""
    for lead in LEADS:
        r = Redis.from_url(url)
        try:
            await r.flushdb()
        finally:
            await r.aclose()
        at, at_ms = instant(lead)
        attempt = contextlib.AsyncExitStack()
        nodes = []
        for _ in range(2):
            node, pid = await asyncio.to_thread(forks.start, {"SAMEDEAL_DAILY_LIVE_AT": at}, url)
            attempt.push_async_callback(stop, forks, pid)
            nodes.append(node)
        try:
            done = await before(nodes, at, at_ms, attempt)
        except Exception:
            await attempt.aclose()
            if now_ms() < at_ms - LATE_MS:
                raise
            print(f"\nthe instant {lead} s ahead came before the sign-ups failed: again")
            continue
        if now_ms() < at_ms - LATE_MS:
            stack.push_async_exit(attempt)
            return Ahead(nodes, at, at_ms, done)
        await attempt.aclose()
        print(f"\nthe instant {lead} s ahead came before the sign-ups were done: again")
    raise AssertionError(f"the sign-ups were never done ahead of the instant: {LEADS} s")


async def stop(forks: Forks, pid: int) -> None:
    """``pid`` stopped as an operator stops a node, unless the test killed it."""
    if pid in forks.pids:
        await asyncio.to_thread(forks.stop, pid)


def held(kind: str, message: dict[str, Any]) -> None:
    """A reply or event fits its declared schema (server/transport/replies.py)."""
    schema = {**replies.REPLIES, **replies.EVENTS}[kind][1]
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(message)]
    assert not errors, (message, errors)


async def live(rest: Rest) -> dict[str, Any]:
    status, out = await rest.call("GET", "/daily/live")
    assert status == 200, out
    held("daily_live", out)
    (edition,) = out["editions"]
    return edition  # type: ignore[no-any-return]


async def until(check: Any, what: str, seconds: float = 20) -> Any:
    for _ in range(int(seconds / 0.1)):
        got = await check()
        if got:
            return got
        await asyncio.sleep(0.1)
    raise AssertionError(f"{what}: not within {seconds} s")


@dataclass
class SignedUp:
    """Test one's players, signed up before the instant: their ids, their clients, and what
    they were shown."""
    a: str
    b: str
    c: str
    tl: str
    wa: Ws
    wb: Ws
    rc: Rest
    public: Rest
    commitment: str
    seen: list[tuple[str, dict[str, Any]]]


async def sign_up(nodes: list[Node], at: str, at_ms: int,
                  stack: contextlib.AsyncExitStack) -> SignedUp:
    """Before the instant: Ann (on the first node, JSON), Bob (the other node, v2 msgpack)
    and Cy (REST) sign up; Lat only registers. Each page shows the edition open, its
    commitment and no seed."""
    seen: list[tuple[str, dict[str, Any]]] = []  # every reply and page before the end
    (a, ta), (b, tb), (c, tc), (_, tl) = [
        await player(nodes[i % 2], n, "human") for i, n in enumerate(("Ann", "Bob", "Cy",
                                                                         "Lat"))]
    wa = await Ws.open(nodes[0], ta, JSON)
    stack.push_async_callback(wa.close)
    wb = await Ws.open(nodes[1], tb, V2_MSGPACK)  # the other node, the other encoding
    stack.push_async_callback(wb.close)
    rc = Rest(nodes[1], tc)
    stack.push_async_callback(rc.aclose)
    public = Rest(nodes[0])
    stack.push_async_callback(public.aclose)
    status, page = await public.call("GET", "/daily")
    assert status == 200 and page["live"]["at"] == at_ms, page.get("live")
    held("daily", page)
    (before,) = page["live"]["editions"]
    assert before["state"] == "open" and before["signed_up"] == 0 and "seed" not in before
    commitment = before["commitment"]
    daily_deal = [d for d in page["deals"] if (d["game"], d["variant"]) == (GAME, VARIANT)]
    assert daily_deal[0]["commitment"] != commitment  # its own deal, not the all-day one
    seen.append(("page", page))

    got = await wa.request({"type": "daily_live.join", "game": GAME, "variant": VARIANT})
    assert got["type"] == "daily_live", got
    held("daily_live", got)
    assert got["editions"][0]["joined"] and got["editions"][0]["signed_up"] == 1
    got = await wb.request({"type": "daily_live.join", "game": GAME, "variant": VARIANT})
    assert got["editions"][0]["signed_up"] == 2, got
    status, got = await rc.call("POST", "/daily/live/join", {"game": GAME,
                                                              "variant": VARIANT})
    assert status == 200 and got["editions"][0]["joined"], got
    again = await wa.request({"type": "daily_live.join", "game": GAME, "variant": VARIANT})
    assert again["editions"][0]["signed_up"] == 3  # joining twice changes nothing
    seen += [("ws", m) for m in wa.received + wb.received] + [("rest", got)]
    status, page = await public.call("GET", "/daily")
    (mid,) = page["live"]["editions"]
    assert (mid["signed_up"], mid["commitment"], mid["state"]) == (3, commitment, "open")
    seen.append(("page", page))
    return SignedUp(a, b, c, tl, wa, wb, rc, public, commitment, seen)


async def test_everyone_signed_up_is_dealt_at_once_and_nobody_after(
        forks: Forks, redis_url: str) -> None:
    async with contextlib.AsyncExitStack() as stack:
        live_ = await ahead_of_the_instant(forks, database(redis_url, 8), stack, sign_up)
        nodes, at_ms, signed = live_.nodes, live_.at_ms, live_.done
        a, b, c, tl = signed.a, signed.b, signed.c, signed.tl
        wa, wb, rc, public = signed.wa, signed.wb, signed.rc, signed.public
        commitment, seen = signed.commitment, signed.seen

        # Dealt at the instant, however long the nodes took to start: 45 s of grace after it.
        wait = at_ms / 1000 - datetime.now(UTC).timestamp() + 45
        dealt = [await ws.expect("daily_live.dealt", timeout=wait) for ws in (wa, wb)]
        for event in dealt:
            held("daily_live.dealt", event)
        assert dealt[0]["race"] == dealt[1]["race"]
        assert dealt[0]["commitment"] == dealt[1]["commitment"] == commitment
        assert at_ms - 300 <= dealt[0]["starts_at"] <= at_ms + 1500, (dealt[0], at_ms)
        sa, sb = dealt[0]["session"], dealt[1]["session"]
        assert sa == f"{dealt[0]['race']}.{a}" and sb == f"{dealt[0]['race']}.{b}"
        sc = (await until(lambda: session_of(rc), "Cy's session"))["session"]
        assert sc == f"{dealt[0]['race']}.{c}"
        race = (await rc.call("GET", f"/races/{dealt[0]['race']}"))[1]
        assert {e["player"] for e in race["entrants"]} == {a, b, c}
        assert race["commitment"] == commitment and "seed" not in race
        # No analysis of a game of the edition while it runs: not to its player, nor others.
        refused = [(await wa.request({"type": "analysis.get", "session": sa}))["code"],
                   (await wb.request({"type": "analysis.get", "session": sa}))["code"],
                   (await rc.call("GET", f"/sessions/{sa}/analysis"))[1]["code"]]
        assert refused == ["analysis.not_over", "session.hidden", "session.hidden"], refused

        # Nobody joins after the deal, on either node or transport.
        wl = await Ws.open(nodes[1], tl, JSON)
        stack.push_async_callback(wl.close)
        no = await wl.request({"type": "daily_live.join", "game": GAME, "variant": VARIANT})
        assert no["type"] == "error" and no["code"] == "daily_live.started", no
        assert "after the deal" in no["message"]
        status, no = await Rest(nodes[0], tl).call("POST", "/daily/live/join",
                                                   {"game": GAME, "variant": VARIANT})
        assert (status, no["code"]) == (409, "daily_live.started"), no
        no = await wa.request({"type": "daily_live.leave", "game": GAME, "variant": VARIANT})
        assert no["code"] == "daily_live.started", no
        status, page = await public.call("GET", "/daily")
        assert page["live"]["editions"][0]["state"] == "playing"
        assert "seed" not in page["live"]["editions"][0]
        seen.append(("page", page))

        # Ann plays to the end, Bob resigns, Cy never moves: the daily order ranks them.
        await play_out(wa, sa, random.Random(5))
        assert (await wb.request({"type": "resign", "session": sb}))["type"] == "ack"
        ended = await wa.expect("daily_live.ended", timeout=WINDOW + 15)
        held("daily_live.ended", ended)
        assert ended["board"] == f"live/{ended['day']}/{GAME}/{VARIANT}"

        after = await until(lambda: public_edition(public, "seed"), "the seed revealed")
        seed = bytes.fromhex(after["seed"])
        assert after["state"] == "ended" and hashlib.sha256(seed).hexdigest() == commitment
        for where, message in seen:  # nothing before the end showed the seed
            assert after["seed"] not in json.dumps(message), where
        status, board = await rc.call("GET", f"/boards/{ended['board']}?kind=human")
        assert status == 200 and board["format"] == "live", board
        held("board", board)
        assert not unstated({"type": "board", **board}), board
        order = [e["player"] for e in board["entries"]]
        assert order[0] == a and set(order) == {a, b, c}, board
        keys = [(e["status"] != "won", -e["score"], e["time_ms"]) for e in board["entries"]]
        assert keys == sorted(keys), board["entries"]  # won, then score, then time
        today = (await rc.call("GET", f"/boards/live/today/{GAME}/{VARIANT}?kind=human"))[1]
        assert today["entries"] == board["entries"]
        # Over: every entry analysed for anyone, Cy's too, still unplayed at the time limit.
        for sid, moves in ((sa, None), (sc, [])):
            got = await until(lambda sid=sid: analysed(public, sid), "the analysis", 180)
            assert got["positions"][0]["verdict"] == "best", got  # scored by points
            assert moves is None or got["moves"] == moves


async def analysed(rest: Rest, sid: str) -> dict[str, Any] | None:
    """A game's analysis once the server has it (asking queues it, if the race's end did
    not already)."""
    status, body = await rest.call("GET", f"/sessions/{sid}/analysis")
    assert status == 200, body
    return body["analysis"] if body["state"] == "ready" else None  # type: ignore[no-any-return]


async def public_edition(rest: Rest, field: str) -> dict[str, Any] | None:
    status, page = await rest.call("GET", "/daily")
    assert status == 200, page
    (e,) = page["live"]["editions"]
    return e if field in e else None


async def four_signed_up(nodes: list[Node], at: str, at_ms: int,
                         stack: contextlib.AsyncExitStack) -> list[tuple[str, str]]:
    """Four players signed up, half on each node: their ids and tokens."""
    people = [await player(nodes[i % 2], f"K{i}", "human") for i in range(4)]
    for i, (_, token) in enumerate(people):  # half on the node about to die
        rest = Rest(nodes[i % 2], token)
        status, out = await rest.call("POST", "/daily/live/join",
                                      {"game": GAME, "variant": VARIANT})
        assert status == 200, out
        await rest.aclose()
    return people


async def test_a_node_killed_before_the_instant_leaves_nobody_undealt(
        forks: Forks, redis_url: str) -> None:
    async with contextlib.AsyncExitStack() as stack:
        live_ = await ahead_of_the_instant(forks, database(redis_url, 9), stack, four_signed_up)
        nodes, at_ms, people = live_.nodes, live_.at_ms, live_.done
        wait = at_ms / 1000 - datetime.now(UTC).timestamp() - 0.5
        await asyncio.sleep(max(0.0, wait))
        os.kill(nodes[0].pid, signal.SIGKILL)  # no drain, no goodbye
        assert await asyncio.to_thread(forks.end, nodes[0].pid, 10) == -signal.SIGKILL
        for pid, token in people:
            rest = Rest(nodes[1], token)
            e = await until(lambda r=rest: session_of(r), f"{pid} dealt", 20)
            assert e["session"].endswith(f".{pid}") and e["signed_up"] == 4
            await rest.aclose()


async def session_of(rest: Rest) -> dict[str, Any] | None:
    e = await live(rest)
    return e if e.get("session") else None


# ----- in process, on a clock the test sets ------------------------------------------------


class Clock:
    def __init__(self, day: date) -> None:
        self.day, self.ms = day, 0
        self.at(day, 0)

    async def __call__(self) -> int:
        return self.ms

    def at(self, day: date, ms: int) -> None:
        self.ms = int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000) + ms


@pytest.fixture
async def services(clocked_redis_url: str) -> AsyncIterator[tuple[api.Services, Clock]]:
    day = date(2031, 1, 1) + timedelta(days=random.randrange(20000))  # years ahead: fresh
    clock = Clock(day)
    sv = build_services(Settings(redis_url=clocked_redis_url, daily_secret=f"live {day}",
                                 daily_chain=False, daily_live_rules="klondike/easy,golf/easy"),
                        clock)
    yield sv, clock
    await sv.redis.aclose()


async def refused(code: str, call: Any) -> str:
    with pytest.raises(ApiError) as e:
        await call
    assert e.value.code == code, e.value.code
    return e.value.message


async def test_joins_close_at_the_instant_and_only_listed_rule_sets_are_live(
        services: tuple[api.Services, Clock]) -> None:
    sv, clock = services
    day = clock.day
    ivy, _ = await sv.accounts.register("Ivy", "human")
    clock.at(day, 18 * HOUR)
    joined = await sv.operations["daily_live.join"].handler(sv, ivy, {"game": "klondike",
                                                                  "variant": "easy"})
    e, golf = joined["editions"]
    assert not golf["joined"] and golf["signed_up"] == 0
    assert e["joined"] and e["state"] == "open" and e["board"] == f"live/{day}/klondike/easy"
    assert joined["at"] == (await sv.daily.clock()) + HOUR  # 19:00 UTC by default
    await refused("daily_live.not_live", sv.daily_live.join(ivy, "pyramid", "easy"))
    await refused("game.unknown", sv.daily_live.join(ivy, "nosuch", "easy"))
    left = await sv.daily_live.leave(ivy, "klondike", "easy")
    assert not left["editions"][0]["joined"] and left["editions"][0]["signed_up"] == 0
    await refused("daily_live.not_player", sv.daily_live.leave(ivy, "klondike", "easy"))
    clock.at(day, 19 * HOUR)  # the instant: closed, whether the sweep has dealt or not
    message = await refused("daily_live.started", sv.daily_live.join(ivy, "klondike", "easy"))
    assert "19:00 UTC" in message and "after the deal" in message
    page = await api.daily_page(sv, {})
    assert [e["state"] for e in page["live"]["editions"]] == ["playing", "playing"]
    assert not any("seed" in e for e in page["live"]["editions"])
    clock.at(day, 20 * HOUR)
    # Klondike's edition was made (Ivy signed up, then left): no seed until its arena ends,
    # which only the sweep does (none runs here). Nobody signed up for Golf: nothing was
    # dealt, and past its window the seed is shown.
    e, golf = (await api.daily_page(sv, {}))["live"]["editions"]
    assert e["state"] == "playing" and "seed" not in e
    assert golf["state"] == "ended"
    assert hashlib.sha256(bytes.fromhex(golf["seed"])).hexdigest() == golf["commitment"]
    secret = f"live {day}".encode()  # the label of docs/fairness.md, not the all-day one's
    assert golf["seed"] == fairness.daily_seed(secret, day, "golf", "easy", None, "live").hex()
    assert golf["seed"] != fairness.daily_seed(secret, day, "golf", "easy").hex()
    await refused("daily.not_open", sv.daily_live.view(day + timedelta(days=1)))


async def test_the_live_edition_can_be_turned_off(clocked_redis_url: str) -> None:
    clock = Clock(date(2040, 2, 2))
    sv = build_services(Settings(redis_url=clocked_redis_url, daily_live=False,
                                 daily_secret="off", daily_chain=False), clock)
    try:
        assert (await api.daily_page(sv, {}))["live"] is None
        p = Player("p0000000000000", "Off", "human")
        for kind in ("daily_live.join", "daily_live.leave"):
            await refused("daily_live.off", sv.operations[kind].handler(
                sv, p, {"game": "klondike", "variant": "easy"}))
        await refused("daily_live.off", sv.operations["daily_live.get"].handler(sv, p, {}))
    finally:
        await sv.redis.aclose()


async def test_the_winnable_rule_picks_the_live_deal_by_its_own_label(
        clocked_redis_url: str) -> None:
    """With the rule on, the live deal is the first candidate of the live label the solver
    proves winnable, decided apart from the all-day deal's, and published once it ended."""
    day = date(2031, 1, 1) + timedelta(days=random.randrange(20000))
    clock = Clock(day)
    secret = f"winnable live {day}"
    sv = build_services(Settings(redis_url=clocked_redis_url, daily_secret=secret,
                                 daily_chain=False, daily_winnable=True,
                                 daily_winnable_from="2030-01-01",
                                 winnable_only="nestor/easy", daily_live_rules="nestor/easy",
                                 winnable_positions=16000, winnable_cap=4, **SUITE_NICE),
                         clock)
    try:
        clock.at(day, 18 * HOUR)
        (before,) = (await api.daily_page(sv, {}))["live"]["editions"]
        assert before.get("pending") and "commitment" not in before  # not decided ahead yet
        while await sv.winnable.step():  # the job: today's daily deals, then the live one
            pass
        (before,) = (await api.daily_page(sv, {}))["live"]["editions"]
        assert before["winnable_rule"] and "winnable" not in before and "seed" not in before
        clock.at(day, 20 * HOUR)  # past the window, nobody signed up: revealed
        page = await api.daily_page(sv, {})
        (after,) = page["live"]["editions"]
        choice = after["winnable"]
        assert after["commitment"] == before["commitment"], choice
        assert choice["cap"] == 4
        last = choice["candidates"][-1]  # the first won one, else every one up to the cap
        assert choice["k"] == (last["k"] if choice["found"] else 0)
        assert choice["found"] == (last["verdict"] == "won") and len(choice["candidates"]) == \
            last["k"] + 1
        seed = winnable.candidate_seed(secret.encode(), day, "nestor", "easy", None,
                                       choice["k"], "live")
        assert after["seed"] == seed.hex()
        for c in choice["candidates"]:  # each verdict is the live label's candidate's
            again = winnable.judge("nestor", "easy", winnable.candidate_seed(
                secret.encode(), day, "nestor", "easy", None, c["k"], "live"), 16000)
            assert (again.verdict, again.positions) == (c["verdict"], c["positions"])
        daily = [d for d in page["deals"] if d["game"] == "nestor" and d["variant"] == "easy"]
        assert daily[0]["commitment"] != after["commitment"]
    finally:
        sv.winnable.close()
        await sv.redis.aclose()


def test_settings_are_checked_and_ids_are_the_same_on_every_node() -> None:
    assert seconds_of_day("19:00") == 68400 and seconds_of_day("00:00:30") == 30
    for bad in ("24:00", "7pm", "19:60", ""):
        with pytest.raises(ValueError):
            seconds_of_day(bad)
    for wrong in ({"daily_live_at": "23:55"}, {"daily_live_window": 0},  # past midnight
                  {"daily_live_rules": "klondike/nosuch"}, {"daily_live_rules": " , "}):
        with pytest.raises(ValueError):
            schedule(Settings(**wrong))  # type: ignore[arg-type]
    assert schedule(Settings())[:2] == (19 * 3600, 600)
    assert [(r.id, r.variant) for r in schedule(Settings())[2]] == [("klondike", "easy")]
    assert len(schedule(Settings(daily_live_rules="all"))[2]) > 40
    k = engine.get("klondike", "easy")
    assert edition_id(date(2026, 12, 4), k) == "a" + edition_id(date(2026, 12, 4), k)[1:]
    assert edition_id(date(2026, 12, 4), k) != edition_id(date(2026, 12, 5), k)
    assert ARENA_ID.fullmatch(edition_id(date(2026, 12, 4), k))
