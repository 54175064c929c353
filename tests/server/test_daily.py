"""The daily challenge, the longer boards, streaks, statistics, ratings and public transcripts.

Tests that need the day to change build the server's services in this process against the
real redis-server, with an injected clock (no sleeping); the days are years ahead so that
Redis's own clock, which stamps the moves, never passes their deadlines. The rest talk to
the two real server processes.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import date, timedelta
from typing import Any

import httpx
import pytest

import engine
from engine.core import WON
from server import api
from server.accounts import Player
from server.app import build_services
from server.boards import feature as boards_feature
from server.boards.records import opens_at
from server.config import Settings
from server.daily import attempt_id
from server.daily import feature as daily_feature
from server.errors import ApiError
from tests.conftest import ROOT, SUITE_NICE

from .client import Node, Rest, Ws, cards_in, player, view_cards
from .stated import unstated

pytestmark = pytest.mark.both_stores  # one redis-server, then a Redis Cluster

HOUR = 3_600_000
_days = itertools.count()


class Clock:
    """The services' clock, moved by the test."""

    def __init__(self, day: date) -> None:
        self.ms = opens_at(day) + HOUR

    async def __call__(self) -> int:
        return self.ms

    def at(self, day: date, ms: int = HOUR) -> None:
        self.ms = opens_at(day) + ms


def fresh_day() -> date:
    """A day no other test uses, years ahead, a Monday (weeks start on Mondays)."""
    return date(2032, 1, 5) + timedelta(weeks=next(_days) * 3)


@pytest.fixture
async def services(clocked_redis_url: str) -> AsyncIterator[tuple[api.Services, Clock]]:
    day = fresh_day()
    clock = Clock(day)
    # Accounts made by the tests are made on the test's day: let them rank (one test below
    # checks the rule that keeps them off the boards).
    sv = build_services(Settings(redis_url=clocked_redis_url, daily_secret=f"secret {day}",
                                 daily_rank_new_accounts=True, **SUITE_NICE), clock)
    # The attempts here are played at the machine's pace, which the integrity signal may call
    # a solver's by how steady it is, so on a busy machine a win could wait in the review queue
    # instead of ranking: no queue here (tests/server/test_review.py tests it).
    sv.daily.reviews = None
    yield sv, clock
    await sv.redis.aclose()


async def start(sv: api.Services, p: Player, game: str = "isabel", variant: str = "standard",
                **body: Any) -> dict[str, Any]:
    return await daily_feature.daily_start(sv, p, {"game": game, "variant": variant, **body})


async def move(sv: api.Services, p: Player, sid: str, text: str) -> dict[str, Any]:
    return await sv.operations["move"].handler(sv, p, {"type": "move", "session": sid,
                                                       "move": text})


async def resign(sv: api.Services, p: Player, sid: str) -> dict[str, Any]:
    return await sv.operations["resign"].handler(sv, p, {"type": "resign", "session": sid})


async def board(sv: api.Services, p: Player, name: str, **body: Any) -> dict[str, Any]:
    """A page of the board, which has only fields the reply schema states."""
    page = await boards_feature.board_get(sv, p, {"board": name, "count": 100, **body})
    assert not unstated({"type": "board", **page}), page
    return dict(page)


def winning_line(rules: engine.RuleSet, seed: bytes, tries: int = 300) -> list[str] | None:
    """Moves that win the deal, found by random playouts; None if none won."""
    rng = random.Random(seed)
    for _ in range(tries):
        st = rules.deal(seed, competitive=True)
        line = []
        while not st.over and len(line) < 500:
            m = rng.choice(st.legal_moves())
            line.append(engine.move_text(rules, m))
            st.play(m)
        if st.status == WON:
            return line
    return None


async def winnable_day(sv: api.Services, clock: Clock) -> list[str]:
    """Move the clock on to the first day whose Isabel deal random play can win; the win."""
    rules = engine.get("isabel", "standard")
    day = date.fromisoformat((await sv.daily.info())["day"])
    for _ in range(20):
        line = winning_line(rules, await sv.daily.seed(day, rules))
        if line is not None:
            clock.at(day)
            return line
        day += timedelta(days=1)
    raise AssertionError("random play won none of 20 days' Isabel deals")


async def win(sv: api.Services, p: Player, line: list[str]) -> dict[str, Any]:
    s = await start(sv, p)
    for text in line:
        s = await move(sv, p, s["session"], text)
    assert s["view"]["status"] == WON
    return s


# ----- the day: commitment, attempt, close, reveal ------------------------------------------


async def test_commitment_before_play_reveal_after_the_close_and_a_walk_away(
        services: tuple[api.Services, Clock]) -> None:
    sv, clock = services
    day = date.fromisoformat((await sv.daily.info())["day"])
    ann, _ = await sv.accounts.register("Ann", "human")
    info = await daily_feature.daily_get(sv, ann, {})
    assert info["state"] == "open" and len(info["deals"]) == len(
        [r for r in engine.rule_sets() if r.players[0] == 1])
    deal = next(d for d in info["deals"] if d["game"] == "klondike" and d["variant"] == "easy")
    assert "seed" not in deal and not cards_in(info)
    with pytest.raises(ApiError) as e:  # tomorrow's is not published yet
        await daily_feature.daily_get(sv, ann, {"day": (day + timedelta(days=1)).isoformat()})
    assert e.value.code == "daily.not_open"

    s = await start(sv, ann, "klondike", "easy")
    assert s["mode"] == "daily" and s["commitment"] == deal["commitment"]
    assert "seed" not in s and s["session"] == attempt_id(day, engine.get("klondike", "easy"),
                                                          ann.id)
    played = []
    for _ in range(3):
        text = s["legal"][0]
        s = await move(sv, ann, s["session"], text)
        played.append(text)
    assert s["view"]["status"] == "playing"
    with pytest.raises(ApiError) as e:  # a ranked game is nobody else's business yet
        await api.transcript(sv, None, s["session"])
    assert e.value.code == "auth.required"

    clock.at(day + timedelta(days=1), 60_000)  # closed, but in the grace period
    assert (await daily_feature.daily_get(sv, ann, {"day": day.isoformat()}))["state"] == "closing"
    assert await sv.daily.close_due() == 0
    s = await move(sv, ann, s["session"], s["legal"][0])  # an attempt in flight goes on
    score = s["view"]["score"]

    clock.at(day + timedelta(days=1), 2 * HOUR)  # past the deadline: walked away
    assert await sv.daily.close_due() >= 1
    with pytest.raises(ApiError) as e:
        await move(sv, ann, s["session"], s["legal"][0])
    assert e.value.code == "daily.closed"
    page = await board(sv, ann, f"daily/{day}/klondike/easy", around="me")
    mine = next(x for x in page["entries"] if x["player"] == ann.id)
    assert mine["walked_away"] and mine["score"] == score and mine["moves"] == 4
    assert mine["status"] == "playing" and mine["time_ms"] >= 0

    revealed = await daily_feature.daily_get(sv, ann, {"day": day.isoformat()})
    assert revealed["state"] == "revealed"
    seed = next(d["seed"] for d in revealed["deals"] if d["game"] == "klondike"
                and d["variant"] == "easy")
    assert engine.commitment(bytes.fromhex(seed)) == deal["commitment"]
    t = await api.transcript(sv, None, s["session"])  # public now, seed and all
    assert t["seed"] == seed and t["moves"][:3] == played and t["score"] == score
    assert mine["finished_at"] == t["times"][-1]  # timed to the last move
    assert mine["time_ms"] == t["times"][-1] - t["created"]
    out = subprocess.run([sys.executable, "-m", "engine.cli", "deal", "klondike", "easy",
                          "--seed", seed], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    first = engine.get("klondike", "easy").deal(bytes.fromhex(seed), competitive=True)
    assert view_cards(first.view()) <= cards_in(out.stdout)  # anyone can re-deal it


async def test_one_ranked_attempt_then_unranked_replays(
        services: tuple[api.Services, Clock]) -> None:
    sv, clock = services
    day = date.fromisoformat((await sv.daily.info())["day"])
    ann, _ = await sv.accounts.register("Ann", "human")
    bob, _ = await sv.accounts.register("Bob", "human")
    s = await start(sv, ann)
    assert s["ranked"] and "unranked_reason" not in s
    again = await start(sv, ann)  # a second device resumes the same attempt
    assert again["session"] == s["session"] and again["rev"] == s["rev"]
    with pytest.raises(ApiError) as e:  # no peeking at the deal before the reveal
        await start(sv, bob, ranked=False)
    assert e.value.code == "daily.not_revealed"
    with pytest.raises(ApiError) as e:
        await sv.operations["undo"].handler(sv, ann, {"type": "undo",
                                                      "session": s["session"]})
    assert e.value.code.startswith("undo.")
    await resign(sv, ann, s["session"])
    with pytest.raises(ApiError) as e:
        await start(sv, ann)
    assert e.value.code == "daily.played" and "unranked" in e.value.message
    with pytest.raises(ApiError) as e:  # ranked play is for today's deal only
        await start(sv, ann, "klondike", "easy", day=(day - timedelta(days=1)).isoformat())
    assert e.value.code == "daily.closed"

    clock.at(day + timedelta(days=1), 2 * HOUR)  # past the deadline: the day is revealed
    await sv.daily.close_due()
    for p in (ann, bob):
        replay = await start(sv, p, ranked=False, day=day.isoformat())
        assert replay["mode"] == "daily-replay" and replay["session"] != s["session"]
        assert replay["commitment"] == s["commitment"] and not replay["ranked"]
        assert engine.commitment(bytes.fromhex(replay["seed"])) == s["commitment"]
        await resign(sv, p, replay["session"])
    entries = (await board(sv, ann, f"daily/{day}/isabel/standard"))["entries"]
    assert [x["player"] for x in entries] == [ann.id]  # the replays are not on the board


async def test_a_resigned_attempt_opens_no_replay_until_the_reveal(
        services: tuple[api.Services, Clock]) -> None:
    """The scouting route: play a ranked attempt with a throwaway account, resign, study the
    deal in the unranked replay. The replay stays shut, for everyone, until the reveal."""
    sv, clock = services
    day = date.fromisoformat((await sv.daily.info())["day"])
    scout, _ = await sv.accounts.register("Scout", "human")
    s = await start(sv, scout, "klondike", "easy")
    await resign(sv, scout, s["session"])
    for at in (2 * HOUR, 23 * HOUR):  # all day, and in the grace period after the close
        clock.at(day, at)
        with pytest.raises(ApiError) as e:
            await start(sv, scout, "klondike", "easy", ranked=False, day=day.isoformat())
        assert e.value.code == "daily.not_revealed" and "revealed" in e.value.message
    clock.at(day + timedelta(days=1), 30 * 60_000)
    with pytest.raises(ApiError) as e:
        await start(sv, scout, "klondike", "easy", ranked=False, day=day.isoformat())
    assert e.value.code == "daily.not_revealed"
    clock.at(day + timedelta(days=1), 2 * HOUR)
    await sv.daily.close_due()
    replay = await start(sv, scout, "klondike", "easy", ranked=False, day=day.isoformat())
    assert replay["mode"] == "daily-replay" and replay["can_undo"] is not None


async def test_a_win_ranks_first_and_counts_for_the_streak_of_days_won(
        services: tuple[api.Services, Clock]) -> None:
    sv, clock = services
    ann, _ = await sv.accounts.register("Ann", "human")
    bob, _ = await sv.accounts.register("Bob", "human")
    line = await winnable_day(sv, clock)
    s = await start(sv, bob)
    await move(sv, bob, s["session"], s["legal"][0])
    await resign(sv, bob, s["session"])
    won = await win(sv, ann, line)
    page = await board(sv, ann, "daily/today/isabel/standard")
    assert [x["player"] for x in page["entries"]] == [ann.id, bob.id]
    assert page["entries"][0]["status"] == WON and page["entries"][0]["moves"] == len(
        (await api.transcript(sv, ann, won["session"]))["moves"])
    for which in ("played", "won"):
        streak = await board(sv, ann, f"streaks/{which}", around="me")
        assert next(x for x in streak["entries"] if x["player"] == ann.id)["days"] == 1
    points = await board(sv, ann, "weekly/current/isabel/standard")
    totals = {x["player"]: (x["points"], x["wins"]) for x in points["entries"]}
    assert totals == {ann.id: (5, 1), bob.id: (1, 0)}
    profile = await sv.records.profile(ann, date.fromisoformat(
        (await sv.daily.info())["day"]))
    [stats] = profile["stats"]
    assert stats["played"] == stats["won"] == 1 and stats["best_time_ms"] is not None


# ----- longer boards and streaks ------------------------------------------------------------


async def test_weekly_and_all_time_points_add_up_over_days_and_games(
        services: tuple[api.Services, Clock]) -> None:
    sv, clock = services
    monday = date.fromisoformat((await sv.daily.info())["day"])
    ann, _ = await sv.accounts.register("Ann", "human")
    bob, _ = await sv.accounts.register("Bob", "human")
    for day, games in ((monday, ["klondike", "golf"]), (monday + timedelta(days=6), ["golf"]),
                       (monday + timedelta(days=7), ["golf"])):
        clock.at(day)
        for game in games:
            for p in (ann, bob) if day == monday else (ann,):
                s = await start(sv, p, game, "easy")
                await resign(sv, p, s["session"])
    w1, w2 = (f"{d.isocalendar()[0]}-W{d.isocalendar()[1]:02d}"
              for d in (monday, monday + timedelta(days=7)))

    async def points(name: str) -> dict[str, tuple[int, int]]:
        entries = (await board(sv, ann, name))["entries"]
        return {x["player"]: (x["points"], x["results"]) for x in entries
                if x["player"] in (ann.id, bob.id)}

    assert await points(f"weekly/{w1}/golf/easy") == {ann.id: (2, 2), bob.id: (1, 1)}
    assert await points(f"weekly/{w1}/all") == {ann.id: (3, 3), bob.id: (2, 2)}
    assert await points(f"weekly/{w2}/all") == {ann.id: (1, 1)}
    assert await points("alltime/golf/easy") == {ann.id: (3, 3), bob.id: (1, 1)}
    assert await points("alltime/all") == {ann.id: (4, 4), bob.id: (2, 2)}
    page = await board(sv, ann, "alltime/all", around="me")
    ranks = {x["player"]: x["rank"] for x in page["entries"]}
    assert ranks[ann.id] < ranks[bob.id]
    # A weekly board expires a set time after its week; an all-time board never.
    ttl = await sv.redis.ttl(f"sd:{{board:weekly:{w1}:all:human}}:rank")
    assert ttl > 0 and await sv.redis.ttl("sd:{board:alltime:all:human}:rank") == -1


async def test_streaks_count_consecutive_utc_days_across_midnight(
        services: tuple[api.Services, Clock]) -> None:
    sv, clock = services
    d0 = date.fromisoformat((await sv.daily.info())["day"])
    ann, _ = await sv.accounts.register("Ann", "human")

    async def play(day: date, ms: int, game: str = "klondike") -> None:
        clock.at(day, ms)
        await start(sv, ann, game, "easy")

    async def streak(today: date) -> dict[str, int]:
        return (await sv.records.profile(ann, today))["streaks"]["played"]

    await play(d0, 86_400_000 - 1)  # 23:59:59.999
    await play(d0 + timedelta(days=1), 0)  # 00:00:00.000, the next UTC day
    await play(d0 + timedelta(days=1), HOUR, "golf")  # a second game the same day: no change
    assert await streak(d0 + timedelta(days=1)) == {"days": 2, "best": 2}
    assert await streak(d0 + timedelta(days=2)) == {"days": 2, "best": 2}  # still alive
    assert await streak(d0 + timedelta(days=3)) == {"days": 0, "best": 2}  # lapsed
    await play(d0 + timedelta(days=3), HOUR)
    assert await streak(d0 + timedelta(days=3)) == {"days": 1, "best": 2}
    page = await board(sv, ann, "streaks/played", around="me")
    assert next(x for x in page["entries"] if x["player"] == ann.id)["days"] == 2


async def test_daily_boards_expire_after_the_documented_days(
        services: tuple[api.Services, Clock]) -> None:
    sv, _ = services
    day = date.fromisoformat((await sv.daily.info())["day"])
    ann, _ = await sv.accounts.register("Ann", "human")
    s = await start(sv, ann, "golf", "easy")
    await resign(sv, ann, s["session"])
    expires = await sv.redis.expiretime(f"sd:{{board:daily:{day}:golf:easy:human}}:rank")
    keep = sv.settings.daily_board_days
    assert expires == opens_at(day + timedelta(days=1 + keep)) // 1000
    # The attempt itself (the replay's source) is kept.
    assert await sv.redis.ttl(f"sd:{{{s['session']}}}:session") == -1


# ----- real server processes ----------------------------------------------------------------


async def test_a_ranked_attempt_resumes_on_the_other_node_and_is_refused_a_second_time(
        nodes: list[Node]) -> None:
    pid, token = await player(nodes[0], "Ann", "human")
    a = Rest(nodes[0], token)
    status, s = await a.call("POST", "/daily", {"game": "klondike", "variant": "easy"})
    assert status == 201 and s["mode"] == "daily", s
    status, s = await a.call("POST", f"/sessions/{s['session']}/moves", {"move": s["legal"][0]})
    assert status == 200 and s["rev"] == 1
    ws = await Ws.open(nodes[1], token)
    resumed = await ws.request({"type": "daily.start", "game": "klondike", "variant": "easy"})
    assert resumed["type"] == "session" and resumed["session"] == s["session"]
    assert resumed["rev"] == 1 and resumed["view"] == s["view"]
    ack = await ws.request({"type": "resign", "session": s["session"]})
    assert ack["type"] == "ack" and ack["view"]["status"] == "lost"
    status, err = await a.call("POST", "/daily", {"game": "klondike", "variant": "easy"})
    assert status == 409 and err["code"] == "daily.played"
    status, err = await a.call("POST", "/daily", {"game": "klondike", "variant": "easy",
                                                  "ranked": False})
    assert status == 409 and err["code"] == "daily.not_revealed"  # not before the reveal
    status, page = await a.call("GET", "/boards/daily/today/klondike/easy?around=me&count=5")
    assert status == 200 and any(x["player"] == pid for x in page["entries"])
    status, today = await a.call("GET", "/daily")
    assert status == 200 and today["state"] == "open" and "seed" not in today["deals"][0]
    status, err = await a.call("GET", "/boards/weekly/last/all")
    assert status == 404 and err["code"] == "board.unknown"
    status, err = await a.call("GET", "/boards/alltime/all?count=500")
    assert status == 400 and err["code"] == "message.invalid"
    await ws.close()
    await a.aclose()


async def test_bots_stay_off_the_human_boards(nodes: list[Node]) -> None:
    people = [await player(nodes[0], "Ann", "human"), await player(nodes[1], "Robo", "bot")]
    for (_, token), node in zip(people, nodes, strict=True):
        rest = Rest(node, token)
        status, s = await rest.call("POST", "/daily", {"game": "golf", "variant": "easy"})
        assert status == 201
        await rest.call("POST", f"/sessions/{s['session']}/resign", {})
        await rest.aclose()
    (human, token), (bot, _) = people
    rest = Rest(nodes[0], token)
    for name in ("daily/today/golf/easy", "weekly/current/all", "alltime/golf/easy",
                 "streaks/played"):
        ids = {}
        for kind in ("human", "bot"):
            status, page = await rest.call("GET", f"/boards/{name}?kind={kind}&count=100")
            assert status == 200, page
            ids[kind] = {x["player"] for x in page["entries"]}
            assert all(x.get("kind", kind) == kind for x in page["entries"])
        assert human in ids["human"] and human not in ids["bot"], name
        assert bot in ids["bot"] and bot not in ids["human"], name
    await rest.aclose()


async def finish_race(nodes: list[Node], people: list[tuple[str, str]]) -> dict[str, Any]:
    """A race of Isabel over both nodes in which entrant i makes i moves, then resigns: the
    resignations rank as finishing at the race's end, so the moves set a strict order. A
    deal can leave no pair after a move or two: that game is over (lost), with nothing left
    to play or resign, and it ranks ahead of a resigned one with as many pairs."""
    sockets = [await Ws.open(nodes[i % 2], token) for i, (_, token) in enumerate(people)]
    race = await sockets[0].request({"type": "race.create", "game": "isabel",
                                     "variant": "standard", "seats": len(people),
                                     "countdown": 0})
    for ws in sockets[1:]:
        await ws.request({"type": "race.join", "race": race["race"]})
    sessions = [await ws.expect("session") for ws in sockets]
    for i, (ws, s) in enumerate(zip(sockets, sessions, strict=True)):
        for _ in range(i):
            if s["view"]["status"] != "playing":
                break
            s = await ws.request({"type": "move", "session": s["session"],
                                  "move": s["legal"][0]})
            assert s["type"] == "ack", s
        if s["view"]["status"] == "playing":
            ack = await ws.request({"type": "resign", "session": s["session"]})
            assert ack["type"] == "ack", ack
    ended = await sockets[0].expect("race.ended")
    for ws in sockets:
        await ws.close()
    return ended


async def rated(rest: Rest, pid: str, races: int) -> dict[str, Any]:
    """The player's profile once it shows ``races`` rated races: the node that ends a race
    rates it just after publishing race.ended."""
    for _ in range(200):
        status, profile = await rest.call("GET", f"/players/{pid}")
        assert status == 200, profile
        if profile["ratings"].get("isabel/standard", {}).get("races") == races:
            return profile
        await asyncio.sleep(0.02)
    raise AssertionError(f"no rating after {races} races: {profile}")


async def test_a_race_updates_ratings_humans_and_bots_apart(nodes: list[Node]) -> None:
    people = [await player(nodes[0], f"H{i}", "human") for i in range(2)]
    people += [await player(nodes[1], f"B{i}", "bot") for i in range(2)]
    ended = await finish_race(nodes, people)
    order = [e["player"] for e in ended["ranking"]]
    rest = Rest(nodes[0], people[0][1])
    profiles = {}
    for pid, _ in people:
        profiles[pid] = await rated(rest, pid, 1)
        r = profiles[pid]["ratings"]["isabel/standard"]
        assert r["races"] == 1 and r["sigma"] < 25 / 3 and r["ordinal"] == pytest.approx(
            r["mu"] - 3 * r["sigma"], abs=1e-3)
    for kind, group in (("human", people[:2]), ("bot", people[2:])):
        first, second = sorted((pid for pid, _ in group), key=order.index)
        assert profiles[first]["ratings"]["isabel/standard"]["mu"] > 25 > profiles[
            second]["ratings"]["isabel/standard"]["mu"]
        status, page = await rest.call(
            "GET", f"/boards/ratings/isabel/standard?kind={kind}&around={first}")
        assert status == 200
        ids = [x["player"] for x in page["entries"]]
        assert first in ids and second in ids and ids.index(first) < ids.index(second)
        assert not unstated({"type": "board", **page}), page
        others = {pid for pid, _ in people} - {pid for pid, _ in group}
        assert not others & set(ids)
    # Every entrant's statistics counted the race; its transcripts are public, tokenless.
    status, stats = await rest.call("GET", f"/players/{people[0][0]}/stats")
    assert status == 200 and stats["stats"][0]["played"] == 1
    entry = next(e for e in ended["ranking"] if e["player"] == people[0][0])
    url = f"{nodes[1].url}/api/v1/sessions/{entry['session']}/moves"
    async with httpx.AsyncClient() as http:
        t = (await http.get(url)).json()
    assert t["seed"] == ended["seed"] and t["moves"] == ["resign"] and not cards_in(
        {k: v for k, v in t.items() if k != "seed"})
    out = subprocess.run([sys.executable, "-m", "engine.cli", "replay", url], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("ok:"), out.stdout + out.stderr
    await rest.aclose()


async def test_every_race_moves_every_rating_and_shrinks_its_uncertainty(
        nodes: list[Node]) -> None:
    people = [await player(nodes[0], f"H{i}", "human") for i in range(3)]
    rest = Rest(nodes[0], people[0][1])
    seen: dict[str, list[dict[str, Any]]] = {pid: [] for pid, _ in people}
    for races in (1, 2):
        await finish_race(nodes, people)
        for pid in seen:
            profile = await rated(rest, pid, races)
            seen[pid].append(profile["ratings"]["isabel/standard"])
    for first, second in seen.values():
        assert (first["races"], second["races"]) == (1, 2)
        assert second["sigma"] < first["sigma"] and second["mu"] != first["mu"]
    await rest.aclose()


async def test_no_daily_message_names_a_hidden_card_in_any_rule_set(
        services: tuple[api.Services, Clock]) -> None:
    """Every rule set's ranked attempt: the view is the engine's, the seed stays hidden, and
    no reply (the attempt, a few moves, the board) names a card not shown."""
    sv, _ = services
    ann, _ = await sv.accounts.register("Ann", "human")
    day = date.fromisoformat((await sv.daily.info())["day"])
    rng = random.Random(7)
    for rules in engine.rule_sets():
        s = await start(sv, ann, rules.id, rules.variant)
        dealt = rules.deal(await sv.daily.seed(day, rules), competitive=True)
        assert s["view"] == dealt.view() and "seed" not in s, rules.key
        seen = view_cards(s["view"])
        assert cards_in(s) <= seen, rules.key
        for _ in range(3):
            if not s["legal"]:
                break
            s = await move(sv, ann, s["session"], rng.choice(s["legal"]))
            seen |= view_cards(s["view"])
            assert cards_in(s) <= seen and "seed" not in s, rules.key
        if s["view"]["status"] == "playing":
            s = await resign(sv, ann, s["session"])
        page = await board(sv, ann, f"daily/today/{rules.id}/{rules.variant}", around="me")
        assert not cards_in(page), rules.key
        with pytest.raises(ApiError):  # still the day: nobody else may read the moves
            await api.transcript(sv, None, s["session"])


# ----- who ranks: new accounts, resignations --------------------------------------------------


async def test_an_account_made_during_the_day_plays_it_unranked(clocked_redis_url: str) -> None:
    """With the same-day rule on (off by default): Old was made the day before, New during
    the day: both get a ranked attempt (one, no undo, hidden cards), but only Old's reaches
    the boards, the points and the streaks."""
    day = fresh_day()
    clock = Clock(day - timedelta(days=1))
    sv = build_services(Settings(redis_url=clocked_redis_url, daily_secret=f"age {day}",
                                 daily_rank_new_accounts=False), clock)
    old, _ = await sv.accounts.register("Old", "human")
    clock.at(day, 0)  # the first ms of the day is already "during the day"
    new, _ = await sv.accounts.register("New", "human")
    clock.at(day, 5 * HOUR)
    for p in (old, new):
        s = await start(sv, p, "klondike", "easy")
        assert s["mode"] == "daily" and "seed" not in s
        assert s["ranked"] == (p is old) and ("unranked_reason" in s) == (p is new)
        if p is new:
            assert "from the next day on" in s["unranked_reason"]
        assert (await sv.sessions.load(s["session"])).competitive  # the ranked rules
        await resign(sv, p, s["session"])
        with pytest.raises(ApiError) as e:  # still one attempt
            await start(sv, p, "klondike", "easy")
        assert e.value.code == "daily.played"
    for name in (f"daily/{day}/klondike/easy", "weekly/current/all", "alltime/klondike/easy",
                 "streaks/played"):
        ids = {x["player"] for x in (await board(sv, old, name))["entries"]}
        assert old.id in ids and new.id not in ids, name
    stats = (await sv.records.profile(new, day))["stats"]
    assert [(x["game"], x["played"]) for x in stats] == [("klondike", 1)]  # still counted
    # From the next day on, New ranks like anyone.
    clock.at(day + timedelta(days=1))
    s = await start(sv, new, "klondike", "easy")
    assert s["ranked"] and "unranked_reason" not in s
    await resign(sv, new, s["session"])
    ids = {x["player"] for x in (await board(sv, new, "daily/today/klondike/easy"))["entries"]}
    assert new.id in ids
    await sv.redis.aclose()


async def test_by_default_an_account_made_during_the_day_ranks_and_is_told_so_first(
        clocked_redis_url: str) -> None:
    """The default settings: an account made during the day ranks that day; the day's page
    says so per deal before the start, then that it was played; a past day ranks nobody."""
    day = fresh_day()
    clock = Clock(day)
    sv = build_services(Settings(redis_url=clocked_redis_url, daily_secret=f"default {day}"),
                        clock)
    new, _ = await sv.accounts.register("Newcomer", "human")
    clock.at(day, 5 * HOUR)

    def mine(page: dict[str, Any], game: str, variant: str) -> dict[str, Any]:
        deal = next(d for d in page["deals"] if (d["game"], d["variant"]) == (game, variant))
        return dict(deal["you"])

    page = await daily_feature.daily_get(sv, new, {})
    assert mine(page, "klondike", "easy") == {"ranked": True, "played": False}
    assert len(page["deals"]) == len([d for d in page["deals"] if d["you"]["ranked"]])
    s = await start(sv, new, "klondike", "easy")
    assert s["ranked"] is True and "unranked_reason" not in s
    await resign(sv, new, s["session"])
    page = await daily_feature.daily_get(sv, new, {})
    assert mine(page, "klondike", "easy") == {"ranked": True, "played": True}
    assert mine(page, "golf", "easy")["played"] is False
    ids = {x["player"] for x in (await board(sv, new, f"daily/{day}/klondike/easy"))["entries"]}
    assert new.id in ids
    # Another day's page: closed to ranked play, and it says so.
    clock.at(day + timedelta(days=1))
    past = mine(await daily_feature.daily_get(sv, new, {"day": day.isoformat()}), "klondike",
                "easy")
    assert past["ranked"] is False and past["played"] is True
    assert "closed to ranked play" in past["unranked_reason"]
    await sv.redis.aclose()


async def test_resigning_at_once_ranks_below_playing_on_to_the_same_score_on_the_day(
        services: tuple[api.Services, Clock]) -> None:
    """Quick resigns at once with 0; Slow makes a move that scores nothing and walks away:
    also 0, far later, yet Slow ranks first."""
    sv, clock = services
    day = date.fromisoformat((await sv.daily.info())["day"])
    quick, _ = await sv.accounts.register("Quick", "human")
    slow, _ = await sv.accounts.register("Slow", "human")
    s = await start(sv, slow, "klondike", "easy")
    quiet = "s" if "s" in s["legal"] else next(m for m in s["legal"] if "-f" not in m)
    await asyncio.sleep(0.05)  # Slow's time is longer than the resignation's by any clock
    s = await move(sv, slow, s["session"], quiet)
    assert s["view"]["score"] == 0
    q = await start(sv, quick, "klondike", "easy")
    q = await resign(sv, quick, q["session"])
    assert q["view"]["score"] == 0
    clock.at(day + timedelta(days=1), 2 * HOUR)
    await sv.daily.close_due()
    entries = (await board(sv, quick, f"daily/{day}/klondike/easy"))["entries"]
    order = [(x["player"], x["rank"]) for x in entries if x["player"] in (quick.id, slow.id)]
    assert [p for p, _ in order] == [slow.id, quick.id], entries
    mine = {x["player"]: x for x in entries}
    assert mine[quick.id]["resigned"] and not mine[slow.id]["resigned"]
    assert mine[slow.id]["walked_away"]
