"""What a finished game leaves behind: the player's statistics and streaks, the daily board
entry and the points on the weekly and all-time boards, and (after a race) the ratings.

Board names (``server/boards/__init__.py`` keys them), humans and bots always apart:

    daily:<YYYY-MM-DD>:<game>:<variant>:<kind>    each attempt's result, by the race order
    live:<YYYY-MM-DD>:<game>:<variant>:<kind>     ... of the live edition (server/daily/live.py)
    weekly:<YYYY-Www>:<game>:<variant>:<kind>     points summed over the ISO week's days
    weekly:<YYYY-Www>:all:<kind>                  ... over every rule set
    alltime:<game>:<variant>:<kind>, alltime:all:<kind>
    streak:played:<kind>, streak:won:<kind>       longest run of consecutive UTC days
    rating:<game>:<variant>:<kind>                openskill ordinal (server/boards/ratings.py)
    botrating:<game>:<variant>:human              ... from races against server-run bots

Statistics and streaks live in the player's own hash, one script call per result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from redis.asyncio import Redis

import engine
from engine.core import WON

from .. import store
from ..accounts import Player
from ..botrace.player import strength_of
from ..config import Settings
from ..errors import ApiError
from ..fairplay.integrity import Signal
from ..sessions import Session, rules_for
from ..store import script_replies
from ..transport.reply_types import (
    Profile,
    ProfileStreaks,
    RaceBot,
    Rating,
    RuleSetStats,
    Streak,
)
from . import Boards, order_key
from .ratings import Ratings

WIN_POINTS, RESULT_POINTS = 5, 1  # a ranked daily result earns 1 point, a win 5
STREAK_MAX = 1 << 30

# KEYS: player hash; ARGV: 'game/variant', won (0/1), score, low (0/1), time ms, the result's
# id. The hash keeps the last few result ids counted, so a retry after a failure part-way
# through recording counts nothing twice (returns 0).
STATS = """
local seen = redis.call('HGET', KEYS[1], 'recorded') or ''
if string.find(' ' .. seen .. ' ', ' ' .. ARGV[6] .. ' ', 1, true) then return 0 end
local ids = {ARGV[6]}
for id in string.gmatch(seen, '%S+') do
  if #ids < 16 then ids[#ids + 1] = id end
end
redis.call('HSET', KEYS[1], 'recorded', table.concat(ids, ' '))
local p = 'stats:' .. ARGV[1] .. ':'
local score = tonumber(ARGV[3])
redis.call('HINCRBY', KEYS[1], p .. 'played', 1)
redis.call('HINCRBY', KEYS[1], p .. 'score_sum', score)
local best = redis.call('HGET', KEYS[1], p .. 'best_score')
if not best or (ARGV[4] == '1' and score < tonumber(best))
   or (ARGV[4] ~= '1' and score > tonumber(best)) then
  redis.call('HSET', KEYS[1], p .. 'best_score', score)
end
if ARGV[2] == '1' then
  redis.call('HINCRBY', KEYS[1], p .. 'won', 1)
  local t = redis.call('HGET', KEYS[1], p .. 'best_time')
  if not t or tonumber(ARGV[5]) < tonumber(t) then
    redis.call('HSET', KEYS[1], p .. 'best_time', ARGV[5])
  end
end
return 1
"""

# A streak of consecutive days. KEYS: player hash; ARGV: 'played' | 'won', day number.
# A day already counted (or older than the last one) changes nothing. Returns {days, best}.
STREAK = """
local p = 'streak:' .. ARGV[1] .. ':'
local day = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], p .. 'last', p .. 'days', p .. 'best')
local last, days, best = tonumber(s[1] or '-9'), tonumber(s[2] or '0'), tonumber(s[3] or '0')
if day <= last then return {days, best} end
if day == last + 1 then days = days + 1 else days = 1 end
if days > best then best = days end
redis.call('HSET', KEYS[1], p .. 'last', day, p .. 'days', days, p .. 'best', best)
return {days, best}
"""


def rules_key(rules: engine.RuleSet) -> str:
    return f"{rules.id}/{rules.variant}"


def opens_at(day: date) -> int:
    """00:00 UTC of ``day``, in ms."""
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


def board_name(public: str, kind: str, today: date) -> tuple[str, str]:
    """A board's public name (``daily/today/klondike/easy``) -> (its key name, the public name
    with 'today' or 'current' resolved)."""
    head, *args = public.strip("/").split("/")
    bad = ApiError("board.unknown", f"there is no board {public[:96]!r}: see docs/protocol.md")
    if head == "streaks" and args in (["played"], ["won"]):
        return f"streak:{args[0]}:{kind}", public
    if head in ("daily", "live") and args:  # live: the daily's live edition
        args[0] = (today if args[0] == "today" else _day(args[0], bad)).isoformat()
    elif head == "weekly" and args:
        args[0] = week_name(today) if args[0] == "current" else args[0]
        if not re.fullmatch(r"\d{4}-W\d{2}", args[0]):
            raise bad
    elif head not in ("alltime", "ratings", "botratings"):
        raise bad
    games = args[1:] if head in ("daily", "live", "weekly") else args
    if len(games) == 2:
        rules = rules_for(*games)
        games[:] = [rules.id, rules.variant]
    elif games != ["all"] or head not in ("weekly", "alltime"):
        raise bad
    args[len(args) - len(games):] = games
    key = {"ratings": "rating", "botratings": "botrating"}.get(head, head)
    return ":".join([key, *args, kind]), "/".join([head, *args])


def _day(text: str, bad: ApiError) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise bad from None


def week_name(day: date) -> str:
    """The ISO week (Monday to Sunday, UTC) a day's results count in: '2026-W48'."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


class Records:
    def __init__(self, redis: Redis, settings: Settings, boards: Boards,
                 ratings: Ratings) -> None:
        self.redis = redis
        self.settings = settings
        self.boards = boards
        self.ratings = ratings
        self._stats = store.script(redis, STATS)
        self._streak = store.script(redis, STREAK)

    # ----- writing ----------------------------------------------------------------------

    async def _count(self, pid: str, rules: engine.RuleSet, won: bool, score: int,
                     time_ms: int, result: str, client: Any = None) -> None:
        await self._stats(keys=[store.player_key(pid)], client=client, args=[
            rules_key(rules), int(won), score, int(rules.scoring == "low"), time_ms, result])

    async def _streak_board(self, player: Player, which: str, best: int, at: int) -> None:
        await self.boards.put(f"streak:{which}:{player.kind}", player.id, STREAK_MAX - best,
                              at, {"name": player.name, "days": best})

    async def played_daily(self, player: Player, day: date) -> None:
        """A ranked attempt started: the day counts for the streak of days played."""
        streak = script_replies.Streak.of(await self._streak(keys=[store.player_key(player.id)],
                                                      args=["played", day.toordinal()]))
        await self._streak_board(player, "played", streak.best, await store.now_ms(self.redis))

    async def game_over(self, s: Session, finished_at: int) -> None:
        """A practice game or unranked replay ended: it counts in the player's statistics."""
        st = s.state
        await self._count(s.player, s.rules, st.status == WON, st.score,
                          finished_at - s.created, s.id)

    async def daily_result(self, player: Player, s: Session, day: date, finished_at: int,
                           walked_away: bool, integrity: Signal | None = None) -> None:
        """A ranked attempt ended: the daily board (with the attempt's integrity signal for
        the moderators, server/fairplay/integrity.py), points on the longer boards, statistics and
        the streak of days won, in one pipelined round trip (two after a win)."""
        st, rules = s.state, s.rules
        won = st.status == WON
        time_ms = max(0, finished_at - s.created)
        tie = rules.tie_break(st)
        resigned = bool(st.vars.get("resigned"))
        key = order_key(won, st.score, rules.scoring == "low", tie, time_ms, st.ply, resigned)
        game = f"{rules.id}:{rules.variant}"
        kind = player.kind
        monday = day - timedelta(days=day.weekday())
        daily_expiry = opens_at(day) // 1000 + 86400 * (1 + self.settings.daily_board_days)
        weekly_expiry = (opens_at(monday) // 1000
                         + 86400 * 7 * (1 + self.settings.weekly_board_weeks))
        week = week_name(day)
        details = {"name": player.name, "kind": kind}
        points = WIN_POINTS if won else RESULT_POINTS
        async with self.redis.pipeline(transaction=False) as pipe:
            await self.boards.put(
                f"daily:{day.isoformat()}:{game}:{kind}", player.id, key, finished_at,
                details | {"status": st.status, "score": st.score, "time_ms": time_ms,
                           "moves": st.ply, "tie_break": tie, "finished_at": finished_at,
                           "session": s.id, "walked_away": walked_away,
                           "resigned": resigned, "integrity": integrity},
                daily_expiry, client=pipe)
            for board, expiry in ((f"weekly:{week}:{game}", weekly_expiry),
                                  (f"weekly:{week}:all", weekly_expiry),
                                  (f"alltime:{game}", 0), ("alltime:all", 0)):
                await self.boards.add(f"{board}:{kind}", player.id, points, won, finished_at,
                                      details, s.id, expiry, client=pipe)
            await self._count(player.id, rules, won, st.score, time_ms, s.id, client=pipe)
            if won:
                await self._streak(keys=[store.player_key(player.id)], client=pipe,
                                   args=["won", day.toordinal()])
            out = await pipe.execute()
        if won:
            streak = script_replies.Streak.of(out[-1])  # the pipeline's last answer
            await self._streak_board(player, "won", streak.best, finished_at)

    async def results(self, game: str, variant: str, ranking: Sequence[Mapping[str, Any]],
                      result: str, bot: RaceBot | None = None) -> None:
        """A race or a match (``result``: its id) ended: every entrant's statistics, then the
        ratings."""
        rules = engine.get(game, variant)
        async with self.redis.pipeline(transaction=False) as pipe:
            for e in ranking:
                await self._count(e["player"], rules, e["status"] == WON, e["score"],
                                  e["time_ms"], result, client=pipe)
            await pipe.execute()
        if bot:  # a race against a server-run bot: its own board only (server/boards/ratings.py)
            await self.ratings.update_against_bot(rules, ranking, result, bot["player"],
                                                  strength_of(bot["strength"]).rating)
            return
        await self.ratings.update(rules, ranking, result)

    # ----- reading ----------------------------------------------------------------------

    async def profile(self, player: Player, today: date) -> Profile:
        """The public profile: statistics per rule set, streaks, ratings with uncertainty."""
        raw = {store.text(k): store.text(v) for k, v in
               (await self.redis.hgetall(store.player_key(player.id))).items()}
        stats: dict[str, dict[str, int]] = {}
        ratings: dict[str, Rating] = {}
        against_bots: dict[str, Rating] = {}
        streaks: dict[str, dict[str, int]] = {w: {} for w in ("played", "won")}
        for field, value in raw.items():
            head, _, rest = field.partition(":")
            if head == "stats":
                rk, _, name = rest.rpartition(":")
                stats.setdefault(rk, {})[name] = int(value)
            elif head == "rating":
                ratings[rest] = json.loads(value)
            elif head == "botrating":
                against_bots[rest] = json.loads(value)
            elif head == "streak":
                which, _, name = rest.partition(":")
                streaks[which][name] = int(value)

        def streak(which: str) -> Streak:
            """A run of days is current while its last day is today or yesterday."""
            s = streaks[which]
            current = s.get("last", 0) >= today.toordinal() - 1
            return {"days": s.get("days", 0) if current else 0, "best": s.get("best", 0)}

        runs: ProfileStreaks = {"played": streak("played"), "won": streak("won")}
        rule_sets: list[RuleSetStats] = []
        for rk, v in sorted(stats.items()):
            game, _, variant = rk.partition("/")
            played = v.get("played", 0)
            rule_sets.append({
                "game": game, "variant": variant, "played": played, "won": v.get("won", 0),
                "best_time_ms": v.get("best_time"), "best_score": v.get("best_score"),
                "average_score": round(v.get("score_sum", 0) / played, 2) if played else None})
        return {"id": player.id, "name": player.name, "kind": player.kind,
                "created": int(raw.get("created", 0)), "stats": rule_sets, "streaks": runs,
                "ratings": ratings, "ratings_against_bots": against_bots}
