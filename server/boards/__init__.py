"""Leaderboards: one Redis sorted set per board, one number per entry that sorts the whole order.

The number (``order_key``) is lower for a better result, so a board reads in ascending order.
It packs, from the most significant bit down, 53 bits in all (exact in a Redis score):

    lost (1) | score in the game's direction (11) | the game's tie-break (4)
             | time in ms (25) | moves (12)

Entries whose numbers are equal are ordered by their member, ``<finish ms, 13 digits>:<player>``,
so the earlier finish ranks first. Each board has a hash of entry details beside its sorted set;
one Lua script writes both, and only when the new result is better than the one on the board.
A write that changes a board publishes the player's id on the board's channel (``channel``), so
the processes whose sockets watch the board read it again (server/boards/watch.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

from redis.asyncio import Redis

from .. import store
from ..store import scripts
from ..transport.reply_types import Entry

SCORE_BITS, TIE_BITS, TIME_BITS, MOVES_BITS = 11, 4, 25, 12
SCORE_MIN, SCORE_MAX = -(1 << (SCORE_BITS - 1)), (1 << (SCORE_BITS - 1)) - 1
TIME_MAX = (1 << TIME_BITS) - 1  # 9 h 19 min: a resignation's time; longer play counts 1 ms less
MOVES_MAX = (1 << MOVES_BITS) - 1
TIE_MAX = (1 << TIE_BITS) - 1


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def order_key(won: bool, score: int, low: bool, tie_break: int, time_ms: int,
              moves: int, resigned: bool = False) -> int:
    """The whole ranking order in one integer below 2**53; lower is better. A resignation
    counts as the longest time a board measures, which no attempt that played on reaches
    (theirs stop one ms short), so it never ranks above the same score played on."""
    score = _clamp(score, SCORE_MIN, SCORE_MAX)
    time_ms = TIME_MAX if resigned else _clamp(time_ms, 0, TIME_MAX - 1)
    score_part = score - SCORE_MIN if low else SCORE_MAX - score
    key = 0 if won else 1
    key = (key << SCORE_BITS) | score_part
    key = (key << TIE_BITS) | _clamp(tie_break, 0, TIE_MAX)
    key = (key << TIME_BITS) | _clamp(time_ms, 0, TIME_MAX)
    return (key << MOVES_BITS) | _clamp(moves, 0, MOVES_MAX)


def member(finished_at: int, player: str) -> str:
    return f"{finished_at:013d}:{player}"


def board_keys(board: str) -> tuple[str, str]:
    """The sorted set and the details hash, on one Cluster shard."""
    return f"sd:{{board:{board}}}:rank", f"sd:{{board:{board}}}:entries"


def channel(board: str) -> str:
    """The board's "changed" channel: each write that changes the board publishes the
    player's id on it (in the board's hash slot, so a Cluster's SPUBLISH stays on its shard)."""
    return f"sd:{{board:{board}}}:changed"


# The channel is the rank key's name with 'changed' for 'rank' (``channel``).
_WRITE = scripts.PUBLISHES + """
local function write(key, m, entry)
  redis.call('ZADD', KEYS[1], key, m)
  redis.call('HSET', KEYS[2], ARGV[1], entry)
  local rank = redis.call('ZRANK', KEYS[1], m)  -- before an expiry in the past removes it
  if tonumber(ARGV[5]) > 0 then
    redis.call('EXPIREAT', KEYS[1], ARGV[5])
    redis.call('EXPIREAT', KEYS[2], ARGV[5])
  end
  redis.call(PUBLISH, string.sub(KEYS[1], 1, -5) .. 'changed', ARGV[1])
  return {1, rank}
end
"""

# KEYS: rank, entries; ARGV: player, key, member, details json, expire-at (unix s, 0: never),
# replace ('1': write whatever the old entry, as a rating does).
# Returns {1, rank} when written, {0, rank} when the board keeps a result at least as good
# (a smaller key, or the same key finished no later).
PUT = _WRITE + """
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  local o = cjson.decode(old)
  local k = tonumber(ARGV[2])
  if ARGV[6] ~= '1' and (tonumber(o.key) < k or (tonumber(o.key) == k and o.member <= ARGV[3]))
  then
    return {0, redis.call('ZRANK', KEYS[1], o.member)}
  end
  redis.call('ZREM', KEYS[1], o.member)
end
return write(ARGV[2], ARGV[3], ARGV[4])
"""

# Add a result's points to a player's total (weekly and all-time boards): more points rank
# first, then whoever reached the total first. KEYS: rank, entries; ARGV: player, points,
# member, details json, expire-at, won (0/1), the result's id. Returns {1, rank}, or {0, rank}
# when the result was already added: the entry keeps its last few result ids, so a retry
# after a failure part-way through recording does not count the result twice.
ADD = _WRITE + """
local RECENT = 8
local e = cjson.decode(ARGV[4])
e.points, e.results, e.wins, e.recent = tonumber(ARGV[2]), 1, tonumber(ARGV[6]), {ARGV[7]}
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  local o = cjson.decode(old)
  for _, id in ipairs(o.recent or {}) do
    if id == ARGV[7] then return {0, redis.call('ZRANK', KEYS[1], o.member)} end
    if #e.recent < RECENT then e.recent[#e.recent + 1] = id end
  end
  e.points, e.results, e.wins = e.points + o.points, o.results + 1, e.wins + o.wins
  redis.call('ZREM', KEYS[1], o.member)
end
e.player, e.key, e.member = ARGV[1], -e.points, ARGV[3]
return write(e.key, ARGV[3], cjson.encode(e))
"""

# A page of a board: from ``start`` (0-based), or centred on a player ("around me").
# KEYS: rank, entries; ARGV: start, count, player ('' for a plain page).
# Returns {total, first rank, the entries' details}; {total, -1} when the player is not on the
# board. (Not joined here: Lua's strings cost Redis more than the client's join.)
PAGE = """
local total = redis.call('ZCARD', KEYS[1])
local start = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
if ARGV[3] ~= '' then
  local mine = redis.call('HGET', KEYS[2], ARGV[3])
  if not mine then return {total, -1} end
  local r = redis.call('ZRANK', KEYS[1], cjson.decode(mine).member)
  start = math.max(0, math.min(r - math.floor(n / 2), total - n))
end
local players = redis.call('ZRANGE', KEYS[1], start, start + n - 1)
if #players == 0 then return {total, start, {}} end
for i, m in ipairs(players) do players[i] = string.sub(m, 15) end
return {total, start, redis.call('HMGET', KEYS[2], unpack(players))}
"""


# What the watchers of a board on one process see (server/boards/watch.py), in one call: the
# top ``count`` entries and each watching player's own entry and rank.
# KEYS: rank, entries; ARGV: count, then the watching players' ids.
# Returns {total, the top entries' details, {entry or '', rank or -1} for each player}.
WATCH = """
local total = redis.call('ZCARD', KEYS[1])
local top = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local rows = {}
if #top > 0 then
  for i, m in ipairs(top) do top[i] = string.sub(m, 15) end
  rows = redis.call('HMGET', KEYS[2], unpack(top))
end
local own = {}
for i = 2, #ARGV do
  local e = redis.call('HGET', KEYS[2], ARGV[i])
  local r = false
  if e then r = redis.call('ZRANK', KEYS[1], cjson.decode(e).member) end
  if r then
    own[#own + 1] = e
    own[#own + 1] = r
  else
    own[#own + 1] = ''
    own[#own + 1] = -1
  end
end
return {total, rows, own}
"""


def public_entry(entry: dict[str, Any], rank: int) -> Entry:
    """An entry as every board page shows it, to anyone: its 1-based ``rank``, without the
    ordering number, the member, the recent result ids or the integrity signal (for the
    moderators, server/fairplay/moderation.py). What is left are the fields the reply schema
    lists (``replies.ENTRY``), as the writers of this module's boards put them."""
    for private in ("key", "member", "recent", "integrity"):
        entry.pop(private, None)
    entry["rank"] = rank
    return cast(Entry, entry)


@dataclass
class Page:
    total: int  # entries on the board
    entries: list[Entry]  # each with its 1-based ``rank``


class Boards:
    """Any board by name: daily, weekly, all-time, ratings; humans and bots on separate ones."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._put = store.script(redis, PUT)
        self._page = store.script(redis, PAGE)
        self._add = store.script(redis, ADD)
        self._watch = store.script(redis, WATCH)

    async def put(self, board: str, player: str, key: int, finished_at: int,
                  details: dict[str, Any], expire_at: int = 0, replace: bool = False,
                  client: Any = None) -> tuple[bool, int]:
        """Record a result unless the board has one at least as good (or ``replace``);
        (written, 1-based rank). With a pipeline as ``client`` the call is only queued."""
        m = member(finished_at, player)
        entry = json.dumps(details | {"player": player, "key": key, "member": m})
        out = await self._put(keys=list(board_keys(board)), client=client,
                              args=[player, key, m, entry, expire_at, int(replace)])
        return (bool(out[0]), int(out[1]) + 1) if client is None else (False, 0)

    async def add(self, board: str, player: str, points: int, won: bool, finished_at: int,
                  details: dict[str, Any], result: str, expire_at: int = 0,
                  client: Any = None) -> None:
        """Add ``points`` to the player's total on a points board, once per ``result`` id."""
        await self._add(keys=list(board_keys(board)), client=client, args=[
            player, points, member(finished_at, player), json.dumps(details), expire_at,
            int(won), result])

    async def page(self, board: str, start: int = 0, count: int = 20,
                   around: str = "") -> Page | None:
        """``count`` entries from rank ``start`` + 1, or the page centred on ``around``;
        ``None`` when ``around`` is not on the board."""
        out = await self._page(keys=list(board_keys(board)), args=[start, count, around])
        total, first = int(out[0]), int(out[1])
        if first < 0:
            return None
        entries = json.loads(b"[" + b",".join(out[2]) + b"]")  # one document, not one each
        return Page(total, [public_entry(e, first + i + 1) for i, e in enumerate(entries)])

    async def watch(self, board: str, count: int, players: list[str]
                    ) -> tuple[Page, dict[str, Entry]]:
        """The top ``count`` entries, and the entry of each of ``players`` who has one (by
        player id), as a page shows them: one Redis call, however many players."""
        out = await self._watch(keys=list(board_keys(board)), args=[count, *players])
        rows = [r for r in out[1] if r]  # an entry expiring between the two reads: skipped
        top = json.loads(b"[" + b",".join(rows) + b"]")
        own: dict[str, Entry] = {}
        for i, player in enumerate(players):
            entry, rank = out[2][2 * i], int(out[2][2 * i + 1])
            if rank >= 0 and entry:
                own[player] = public_entry(json.loads(entry), rank + 1)
        return Page(int(out[0]), [public_entry(e, i + 1) for i, e in enumerate(top)]), own

    async def count(self, board: str) -> int:
        return int(await self.redis.zcard(board_keys(board)[0]))
