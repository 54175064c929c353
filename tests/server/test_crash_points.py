"""No request left half-done: every operation that makes more than one change, its node
killed at each of its store calls in turn, before the call and after it (the change made, its
reply never read), leaves nothing that no one will finish. A real node process exits there
(``os._exit``: the ``crash_at`` test hook, server/crash_points.py); the nodes of the session
sweep; then no race or match is left open with every seat taken, every started race ends by
its time limit and is recorded, and every running match has its turn timer.

The nodes, the one that lives and the many that die, are forked from one process that
imported the server once (tests/server/forked_nodes.py), so each start is cheap."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest
from redis import asyncio as redis

from server import ghosts
from server import store as keys
from server.arenas import admin as arena_admin
from server.arenas import arena_keys, round_race
from server.botrace import live_key
from server.crash_points import EXIT_CODE
from server.ghosts.record import ghost_keys
from server.transport.events import decode_event
from tests.conftest import FAST

from .client import Node, Rest, Ws, player
from .forks import Forks as ForkedNodes

RACE = {"game": "golf", "variant": "easy", "countdown": 0, "time_limit": 5}
MATCH = {"game": "bowling", "variant": "easy", "turn_time": 30}
#: Seconds for the sweeps to take over what the killed nodes left: the follow-up grace (2 s)
#: and a sweep (1 s), after the last race's time limit; generous for a busy machine.
SETTLE_S = 30.0


class Forks(ForkedNodes):
    """The nodes of the tests here: each stops at a crash point (``""``: none)."""

    def crash(self, crash_at: str, env: dict[str, str] | None = None,
              url: str | None = None) -> tuple[Node, int]:
        return self.start({"SAMEDEAL_CRASH_AT": crash_at, **(env or {})}, url)


#: Every node's settings: a store deadline for a busy machine (many nodes start and play at
#: once); bot races as short as races here, their bots quick; no post-game analysis (a node
#: that dies mid-way would leave each game it took from the suite's shared queue to be judged
#: again, and no operation here asks for one).
NODE_ENV = {**FAST, "SAMEDEAL_ANALYSIS": "0", "SAMEDEAL_HINT_WORKERS": "0",
            "SAMEDEAL_STORE_TIMEOUT": "15",
            "SAMEDEAL_BOT_COUNTDOWN": "0", "SAMEDEAL_BOT_TIME_LIMIT": str(RACE["time_limit"]),
            "SAMEDEAL_BOT_THINK_MIN": "0.05", "SAMEDEAL_BOT_THINK_MAX": "0.1"}


@pytest.fixture(scope="module")
def forks(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forks]:
    f = Forks(redis_url, tmp_path_factory.mktemp("crashed"), NODE_ENV)
    yield f
    f.close()


@dataclass
class Made:
    """What a scenario made: the request to send to the node about to die, and its games."""
    token: str
    request: dict[str, Any]
    races: list[str] = field(default_factory=list)
    matches: list[str] = field(default_factory=list)
    again: Callable[[Ws], Awaitable[None]] | None = None  # the player's retry, elsewhere
    bot_racer: str = ""  # the player racing a bot: their live bot race names its race


def scenario(token: str, what: str, verb: str, game: str) -> Made:
    """``token``'s ``<what>.<verb>`` of race or match ``game``, to send to the node to die."""
    games = [game]
    return Made(token, {"type": f"{what}.{verb}", what: game},
                races=games if what == "race" else [], matches=games if what == "match" else [])


async def filled_by_bob(n: Node, what: str) -> Made:
    """Bob's join fills a two-seat race or match (``what``) that starts when full."""
    _, a = await player(n, "Ann")
    _, b = await player(n, "Bob")
    wa = await Ws.open(n, a)
    made = await wa.request({"type": f"{what}.create", "seats": 2,
                             **(RACE if what == "race" else MATCH)})
    await wa.close()
    return scenario(b, what, "join", made[what])


async def started_by_creator(n: Node, what: str) -> Made:
    """Ann starts a three-seat race or match (``what``) with two entrants."""
    _, a = await player(n, "Ann")
    _, b = await player(n, "Bob")
    wa, wb = await Ws.open(n, a), await Ws.open(n, b)
    made = await wa.request({"type": f"{what}.create", "seats": 3,
                             **(RACE if what == "race" else MATCH)})
    await wb.request({"type": f"{what}.join", what: made[what]})
    await wa.close()
    await wb.close()
    return scenario(a, what, "start", made[what])


async def race_rematch(n: Node) -> Made:
    """Ann asked for a rematch of their ended race; Bob's ask fills it."""
    _, a = await player(n, "Ann")
    _, b = await player(n, "Bob")
    wa, wb = await Ws.open(n, a), await Ws.open(n, b)
    race = await wa.request({"type": "race.create", "seats": 2, **RACE})
    await wb.request({"type": "race.join", "race": race["race"]})
    for ws in (wa, wb):
        s = await ws.expect("session")
        await ws.request({"type": "resign", "session": s["session"]})
    await wa.expect("race.ended", timeout=20)
    new = await wa.request({"type": "race.rematch", "race": race["race"]})
    assert new["type"] == "race", new
    await wa.close()
    await wb.close()
    return Made(b, {"type": "race.rematch", "race": race["race"]},
                races=[race["race"], new["race"]])


async def challenge_accept(n: Node) -> Made:
    """Bob accepts Ann's challenge: a race for the two, Bob seated; Ann then joins it."""
    _, a = await player(n, "Ann")
    b_id, b = await player(n, "Bob")
    wa = await Ws.open(n, a)
    sent = await wa.request({"type": "challenge.send", "player": b_id, "game": "golf",
                             "variant": "easy"})
    assert sent["type"] == "challenge", sent

    async def again(wb: Ws) -> None:  # Bob accepts again; Ann joins the race it names
        await wb.request({"type": "challenge.accept", "challenge": sent["challenge"]})
        got = await wa.request({"type": "challenge.list"})
        for c in got["challenges"]:
            if c["challenge"] == sent["challenge"] and c.get("race"):
                made.races.append(c["race"])
                await wa.request({"type": "race.join", "race": c["race"]})

    made = Made(b, {"type": "challenge.accept", "challenge": sent["challenge"]}, again=again)
    return made


async def ghost_enter(n: Node) -> Made:
    """Bob enters Ann's ghost race: the entry, then his run's race dealt and started."""
    _, a = await player(n, "Ann")
    b_id, b = await player(n, "Bob")
    wa = await Ws.open(n, a)
    ghost = await wa.request({"type": "ghost.create", "game": "golf", "variant": "easy",
                              "time_limit": RACE["time_limit"], "countdown": 0})
    await wa.close()
    gid = ghost["ghost"]
    request = {"type": "ghost.enter", "ghost": gid}

    async def again(wb: Ws) -> None:
        """Bob enters again: his run resumed, or dealt once the dead node's claim on its
        dealing lapses (10 s; meanwhile ``conflict``, try again)."""
        for _ in range(3):
            got = await wb.request(request, timeout=30)
            if got.get("code") != "conflict":
                break
        assert got["type"] == "ghost.entry" or got["code"] == "ghost.entered", got

    return Made(b, request, races=[f"{gid}-{b_id}"], again=again)


async def race_bot(n: Node) -> Made:
    """Ann races a bot: a race made with both seats taken, started, its bot played."""
    a_id, a = await player(n, "Ann", "human")
    return Made(a, {"type": "race.bot", "game": "golf", "variant": "easy"}, bot_racer=a_id)


async def bot_race_of(url: str, made: Made) -> None:
    """The race a bot race request made, if any, among ``made``'s races: its player's live
    bot race names it (``pending`` while it is made)."""
    r = redis.from_url(url)
    try:
        rid = keys.text(await r.get(live_key(made.bot_racer)))
    finally:
        await r.aclose()
    if rid and rid != "pending" and rid not in made.races:
        made.races.append(rid)


SCENARIOS: dict[str, Callable[[Node], Awaitable[Made]]] = {
    "race.join": partial(filled_by_bob, what="race"),
    "match.join": partial(filled_by_bob, what="match"),
    "race.start": partial(started_by_creator, what="race"),
    "match.start": partial(started_by_creator, what="match"),
    "race.rematch": race_rematch, "challenge.accept": challenge_accept,
    "ghost.enter": ghost_enter, "race.bot": race_bot}


async def stuck(r: redis.Redis, races: list[str], matches: list[str]) -> list[str]:
    """What is still left half-done: an open race or match with every seat taken, or an
    open bot race (it is made full and started at once); a race not ended past its time
    limit, or ended with its recording still due; a running match with no turn timer."""
    now = await keys.now_ms(r)
    due = {keys.text(m) for m in await r.zrange(keys.DUE, 0, -1)}
    timed = {keys.text(m) for m in await r.zrange(keys.DUE_MATCHES, 0, -1)}
    out = []
    for rid in races:
        rk, ek, _ = keys.race_keys(rid)
        meta = {keys.text(k): keys.text(v) for k, v in (await r.hgetall(rk)).items()}
        if not meta:
            continue  # a race made in vain and dropped
        seated = await r.hlen(ek)
        if meta["state"] == "open" and meta["start"] == "full" and seated >= int(meta["seats"]):
            out.append(f"race {rid} open and full")
        elif meta["state"] == "open" and meta.get("bot"):
            out.append(f"bot race {rid} open with {seated} of its seats taken")
        elif meta["state"] == "running" and now > int(meta["ends_at"]) + 4000:
            out.append(f"race {rid} still running past its time limit")
        elif meta["state"] == "ended" and keys.follow_up("race", rid) in due:
            out.append(f"race {rid} ended, its recording still due")
    for mid in matches:
        mk, pk, _ = keys.match_keys(mid)
        meta = {keys.text(k): keys.text(v) for k, v in (await r.hgetall(mk)).items()}
        seated = await r.hlen(pk)
        if meta["state"] == "open" and meta["start"] == "full" and seated >= int(meta["seats"]):
            out.append(f"match {mid} open and full")
        elif meta["state"] == "running" and mid not in timed:
            out.append(f"match {mid} running with no turn timer")
    return out


@dataclass
class Tried:
    """What one crash point left: whether the node died there, and the games to check."""
    crashed: bool
    races: list[str]
    matches: list[str]
    retried: bool


async def crash_at(forks: Forks, n: Node, op: str, call: int, when: str) -> Tried:
    """Set ``op`` up on ``n``, send it to a node that dies at its ``call``-th store call
    (``when``: before or after it), and, every other time, send it again to ``n``."""
    made = await SCENARIOS[op](n)
    node, pid = await asyncio.to_thread(forks.crash, f"{op}:{call}:{when}")
    ws = await Ws.open(node, made.token)
    reply: dict[str, Any] | None = None
    with contextlib.suppress(Exception):  # the node dies under it
        reply = await ws.request(made.request, timeout=30)
    with contextlib.suppress(Exception):
        await ws.close()
    if reply is not None and reply["type"] == "race" and reply.get("race"):
        made.races.append(reply["race"])
    code = await asyncio.to_thread(forks.end, pid, 30 if reply is None else 0)
    if made.bot_racer:
        await bot_race_of(forks.url, made)
    if reply is not None:  # fewer calls than that: every one was tried
        assert reply["type"] != "error", (op, call, when, reply)
        return Tried(False, made.races, made.matches, False)
    assert code == EXIT_CODE, (op, call, when, code)
    retry = call % 2 == 0
    if retry:  # the player tries again, on a node that lives
        wr = await Ws.open(n, made.token)
        if made.again is not None:
            await made.again(wr)
        else:
            again = await wr.request(made.request)
            assert again["type"] != "error" or again["code"] in (
                "race.joined", "match.joined", "race.not_open", "match.not_open",
                "race.bot_busy"), again  # a bot race made: the player races it already
            if again["type"] == "race":
                made.races.append(again["race"])
        await wr.close()
    return Tried(True, made.races, made.matches, retry)


#: Crash points tried at once (each its own games and its own node): a few, for a busy
#: machine (at eight, the one node that lives, setting every point up and taking every
#: retry, was too slow to accept a connection in time on a machine loaded past 20).
AT_ONCE = 4


async def test_a_node_killed_at_any_store_call_leaves_nothing_half_done(
        forks: Forks, redis_url: str) -> None:
    n, _ = await asyncio.to_thread(forks.crash, "")  # it sets the games up, and it sweeps
    slots = asyncio.Semaphore(AT_ONCE)

    async def every_call(op: str, when: str) -> list[Tried]:
        """Each store call of ``op`` in turn, until the request outlives them all."""
        out: list[Tried] = []
        for call in itertools.count(1):
            async with slots:
                out.append(await crash_at(forks, n, op, call, when))
            if not out[-1].crashed:
                return out
        raise AssertionError("unreachable")

    streams = [(op, when) for op in SCENARIOS for when in ("before", "after")]
    done = await asyncio.gather(*(every_call(op, when) for op, when in streams))
    tried = {op: 0 for op in SCENARIOS}
    races: list[str] = []
    matches: list[str] = []
    for (op, _), points in zip(streams, done, strict=True):
        tried[op] += sum(t.crashed for t in points)
        for t in points:
            races += t.races
            matches += t.matches
    retried = sum(t.retried for points in done for t in points)
    r = redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + SETTLE_S + 10
        while (left := await stuck(r, races, matches)) and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
    finally:
        await r.aclose()
    total = sum(tried.values())
    print(f"\ncrash points tried: {total} ({tried}), retried {retried}; "
          f"{len(races)} races, {len(matches)} matches; stuck: {len(left)}")
    assert all(tried.values()), tried
    assert not left, left


@pytest.mark.parametrize("op", ["race.join", "match.join"])
async def test_a_joiner_trying_again_starts_what_their_seat_filled(
        forks: Forks, redis_url: str, op: str) -> None:
    """The node dies just after the seat that fills is stored (its third store call: the
    seat refused as filling, the start expected, the seat), before the start; no sweep takes
    it over for a minute (the dead node's grace). The joiner's retry starts it, and answers
    as a join does."""
    n, live = await asyncio.to_thread(forks.crash, "")
    made = await SCENARIOS[op](n)
    node, pid = await asyncio.to_thread(forks.crash, f"{op}:3:after",
                                        {"SAMEDEAL_FOLLOWUP_GRACE": "60"})
    ws = await Ws.open(node, made.token)
    with contextlib.suppress(Exception):
        await ws.request(made.request, timeout=30)
    assert await asyncio.to_thread(forks.end, pid, 30) == EXIT_CODE
    r = redis.from_url(redis_url)
    try:
        left = await stuck(r, made.races, made.matches)
        assert left and "open and full" in left[0], left  # half-done, as the crash left it
        wr = await Ws.open(n, made.token)
        again = await wr.request(made.request)
        await wr.close()
        assert again["type"] == op.split(".")[0] and again["state"] == "running", again
        assert again["joined_seq"] > 0
        assert not await stuck(r, made.races, made.matches)
    finally:
        await r.aclose()
        await asyncio.to_thread(forks.end, live, 0)


async def test_a_move_whose_reply_was_lost_is_answered_as_made_when_sent_again(
        forks: Forks) -> None:
    """The node dies just after a store call of a move, each in turn, until the call is the
    one that stores the move: its reply is lost with the node. The player's identical retry,
    on a node that lives, gets the move's ack (``repeated``), and the move is stored once."""
    n, live = await asyncio.to_thread(forks.crash, "")
    rest = Rest(n)
    try:
        # A move on the node that lives first: Redis has the change's script from then on
        # (else a node loads it, one store call more)
        _, rest.token = await player(n, "Warm")
        s = (await rest.call("POST", "/solo", {"game": "klondike", "variant": "easy"}))[1]
        assert (await rest.call("POST", f"/sessions/{s['session']}/moves",
                                {"move": s["legal"][0]}))[0] == 200
        for call in range(1, 12):
            _, rest.token = await player(n, "Ann")
            ws = await Ws.open(n, rest.token)
            s = await ws.request({"type": "solo.start", "game": "klondike",
                                  "variant": "easy", "seed": "00"})
            await ws.close()
            move = {"type": "move", "session": s["session"], "move": "t7-t1", "rev": 0}
            node, pid = await asyncio.to_thread(forks.crash, f"move:{call}:after")
            wd = await Ws.open(node, rest.token)
            reply: dict[str, Any] | None = None
            with contextlib.suppress(Exception):  # the node dies under it
                reply = await wd.request(move, timeout=30)
            code = await asyncio.to_thread(forks.end, pid, 30 if reply is None else 0)
            if reply is not None:  # a call that failed and was made again: no reply to lose
                continue
            assert code == EXIT_CODE, (call, code)
            _, stored = await rest.call("GET", f"/sessions/{s['session']}/moves")
            if stored["moves"]:
                break
        else:
            raise AssertionError("no store call of a move stored it")
        wr = await Ws.open(n, rest.token)
        again = await wr.request(move)
        await wr.close()
        assert again["type"] == "ack" and again["repeated"] is True, again
        assert again["rev"] == 1 and again["view"]["moves"] == 1, again
        _, stored = await rest.call("GET", f"/sessions/{s['session']}/moves")
        assert stored["moves"] == ["t7-t1"], stored
    finally:
        await rest.aclose()
        await asyncio.to_thread(forks.end, live, 0)


#: The sweep tests' own databases, one for each stream of crash points (before the call,
#: after it), run at once: no other node of the session sweeps them.
SWEEP_DBS = {"before": 10, "after": 11}


@dataclass
class Due:
    """Work a sweep job has due: what ``left`` checks once a node that lives has swept."""
    ident: str
    left: Callable[[redis.Redis], Awaitable[list[str]]]


async def arena_due(n: Node, url: str, first: bool) -> Due:
    """An arena whose first round is due now, two players in it; nothing has dealt it (no
    node of this database sweeps but the ones the test starts). ``first``: ``n`` may still
    be in the one sweep it makes as it starts, so the round falls due only once both players
    are in (that sweep would deal it to nobody)."""
    made = (await arena_admin.run(url, "create", game="golf", variant="easy", duration="60",
                                  interval="30", start="+3s" if first else "now"))[0]
    aid, players = made["arena"], []
    for name in ("Ann", "Bob"):
        pid, token = await player(n, name)
        ws = await Ws.open(n, token)
        joined = await ws.request({"type": "arena.join", "arena": aid})
        assert joined["type"] == "arena", joined
        await ws.close()
        players.append(pid)
    if first:
        await asyncio.sleep(max(0.0, made["starts_at"] / 1000 - time.time()) + 0.1)

    async def left(r: redis.Redis) -> list[str]:
        """What is missing of the first round: claimed, its race made with both players
        seated and started, and announced once."""
        hk, _, rk = arena_keys(aid)
        a = {keys.text(k): keys.text(v) for k, v in (await r.hgetall(hk)).items()}
        rid = round_race(aid, 0)
        race = {keys.text(k): keys.text(v) for k, v in
                (await r.hgetall(keys.race_keys(rid)[0])).items()}
        seated = {keys.text(p) for p in await r.hkeys(keys.race_keys(rid)[1])}
        out = []
        if (a.get("round"), a.get("current")) != ("0", rid):
            out.append(f"round 0 not claimed: {a.get('round')}, {a.get('current')}")
        if [keys.text(x) for x in await r.lrange(rk, 0, -1)] != [rid]:
            out.append("the rounds list is not the one race")
        if race.get("state") not in ("running", "ended") or seated != set(players):
            out.append(f"race {rid}: {race.get('state')}, seated {sorted(seated)}")
        if a.get("announced:0") != "1":
            out.append("round 0 not announced")
        return out

    return Due(aid, left)


async def ghost_due(n: Node, url: str, first: bool) -> Due:
    """A ghost race whose time is up, nobody in it: the sweep closes it, then reveals it."""
    _, token = await player(n, "Ann")
    ws = await Ws.open(n, token)
    made = await ws.request({"type": "ghost.create", "game": "golf", "variant": "easy",
                             "open_for": 1})
    await ws.close()
    gid = made["ghost"]
    await asyncio.sleep(1.1)

    async def left(r: redis.Redis) -> list[str]:
        """What is missing: closed and revealed, each said once, and off every list."""
        gk, _, ek, _ = ghost_keys(gid)
        out = []
        if keys.text(await r.hget(gk, "state")) != "revealed":
            out.append(f"ghost {gid} is {keys.text(await r.hget(gk, 'state'))}")
        said = [decode_event(e)["type"] for e in await r.lrange(ek, 0, -1)]
        if said.count("ghost.closed") != 1 or said.count("ghost.revealed") != 1:
            out.append(f"its events: {said}")
        for listed in (ghosts.OPEN, ghosts.DUE, ghosts.CLOSING):
            if await r.zscore(listed, gid) is not None:
                out.append(f"still on {listed}")
        return out

    return Due(gid, left)


SWEEPS: dict[str, Callable[[Node, str, bool], Awaitable[Due]]] = {
    "Arenas.run_due": arena_due, "Ghosts.sweep": ghost_due}


@pytest.mark.parametrize("job", list(SWEEPS))
async def test_a_node_killed_at_any_store_call_of_a_sweep_job_leaves_it_to_the_next(
        forks: Forks, redis_url: str, job: str) -> None:
    """A sweep job with work due (an arena's round to claim, make, start and announce; a
    ghost race to close and reveal) killed at each of its store calls in turn, before and
    after: a node that lives does what is left at its next sweep, once."""
    once = {"SAMEDEAL_SWEEP_INTERVAL": "3600"}  # each node sweeps once, as it starts

    async def every_call(when: str) -> int:
        """Each store call of the job in turn, ``when`` (before or after it), until the job
        outlives them all: how many it was killed at."""
        url = redis_url.rsplit("/", 1)[0] + f"/{SWEEP_DBS[when]}"
        setup, setup_pid = await asyncio.to_thread(forks.crash, "", once, url)
        r = redis.from_url(url)
        tried = 0
        try:
            await r.flushdb()
            for call in itertools.count(1):
                due = await SWEEPS[job](setup, url, call == 1)
                _, pid = await asyncio.to_thread(
                    forks.crash, f"sweep.{job}:{call}:{when}", once, url)
                # Its sweep runs at once: it stops at its crash point, or it does the whole
                # job (then it idles, and is killed here) and outlives the job's calls.
                deadline = time.monotonic() + SETTLE_S
                while (await asyncio.to_thread(forks.status, pid, 0.2) is None
                       and await due.left(r) and time.monotonic() < deadline):
                    pass
                code = await asyncio.to_thread(forks.end, pid, 0.5)
                if code == EXIT_CODE:
                    tried += 1
                    _, live = await asyncio.to_thread(forks.crash, "", once, url)
                    deadline = time.monotonic() + SETTLE_S
                    while (left := await due.left(r)) and time.monotonic() < deadline:
                        await asyncio.sleep(0.2)
                    await asyncio.to_thread(forks.end, live, 0)
                else:
                    left = await due.left(r)
                assert not left, (job, when, call, left)
                await r.flushdb()
                if code != EXIT_CODE:
                    return tried
        finally:
            await r.aclose()
            await asyncio.to_thread(forks.end, setup_pid, 0)
        raise AssertionError("unreachable")

    streams = ("before", "after")
    tried = dict(zip(streams, await asyncio.gather(*map(every_call, streams)), strict=True))
    print(f"\n{job}: crash points tried {tried}; left undone: 0")
    assert all(tried.values()), tried
