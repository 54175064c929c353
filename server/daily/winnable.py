"""Winnable daily deals: which candidate seed each (day, rule set) deals, decided once for
every node, ahead of the day (docs/fairness.md, "Winnable daily deals"; engine/winnable.py).

Every node runs ``run``: it looks at today and tomorrow, and for each rule set the rule covers
whose choice is not stored yet it tries to claim it (``CLAIM``: SET NX with a lease). The
claimer judges the candidates one at a time in a worker process (the solver is CPU-bound and
never runs on the event loop), recording each verdict and renewing its lease as it goes
(``KEEP``), and stores the choice once (``FINISH``). A node killed mid-way stops renewing: its
lease lapses, another node claims the pair and resumes from the verdicts already recorded, so
no candidate is judged twice and no day is left without a deal. A day asked for before its
choice is stored (a beacon day just opened, a job behind) is decided the same way at once,
bounded by the budget and the cap.

Nothing of the choice is published before the day's reveal: the page then gains ``winnable``;
the log says once a day's batch is decided, never which candidate.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import os
from datetime import date, timedelta
from typing import Any, NotRequired

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

import engine
from engine import winnable as rule
from engine.solver import VERSION as SOLVER_VERSION
from engine.winnable import JudgedJson

from .. import store, workers
from ..config import Settings
from ..errors import ApiError
from ..loops import drain
from ..metrics import Metrics
from ..transport.reply_types import WinnableChoice, WinnableChoiceCandidate, WinnableFields
from . import Daily, daily_rule_sets, day_of
from .remembered import Remembered

log = logging.getLogger("samedeal")
#: (day, rule set) choices and pars a process keeps (each stored for good: a miss reads it)
REMEMBERED = 2048
#: The rule's first day when no setting gives it: recorded once, at first use, as tomorrow.
START = "sd:winnable:from"
#: The all-day daily's label (engine/fairness.py); the live edition's is ``live``.
DAILY = "daily"

# KEYS: choice, claim, verdicts. ARGV: token, lease ms. 'done', 'mine' or 'busy'.
CLAIM = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 'done' end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'mine' end
if redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return 'mine'
end
return 'busy'
"""
# Renew the lease and record one candidate's verdict, only while the claim is still ours.
# KEYS: choice, claim, verdicts. ARGV: token, lease ms, k ('' : renew only), verdict JSON.
KEEP = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
  redis.call('EXPIRE', KEYS[3], 604800)
end
return 1
"""
# Store the choice once and let the claim and the verdicts go. KEYS as above; ARGV: token,
# the choice's JSON. 1, or 0 when the claim was lost meanwhile.
FINISH = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'NX')
redis.call('DEL', KEYS[2], KEYS[3])
return 1
"""


def keys(day: date, rules: engine.RuleSet, secret: bytes, beacon: bytes | None,
         edition: str = DAILY) -> list[str]:
    """The choice, the claim and the recorded verdicts of a (day, rule set), on one shard.
    The name holds a fingerprint of the day's secret and beacon round: a chain rotated or a
    round stored after a choice was made ahead makes new keys, never a stale deal. The live
    edition's (server/daily/live.py) are apart: ``live:`` before the day."""
    fp = hashlib.sha256(b"winnable/" + secret + (beacon or b"")).hexdigest()[:16]
    which = "" if edition == DAILY else f"{edition}:"
    tag = f"sd:{{winnable:{which}{day.isoformat()}:{rules.id}:{rules.variant}:{fp}}}"
    return [f"{tag}:choice", f"{tag}:claim", f"{tag}:verdicts"]


class LostClaim(Exception):
    """The lease lapsed while this node judged (it was paused too long): another has it."""


class StoredChoice(WinnableChoice):
    """A (day, rule set)'s choice as stored (``FINISH``): what the reveal publishes
    (``public``), and whose it is."""

    game: str
    variant: str
    day: str
    edition: NotRequired[str]  # the live edition's; none for the all-day daily


class Winnable:
    """The rule's state for one process: its worker pool, its token, what it knows decided."""

    def __init__(self, redis: Redis, settings: Settings, daily: Daily, metrics: Metrics
                 ) -> None:
        self.redis = redis
        self.settings = settings
        self.daily = daily
        self.token = os.urandom(12).hex()  # this process's claims
        self.only = {k.strip() for k in settings.winnable_only.split(",") if k.strip()}
        self._start: date | None = None
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._choices: Remembered[tuple[str, ...], StoredChoice] = Remembered(REMEMBERED)
        self._pars: Remembered[tuple[date, str], int | None] = Remembered(REMEMBERED)
        #: days whose decided batch the log has told
        self._told: Remembered[date, None] = Remembered(REMEMBERED)
        self._claim = store.script(redis, CLAIM)
        self._keep = store.script(redis, KEEP)
        self._finish = store.script(redis, FINISH)
        self.decided = metrics.winnable_decided
        #: Further deals of each day the job decides ahead: (edition, rule set) pairs, the
        #: live edition's (wired by server/daily/live.py).
        self.also: list[tuple[str, engine.RuleSet]] = []

    # -- which days and rule sets the rule covers -------------------------------------------

    def covers(self, rules: engine.RuleSet) -> bool:
        """Won-or-lost games (engine/winnable.py ``applies``), limited by ``winnable_only``."""
        return rule.applies(rules) and (not self.only or
                                        f"{rules.id}/{rules.variant}" in self.only)

    async def start(self) -> date:
        """The rule's first day: the setting's, else tomorrow at first use (kept in Redis for
        every node), so no day already open changes its published commitments."""
        if self._start is None:
            if self.settings.daily_winnable_from:
                self._start = date.fromisoformat(self.settings.daily_winnable_from)
            else:
                tomorrow = day_of(await self.daily.clock()) + timedelta(1)
                await self.redis.set(START, tomorrow.isoformat(), nx=True)
                self._start = date.fromisoformat(store.text(await self.redis.get(START)))
        return self._start

    async def in_force(self, day: date, rules: engine.RuleSet) -> bool:
        return (self.settings.daily_winnable and self.covers(rules)
                and day >= await self.start())

    # -- the seed -------------------------------------------------------------------------

    async def seed(self, day: date, rules: engine.RuleSet, secret: bytes,
                   beacon: bytes | None, edition: str = DAILY) -> bytes:
        """The day's seed for ``rules``: candidate k, decided now if it is not yet."""
        k = 0
        if await self.in_force(day, rules):
            k = (await self.decide(day, rules, secret, beacon, edition))["k"]
        return rule.candidate_seed(secret, day, rules.id, rules.variant, beacon, k, edition)

    async def for_page(self, day: date, rules: engine.RuleSet, secret: bytes,
                       beacon: bytes | None, revealed: bool, edition: str = DAILY
                       ) -> tuple[bytes | None, WinnableFields]:
        """The deal's seed for its page (``None``: not decided yet, so no commitment to show)
        and its fields: before the reveal only that the rule applies, after it the choice."""
        if not await self.in_force(day, rules):
            return rule.candidate_seed(secret, day, rules.id, rules.variant, beacon, 0,
                                       edition), {}
        choice = await self.stored(day, rules, secret, beacon, edition)
        if choice is None and revealed:  # never left undecided: decide it now (bounded)
            choice = await self.decide(day, rules, secret, beacon, edition)
        if choice is None:
            return None, {"winnable_rule": True, "pending": True}
        seed = rule.candidate_seed(secret, day, rules.id, rules.variant, beacon, choice["k"],
                                   edition)
        if not revealed:
            return seed, {"winnable_rule": True}
        return seed, {"winnable_rule": True, "winnable": public(choice)}

    async def par(self, day: date, rules: engine.RuleSet) -> int | None:
        """The day's par for ``rules`` once revealed (else ``None``): its winning line's
        length in moves."""
        if (day, rules.key) in self._pars:
            return self._pars[day, rules.key]
        if not await self.in_force(day, rules) or not await self.daily.revealed(day):
            return None
        secret = await self.daily.day_secret(day)
        beacon = await self.daily.rounds.randomness(day)
        choice = await self.stored(day, rules, secret, beacon)
        if choice is None:
            choice = await self.decide(day, rules, secret, beacon)
        par: int | None = choice.get("par")
        self._pars[day, rules.key] = par  # revealed: fixed for good
        return par

    async def board_par(self, public_board: str) -> int | None:
        """A daily board's par (``daily/DAY/GAME/VARIANT``) once its day is revealed, else
        ``None`` (any other board too)."""
        parts = public_board.split("/")
        if len(parts) != 4 or parts[0] != "daily":
            return None
        try:
            day = date.fromisoformat(parts[1])
            rules = engine.get(parts[2], parts[3])
        except (ValueError, engine.UnknownGame):
            return None
        return await self.par(day, rules)

    # -- the choice -----------------------------------------------------------------------

    async def stored(self, day: date, rules: engine.RuleSet, secret: bytes,
                     beacon: bytes | None, edition: str = DAILY) -> StoredChoice | None:
        ks = keys(day, rules, secret, beacon, edition)
        cached = self._choices.get(tuple(ks))
        if cached is not None:
            return cached
        raw = await self.redis.get(ks[0])
        if raw is None:
            return None
        choice: StoredChoice = json.loads(raw)
        self._choices[tuple(ks)] = choice  # stored once (NX): fixed for good
        return choice

    async def decide(self, day: date, rules: engine.RuleSet, secret: bytes,
                     beacon: bytes | None, edition: str = DAILY) -> StoredChoice:
        """The stored choice, else claim and judge it; while another node holds the claim,
        wait for its choice or for its lease to lapse (then take it over)."""
        while True:
            choice = await self.attempt(day, rules, secret, beacon, edition)
            if choice is not None:
                return choice
            await asyncio.sleep(min(1.0, self.settings.winnable_lease / 4))

    async def attempt(self, day: date, rules: engine.RuleSet, secret: bytes,
                      beacon: bytes | None, edition: str = DAILY) -> StoredChoice | None:
        """One try: the stored choice, or the choice judged here; ``None`` if another node
        holds the claim."""
        choice = await self.stored(day, rules, secret, beacon, edition)
        if choice is not None:
            return choice
        ks = keys(day, rules, secret, beacon, edition)
        lease = str(int(self.settings.winnable_lease * 1000))
        got = store.text(await self._claim(keys=ks, args=[self.token, lease]))
        if got == "busy":
            return None
        if got == "mine":
            try:
                await self.judge_all(day, rules, secret, beacon, ks, lease, edition)
            except LostClaim:
                return None
        return await self.stored(day, rules, secret, beacon, edition)

    async def judge_all(self, day: date, rules: engine.RuleSet, secret: bytes,
                        beacon: bytes | None, ks: list[str], lease: str,
                        edition: str = DAILY) -> None:
        """Judge candidates 0, 1, ... up to the cap (resuming from verdicts a node before
        recorded), the first won one chosen; store the choice."""
        positions, cap = self.settings.winnable_positions, self.settings.winnable_cap
        recorded: dict[int, JudgedJson] = {
            int(k): json.loads(v) for k, v in (await self.redis.hgetall(ks[2])).items()}
        renew = asyncio.create_task(self._renew(ks, lease))
        try:
            tried: list[WinnableChoiceCandidate] = []
            won: JudgedJson | None = None
            k = 0  # the candidate won, once one is
            for k in range(cap):
                verdict = recorded.get(k)
                if verdict is None:
                    seed = rule.candidate_seed(secret, day, rules.id, rules.variant, beacon, k,
                                               edition)
                    verdict = await self.judge(rules, seed, positions)
                    if not await self._keep(keys=ks, args=[self.token, lease, str(k),
                                                           json.dumps(verdict)]):
                        raise LostClaim
                tried.append({"k": k, "verdict": verdict["verdict"],
                              "positions": verdict["positions"]})
                if verdict["verdict"] == "won":
                    won = verdict
                    break
            choice: StoredChoice = {
                "k": k if won else 0, "found": won is not None, "candidates": tried,
                "line": won["line"] if won else None, "par": won["par"] if won else None,
                "budget": {"positions": positions, "solver": SOLVER_VERSION}, "cap": cap,
                "game": rules.id, "variant": rules.variant, "day": day.isoformat()}
            if edition != DAILY:
                choice["edition"] = edition
            if not await self._finish(keys=ks, args=[self.token, json.dumps(choice)]):
                raise LostClaim
        finally:
            renew.cancel()
        self.decided.inc()

    async def _renew(self, ks: list[str], lease: str) -> None:
        """Keep the claim alive while one candidate is judged (it may take a while)."""
        while True:
            await asyncio.sleep(self.settings.winnable_lease / 3)
            # Redis away: tried again; past the lease another node takes the pair over.
            with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
                await self._keep(keys=ks, args=[self.token, lease, "", ""])

    async def judge(self, rules: engine.RuleSet, seed: bytes, positions: int
                    ) -> JudgedJson:
        """One candidate, in the worker process (never on the event loop)."""
        if self._pool is None:
            self._pool = workers.pool(self.settings.winnable_workers,
                                      nice=self.settings.winnable_nice)
        judged = await asyncio.get_running_loop().run_in_executor(
            self._pool, rule.judge, rules.id, rules.variant, seed, positions)
        return judged.json()

    # -- the job --------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Every node: decide today's and tomorrow's choices ahead, one pair at a time."""
        if not self.settings.daily_winnable:
            return
        await drain(stop, self.step, self.settings.winnable_interval, log, "winnable daily")

    async def step(self) -> bool:
        """Decide one pair not decided yet and not claimed by another node; whether one was.
        Tomorrow only when its seeds can be known now: not on a beacon day, whose round is
        published at the opening (then it is decided as the day opens)."""
        today = day_of(await self.daily.clock())
        for day in (today, today + timedelta(1)):
            if day < await self.start():
                continue
            try:
                if day > today:
                    if self.daily.beacon is not None:
                        continue
                    beacon = None
                else:
                    beacon = await self.daily.rounds.randomness(day)
            except ApiError:  # daily.waiting: the round is not stored yet
                continue
            secret = await self.daily.day_secret(day)
            decided, open_ = 0, 0
            pairs = [(DAILY, r) for r in daily_rule_sets()] + [(e, r) for e, r in self.also]
            for edition, rules in pairs:
                if not await self.in_force(day, rules):
                    continue
                if await self.stored(day, rules, secret, beacon, edition) is not None:
                    decided += 1
                elif await self.attempt(day, rules, secret, beacon, edition) is not None:
                    return True
                else:
                    open_ += 1  # another node's claim
            if decided and not open_ and day not in self._told:
                self._told[day] = None
                # Never which candidates, how many, nor how long they took: secret until
                # the reveal.
                log.info("winnable daily %s: its %d deal%s decided (the live edition's "
                         "included)", day, decided, " is" if decided == 1 else "s are")
        return False

    def close(self) -> None:
        """End the worker (a candidate being judged is dropped: its claim lapses)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            workers.stop(pool)


def add_par(reply: dict[str, Any], par: int) -> dict[str, Any]:
    """A daily board's reply or update with its ``par`` and each entry's ``vs_par``: its
    moves minus par (negative: shorter than the solver's line), for every entry, finished
    or not, won or not (its ``status`` says which)."""
    def entry(e: Any) -> Any:
        return dict(e, vs_par=e["moves"] - par) if isinstance(e, dict) and "moves" in e else e

    out = dict(reply, par=par, entries=[entry(e) for e in reply.get("entries", [])])
    if isinstance(reply.get("you"), dict):
        out["you"] = entry(reply["you"])
    return out


def public(choice: StoredChoice) -> WinnableChoice:
    """What the reveal publishes of a choice."""
    return {"k": choice["k"], "found": choice["found"], "candidates": choice["candidates"],
            "line": choice["line"], "par": choice["par"], "budget": choice["budget"],
            "cap": choice["cap"]}
