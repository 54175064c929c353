"""Races: many players, one secret deal, live progress, a ranking, then the seed revealed.

A race is open (joining) -> running (from the start, for its time limit) -> ended (when
every entrant has finished or the time is up). Every change is one Lua script that also
numbers the race's event, keeps it in a short window and publishes it for every node.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgpack
from redis.asyncio import Redis
from redis.typing import EncodableT, FieldT

import engine
from engine.core import WON

from .. import followups, store
from ..accounts import Player, new_id
from ..config import Settings
from ..errors import ApiError
from ..sessions import Sessions, rules_for
from ..store import script_replies, scripts
from ..transport.messages import RaceCreate
from ..transport.reply_types import Entrant, Race, RaceResults, Ranked
from .record import DEFAULT_COUNTDOWN, DEFAULT_START, DEFAULT_TIME_LIMIT, RaceRecord, Terms, read
from .rematch import Rematches

log = logging.getLogger("samedeal.races")


def rank(entries: Sequence[Entrant], low: bool, starts_at: int, ended_at: int,
         ends_at: int) -> list[Ranked]:
    """Won first, then score in the game's direction, then the game's own tie-break (lower
    first), then entries that played on before resignations, then finishing time by the
    server's clock (still playing at the limit, or resigned, counts as finishing then), then
    fewer moves. Equal keys share a rank. So resigning at once never beats playing on to the
    same score. The entries (each of a started race: its progress) come back copied, each
    with its ``rank`` and ``time_ms`` (a resignation's: the race's whole time limit)."""

    def finished(e: Entrant) -> int:
        return ended_at if e.get("resigned") else e.get("finished_at") or ended_at

    def key(e: Entrant) -> tuple[int, int, int, bool, int, int]:
        return (0 if e["status"] == WON else 1, e["score"] if low else -e["score"],
                e.get("tie_break", 0), bool(e.get("resigned")), finished(e), e["moves"])

    out: list[Ranked] = []
    last: tuple[int, int, int, bool, int, int] | None = None
    for i, e in enumerate(sorted(entries, key=key)):
        k = key(e)
        end = ends_at if e.get("resigned") else finished(e)
        r: Ranked = {"player": e["player"], "name": e["name"], "kind": e["kind"],
                     "status": e["status"], "score": e["score"], "moves": e["moves"],
                     "rank": out[-1]["rank"] if k == last else i + 1,
                     "time_ms": max(0, end - starts_at)}
        if "session" in e:
            r["session"] = e["session"]
        if "finished_at" in e:
            r["finished_at"] = e["finished_at"]
        if "tie_break" in e:
            r["tie_break"] = e["tie_break"]
        if "resigned" in e:
            r["resigned"] = e["resigned"]
        out.append(r)
        last = k
    return out


class Races:
    def __init__(self, redis: Redis, settings: Settings, sessions: Sessions,
                 on_end: Callable[[RaceResults], Awaitable[None]]) -> None:
        self.redis = redis
        self.settings = settings
        self.sessions = sessions
        self.on_end = on_end  # once per race, with its results: statistics and ratings
        self._join = script_replies.bind(redis, scripts.JOIN, script_replies.Seated.of)
        self._open_seated = store.script(redis, scripts.OPEN_SEATED)
        self._leave = script_replies.bind(redis, scripts.LEAVE, script_replies.Done.of)
        self._start = script_replies.bind(redis, scripts.START, script_replies.Done.of)
        self._end = script_replies.bind(redis, scripts.END, script_replies.Done.of)
        self._expected = followups.Expected(redis, settings)
        self._rematches = Rematches(redis, settings)

    # ----- reading ----------------------------------------------------------------------

    async def _race(self, rid: str) -> RaceRecord:
        rk, entrants_key, _ = store.race_keys(rid)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(rk)
            pipe.hgetall(entrants_key)
            meta, entrants = await pipe.execute()
        if not meta:
            raise ApiError("race.unknown", f"there is no race {rid[:40]!r}")
        return read(rid, meta, entrants)

    async def _entries(self, r: RaceRecord) -> list[Entrant]:
        """Every entrant's public progress: never a card."""
        pids = sorted(r["entrant_info"])
        out = []
        rows: list[Any] = [None] * len(pids)
        if r["state"] != "open":
            async with self.redis.pipeline(transaction=False) as pipe:
                for pid in pids:
                    key, moves_key = store.session_keys(f"{r['race']}.{pid}")
                    pipe.hmget(key, "status", "score", "moves", "finished_at", "tie")
                    pipe.lindex(moves_key, -1)  # a resignation is the last entry of its log
                answers = await pipe.execute()
            rows = [[*row, last] for row, last in zip(answers[::2], answers[1::2], strict=True)]
        for pid, row in zip(pids, rows, strict=True):
            info = r["entrant_info"][pid]
            e: Entrant = {"player": pid, "name": info["name"], "kind": info["kind"]}
            if row is not None and row[0] is not None:
                e |= {"session": f"{r['race']}.{pid}", "status": row[0].decode(),
                      "score": int(row[1]), "moves": int(row[2]),
                      "finished_at": int(row[3]) if row[3] else None,
                      "tie_break": int(row[4] or 0),
                      "resigned": bool(row[5] and row[5].endswith(b" resign"))}
            out.append(e)
        return out

    async def summary(self, rid: str) -> Race:
        r = await self._race(rid)
        return await self._summary(r)

    async def _summary(self, r: RaceRecord) -> Race:
        rules = engine.get(r["game"], r["variant"])
        out: Race = {
            "race": r["race"], "game": r["game"], "variant": r["variant"], "name": rules.name,
            "scoring": rules.scoring.value, "state": r["state"], "commitment": r["commitment"],
            "seats": r["seats"], "start": r["start"], "time_limit": r["time_limit"],
            "countdown": r["countdown"], "creator": r["creator"], "seq": r["seq"],
            "entrants": await self._entries(r),
            "created": r["created"], "starts_at": r["starts_at"],
            "ends_at": r["ends_at"], "ended_at": r["ended_at"],
            "rematch": r["rematch"], "rematch_by": r["rematch_by"],
            "rematch_of": r["rematch_of"],
            "bot": r["bot"]}  # a bot race (server/botrace/__init__.py): its bot; else null
        if r["ghost"]:  # a ghost race's run: the ghost race reveals the seed
            out["ghost"] = r["ghost"]
        elif r["state"] == "ended":
            out["seed"] = r["seed"]
        return out

    async def list_open(self, limit: int = 50) -> list[Race]:
        """The newest open races first: races left open for ever (a creator who never starts
        them, or someone making them by the dozen) cannot push a new one off the list."""
        rids = await self.redis.zrevrange(store.OPEN_RACES, 0, limit - 1)
        out = []
        for rid in rids:
            with contextlib.suppress(ApiError):
                s = await self.summary(store.text(rid))
                if s["state"] == "open":
                    out.append(s)
        return out

    # ----- changing ---------------------------------------------------------------------

    async def create(self, player: Player, body: RaceCreate) -> Race:
        rid = await self._open(player, body)
        if body.get("join", True):
            return await self.join(player, rid)
        return await self.summary(rid)

    async def open_with_bot(self, player: Player, body: Terms, bot: Player,
                            strength: str, rid: str) -> Race:
        """Race ``rid`` against ``bot`` at ``strength`` (server/botrace/__init__.py), unlisted, the
        bot named in its summary: made with both seats taken, in one script, and started;
        the player's join reply. Its start is expected on the due set before it is made, so
        a node dying after that leaves the start to a sweep, never a seat to fill."""
        await self._expected.soon(store.follow_up("race", rid))
        await self._open(player, body, bot=(bot, strength), rid=rid, seated=(bot, player))
        await self.begin(rid)
        return await self.summary(rid) | {"joined_seq": 2}  # the bot's seat's event, then this

    async def _open(self, player: Player, body: Terms,
                    rematch_of: RaceRecord | None = None,
                    bot: tuple[Player, str] | None = None, *, rid: str = "",
                    seed: bytes = b"", ghost: str = "",
                    invited: dict[FieldT, EncodableT] | None = None,
                    seated: tuple[Player, ...] = ()) -> str:
        """A new open race with a new secret seed; its id. Listed among the open races,
        unless it is the rematch of the (ended) race ``rematch_of``: then only its entrants
        may join; or a bot race. A ghost race's run (server/ghosts/__init__.py) comes with its id,
        the ghost race's seed and its ``ghost``: unlisted, and its seed never shown by the race.
        ``seated``: players whose seats are taken as it is made (one script)."""
        rules = rules_for(body["game"], body["variant"])
        if rules.players[0] > 1:
            raise ApiError("game.unknown", f"{rules.name} is not a one-player game")
        rid = rid or new_id("r")
        seed = seed or os.urandom(32)
        now = await store.now_ms(self.redis)
        rk, _, _ = store.race_keys(rid)
        fields: dict[FieldT, EncodableT] = {
            "game": rules.id, "variant": rules.variant, "seats": body["seats"],
            "start": body.get("start", DEFAULT_START),
            "time_limit": body.get("time_limit", DEFAULT_TIME_LIMIT),
            "countdown": body.get("countdown", DEFAULT_COUNTDOWN), "creator": player.id,
            "state": "open", "seed": seed.hex(), "commitment": engine.commitment(seed),
            "created": now, "seq": 0}
        if rematch_of is not None:
            fields["rematch_of"] = rematch_of["race"]
            fields |= {f"invited:{pid}": 1 for pid in rematch_of["entrant_info"]}
        if bot is not None:
            fields |= {"bot": bot[0].id, "bot_name": bot[0].name, "bot_strength": bot[1]}
        if ghost:
            fields["ghost"] = ghost
        if invited is not None:
            fields |= invited
        if seated:
            await self._seat_all(rid, fields, seated)
        else:
            await self.redis.hset(rk, mapping=fields)
        if rematch_of is None and bot is None and not ghost and invited is None:
            await self.redis.zadd(store.OPEN_RACES, {rid: now})
        return rid

    async def _seat_all(self, rid: str, fields: dict[FieldT, EncodableT],
                        seated: tuple[Player, ...]) -> None:
        """Make race ``rid`` with ``fields`` and every seat of ``seated`` taken, announced
        (``race.joined``) in that order."""
        args: list[Any] = [self.settings.event_window, store.channel(rid), len(fields)]
        args += [x for kv in fields.items() for x in kv]
        for p in seated:
            args += [p.id, json.dumps({"name": p.name, "kind": p.kind}), msgpack.packb(
                {"type": "race.joined", "race": rid, "player": p.public()})]
        if int(await self._open_seated(keys=list(store.race_keys(rid)), args=args)) == 0:
            raise ApiError("conflict", "that race exists already")

    async def open_run(self, player: Player, body: Terms, rid: str, seed: bytes,
                       ghost: str) -> None:
        """A ghost race's run (server/ghosts/__init__.py): a race ``rid`` on the ghost race's seed,
        unlisted, its seed shown only by the ghost race; its seat is taken beforehand."""
        await self._open(player, body, rid=rid, seed=seed, ghost=ghost)

    async def open_invited(self, player: Player, body: Terms, invited: list[str],
                           challenge: str) -> str:
        """A new race only ``invited`` may join, not listed among the open ones: the race of
        the accepted challenge ``challenge`` (server/challenges/__init__.py)."""
        fields: dict[FieldT, EncodableT] = {"challenge": challenge}
        fields |= {f"invited:{pid}": 1 for pid in invited}
        return await self._open(player, body, invited=fields)

    async def drop(self, rid: str) -> None:
        """A race made in vain, that nobody knows (a challenge answered first elsewhere)."""
        await self._drop(rid)

    async def rematch(self, player: Player, rid: str) -> Race:
        """The same entrants on a new deal (server/races/rematch.py): the caller takes a seat in
        it; the reply is the new race's summary, with ``rematch_of``."""
        r = await self._race(rid)
        if player.id not in r["entrant_info"]:
            raise ApiError("race.not_entrant", "only the race's entrants can ask for a rematch")
        if r["state"] != "ended":
            raise ApiError("race.not_over", "a rematch can be asked for once the race is over")
        if r["bot"]:  # its bot would never take its seat: race.bot makes the next one
            raise ApiError("race.bot_rematch", "a race against a bot has no rematch: race the "
                           "bot again instead")
        if r["ghost"]:  # a ghost race's run: one attempt each, no race again
            raise ApiError("ghost.entered", "you have played this ghost race already: one "
                           "attempt each")
        body: Terms = {"game": r["game"], "variant": r["variant"], "start": r["start"],
                "time_limit": r["time_limit"], "countdown": r["countdown"],
                "seats": len(r["entrant_info"])}

        async def make() -> str:
            return await self._open(player, body, rematch_of=r)

        new = await self._rematches.claim("race", rid, list(store.race_keys(rid)), player,
                                          r["rematch"], make, self._drop, self._refused)
        try:
            return await self.join(player, new)
        except ApiError as e:
            if e.code != "race.joined":
                raise
            return await self.summary(new)  # asked again, or accepted after asking

    async def _drop(self, rid: str) -> None:
        """A rematch made in vain (another request's was recorded first): nobody knows it."""
        await self.redis.delete(*store.race_keys(rid))

    @staticmethod
    def _refused(why: str) -> ApiError:
        return ApiError(why, MESSAGES.get(why, why))

    async def join(self, player: Player, rid: str) -> Race:
        """Take a seat. A seat that fills a race that starts when full starts it: that start
        is expected on the due set before the seat is taken (the script refuses the seat as
        'filling' until it is), so a node dying in between leaves it to a sweep; and the
        joiner's retry starts it too."""
        rk, entrants_key, ek = store.race_keys(rid)
        event = {"type": "race.joined", "race": rid, "player": player.public()}
        info = json.dumps({"name": player.name, "kind": player.kind})
        expected = 0
        for _ in range(2):
            seated = await self._join([rk, entrants_key, ek], [
                player.id, info, msgpack.packb(event), self.settings.event_window,
                store.channel(rid), expected])
            if seated.why != "filling":
                break
            await self._expected.soon(store.follow_up("race", rid))  # its start
            expected = 1
        if seated.why == "race.joined":
            r = await self._race(rid)
            if self._full(r):  # the request that filled it died before starting it
                await self.begin(rid)
                return await self.summary(rid) | {"joined_seq": r["seq"]}
        if not seated.ok:
            raise self._refused(seated.why)
        r = await self._race(rid)
        if seated.full and r["start"] == "full":
            with contextlib.suppress(ApiError):  # another node may have started it
                await self._begin(rid)
        # The event that seated this player: every later one (the start, perhaps the end, if
        # the join filled the race) is theirs to receive.
        return await self.summary(rid) | {"joined_seq": seated.seq}

    @staticmethod
    def _full(r: RaceRecord) -> bool:
        """An open race that starts when full, every seat taken: its start is due."""
        return bool(r["state"] == "open" and r["start"] == "full"
                    and len(r["entrant_info"]) >= r["seats"])

    async def leave(self, player: Player, rid: str) -> Race:
        rk, entrants_key, ek = store.race_keys(rid)
        event = {"type": "race.left", "race": rid, "player": player.id}
        left = await self._leave([rk, entrants_key, ek], [
            player.id, msgpack.packb(event), self.settings.event_window,
            store.channel(rid)])
        if not left.ok:
            raise self._refused(left.why)
        return await self.summary(rid)

    async def start(self, player: Player, rid: str) -> Race:
        r = await self._race(rid)
        if r["creator"] != player.id:
            raise ApiError("race.not_creator", "only the race's creator can start it")
        if r["state"] != "open":
            raise ApiError("race.not_open", MESSAGES["race.not_open"])
        if len(r["entrant_info"]) < 2:
            raise ApiError("race.too_few", "a race needs at least two entrants to start")
        await self._begin(rid)
        return await self.summary(rid)

    async def begin(self, rid: str) -> None:
        """Start an open race now, whoever made it and whatever its start mode (an arena's
        round: server/arenas/__init__.py; a ghost race's run: server/ghosts/__init__.py); nothing if
        it has started already."""
        try:
            await self._begin(rid)
        except ApiError as e:
            if e.code != "race.not_open":
                raise

    async def _begin(self, rid: str) -> None:
        for _ in range(5):
            r = await self._race(rid)
            pids = sorted(r["entrant_info"])
            rules = engine.get(r["game"], r["variant"])
            st = rules.deal(bytes.fromhex(r["seed"]), competitive=True)
            now = await store.now_ms(self.redis)
            starts = now + r["countdown"] * 1000
            ends = starts + r["time_limit"] * 1000
            event = {"type": "race.started", "race": rid, "starts_at": starts, "ends_at": ends,
                     "sessions": {pid: f"{rid}.{pid}" for pid in pids}}
            rk, entrants_key, ek = store.race_keys(rid)
            keys = [rk, entrants_key, ek]
            keys += [store.session_keys(f"{rid}.{pid}")[0] for pid in pids]
            # its end is due at its time limit, or at once for a deal with no move
            due, stamp = store.follow_up("race", rid), 0
            if st.over:
                await self._expected.soon(due)
            else:  # and no sooner than that, unless a later change expects it sooner
                stamp = await self._expected.at(due, ends)
            result = await self._start(keys=keys, args=[
                msgpack.packb(event), self.settings.event_window, store.channel(rid),
                starts, ends, st.status, st.score, rules.tie_break(st), rid, *pids])
            if result.ok:
                if not st.over:  # a join's expectation of this start is met
                    await self._expected.met(due, stamp, ends)
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.zrem(store.OPEN_RACES, rid)
                    pipe.zadd(store.RUNNING_RACES, {rid: ends})
                    await pipe.execute()
                if st.over:  # nobody has a move to make: the race is over as it starts
                    await self.finish(rid)
                return
            if result.why != "conflict":
                raise self._refused(result.why)
        raise ApiError("conflict", "the race's entrants kept changing; try again")

    async def on_change(self, rid: str, result: script_replies.Changed) -> None:
        """After an entrant's move: end the race when everyone is done or time is up."""
        if result.ok and not result.everyone_done:
            return
        await self.finish(rid)

    async def follow_up(self, rid: str) -> followups.Outcome:
        """The due follow-up of a race at its time limit, or whose last entrant finished, or
        that ended: end it, then record it (statistics, ratings; server/followups.py)."""
        try:
            r = await self._race(rid)
        except ApiError:
            return followups.DONE  # the race is gone: nothing to end
        if self._full(r):  # its start, left undone by a join whose request died
            await self.begin(rid)
            r = await self._race(rid)
        if r["state"] == "ended" and r["results"] is not None:
            await self._record(rid, json.loads(r["results"]))
            return followups.DONE
        if r["state"] != "running" or r["ends_at"] is None:
            return followups.IDLE  # its start may still land
        if await self.finish(rid) is not None:
            return followups.DONE
        # Not over: an entrant finished and others play on (looked at again at the time
        # limit, or when the last one finishes), or contended (again after a grace).
        return r["ends_at"]

    async def _record(self, rid: str, results: RaceResults) -> None:
        """After the end: off the running set, the results recorded, the follow-up done. A
        failure leaves the follow-up due, for a sweep to do again."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(store.RUNNING_RACES, rid)
            pipe.zrem(store.OPEN_RACES, rid)  # if its starter died before taking it off
            await pipe.execute()
        await self.on_end(results)
        await followups.forget(self.redis, store.follow_up("race", rid))

    async def finish(self, rid: str) -> RaceResults | None:
        """End the race if it is due; the results, or ``None`` if it is not over yet."""
        for _ in range(10):
            r = await self._race(rid)
            if r["state"] == "ended" and r["results"] is not None:
                ended: RaceResults = json.loads(r["results"])
                return ended
            starts, ends = r["starts_at"], r["ends_at"]
            if r["state"] != "running" or starts is None or ends is None:
                return None
            now = await store.now_ms(self.redis)
            if r["done"] < r["entrants"] and now < ends:
                return None
            summary = await self._summary(r)
            rules = engine.get(r["game"], r["variant"])
            ended_at = min(now, ends)
            ranking = rank(summary["entrants"], rules.scoring == "low", starts, ended_at, ends)
            results: RaceResults = {"race": rid, "game": r["game"], "variant": r["variant"],
                       "seed": r["seed"], "commitment": r["commitment"],
                       "starts_at": starts, "ended_at": ended_at, "ranking": ranking,
                       "bot": r["bot"]}
            event = {"type": "race.ended", "race": rid, "seed": r["seed"], "ranking": ranking}
            if r["ghost"]:  # revealed with the ghost race's close, not here
                results["ghost"] = r["ghost"]
                del event["seed"]
            if r["arena"]:  # an arena's round (server/arenas/__init__.py made it)
                results["arena"] = r["arena"]
            rk, _, ek = store.race_keys(rid)
            await self._expected.soon(store.follow_up("race", rid))  # its recording
            result = await self._end(keys=[rk, ek], args=[
                r["seq"], json.dumps(results), msgpack.packb(event),
                self.settings.event_window, store.channel(rid),
                int(self.settings.replay_window * 1000)])
            if result.ok:
                try:
                    await self._record(rid, results)
                except Exception:  # the race is over either way; its recording is due
                    log.exception("recording race %s failed; a sweep does it again", rid)
                return results
        return None

    async def results(self, rid: str) -> RaceResults:
        r = await self._race(rid)
        if r["state"] != "ended" or r["results"] is None:
            raise ApiError("race.not_over", "the results come when the race is over")
        results: RaceResults = json.loads(r["results"])
        if r["ghost"]:
            results.pop("seed", None)  # a ghost race's run: its ghost race reveals it
        return results

    async def end_due(self) -> None:
        """End every race past its time limit; every node sweeps (ending is idempotent)."""
        now = await store.now_ms(self.redis)
        for rid in await self.redis.zrangebyscore(store.RUNNING_RACES, 0, now):
            await self.finish(store.text(rid))


MESSAGES = {
    "race.unknown": "there is no such race",
    "race.not_open": "the race has already started",
    "race.joined": "you are already in that race",
    "race.full": "the race is full",
    "race.not_entrant": "you are not in that race",
    "race.not_invited": "this race is by invitation (a rematch, or a challenge accepted): "
                        "only the players invited to it can join",
    "conflict": "the race changed meanwhile; try again",
}
