"""The daily's live edition: each UTC day, at one instant (``daily_live_at``), everyone signed
up is dealt the same deal at once and plays it within a short window; the results rank on a
board of their own, in the daily order. Nobody can join after the deal, so nobody can be told
the deal by a second account that played it first: the all-day daily can be scouted that way,
the live edition cannot (docs/daily.md, "The live edition").

Each (day, rule set) edition is an arena (server/arenas/__init__.py) of one round whose length is
the window: the arenas' sweep deals it, on any node, once, after its countdown, and ends it. The
edition only adds what an arena leaves open: its id is a function of the day and rule set (so
every node makes the same one), its seed is derived from the day's secret under its own label
(engine/fairness.py, ``samedeal-live/...``: another deal than the all-day daily's), it is
sealed (joins close at the deal instant, decided in Redis with the deal itself), and its round
scores on ``live:<YYYY-MM-DD>:<game>:<variant>:<kind>`` in the daily order instead of by points.
An edition's arena is made by its first sign-up: with nobody signed up there is nobody to deal,
and its page entry follows the clock alone.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date
from typing import Any

import engine
from engine import fairness
from engine.core import WON

from .. import store
from ..accounts import Player
from ..arenas import LIVE, Arenas, arena_keys
from ..boards import Boards, order_key
from ..boards.records import opens_at
from ..config import Settings
from ..errors import ApiError
from ..sessions import rules_for
from ..transport.reply_types import Live, LiveEdition, LiveState, RaceResults, WinnableFields
from . import Daily, daily_rule_sets, day_of, parse_day, with_winnable
from .remembered import Remembered

#: The arena kind of a live edition (``Arenas.scorers``).
KIND = "live"
#: An arena id's letters (``server.arenas.ARENA_ID``).
ALPHABET = "abcdefghijklmnopqrstuvwxyz23456789"


def seconds_of_day(text: str) -> int:
    """``19:00`` or ``19:00:30`` (UTC) -> seconds after midnight."""
    found = re.fullmatch(r"([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?", text.strip())
    if found is None:
        raise ValueError(f"daily_live_at is HH:MM or HH:MM:SS (UTC), not {text!r}")
    h, m, s = found.groups()
    return int(h) * 3600 + int(m) * 60 + int(s or 0)


def live_rule_sets(text: str) -> list[engine.RuleSet]:
    """``daily_live_rules``: ``featured`` (the rule sets the catalog offers a newcomer first),
    ``all`` (every one-player rule set) or ``game/variant, ...``."""
    if text.strip() == "all":
        return daily_rule_sets()
    if text.strip() == "featured":
        return [r for r in daily_rule_sets() if r.describe()["featured"]]
    out = []
    for item in (x.strip() for x in text.split(",") if x.strip()):
        game, _, variant = item.partition("/")
        try:
            rules = engine.get(game, variant)
        except engine.UnknownGame:
            raise ValueError(f"daily_live_rules: there is no rule set {item}") from None
        if rules.players[0] > 1:
            raise ValueError(f"{item} is not a one-player rule set")
        out.append(rules)
    if not out:
        raise ValueError("daily_live_rules names no rule set")
    return out


def schedule(settings: Settings) -> tuple[int, int, list[engine.RuleSet]]:
    """The settings checked (a node with wrong ones does not start): the instant in seconds
    after midnight UTC, the window in seconds, the rule sets."""
    at, window = seconds_of_day(settings.daily_live_at), settings.daily_live_window
    if not 1 <= window <= 86400 - at:
        raise ValueError("daily_live_window is at least 1 s, and the live edition ends by "
                         "midnight UTC (daily_live_at plus the window)")
    return at, window, live_rule_sets(settings.daily_live_rules)


def edition_id(day: date, rules: engine.RuleSet) -> str:
    """The edition's arena id: the same on every node, so each makes the same arena."""
    digest = hashlib.sha256(f"samedeal-live/{day}/{rules.id}/{rules.variant}".encode()).digest()
    return "a" + "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:12])


def board_of(day: date, rules: engine.RuleSet) -> str:
    """The edition's board by its public name (``board.get``; the key adds the kind)."""
    return f"live/{day.isoformat()}/{rules.id}/{rules.variant}"


class DailyLive:
    def __init__(self, settings: Settings, daily: Daily, arenas: Arenas,
                 boards: Boards) -> None:
        self.settings = settings
        self.daily = daily
        self.arenas = arenas
        self.boards = boards
        self.at, self.window, self.rule_sets = schedule(settings)
        #: editions this process has made (or seen made)
        self._made: Remembered[str, None] = Remembered(1024)
        arenas.scorers[KIND] = self.scored

    # ----- the day's editions -------------------------------------------------------------

    def deal_at(self, day: date) -> int:
        return opens_at(day) + self.at * 1000

    def ends_at(self, day: date) -> int:
        return self.deal_at(day) + self.window * 1000

    def _rules(self, game: str, variant: str) -> engine.RuleSet:
        if not self.settings.daily_live:
            raise ApiError("daily_live.off", "this server holds no live edition of the daily")
        rules = rules_for(game, variant)
        if (rules.id, rules.variant) not in {(r.id, r.variant) for r in self.rule_sets}:
            listed = ", ".join(f"{r.id}/{r.variant}" for r in self.rule_sets)
            raise ApiError("daily_live.not_live", f"the live edition deals {listed} only; "
                           f"{rules.name} ({rules.variant}) is in the all-day daily")
        return rules

    async def seed(self, day: date, rules: engine.RuleSet) -> bytes:
        """The edition's seed: the day's secret and beacon round, under the live label; with
        the winnable-deal rule, its first candidate the solver proves winnable, as the all-day
        daily's (server/daily/winnable.py, decided now if the job has not yet)."""
        secret, beacon = await self.daily.day_secret(day), await self.daily.rounds.randomness(day)
        if self.daily.winnable is not None:
            return await self.daily.winnable.seed(day, rules, secret, beacon, KIND)
        return fairness.daily_seed(secret, day, rules.id, rules.variant, beacon, KIND)

    async def for_page(self, day: date, rules: engine.RuleSet, ended: bool
                       ) -> tuple[bytes | None, WinnableFields]:
        """The seed to commit to (``None``: a winnable choice not decided yet) and the
        winnable rule's fields, as the day's page shows the all-day deals'."""
        secret, beacon = await self.daily.day_secret(day), await self.daily.rounds.randomness(day)
        if self.daily.winnable is not None:
            return await self.daily.winnable.for_page(day, rules, secret, beacon, ended, KIND)
        return fairness.daily_seed(secret, day, rules.id, rules.variant, beacon, KIND), {}

    async def edition(self, day: date, rules: engine.RuleSet) -> str:
        """The edition's arena, made unless it exists (any node, any number of times)."""
        aid = edition_id(day, rules)
        if aid not in self._made:
            seed = await self.seed(day, rules)  # daily.waiting until the beacon round
            await self.arenas.make(aid, {
                "name": f"{rules.name}: live daily", "game": rules.id, "variant": rules.variant,
                "starts_at": self.deal_at(day), "duration": self.window,
                "interval": self.window, "repeat": 0, "created": await self.daily.clock(),
                "repeat_of": "", "kind": KIND, "sealed": 1, "day": day.isoformat(),
                "seed": seed.hex()})
            self._made[aid] = None
        return aid

    # ----- players ------------------------------------------------------------------------

    async def join(self, player: Player, game: str, variant: str) -> Live:
        """Be dealt today's live deal of ``rules`` at its instant; joining again changes
        nothing. Refused from the instant on: joins close with the deal."""
        rules = self._rules(game, variant)
        now = await self.daily.clock()
        day = day_of(now)
        if now >= self.deal_at(day):
            raise self._started(day)
        try:
            await self.arenas.join(player, await self.edition(day, rules))
        except ApiError as e:
            raise self._mapped(e, day) from None
        return await self.view(day, player.id)

    async def leave(self, player: Player, game: str, variant: str) -> Live:
        """Give up a place before the deal; after it, resign the game instead."""
        rules = self._rules(game, variant)
        now = await self.daily.clock()
        day = day_of(now)
        aid = edition_id(day, rules)
        summary = await self._summary(aid)
        if summary is None or player.id not in summary["ids"]:
            raise ApiError("daily_live.not_player", "you have not joined today's live "
                           f"{rules.name}")
        if now >= self.deal_at(day) or summary["state"] != "scheduled":
            raise ApiError("daily_live.started", "today's live edition has been dealt: your "
                           "place is played; resign the game to stop")
        try:
            await self.arenas.leave(player, aid)
        except ApiError as e:
            raise self._mapped(e, day) from None
        return await self.view(day, player.id)

    def _started(self, day: date) -> ApiError:
        return ApiError("daily_live.started", f"the live edition of {day} was dealt at "
                        f"{self.settings.daily_live_at} UTC; nobody joins after the deal, so "
                        "that nobody can be told the deal first; the next one opens tomorrow")

    def _mapped(self, e: ApiError, day: date) -> ApiError:
        if e.code in ("arena.started", "arena.not_running"):
            return self._started(day)
        if e.code == "arena.not_player":
            return ApiError("daily_live.not_player", "you have not joined that live edition")
        return e  # arena.full

    # ----- reading ------------------------------------------------------------------------

    async def _summary(self, aid: str) -> dict[str, Any] | None:
        try:
            s = await self.arenas.summary(aid)
        except ApiError:
            return None
        return {**s, "ids": {p["player"] for p in s["players"]}}

    async def page(self, day: date) -> Live | None:
        """The day's live section, the same for everyone (``daily.get``); ``None``: off."""
        return await self.view(day) if self.settings.daily_live else None

    async def view(self, day: date, viewer: str | None = None) -> Live:
        """The day's editions: the instant, the window, each edition's commitment (from the
        day's start), sign-up count and state, its seed once it has ended; with a viewer,
        whether they joined and, once dealt, their session."""
        now = await self.daily.clock()
        if day > day_of(now):
            raise ApiError("daily.not_open", f"the {day} challenge opens at 00:00 UTC that day")
        out: Live = {"day": day.isoformat(), "at": self.deal_at(day),
                     "ends_at": self.ends_at(day), "window": self.window, "now": now,
                     "editions": []}
        for rules in self.rule_sets:
            s = await self._summary(edition_id(day, rules))
            state: LiveState = "open" if now < self.deal_at(day) else "playing"
            if s is None:
                state = "ended" if now >= self.ends_at(day) else state
            elif s["state"] not in LIVE:
                state = "ended"
            e: LiveEdition = {"game": rules.id, "variant": rules.variant, "name": rules.name,
                              "state": state, "signed_up": len(s["ids"]) if s else 0,
                              "board": board_of(day, rules),
                              "race": s["current"] if s and s["current"] else None}
            try:
                seed, extra = await self.for_page(day, rules, state == "ended")
            except ApiError:  # daily.waiting: no commitment can be made yet
                e["waiting"] = True
            else:
                with_winnable(e, extra)
                if seed is not None:
                    e["commitment"] = engine.commitment(seed)
                    if state == "ended":
                        e["seed"] = seed.hex()
            if viewer is not None:
                e["joined"] = s is not None and viewer in s["ids"]
                if e["joined"] and e["race"]:
                    e["session"] = f"{e['race']}.{viewer}"  # server/races/__init__.py's session ids
            out["editions"].append(e)
        return out

    # ----- the board ----------------------------------------------------------------------

    async def scored(self, aid: str, results: RaceResults) -> None:
        """The edition's race ended: each entrant's result on the live board, in the daily
        order (won, then score, then time; server/boards/__init__.py ``order_key``), humans and bots
        apart. Writing a result again changes nothing, so nodes may overlap."""
        raw = await self.arenas.redis.hget(arena_keys(aid)[0], "day")
        if raw is None:
            return
        day = parse_day(store.text(raw))
        rules = engine.get(results["game"], results["variant"])
        expiry = opens_at(day) // 1000 + 86400 * (1 + self.settings.daily_board_days)
        for e in results["ranking"]:
            finished = e.get("finished_at") or results["ended_at"]
            won, resigned = e["status"] == WON, bool(e.get("resigned"))
            key = order_key(won, e["score"], rules.scoring == "low", e.get("tie_break", 0),
                            e["time_ms"], e["moves"], resigned)
            await self.boards.put(
                f"live:{day.isoformat()}:{rules.id}:{rules.variant}:{e['kind']}", e["player"],
                key, finished, {"name": e["name"], "kind": e["kind"], "status": e["status"],
                                "score": e["score"], "time_ms": e["time_ms"],
                                "moves": e["moves"], "tie_break": e.get("tie_break", 0),
                                "finished_at": finished, "session": e.get("session"),
                                "resigned": resigned}, expiry)
