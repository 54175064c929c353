"""The daily challenge: one deal per UTC day and rule set, from the day's secret.

``seed = HMAC-SHA256(day secret, "samedeal-daily/<YYYY-MM-DD>/<game>/<variant>")`` (the raw 32
bytes, engine/fairness.py), so every node derives the same deal without storing it. The day's
secret is its link of the pre-committed chain (server/daily/chain.py), or, for days before the first
chain, the one server secret of old. With a public randomness beacon, the round at the day's
opening is fetched, verified, stored once for every node, and mixed into the label, so nobody
knows a deal before the day opens. docs/fairness.md gives the rules and test vectors.

A day's ranked attempts may start while the day is open (00:00 to 24:00 UTC) and end by its
deadline, the close plus a grace period. At the deadline every node's sweeper closes the
attempts still in flight (a walk-away counts as finishing with the score reached), and once
none is left the day's seeds are revealed.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from redis.asyncio import Redis

import engine
from engine import fairness
from engine.core import PLAYING

from .. import followups, store, workers
from ..accounts import Accounts, Player, new_id
from ..boards.records import Records, opens_at
from ..config import Settings
from ..errors import ApiError
from ..fairplay import integrity
from ..sessions import Session, Sessions, rules_for
from ..store import script_replies, scripts
from ..transport.reply_types import (
    Chain,
    DailyDeal,
    DailyState,
    LiveEdition,
    WinnableFields,
    YouDeal,
)
from ..transport.reply_types import Daily as DailyPayload
from .beacon_rounds import DayBeacon, DayRounds
from .chain import ChainRecord, Chains

if TYPE_CHECKING:
    from ..fairplay.linked import Linked
    from ..fairplay.review import Reviews
    from .winnable import Winnable

DAY_MS = 86_400_000
Clock = Callable[[], Awaitable[int]]  # milliseconds since the epoch, UTC
def daily_seed(secret: bytes, day: date, rules: engine.RuleSet,
            beacon: bytes | None = None) -> bytes:
    return fairness.daily_seed(secret, day, rules.id, rules.variant, beacon)


def day_of(ms: int) -> date:
    return datetime.fromtimestamp(ms / 1000, UTC).date()


def deal_id(day: date, rules: engine.RuleSet) -> str:
    """A day's deal of a rule set, as its attempts are named after it."""
    return f"d{day:%Y%m%d}-{rules.id}-{rules.variant}"


def attempt_id(day: date, rules: engine.RuleSet, player: str) -> str:
    """One ranked attempt per player, rule set and day, named so that it is made once (the
    name is never read back: a session's hash says its day, rule set and player)."""
    return f"{deal_id(day, rules)}-{player}"


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ApiError("message.invalid", "a day is written YYYY-MM-DD") from None


def daily_rule_sets() -> list[engine.RuleSet]:
    """Every rule set one player can play alone (the same list races use)."""
    return [r for r in engine.rule_sets() if r.players[0] == 1]


class Daily:
    def __init__(self, redis: Redis, settings: Settings, sessions: Sessions,
                 accounts: Accounts, records: Records, clock: Clock | None = None,
                 beacon: DayBeacon | None = None) -> None:
        self.redis = redis
        self.settings = settings
        self.sessions = sessions
        self.accounts = accounts
        self.records = records
        self.clock = clock or (lambda: store.now_ms(redis))
        self.beacon = beacon
        self.chains = Chains(redis, settings.daily_chain_length)
        self._secret: bytes | None = None
        self.rounds = DayRounds(redis, beacon, self.clock)
        self._history: list[ChainRecord] = []
        self._history_day = date.min  # the history read then decides every day up to it
        self._close = script_replies.bind(redis, scripts.CLOSE, script_replies.Closed.of)
        #: The winnable-deal rule (server/daily/winnable.py), wired by the app factory; None: off.
        self.winnable: Winnable | None = None
        self._judge: ProcessPoolExecutor | None = None  # the integrity signal's, at first use
        #: Where attempts were played from, and the queue flagged results wait in (wired by
        #: the app factory; None: no linked-account evidence, flagged results rank at once).
        self.linked: Linked | None = None
        self.reviews: Reviews | None = None

    async def secret(self) -> bytes:
        """The setting's secret, else one made once and kept in Redis for every node."""
        if self._secret is None:
            if self.settings.daily_secret:
                self._secret = self.settings.daily_secret.encode()
            else:
                await self.redis.set(store.DAILY_SECRET, os.urandom(32).hex(), nx=True)
                secret = store.text(await self.redis.get(store.DAILY_SECRET))
                self._secret = bytes.fromhex(secret)
        return self._secret

    async def chain_for(self, day: date) -> ChainRecord | None:
        """The chain whose link is ``day``'s secret (made at first use, from tomorrow)."""
        if not self.settings.daily_chain:
            return None
        if day > self._history_day:  # a chain made since starts after the day it was made
            # on, so the history read on a day decides that day and every one before it
            today = day_of(await self.clock())
            self._history = await self.chains.ensure(today)
            self._history_day = today
        return Chains.for_day(self._history, day)

    async def day_secret(self, day: date) -> bytes:
        """The day's secret: its chain link, or the old secret before the first chain."""
        record = await self.chain_for(day)
        if record is None:
            return await self.secret()
        return await self.chains.secret(record, day)

    async def seed(self, day: date, rules: engine.RuleSet) -> bytes:
        secret, beacon = await self.day_secret(day), await self.rounds.randomness(day)
        if self.winnable is not None:  # the first winnable candidate
            return await self.winnable.seed(day, rules, secret, beacon)
        return daily_seed(secret, day, rules, beacon)

    def deadline(self, day: date) -> int:
        return opens_at(day) + DAY_MS + self.settings.daily_grace * 1000

    async def revealed(self, day: date, now: int | None = None) -> bool:
        """Past the deadline, with every attempt of the day (or before) closed and recorded."""
        now = await self.clock() if now is None else now
        end = self.deadline(day)
        return now >= end and await self.redis.zcount(store.DAILY_INFLIGHT, 0, end) == 0

    async def info(self, day: date | None = None) -> DailyPayload:
        """A day's deals: commitments from the day's start; once it is revealed, the seeds,
        the day's secret and the reveal's time. The chain and the beacon round are public at
        once; ``reveal_due`` and ``overdue`` make a withheld reveal visible."""
        now = await self.clock()
        today = day_of(now)
        day = day or today
        if day > today:
            raise ApiError("daily.not_open", f"the {day} challenge opens at 00:00 UTC that day")
        revealed = await self.revealed(day, now)
        state: DailyState = "open" if day == today else "revealed" if revealed else "closing"
        secret = await self.day_secret(day)
        chain = await self.chain_for(day)
        out: DailyPayload = {
            "day": day.isoformat(), "state": state, "opens_at": opens_at(day),
            "closes_at": opens_at(day) + DAY_MS, "deadline": self.deadline(day), "now": now,
            "reveal_due": self.deadline(day), "overdue": not revealed and now >= self.deadline(day),
            "chain": _chain_json(chain), "deals": []}
        try:
            beacon = await self.rounds.randomness(day)
        except ApiError:  # the round is not stored yet: no commitment can be made
            out["waiting"], out["beacon"] = True, None
            out["deals"] = [{"game": r.id, "variant": r.variant, "name": r.name}
                            for r in daily_rule_sets()]
            return out
        out["beacon"] = await self.rounds.stored(day)  # as the beacon gave it
        for rules in daily_rule_sets():
            seed: bytes | None = daily_seed(secret, day, rules, beacon)
            deal: DailyDeal = {"game": rules.id, "variant": rules.variant, "name": rules.name}
            if self.winnable is not None:
                seed, extra = await self.winnable.for_page(day, rules, secret, beacon, revealed)
                with_winnable(deal, extra)
            if seed is not None:
                deal["commitment"] = engine.commitment(seed)
                if revealed:
                    deal["seed"] = seed.hex()
            out["deals"].append(deal)
        if revealed:
            out["revealed_at"] = await self.record_reveal(day, now)
            if chain is not None:  # the old secret served every day before: never shown
                out["secret"] = secret.hex()
        return out

    async def record_reveal(self, day: date, now: int) -> int:
        """Write the day's reveal record once (the first node to see it revealed); its time."""
        key = store.daily_reveal(day.isoformat())
        await self.redis.set(key, str(now), nx=True)
        return int(store.text(await self.redis.get(key)))

    async def reveal_due(self) -> int:
        """A sweep job: record the reveal of each recent day that is past its deadline with
        every attempt closed (retried each sweep until it succeeds); how many were recorded."""
        now = await self.clock()
        if self.settings.daily_chain:
            await self.chains.history()  # logs a chain another node or the command made
        first = day_of(now - DAY_MS - self.settings.daily_grace * 1000) - timedelta(1)
        done = 0
        day = first
        while self.deadline(day) <= now:
            key = store.daily_reveal(day.isoformat())
            if await self.redis.exists(key) == 0 and await self.revealed(day, now):
                await self.record_reveal(day, now)
                done += 1
            day += timedelta(1)
        return done

    async def start(self, player: Player, game: str, variant: str, ranked: bool = True,
                    day_text: str | None = None) -> Session:
        """Today's ranked attempt (or the one in progress), or an unranked replay."""
        rules = rules_for(game, variant)
        if rules.players[0] > 1:
            raise ApiError("game.unknown", f"{rules.name} is not a one-player game")
        now = await self.clock()
        today = day_of(now)
        day = parse_day(day_text) if day_text else today
        if day > today:
            raise ApiError("daily.not_open", f"the {day} challenge opens at 00:00 UTC that day")
        seed = await self.seed(day, rules)
        sid = attempt_id(day, rules, player.id)
        if ranked:
            if day != today:
                raise ApiError("daily.closed", f"the {day} challenge is closed to ranked play; "
                               "replay it unranked")
            return await self._ranked(player, rules, seed, day, sid)
        if not await self.revealed(day, now):  # for everyone: a resigned ranked attempt
            # (by a throwaway account, say) must not open the deal to study before the reveal
            raise ApiError("daily.not_revealed", f"the unranked replay of the {day} deal opens "
                           "for everyone once the day's seeds are revealed, after its deadline")
        s = await self.sessions.open(new_id("s"), player, rules, seed, reveal=True,
                                     daily=day.isoformat())
        assert s is not None  # a fresh random id
        return s

    async def unranked_reason(self, player_id: str, day: date) -> str:
        """Why a ranked attempt of ``day`` stays off the boards ("" when it counts). Only
        with ``daily_rank_new_accounts`` off (it is on by default: scouting is judged by the
        integrity signal instead): an account made during the day plays under the ranked
        rules but ranks from the next day on."""
        if self.settings.daily_rank_new_accounts:
            return ""
        if await self.accounts.created(player_id) < opens_at(day):
            return ""
        return (f"accounts made on {day} play that day's deals under the ranked rules but "
                "off the boards; your attempts rank from the next day on")

    async def _ranked(self, player: Player, rules: engine.RuleSet, seed: bytes, day: date,
                      sid: str) -> Session:
        end = self.deadline(day)
        s = await self.sessions.open(sid, player, rules, seed, competitive=True,
                                     daily=day.isoformat(), ends_at=end)
        if s is None:  # the attempt exists: resume it while it runs, else refuse a second
            status, ends = await self.redis.hmget(store.session_keys(sid)[0], "status",
                                                  "ends_at")
            if status != PLAYING.encode() or ends == b"0":
                raise ApiError("daily.played", f"you have played today's {rules.name} "
                               f"({rules.variant}); replay it unranked once the day's seeds "
                               "are revealed")
            return await self.sessions.get(player, sid)
        if not await self.unranked_reason(player.id, day):
            await self.records.played_daily(player, day)
        if s.state.over:  # a deal with no move at all: the attempt is over as it starts
            await self.finished(s, s.created)
        return s

    async def finished(self, s: Session, finished_at: int, walked_away: bool = False) -> None:
        """Put a ranked attempt on the boards (a flagged one in the review queue instead; with
        the same-day rule on, one by an account made that day in the player's statistics
        only), then take it off the in-flight set and its follow-up off the due set.
        Recording is idempotent (each write is keyed by the attempt), so nodes may overlap; a
        failure part-way (Redis away) leaves the attempt in flight and its follow-up due, for
        a sweep to do again (server/followups.py)."""
        due = store.follow_up("daily", s.id)
        if await self.redis.zscore(store.DAILY_INFLIGHT, s.id) is not None:
            player = await self.accounts.get(s.player)
            day = date.fromisoformat(s.daily)
            if await self.unranked_reason(player.id, day):  # the player's statistics only
                await self.records.game_over(s, finished_at)
            else:
                signal = await self.integrity(s)
                if signal["flagged"] and self.reviews is not None:  # off the boards for now
                    await self.reviews.hold(player, s, day, finished_at, walked_away, signal)
                else:
                    await self.records.daily_result(player, s, day, finished_at, walked_away,
                                                    signal)
        await self.redis.zrem(store.DAILY_INFLIGHT, s.id)
        await followups.forget(self.redis, due)

    async def integrity(self, s: Session) -> integrity.Signal:
        """The attempt's integrity signal and flag (server/fairplay/integrity.py): the other
        accounts' earlier attempts from its origins and clients (server/fairplay/linked.py), and
        what its moves show, computed off the event loop (it replays the attempt with a look-ahead
        at every move and a bounded solver search), in a worker process: the compiled search holds
        the interpreter until it is done, which a thread of the node would stall its sockets for."""
        entries = await self.redis.lrange(store.session_keys(s.id)[1], 0, -1)
        times = [int(store.text(e).partition(" ")[0]) for e in entries]
        if self._judge is None:
            self._judge = workers.pool(1, nice=self.settings.integrity_nice)
        try:
            out = await asyncio.get_running_loop().run_in_executor(
                self._judge, integrity.signal, s.rules, s.seed, list(s.state.history), times,
                s.created)
        except BrokenProcessPool:  # its worker died (killed, out of memory): a new one for
            self.close()  # the attempt's follow-up, which stays due and comes back
            raise
        if self.linked is None:
            return integrity.flag(out)
        return integrity.flag(out, await self.linked.evidence(
            s.id, deal_id(parse_day(s.daily), s.rules), s.player, s.created))

    def close(self) -> None:
        """End the integrity signal's worker (the lifespan's end)."""
        pool, self._judge = self._judge, None
        if pool is not None:
            workers.stop(pool)

    async def yours(self, player: Player, day: date) -> dict[tuple[str, str], YouDeal]:
        """Per rule set, what ``player`` needs before starting ``day``'s deal: whether their
        attempt ranks (and if not, why), whether they played it, and where a flagged result
        of theirs stands in review."""
        today = day_of(await self.clock())
        why = (await self.unranked_reason(player.id, day) if day == today else
               f"the {day} challenge is closed to ranked play")
        sets = daily_rule_sets()
        sids = [attempt_id(day, r, player.id) for r in sets]
        async with self.redis.pipeline(transaction=False) as pipe:
            for sid in sids:
                pipe.exists(store.session_keys(sid)[0])
            played = await pipe.execute()
        reviews = await self.reviews.statuses(sids) if self.reviews is not None else []
        out = {}
        for i, rules in enumerate(sets):
            mine: YouDeal = {"ranked": not why, "played": bool(played[i])}
            if why:
                mine["unranked_reason"] = why
            review = reviews[i] if i < len(reviews) else None
            if review is not None:
                mine["review"] = review
            out[(rules.id, rules.variant)] = mine
        return out

    async def settle(self, sid: str) -> followups.Outcome:
        """The due follow-up of a ranked attempt that ended (its node may have died before
        recording it): put it on the boards."""
        status, created, finished = await self.redis.hmget(
            store.session_keys(sid)[0], "status", "created", "finished_at")
        if status is None:
            return followups.DONE  # the attempt is gone: nothing to record
        if store.text(status) == PLAYING:
            return followups.IDLE  # its last move may still land
        await self.finished(await self.sessions.load(sid),
                            int(store.text(finished) or store.text(created)))
        return followups.DONE

    async def close_due(self) -> int:
        """Close every attempt past its deadline; how many were closed."""
        now = await self.clock()
        due = await self.redis.zrangebyscore(store.DAILY_INFLIGHT, 0, now)
        for raw in due:
            sid = store.text(raw)
            closed = await self._close(keys=list(store.session_keys(sid)))
            if not closed.exists:  # the session is gone: nothing to record
                await self.redis.zrem(store.DAILY_INFLIGHT, sid)
                continue
            s = await self.sessions.load(sid)
            if closed.status != PLAYING:
                await self.finished(s, closed.finished_at or closed.created)
            else:  # walked away: the score reached, timed to the last move
                at = closed.last_at
                await self.finished(s, at if at is not None else closed.created,
                                    walked_away=True)
        return len(due)



def with_winnable(deal: DailyDeal | LiveEdition, fields: WinnableFields) -> None:
    """The winnable rule's fields of a deal, written into it (a TypedDict takes another's
    fields one by one)."""
    if "winnable_rule" in fields:
        deal["winnable_rule"] = fields["winnable_rule"]
    if "pending" in fields:
        deal["pending"] = fields["pending"]
    if "winnable" in fields:
        deal["winnable"] = fields["winnable"]


def _chain_json(record: ChainRecord | None) -> Chain | None:
    if record is None:
        return None
    return {"anchor": record.anchor, "start": record.start, "length": record.length}
