"""The Python SDK against real server processes: every call in both encodings, refusals
surfacing with the server's codes, races followed through events, and resuming after a
dropped connection (on the same node and on the other one) without missing or repeating an
event, and without applying a move twice."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
from typing import Any

import httpx
import pytest

from clients.bots.random import RandomBot
from clients.sdk import (
    BlockingClient,
    Client,
    ConnectionLost,
    Event,
    MatchEnded,
    MatchForfeit,
    MatchStarted,
    Notice,
    RaceEnded,
    RaceEvent,
    RaceJoined,
    RaceLeft,
    RaceProgress,
    RaceRematched,
    RaceResync,
    RaceStarted,
    ServerError,
    Session,
    SessionPushed,
    play,
)
from clients.sdk.client import MatchState
from clients.sdk.play import play_match, play_session
from tests.server.client import Node

ENCODINGS = ["json", "msgpack"]


async def bot_account(node: Node, name: str, encoding: str = "json") -> tuple[str, str]:
    player, token = await Client.register(node.url, name, "bot", encoding=encoding)
    return player["id"], token


def drop(c: Client) -> None:
    """Cut the client's connection as a network failure would: no close handshake."""
    assert c._ws is not None
    c._ws.transport.abort()


@pytest.mark.parametrize("encoding", ENCODINGS)
async def test_practice_game_every_session_call(node: Node, encoding: str) -> None:
    player, token = await Client.register(node.url, "Ann", "human", encoding=encoding)
    assert player["kind"] == "human" and player["id"].startswith("p") and token
    async with Client(node.url, token, encoding=encoding) as c:
        assert c.player == player
        catalog = await c.catalog()
        assert len(catalog) == 60
        assert {"id": "klondike", "variant": "easy"}.items() <= next(
            r for r in catalog if r["id"] == "klondike" and r["variant"] == "easy").items()
        layout = await c.rule_set("klondike", "easy")
        assert {p for part in layout["layout"] for p in part["piles"]} >= {"t1", "t7", "s"}

        s = await c.solo("klondike", "easy", seed="00")
        assert isinstance(s, Session) and s.mode == "practice" and s.rev == 0
        assert s.seed == "00" and s.status == "playing" and "t7-t1" in s.legal
        assert s.commitment == hashlib.sha256(bytes.fromhex("00")).hexdigest()
        assert s.raw["session"] == s.id

        s = await c.move(s.id, "t7-t1", rev=0)
        assert s.rev == 1 and s.can_undo and s.view["piles"]["t1"]["up"][-1] == "3s"
        with pytest.raises(ServerError) as e:
            await c.move(s.id, "t6-t1")
        assert e.value.code == "build.tableau" and "can't go on" in e.value.message
        with pytest.raises(ServerError) as e:
            await c.move(s.id, s.legal[0], rev=0)
        assert e.value.code == "conflict"
        assert (await c.session(s.id)).rev == 1, "a refused move changes nothing"

        s = await c.undo(s.id)
        assert s.rev == 2 and s.view["piles"]["t7"]["up"] == ["3s"]
        s = await c.move(s.id, {"kind": "move", "from": "t7", "to": "t1", "n": 1})
        assert s.rev == 3
        s = await c.resign(s.id)
        assert s.status == "lost" and s.over and not s.legal
        with pytest.raises(ServerError) as e:
            await c.undo(s.id)
        assert e.value.code == "undo.resigned"
        transcript = await c.transcript(s.id)
        assert transcript["moves"] == ["t7-t1", "resign"] and transcript["seed"] == "00"
        await c.ping()


@pytest.mark.parametrize("encoding", ENCODINGS)
async def test_refusals_surface_with_the_servers_codes(nodes: list[Node], encoding: str
                                                       ) -> None:
    node = nodes[0]
    with pytest.raises(ServerError) as e:
        await Client.register(node.url, "", "bot", encoding=encoding)
    assert e.value.code == "message.invalid" and e.value.status == 400
    with pytest.raises(ServerError) as e:
        async with Client(node.url, "not-a-token", encoding=encoding):
            pass
    assert e.value.code == "auth.invalid"
    with pytest.raises(ServerError) as e:
        await Client(node.url, "not-a-token", encoding=encoding).catalog()
    assert e.value.code == "auth.invalid" and e.value.status == 401

    _, token = await bot_account(node, "Err", encoding)
    async with Client(node.url, token, encoding=encoding) as c:
        cases: list[tuple[str, Any]] = [
            ("game.unknown", c.solo("nope", "easy")),
            ("game.unknown", c.rule_set("nope", "easy")),
            ("session.unknown", c.session("snothere")),
            ("race.unknown", c.join_race("rnothere")),
            ("race.unknown", c.subscribe_race("rnothere")),
            ("race.unknown", c.race("rnothere")),
            ("board.unknown", c.board("no/such/board")),
            ("message.invalid", c.create_race("golf", "easy", seats=1)),
            ("message.unknown_type", c.request({"type": "no.such.thing"})),
        ]
        for code, call in cases:
            with pytest.raises(ServerError) as e:
                await call
            assert e.value.code == code, (code, e.value)
            assert e.value.message
        assert c.race_state("rnothere") is None, "a refused subscription is not followed"
        # The connection survives every refusal.
        assert (await c.solo("golf", "easy")).status == "playing"


async def test_race_from_creation_to_results_in_both_encodings(nodes: list[Node]) -> None:
    a_id, a_token = await bot_account(nodes[0], "Ann")
    b_id, b_token = await bot_account(nodes[1], "Bob", "msgpack")
    c_id, c_token = await bot_account(nodes[1], "Cat")
    async with Client(nodes[0].url, a_token) as ann, \
            Client(nodes[1].url, b_token, encoding="msgpack") as bob, \
            Client(nodes[1].url, c_token) as cat:
        race = await ann.create_race("golf", "easy", 3, start="manual", countdown=0,
                                     time_limit=120)
        assert race.state == "open" and race.joined_seq == 1 and race.creator == a_id
        assert race.seed is None and len(race.commitment or "") == 64
        assert race.id in [r.id for r in await bob.races()]

        joined = await bob.join_race(race.id)
        assert [e["player"] for e in joined.entrants] == sorted([a_id, b_id])
        await cat.join_race(race.id)
        left = await cat.leave_race(race.id)
        assert left.entrant(c_id) is None
        with pytest.raises(ServerError) as e:
            await bob.start_race(race.id)
        assert e.value.code == "race.not_creator"
        started = await ann.start_race(race.id)
        assert started.state == "running"
        with pytest.raises(ServerError) as e:
            await cat.join_race(race.id)
        assert e.value.code == "race.not_open"

        sa = await ann.wait_race_session(race.id, timeout=10)
        sb = await bob.wait_race_session(race.id, timeout=10)
        assert sa is not None and sb is not None
        assert sa.race == race.id and sa.mode == "race" and sa.seed is None
        assert sa.view["piles"] == sb.view["piles"], "one deal for everyone"

        sa = await play_session(ann, RandomBot(1), sa)
        sb = await play_session(bob, RandomBot(2), sb)
        assert sa.over and sb.over
        results = await ann.wait_race_end(race.id, timeout=30)
        assert {r["player"] for r in results.ranking} == {a_id, b_id}
        assert hashlib.sha256(bytes.fromhex(results.seed)).hexdigest() == race.commitment
        assert (await bob.wait_race_end(race.id, timeout=30)).seed == results.seed

        # Events, in order, deduplicated, typed.
        seen = [e async for e in take(ann.events(), lambda e: isinstance(e, RaceEnded))]
        races = [e for e in seen if isinstance(e, RaceEvent)]
        assert [e.seq for e in races] == list(range(2, races[-1].seq + 1))
        assert [e.player["id"] for e in races if isinstance(e, RaceJoined)] == [b_id, c_id]
        assert [e.player for e in races if isinstance(e, RaceLeft)] == [c_id]
        start = next(e for e in races if isinstance(e, RaceStarted))
        assert start.sessions == {a_id: sa.id, b_id: sb.id}
        finals = [e for e in races if isinstance(e, RaceProgress) and e.status != "playing"]
        assert {e.player for e in finals} == {a_id, b_id}
        assert any(isinstance(e, SessionPushed) and e.session and e.session.id == sa.id
                   for e in seen)
        ended = races[-1]
        assert isinstance(ended, RaceEnded) and ended.seed == results.seed
        assert ann.race_state(race.id) is not None and ann.race_state(race.id).over  # type: ignore[union-attr]

        # Cat, who joined and left, followed it all; its summary's state kept up.
        cat_state = cat.race_state(race.id)
        assert cat_state is not None and cat_state.seq == ended.seq
        assert cat_state.summary is not None and cat_state.summary.state == "ended"
        await cat.unsubscribe_race(race.id)
        assert cat.race_state(race.id) is None

    # A spectator subscribing late gets the whole race as one summary.
    _, d_token = await bot_account(nodes[0], "Dan")
    async with Client(nodes[0].url, d_token) as dan:
        state = await dan.subscribe_race(race.id)
        assert state.summary is not None and state.summary.state == "ended"
        assert state.summary.seed == results.seed and state.seq == ended.seq
        assert state.session is None
        resync = await next_of(dan, RaceResync)
        assert resync.race == race.id and resync.summary == state.summary


async def take(events: Any, last: Any) -> Any:
    """The events up to and including the first for which ``last`` holds."""
    async for e in events:
        yield e
        if last(e):
            return


async def next_of(c: Client, kind: type) -> Any:
    while True:
        e = await c.next_event(timeout=10)
        if isinstance(e, kind):
            return e


@pytest.mark.parametrize("encoding", ENCODINGS)
async def test_daily_boards_and_profile(node: Node, encoding: str) -> None:
    me, token = await bot_account(node, "Day", encoding)
    async with Client(node.url, token, encoding=encoding) as c:
        day = await c.daily()
        assert day.state in ("open", "closing", "revealed") and len(day.deals) == 60
        golf = next(d for d in day.deals if (d["game"], d["variant"]) == ("golf", "easy"))
        assert len(golf["commitment"]) == 64 and "seed" not in golf
        assert (await c.daily(day.day)).day == day.day

        s = await c.start_daily("golf", "easy")
        assert s.mode == "daily" and s.daily == day.day and s.commitment == golf["commitment"]
        again = await c.start_daily("golf", "easy")
        assert again.id == s.id, "asking again resumes the attempt"
        s = await play_session(c, RandomBot(3), s)
        assert s.over
        with pytest.raises(ServerError) as e:
            await c.start_daily("golf", "easy")
        assert e.value.code == "daily.played"
        with pytest.raises(ServerError) as e:  # the replay waits for the day's reveal
            await c.start_daily("golf", "easy", ranked=False)
        assert e.value.code == "daily.not_revealed"

        board = await c.board("daily/today/golf/easy", kind="bot", around="me", count=5)
        mine = [x for x in board.entries if x["player"] == me]
        assert board.kind == "bot" and len(mine) == 1 and mine[0]["score"] == s.score
        human = await c.board("daily/today/golf/easy", kind="human", around="me")
        assert human.raw["you"] is None, "a bot is ranked apart from humans"
        assert all(x["player"] != me for x in human.entries)

        profile = await c.profile()
        assert profile["id"] == me and profile["kind"] == "bot"
        assert (await c.profile(me))["name"] == "Day"
        stats = await c.stats(me)
        assert any(x["game"] == "golf" and x["played"] >= 1 for x in stats["stats"])


def test_blocking_client(node: Node) -> None:
    player, token = BlockingClient.register(node.url, "Sync", "bot")
    with BlockingClient(node.url, token, encoding="msgpack") as c:
        assert c.player == player
        assert len(c.catalog()) == 60
        s = c.solo("golf", "easy", "01")
        s2 = c.move(s.id, s.legal[0], rev=s.rev)
        assert s2.rev == 1 and c.session(s.id).rev == 1
        assert c.undo(s.id).rev == 2
        assert c.resign(s.id).status == "lost"
        with pytest.raises(ServerError) as e:
            c.solo("nope", "easy")
        assert e.value.code == "game.unknown"
        race = c.create_race("golf", "easy", 2)
        assert c.race_state(race.id) is not None
        assert c.leave_race(race.id).entrant(player["id"]) is None
    with pytest.raises(RuntimeError):
        c.catalog()


def test_the_blocking_client_has_every_call_but_the_streams() -> None:
    calls = {n for n, f in inspect.getmembers(Client)
             if not n.startswith("_") and inspect.iscoroutinefunction(f)}
    assert calls >= BlockingClient.STREAMS
    assert calls - BlockingClient.STREAMS <= set(dir(BlockingClient))


def test_blocking_client_leagues_and_challenges(node: Node) -> None:
    _, ann_token = BlockingClient.register(node.url, "Sync Ann", "bot")
    bob, bob_token = BlockingClient.register(node.url, "Sync Bob", "bot")
    with BlockingClient(node.url, ann_token) as ann, BlockingClient(node.url, bob_token) as b:
        league = ann.create_league("Sync league")
        assert b.join_league(league["code"])["league"] == league["league"]
        assert [x["league"] for x in b.leagues()] == [league["league"]]
        assert len(ann.league(league["league"])["members"]) == 2
        ann.league_board(league["league"])  # the week board, empty so far
        c = ann.challenge(player=bob["id"], game="golf", variant="easy")
        assert [x.id for x in b.challenges()] == [c.id]
        assert ann.withdraw_challenge(c.id).state == "withdrawn"
        c = ann.challenge(player=bob["id"], game="golf", variant="easy")
        race = b.accept_challenge(c.id)
        assert ann.wait_challenge_answer(c.id, timeout=10).race == race.id


async def test_reconnect_mid_race_resumes_the_events_and_finishes(nodes: list[Node]) -> None:
    a_id, a_token = await bot_account(nodes[0], "Ann")
    b_id, b_token = await bot_account(nodes[1], "Bob")
    ann = Client(nodes[0].url, a_token, reconnect_delay=0.5)
    async with ann, Client(nodes[1].url, b_token) as bob:
        race = await ann.create_race("golf", "easy", 2, countdown=0)
        await bob.join_race(race.id)
        sa = await ann.wait_race_session(race.id, timeout=10)
        sb = await bob.wait_race_session(race.id, timeout=10)
        assert sa is not None and sb is not None
        for _ in range(2):
            sa = await ann.move(sa.id, sa.legal[0], rev=sa.rev)

        drop(ann)
        for _ in range(3):  # made while Ann is away (or coming back): she must see them all
            sb = await bob.move(sb.id, sb.legal[0], rev=sb.rev)
        await ann.wait_for(lambda: ann.connections == 2, timeout=30)

        sa = await play_session(ann, RandomBot(4), sa)
        sb = await play_session(bob, RandomBot(5), sb)
        results = await ann.wait_race_end(race.id, timeout=30)
        assert {r["player"] for r in results.ranking} == {a_id, b_id}

        seen = [e async for e in take(ann.events(), lambda e: isinstance(e, RaceEnded))]
        notices = [e.type for e in seen if isinstance(e, Notice)]
        assert notices == ["connection.lost", "connection.resumed"]
        seqs = [e.seq for e in seen if isinstance(e, RaceEvent)]
        assert seqs == list(range(2, seqs[-1] + 1)), "no event missed or repeated"
        bob_moves = [e.moves for e in seen if isinstance(e, RaceProgress) and e.player == b_id]
        assert bob_moves[:3] == [1, 2, 3]
        transcript = await ann.transcript(sa.id)
        assert len(transcript["moves"]) == sa.view["moves"]


async def test_a_move_whose_ack_was_lost_is_applied_exactly_once(node: Node) -> None:
    _, token = await bot_account(node, "Once")
    async with Client(node.url, token, reconnect_delay=0.05) as c:
        for seed in ("02", "03", "04"):
            s = await c.solo("golf", "easy", seed)
            move = asyncio.create_task(c.move(s.id, s.legal[0]))
            while not c._pending:  # the frame is on its way: cut the line under it
                await asyncio.sleep(0)
            drop(c)
            after = await move
            assert after.rev == s.rev + 1
            assert (await c.transcript(s.id))["moves"] == [s.legal[0]]
        assert c.connections == 4


async def test_a_change_sent_with_rev_is_sent_again_after_a_drop_and_made_once(
        node: Node) -> None:
    """With ``rev`` a change cut off by a drop is simply sent again: the server answers a
    change it has already as made. A move, an undo and a resign, each applied once."""
    _, token = await bot_account(node, "Again")
    async with Client(node.url, token, reconnect_delay=0.05) as c:
        s = await c.solo("klondike", "easy", "00")
        sid = s.id
        for change in (lambda: c.move(sid, "t7-t1", rev=0), lambda: c.undo(sid, rev=1),
                       lambda: c.resign(sid, rev=2)):
            sent = asyncio.create_task(change())
            while not c._pending:  # the frame is on its way: cut the line under it
                await asyncio.sleep(0)
            drop(c)
            after = await sent
            assert after.rev == s.rev + 1, after
            s = after
        assert s.status == "lost"
        assert (await c.transcript(s.id))["moves"] == ["resign"]
        # sent again on a line that held: the answer is the session, marked as made before
        again = await c.resign(s.id, rev=2)
        assert again.rev == 3 and again.raw["repeated"] is True
        with pytest.raises(ServerError) as e:
            await c.move(s.id, "t7-t1", rev=0)  # made at 1, but undone since
        assert e.value.code == "conflict"
        assert (await c.transcript(s.id))["moves"] == ["resign"]


async def test_create_race_is_never_sent_twice(node: Node) -> None:
    """Whether the race was made cannot be told after a drop: the caller hears so."""
    _, token = await bot_account(node, "Twice")
    async with Client(node.url, token, reconnect_delay=0.05) as c:
        create = asyncio.create_task(c.create_race("golf", "easy", 2))
        while not c._pending:
            await asyncio.sleep(0)
        drop(c)
        try:
            race = await create
        except ConnectionLost:
            pass
        else:  # the reply beat the cut
            assert race.state == "open"
        mine = [r for r in await c.races() if r.creator == c.player["id"]]  # type: ignore[index]
        assert len(mine) <= 1


async def test_the_same_player_resumes_the_race_on_the_other_node(nodes: list[Node]) -> None:
    """A bot process that dies mid-race comes back elsewhere with the last seq it saw."""
    a_id, a_token = await bot_account(nodes[0], "Ann")
    b_id, b_token = await bot_account(nodes[0], "Bob")
    async with Client(nodes[0].url, b_token, encoding="msgpack") as bob:
        first = Client(nodes[0].url, a_token)
        race = await first.create_race("golf", "easy", 2, countdown=0)
        await bob.join_race(race.id)
        sa = await first.wait_race_session(race.id, timeout=10)
        sb = await bob.wait_race_session(race.id, timeout=10)
        assert sa is not None and sb is not None
        sa = await first.move(sa.id, sa.legal[0], rev=sa.rev)
        await first.wait_for(lambda: first.race_state(race.id).seq >= 4, 10)  # type: ignore[union-attr]
        last = first.race_state(race.id).seq  # type: ignore[union-attr]
        await first.close()

        for _ in range(2):
            sb = await bob.move(sb.id, sb.legal[0], rev=sb.rev)
        async with Client(nodes[1].url, a_token, encoding="msgpack") as again:
            state = await again.subscribe_race(race.id, after=last)
            assert state.session is not None and state.session.rev == sa.rev
            assert state.session.view == sa.view
            missed = [e async for e in take(again.events(),
                                            lambda e: isinstance(e, SessionPushed))]
            progress = [e for e in missed if isinstance(e, RaceProgress)]
            assert [e.seq for e in progress] == [last + 1, last + 2]
            assert [(e.player, e.moves) for e in progress] == [(b_id, 1), (b_id, 2)]
            final = await play_session(again, RandomBot(6), state.session)
            await play_session(bob, RandomBot(7), sb)
            results = await again.wait_race_end(race.id, timeout=30)
        mine = next(r for r in results.ranking if r["player"] == a_id)
        assert mine["moves"] == final.view["moves"] and mine["status"] == final.status


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
async def test_match_calls(nodes: list[Node], encoding: str) -> None:
    a_id, a_token = await bot_account(nodes[0], "Ann", encoding)
    b_id, b_token = await bot_account(nodes[1], "Bob", encoding)
    async with Client(nodes[0].url, a_token, encoding=encoding) as a, \
            Client(nodes[1].url, b_token, encoding=encoding) as b:
        with pytest.raises(ServerError) as e:
            await a.create_match("klondike", "easy", 2)
        assert e.value.code == "match.game"
        made = await a.create_match("bowling", "easy", 2, turn_time=60, start="manual")
        assert made.state == "open" and made.joined_seq is not None
        heard: list[Event] = []
        b.listeners.append(heard.append)
        await b.join_match(made.id)
        with pytest.raises(ServerError) as e:
            await b.start_match(made.id)
        assert e.value.code == "match.not_creator"
        started = await a.start_match(made.id)
        assert started.state == "running" and started.turn and started.turn["player"] == a_id
        with pytest.raises(ServerError) as e:
            await b.match_move(made.id, started.you["legal"][0])
        assert e.value.code == "turn.wrong" and "player 1's turn" in e.value.message
        ack = await a.match_move(made.id, started.you["legal"][0])
        assert ack.raw["type"] == "match.ack" and ack.you and ack.you["view"]["moves"] == 1
        assert ack.view and ack.view["moves"] == 0  # others see the lane as the frame began
        watched = await b.subscribe_match(made.id)
        await b.wait_for(lambda: watched.seq >= ack.seq, 10)
        left = await a.leave_match(made.id)
        assert [p["forfeited"] for p in left.players] == [True, False]
        await b.leave_match(made.id)
        await b.wait_for(lambda: watched.ended is not None, 10)
        assert watched.ended["results"]["winner"] == [a_id, b_id]  # everyone left: totals
        # Each event comes as its own class, with its fields.
        kinds = {type(e) for e in heard if e.type.startswith("match.")}
        assert {MatchStarted, MatchForfeit, MatchEnded} <= kinds, kinds
        started_event = next(e for e in heard if isinstance(e, MatchStarted))
        assert [p["player"] for p in started_event.order] == [a_id, b_id]
        assert started_event.turn is not None and started_event.turn["player"] == a_id
        forfeit = next(e for e in heard if isinstance(e, MatchForfeit))
        assert forfeit.match == made.id and forfeit.player == a_id and forfeit.view
        ended = next(e for e in heard if isinstance(e, MatchEnded))
        assert ended.results["winner"] == [a_id, b_id] and len(ended.seed) == 64
        transcript = await b.match_transcript(made.id)
        assert transcript["moves"][0]["move"] == started.you["legal"][0]
        assert [m["move"] for m in transcript["moves"]][-2:] == ["forfeit", "forfeit"]


def test_a_late_reply_does_not_replace_a_newer_position() -> None:
    """A match.ack computed before the round ended can arrive after the next card's
    match.you; the newer position (by the match's event number) is kept."""
    c = Client("http://127.0.0.1:1", "token")
    c.player = {"id": "p1", "name": "A", "kind": "bot"}
    ms = c._matches.setdefault("m1", MatchState("m1"))
    c._note_push("match.you", {"type": "match.you", "match": "m1", "legal": ["s-g2"],
                               "waiting": True, "as_of": 9})
    c._note_reply("match.ack", {"type": "match.ack", "match": "m1", "seq": 7,
                                "you": {"legal": [], "waiting": False, "as_of": 7}})
    assert ms.you is not None and ms.you["legal"] == ["s-g2"]
    c._note_reply("match.ack", {"type": "match.ack", "match": "m1", "seq": 10,
                                "you": {"legal": [], "waiting": False, "as_of": 10}})
    assert ms.you["legal"] == []
    # Bowling: a turn that is not ours offers no legal moves, whatever the message lists
    c._note_reply("match.ack", {"type": "match.ack", "match": "m1", "seq": 11,
                                "turn": {"player": "p2"}, "legal": ["s-p1"]})
    assert ms.you["legal"] == []


class Deaf(Client):
    """A client that misses the first event handing it the turn (as if its notice were lost
    on the way); everything else arrives."""

    missed = 0

    def _note_push(self, kind: str, msg: dict[str, Any]) -> Any:
        turn = msg.get("turn") or {}
        if (kind == "match.moved" and not self.missed and self.player is not None
                and turn.get("player") == self.player["id"]):
            self.missed = msg["seq"]
            return None
        return super()._note_push(kind, msg)


async def test_a_match_player_who_missed_its_turn_reads_the_match_again(
        nodes: list[Node], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "RECHECK", 0.5)
    _, a_token = await bot_account(nodes[0], "Ann")
    _, b_token = await bot_account(nodes[1], "Bob")
    async with Client(nodes[0].url, a_token) as host, Deaf(nodes[1].url, b_token) as deaf:
        made = await host.create_match("bowling", "easy", 2, turn_time=600)
        runs = [play_match(host, RandomBot(1), made.id), play_match(deaf, RandomBot(2), made.id)]
        ended = await asyncio.wait_for(asyncio.gather(*runs), 120)  # no timer would help
    assert deaf.missed and all(e["results"]["winner"] for e in ended)


class Learner(RandomBot):
    """A random bot that keeps every rule set it is told."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.told: list[dict[str, Any]] = []

    def learn(self, rules: dict[str, Any]) -> None:
        super().learn(rules)
        self.told.append(rules)


async def test_the_bot_is_told_the_rule_set_it_plays(nodes: list[Node]) -> None:
    _, a_token = await bot_account(nodes[0], "Ada")
    _, b_token = await bot_account(nodes[1], "Bea")
    async with Client(nodes[0].url, a_token) as a, Client(nodes[1].url, b_token) as b:
        rules = await a.rules("golf", "easy")
        assert rules == await a.rule_set("golf", "easy") and rules["layout"]
        rules["layout"].clear()  # the caller's copy: the client keeps its own whole
        assert (await a.rules("golf", "easy"))["layout"]

        bot = Learner()
        for seed in ("00", "01"):
            await play_session(a, bot, await a.solo("golf", "easy", seed=seed), max_moves=3)
        assert [(r["id"], r["variant"]) for r in bot.told] == [("golf", "easy")] * 2
        assert bot.rules == bot.told[-1]

        made = await a.create_match("bowling", "easy", 2, turn_time=600)
        host, guest = Learner(1), Learner(2)
        await asyncio.wait_for(asyncio.gather(play_match(a, host, made.id),
                                              play_match(b, guest, made.id)), 120)
    for learner in (host, guest):
        assert [(r["id"], r["variant"]) for r in learner.told] == [("bowling", "easy")]
        assert learner.told[0]["match"]["kind"] == "turns"


async def test_a_rematch_asked_by_one_and_accepted_by_the_other(nodes: list[Node]) -> None:
    a_id, a_token = await bot_account(nodes[0], "Ann")
    _, b_token = await bot_account(nodes[1], "Bob", "msgpack")
    async with Client(nodes[0].url, a_token) as ann, \
            Client(nodes[1].url, b_token, encoding="msgpack") as bob:
        race = await ann.create_race("golf", "easy", 2, countdown=0, time_limit=60)
        await bob.join_race(race.id)
        for c in (ann, bob):
            s = await c.wait_race_session(race.id, timeout=10)
            assert s is not None
            await c.resign(s.id)
        await bob.wait_race_end(race.id, timeout=30)

        asked = await ann.rematch_race(race.id)
        assert asked.state == "open" and asked.id != race.id and asked.joined_seq
        assert asked.raw["rematch_of"] == race.id and asked.commitment != race.commitment
        told = [e async for e in take(bob.events(), lambda e: isinstance(e, RaceRematched))]
        offer = told[-1]
        assert isinstance(offer, RaceRematched)
        assert offer.rematch == asked.id and offer.by["id"] == a_id
        accepted = await bob.rematch_race(race.id)
        assert accepted.id == asked.id
        assert await bob.wait_race_session(asked.id, timeout=10) is not None, "it started"

        match = await ann.create_match("poker-square", "easy", 2)
        await bob.join_match(match.id)
        for c in (ann, bob):
            await c.leave_match(match.id)
        await ann.wait_for(lambda: (ann.match_state(match.id) or MatchState("")).ended
                           is not None, timeout=10)
        again = await bob.rematch_match(match.id)
        assert again.id != match.id and again.state == "open"
        assert (await ann.rematch_match(match.id)).id == again.id


async def test_waiting_for_a_race_reads_it_again_when_no_news_comes(nodes: list[Node]) -> None:
    """A seat taken over REST (or on a connection that lost a push): no event or session ever
    reaches this client's socket, yet waiting for the session and the end still finds them,
    by reading the race again after a few quiet seconds."""
    _, a_token = await bot_account(nodes[0], "Quiet")
    _, b_token = await bot_account(nodes[1], "Loud")
    async with Client(nodes[0].url, a_token) as quiet, Client(nodes[1].url, b_token) as loud:
        race = await loud.create_race("golf", "easy", 2, countdown=0, time_limit=30)
        async with httpx.AsyncClient(base_url=nodes[0].url + "/api/v1") as rest:
            taken = await rest.post(f"/races/{race.id}/join",
                                    headers={"Authorization": f"Bearer {a_token}"})
            assert taken.status_code == 200, taken.text
        mine = await quiet.wait_race_session(race.id, timeout=30)
        assert mine is not None and mine.race == race.id
        theirs = await loud.wait_race_session(race.id, timeout=10)
        assert theirs is not None
        await quiet.request({"type": "resign", "session": mine.id})
        await loud.request({"type": "resign", "session": theirs.id})
        results = await quiet.wait_race_end(race.id, timeout=30)
        assert {r["status"] for r in results.ranking} == {"lost"}
