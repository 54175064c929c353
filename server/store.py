"""The Redis connection, the key layout and the scripts that change several keys at once.

Keys carry a hash tag (``{...}``) so that everything one session or one race changes
together lives on one Redis Cluster shard and one Lua script can change it atomically:

    sd:player:{P}                 hash   name, kind, created
    sd:token:<sha256 of token>    string player id
    sd:{S}:session                hash   a solo session (S is its id)
    sd:{S}:moves                  list   "<server ms> <move>" per move
    sd:{R}:race                   hash   a race: rules, seats, state, seed, seq, results
    sd:{R}:entrants               hash   player id -> display name
    sd:{R}:session:<player>       hash   that entrant's session (id "R.<player>")
    sd:{R}:moves:<player>         list
    sd:{R}:events                 list   "<seq>\\n<msgpack event>", the last few
    sd:{R}:ev                     channel the same entries, live
    sd:races:open, sd:races:running   sorted sets (by creation, by time limit)
    sd:{dYYYYMMDD-G-V-P}:session  hash   a ranked daily attempt (one id per player, day, rules)
    sd:daily:inflight             sorted set   ranked attempts not yet on the boards, by deadline
    sd:daily:secret               string the daily HMAC secret, when no setting gives one
                                         (days before the first chain)
    sd:{daily}:chains               list   the public chain history: JSON records (server/chain.py)
    sd:{daily}:chain:roots          hash   chain anchor -> root secret (never published)
    sd:daily:beacon:<day>         string the day's beacon round (JSON), or "none", set NX
    sd:daily:reveal:<day>         string when the day's reveal was recorded (ms), set NX
    sd:{board:NAME}:rank, :entries    a leaderboard: sorted set + details (server/boards.py)
    sd:{M}:match                  hash   a match: rules, seats, timers, state, seed, seq, rev,
                                         round counters, per player seat:/here:/away:/out:/full:
    sd:{M}:players                hash   player id -> {"name", "kind"}
    sd:{M}:moves                  list   Bowling: "<server ms> <bowler index> <move>|forfeit"
    sd:{M}:moves:<player>         list   called-card: "<server ms> <move>" per placed card
    sd:{M}:events, sd:{M}:ev      the match's events, as a race's
    sd:matches:open, sd:matches:due   sorted sets (by creation; by the next timer's deadline)
    sd:due                        sorted set   follow-ups still to do (of ended games; a running
                                         race's end at its time limit), by when any node may
                                         take one over (server/followups.py)
    sd:nodes, sd:node:{N}:here    live nodes; a node's ledger of match presence

``sd:due`` is the one global key a script writes (the script that ends a game adds its
follow-up there, so a crash cannot separate the two): a single-Redis assumption. On a
Redis Cluster those scripts would need the key on the game's own shard (docs/server.md).

Each script's answer is decoded by name in server/replies.py (one record per kind of answer),
so a change to what a script returns is made there and here, nowhere else.
"""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import unquote, urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import NoScriptError

from . import link
from .link import Client
from .link import call as call  # re-exported: services reach Redis through store

#: The URL schemes of a Redis Cluster's seed nodes (docs/operations.md).
CLUSTER_SCHEMES = {"redis-cluster": False, "rediss-cluster": True}


def sharded(redis: Any) -> bool:
    """Whether ``redis`` is a Redis Cluster's client: events go by SPUBLISH and SSUBSCRIBE to
    the shard that owns the race, and scripts run over redis-py's cluster client."""
    return isinstance(redis, RedisCluster)


def script(redis: Redis, lua: str) -> Any:
    """A script bound to ``redis``: over the link on one Redis (server/link.py); on a Redis
    Cluster over redis-py's cluster client, which routes it to the shard of its keys and
    follows MOVED and ASK, with SPUBLISH for its events."""
    if sharded(redis):
        return ClusterScript(redis, lua.replace(_PUBLISH, _SHARDED, 1))
    return link.script(redis, lua)


async def durably(redis: Redis, run: Any, keys: list[Any], args: list[Any],
                  wait_ms: int) -> tuple[Any, int]:
    """Run the script ``run`` and then ``WAIT 1 wait_ms`` on the same connection (WAIT waits
    for the connection's own writes): the script's answer, and how many replicas have it.
    By its SHA; on a Redis that does not know it yet (NOSCRIPT: nothing was run), once more
    with its text, which loads it."""
    wait: tuple[Any, ...] = ("WAIT", 1, wait_ms)
    for command in (("EVALSHA", run.sha), ("EVAL", run.lua)):
        async with redis.pipeline(transaction=False) as pipe:
            pipe.execute_command(*command, len(keys), *keys, *args)
            if sharded(redis):  # the connection to the primary of the keys' shard
                pipe.execute_command(*wait, target_nodes=redis.get_node_from_key(keys[0]))  # type: ignore[attr-defined]
            else:
                pipe.execute_command(*wait)
            try:
                answer, replicas = await pipe.execute()
            except NoScriptError:
                continue
        return answer, int(replicas)
    raise AssertionError("EVAL never answers NOSCRIPT")


class ClusterScript:
    """A script on a Redis Cluster, called like redis-py's. Queued in a pipeline (``client=``)
    it goes as EVAL with its whole text: redis-py's cluster pipeline refuses EVALSHA."""

    def __init__(self, redis: Redis | RedisCluster, lua: str) -> None:
        self.lua = lua
        self._script = redis.register_script(lua)
        self.sha = self._script.sha

    async def __call__(self, keys: list[Any] | tuple[Any, ...] = (),
                       args: list[Any] | tuple[Any, ...] = (), client: Any = None) -> Any:
        if client is not None:
            client.execute_command("EVAL", self.lua, len(keys), *keys, *args)
            return None
        return await self._script(keys=keys, args=args)


def cluster(url: str, connections: int, timeout: float) -> RedisCluster:
    """redis-py's cluster client for ``redis-cluster://[user:password@]host:port,host:port``
    (``rediss-cluster://`` for TLS): any of the seed nodes will do, the rest is discovered."""
    parts = urlsplit(url)
    seeds = []
    for seed in parts.netloc.rpartition("@")[2].split(","):
        host, _, port = seed.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"a cluster seed node must be host:port, not {seed!r}")
        seeds.append(ClusterNode(host, int(port)))
    return RedisCluster(startup_nodes=seeds, ssl=CLUSTER_SCHEMES[parts.scheme],
                        username=unquote(parts.username) if parts.username else None,
                        password=unquote(parts.password) if parts.password else None,
                        max_connections=connections, socket_timeout=timeout,
                        socket_connect_timeout=timeout, decode_responses=False)


def connect(url: str, connections: int = 64, timeout: float = 5.0) -> Redis:
    """The Redis at ``url`` (``redis://``, ``rediss://`` or ``unix://``), or the Redis
    Cluster whose seed nodes ``redis-cluster://`` names (``cluster``).

    At most ``connections`` to Redis at once; a request that finds them all busy waits for
    one (up to 10 s) rather than failing, so a burst of moves queues instead of erroring.
    Scripts and single commands on the hot paths go over the client's ``link`` instead
    (server/link.py). Every command, and every new connection, gets ``timeout`` seconds
    (the ``store_timeout`` setting) before it fails with redis-py's ``TimeoutError``.

    There is no store without a URL: ``samedeal serve`` given none runs a redis-server of its
    own and passes its URL (server/own_redis.py)."""
    if urlsplit(url).scheme in CLUSTER_SCHEMES:
        return cluster(url, connections, timeout)  # type: ignore[return-value]
    if url:
        pool = BlockingConnectionPool.from_url(url, max_connections=connections, timeout=10,
                                               health_check_interval=30,
                                               socket_timeout=timeout,
                                               socket_connect_timeout=timeout)
        return Client(connection_pool=pool, store_timeout=timeout, decode_responses=False)
    raise ValueError("no Redis URL: give one (redis://host:6379/0), or let `samedeal serve` "
                     "run its own redis-server")


async def forget_idle(redis: Redis) -> None:
    """After a failed connection: Redis restarted or the network broke, so the idle pooled
    connections are likely dead too. Drop them, so the next requests connect afresh instead of
    each failing once. (redis-py's cluster client renews its own after a failure.)"""
    if sharded(redis):
        return
    with contextlib.suppress(Exception):
        await redis.connection_pool.disconnect(inuse_connections=False)


def player_key(pid: str) -> str:
    return f"sd:player:{{{pid}}}"


def token_key(digest: str) -> str:
    return f"sd:token:{digest}"


def session_keys(sid: str) -> tuple[str, str]:
    """The hash and the move list of session ``sid``: ``S`` (solo) or ``R.P`` (race entry)."""
    race, _, player = sid.partition(".")
    if player:
        return f"sd:{{{race}}}:session:{player}", f"sd:{{{race}}}:moves:{player}"
    return f"sd:{{{sid}}}:session", f"sd:{{{sid}}}:moves"


def race_keys(rid: str) -> tuple[str, str, str]:
    """The race hash, its entrants and its event list."""
    return f"sd:{{{rid}}}:race", f"sd:{{{rid}}}:entrants", f"sd:{{{rid}}}:events"


def match_keys(mid: str) -> tuple[str, str, str]:
    """The match hash, its players and its event list."""
    return f"sd:{{{mid}}}:match", f"sd:{{{mid}}}:players", f"sd:{{{mid}}}:events"


def match_moves(mid: str, pid: str = "") -> str:
    """Bowling's one move list, or a called-card player's own."""
    return f"sd:{{{mid}}}:moves:{pid}" if pid else f"sd:{{{mid}}}:moves"


def channel(eid: str) -> str:
    """The pub/sub channel of a race's or a match's events."""
    return f"sd:{{{eid}}}:ev"


def events_key(eid: str) -> str:
    return f"sd:{{{eid}}}:events"


OPEN_RACES, RUNNING_RACES = "sd:races:open", "sd:races:running"
OPEN_MATCHES, DUE_MATCHES = "sd:matches:open", "sd:matches:due"
#: Live nodes by their last heartbeat (ms), and what each counts present in matches.
NODES = "sd:nodes"


def node_presence(node: str) -> str:
    """A node's ledger of match presence it counted: ``<match> <player>`` -> sockets."""
    return f"sd:node:{{{node}}}:here"
DAILY_INFLIGHT, DAILY_SECRET = "sd:daily:inflight", "sd:daily:secret"


def daily_beacon(day: str) -> str:
    return f"sd:daily:beacon:{day}"


def daily_reveal(day: str) -> str:
    return f"sd:daily:reveal:{day}"

#: Follow-ups of ended games still to do: ``race:R``, ``match:M``, ``daily:S``, ``game:S``,
#: scored by the server ms from which any node's sweep may take one over; and each one's
#: latest expectation's stamp (server/followups.py). One hash tag: one shard, one script.
DUE, EXPECTED = "sd:{due}", "sd:{due}:expected"


def follow_up(kind: str, ident: str) -> str:
    """The due-set member for the work that follows the end of a game of ``kind``."""
    return f"{kind}:{ident}"


#: The first line of every script: a Redis Cluster gets SPUBLISH instead (``script``), so
#: a race's events stay on the shard that owns the race.
_PUBLISH = "local PUBLISH = 'PUBLISH'\n"
_SHARDED = "local PUBLISH = 'SPUBLISH'\n"

# A race event: bump the sequence, keep it in the window, publish it. Needs rk, ek, chan.
_EMIT = _PUBLISH + """
local function emit(rk, ek, chan, payload, window)
  local seq = redis.call('HINCRBY', rk, 'seq', 1)
  local entry = tostring(seq) .. '\\n' .. payload
  redis.call('RPUSH', ek, entry)
  redis.call('LTRIM', ek, -window, -1)
  redis.call(PUBLISH, chan, entry)
  return seq
end
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
"""

# Change a session: push a move or pop one, only if nobody changed it since ``rev``.
# KEYS: session, moves [, race, events]; ARGV: rev, op, move, status, score, ply, tie-break
# [, payload, window, channel]. Returns {1, rev, now, seq, done, entrants, first finish} or
# {0, why, detail}; "first finish" is 1 when this change ended the game for the first time.
CHANGE = _EMIT + """
local s = redis.call('HMGET', KEYS[1], 'rev', 'ends_at')
local rev = s[1]
if not rev then return {0, 'session.unknown', ''} end
if rev ~= ARGV[1] then return {0, 'conflict', rev} end
local now = now_ms()
if s[2] and now >= tonumber(s[2]) then return {0, 'daily.closed', s[2]} end
local race = #KEYS > 2
if race then
  local state = redis.call('HGET', KEYS[3], 'state')
  if state ~= 'running' then return {0, 'race.over', state} end
  local starts = tonumber(redis.call('HGET', KEYS[3], 'starts_at'))
  if now < starts then return {0, 'race.not_started', tostring(starts - now)} end
  if now >= tonumber(redis.call('HGET', KEYS[3], 'ends_at')) then
    return {0, 'race.over', 'time'}
  end
end
if ARGV[2] == 'push' then
  redis.call('RPUSH', KEYS[2], tostring(now) .. ' ' .. ARGV[3])
else
  redis.call('RPOP', KEYS[2])
end
local old = redis.call('HGET', KEYS[1], 'status')
local new = ARGV[4]
redis.call('HSET', KEYS[1], 'rev', rev + 1, 'status', new, 'score', ARGV[5], 'moves', ARGV[6],
  'tie', ARGV[7])
local first = 0
if old == 'playing' and new ~= 'playing' then
  first = redis.call('HSETNX', KEYS[1], 'finished_at', now)
end
if not race then return {1, rev + 1, now, 0, 0, 0, first} end
local done = tonumber(redis.call('HGET', KEYS[3], 'done') or '0')
local entrants = tonumber(redis.call('HGET', KEYS[3], 'entrants'))
if old == 'playing' and new ~= 'playing' then
  done = redis.call('HINCRBY', KEYS[3], 'done', 1)
end
local seq = emit(KEYS[3], KEYS[4], ARGV[10], ARGV[8], tonumber(ARGV[9]))
return {1, rev + 1, now, seq, done, entrants, first}
"""

# Create a session unless its id is taken. KEYS: session; ARGV: field, value, ... Returns 1
# when created, else the existing session's status.
OPEN = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HGET', KEYS[1], 'status') end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""

# Close a daily attempt to moves for good. KEYS: session, moves. Returns {status, created,
# finished_at or '', the last move's entry or ''}.
CLOSE = """
local s = redis.call('HMGET', KEYS[1], 'status', 'created', 'finished_at')
if not s[1] then return {'', '', '', ''} end
redis.call('HSET', KEYS[1], 'ends_at', 0)
return {s[1], s[2], s[3] or '', redis.call('LINDEX', KEYS[2], -1) or ''}
"""

# Join an open race. KEYS: race, entrants, events; ARGV: player, name, payload, window, chan.
JOIN = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, 'race.unknown'} end
if state ~= 'open' then return {0, 'race.not_open'} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {0, 'race.joined'} end
local n = redis.call('HLEN', KEYS[2])
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
if n >= seats then return {0, 'race.full'} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local seq = emit(KEYS[1], KEYS[3], ARGV[5], ARGV[3], tonumber(ARGV[4]))
return {1, n + 1, seats, seq}
"""

# Leave a race before its start. KEYS: race, entrants, events; ARGV: player, payload, window,
# chan.
LEAVE = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, 'race.unknown'} end
if state ~= 'open' then return {0, 'race.not_open'} end
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return {0, 'race.not_entrant'} end
return {1, emit(KEYS[1], KEYS[3], ARGV[4], ARGV[2], tonumber(ARGV[3]))}
"""

# Start an open race with exactly the entrants the caller read. KEYS: race, entrants, events,
# then a session hash per entrant; ARGV: payload, window, chan, starts ms, ends ms, status,
# score, tie-break, then the entrants' ids in KEYS order.
START = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, 'race.unknown'} end
if state ~= 'open' then return {0, 'race.not_open'} end
local n = #KEYS - 3
if redis.call('HLEN', KEYS[2]) ~= n then return {0, 'conflict'} end
local r = redis.call('HMGET', KEYS[1], 'game', 'variant', 'seed')
for i = 1, n do
  local pid = ARGV[8 + i]
  if redis.call('HEXISTS', KEYS[2], pid) == 0 then return {0, 'conflict'} end
  redis.call('HSET', KEYS[3 + i], 'game', r[1], 'variant', r[2], 'seed', r[3],
    'player', pid, 'competitive', 1, 'rev', 0, 'status', ARGV[6], 'score', ARGV[7],
    'moves', 0, 'tie', ARGV[8], 'created', ARGV[4])
end
local done = 0  -- a deal with no move at all is over for everyone from the start
if ARGV[6] ~= 'playing' then done = n end
redis.call('HSET', KEYS[1], 'state', 'running', 'entrants', n, 'done', done,
  'starts_at', ARGV[4], 'ends_at', ARGV[5])
return {1, emit(KEYS[1], KEYS[3], ARGV[3], ARGV[1], tonumber(ARGV[2]))}
"""

# End a running race if no event came since the caller read it; its event list expires
# ``replay ms`` later. KEYS: race, events; ARGV: seq, results json, payload, window, chan,
# replay ms.
END = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'running' then return {0, state or 'race.unknown'} end
if redis.call('HGET', KEYS[1], 'seq') ~= ARGV[1] then return {0, 'conflict'} end
redis.call('HSET', KEYS[1], 'state', 'ended', 'ended_at', now_ms(), 'results', ARGV[2])
local seq = emit(KEYS[1], KEYS[2], ARGV[5], ARGV[3], tonumber(ARGV[4]))
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return {1, seq}
"""


# ----- matches (server/matches/) -------------------------------------------------------

# Take a seat in an open match. KEYS: match, players, events; ARGV: player, info, payload,
# window, chan, 1 when a socket of the player follows the match from now on (else 0).
# Returns {1, seated, seats, seq} or {0, why}.
MATCH_JOIN = _EMIT + """
local m = redis.call('HMGET', KEYS[1], 'state', 'seats')
if not m[1] then return {0, 'match.unknown'} end
if m[1] ~= 'open' then return {0, 'match.not_open'} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {0, 'match.joined'} end
local n = redis.call('HLEN', KEYS[2])
if n >= tonumber(m[2]) then return {0, 'match.full'} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local seq = emit(KEYS[1], KEYS[3], ARGV[5], ARGV[3], tonumber(ARGV[4]))
redis.call('HSET', KEYS[1], 'seat:' .. ARGV[1], seq)
redis.call('HINCRBY', KEYS[1], 'here:' .. ARGV[1], tonumber(ARGV[6]))
return {1, n + 1, tonumber(m[2]), seq}
"""

# Give up a seat before the start. KEYS: match, players, events; ARGV: player, payload,
# window, chan.
MATCH_LEAVE = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, 'match.unknown'} end
if state ~= 'open' then return {0, 'match.not_open'} end
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return {0, 'match.not_player'} end
redis.call('HDEL', KEYS[1], 'seat:' .. ARGV[1])
return {1, emit(KEYS[1], KEYS[3], ARGV[4], ARGV[2], tonumber(ARGV[3]))}
"""

# Start an open match with exactly the players the caller read, in its order. KEYS: match,
# players, events; ARGV: payload, window, chan, now, deadline, then the players in order. A
# player with no socket watching the match counts as away from the start.
MATCH_START = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, 'match.unknown'} end
if state ~= 'open' then return {0, 'match.not_open'} end
local n = #ARGV - 5
if redis.call('HLEN', KEYS[2]) ~= n then return {0, 'conflict'} end
for i = 1, n do
  local pid = ARGV[5 + i]
  if redis.call('HEXISTS', KEYS[2], pid) == 0 then return {0, 'conflict'} end
  if tonumber(redis.call('HGET', KEYS[1], 'here:' .. pid) or '0') <= 0 then
    redis.call('HSET', KEYS[1], 'away:' .. pid, ARGV[4])
  end
end
redis.call('HSET', KEYS[1], 'state', 'running', 'started_at', ARGV[4], 'shown_at', ARGV[4],
  'deadline', ARGV[5], 'players', n, 'rev', 0, 'round', 0, 'placed', 0, 'active', n,
  'filling', 0)
return {1, emit(KEYS[1], KEYS[3], ARGV[3], ARGV[1], tonumber(ARGV[2]))}
"""

# Bowling: append a move (or a forfeit) to the one move list if nobody changed the match
# since ``rev``. KEYS: match, moves, events; ARGV: rev, entry, payload, window, chan,
# shown_at, deadline, forfeiting player or ''. Returns {1, rev, seq} or {0, why}.
MATCH_MOVE = _EMIT + """
local m = redis.call('HMGET', KEYS[1], 'state', 'rev')
if m[1] ~= 'running' then return {0, 'match.not_running'} end
if m[2] ~= ARGV[1] then return {0, 'conflict'} end
redis.call('RPUSH', KEYS[2], tostring(now_ms()) .. ' ' .. ARGV[2])
redis.call('HSET', KEYS[1], 'rev', tonumber(m[2]) + 1, 'shown_at', ARGV[6], 'deadline', ARGV[7])
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'out:' .. ARGV[8], 1) end
return {1, tonumber(m[2]) + 1, emit(KEYS[1], KEYS[3], ARGV[5], ARGV[3], tonumber(ARGV[4]))}
"""

# A called-card round: a player places the called card, or leaves. The round ends when every
# player still placing has placed; then the next card is called, or the match is over.
# KEYS: match, the player's moves, events; ARGV: op (place|forfeit), player, round, entry,
# payload, next card payload, grid now full (0|1), window, chan, shown_at, deadline.
# Returns {1, seq, 'wait'|'round'|'last'} or {0, why}.
MATCH_PLACE = _EMIT + """
local p = ARGV[2]
local m = redis.call('HMGET', KEYS[1], 'state', 'round', 'placed', 'active', 'filling', 'rev',
  'out:' .. p, 'full:' .. p)
if m[1] ~= 'running' then return {0, 'match.not_running'} end
if m[7] then return {0, 'match.left'} end
if m[2] ~= ARGV[3] then return {0, 'conflict'} end
local round, placed = tonumber(m[2]), tonumber(m[3])
local active, filling = tonumber(m[4]), tonumber(m[5])
local waiting = not m[8] and redis.call('LLEN', KEYS[2]) == round
local window = tonumber(ARGV[8])
if ARGV[1] == 'place' then
  if not waiting then return {0, 'match.wait'} end
  redis.call('RPUSH', KEYS[2], tostring(now_ms()) .. ' ' .. ARGV[4])
  placed = placed + 1
  if ARGV[7] == '1' then
    filling = filling + 1
    redis.call('HSET', KEYS[1], 'full:' .. p, 1)
  end
else
  redis.call('HSET', KEYS[1], 'out:' .. p, 1)
  if waiting then
    active = active - 1
  elseif not m[8] then
    filling = filling + 1  -- placed this round: off the count when the round ends
  end
end
local seq = emit(KEYS[1], KEYS[3], ARGV[9], ARGV[5], window)
local outcome = 'wait'
if placed >= active then
  active = active - filling
  round = round + 1
  placed, filling = 0, 0
  if active <= 0 then
    outcome = 'last'
  else
    outcome = 'round'
    redis.call('HSET', KEYS[1], 'shown_at', ARGV[10], 'deadline', ARGV[11])
    seq = emit(KEYS[1], KEYS[3], ARGV[9], ARGV[6], window)
  end
end
redis.call('HSET', KEYS[1], 'round', round, 'placed', placed, 'active', active,
  'filling', filling, 'rev', tonumber(m[6]) + 1)
return {1, seq, outcome}
"""

# A player's sockets watching a match: count them; the last one gone makes the player away
# (the turn timer then waits out the grace period), the first one back clears it.
# KEYS: match, events; ARGV: player, +1|-1, away payload, back payload, window, chan.
MATCH_HERE = _EMIT + """
local p = ARGV[1]
local m = redis.call('HMGET', KEYS[1], 'state', 'seat:' .. p, 'out:' .. p)
if not m[2] or (m[1] ~= 'open' and m[1] ~= 'running') then return 0 end
local here = redis.call('HINCRBY', KEYS[1], 'here:' .. p, tonumber(ARGV[2]))
if here < 0 then
  here = 0
  redis.call('HSET', KEYS[1], 'here:' .. p, 0)
end
if m[1] ~= 'running' or m[3] then return 0 end
if here == 0 then
  redis.call('HSET', KEYS[1], 'away:' .. p, now_ms())
  redis.call('HINCRBY', KEYS[1], 'rev', 1)
  emit(KEYS[1], KEYS[2], ARGV[6], ARGV[3], tonumber(ARGV[5]))
  return 1
end
if redis.call('HDEL', KEYS[1], 'away:' .. p) == 1 then
  redis.call('HINCRBY', KEYS[1], 'rev', 1)
  emit(KEYS[1], KEYS[2], ARGV[6], ARGV[4], tonumber(ARGV[5]))
  return 2
end
return 0
"""

# End a running match if nothing changed since the caller read it, as END ends a race.
# KEYS: match, events; ARGV: rev, results json, payload, window, chan, replay ms.
MATCH_END = _EMIT + """
local m = redis.call('HMGET', KEYS[1], 'state', 'rev')
if m[1] ~= 'running' then return {0, m[1] or 'match.unknown'} end
if m[2] ~= ARGV[1] then return {0, 'conflict'} end
redis.call('HSET', KEYS[1], 'state', 'ended', 'ended_at', now_ms(), 'results', ARGV[2])
local seq = emit(KEYS[1], KEYS[2], ARGV[5], ARGV[3], tonumber(ARGV[4]))
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return {1, seq}
"""

# Before a change that may end a game: the work its end leaves is due ``grace`` ms from now,
# or at ``at`` ms when given, unless it is due sooner already; stamped with the store's time
# (made unique per member). KEYS: due, expected; ARGV: member, grace ms, at ms or ''.
# Returns the stamp.
EXPECT = _EMIT + """
local now = now_ms()
local at = ARGV[3] ~= '' and tonumber(ARGV[3]) or now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], 'LT', at, ARGV[1])
local stamp = math.max(now, tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') + 1)
redis.call('HSET', KEYS[2], ARGV[1], stamp)
return stamp
"""

# Take over a follow-up whose time has come: hold it for ``grace`` ms more, so that no other
# node takes it meanwhile. KEYS: due, expected; ARGV: member, grace ms. Returns its latest
# expectation's stamp (0 if none) when taken, else -1.
CLAIM = _EMIT + """
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
local now = now_ms()
if not at or tonumber(at) > now then return -1 end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
return tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
"""

# Settle a taken follow-up, unless it was expected again since (then it stays, due after the
# claim's grace): drop it, or make it due at ``at`` ms. KEYS: due, expected; ARGV: member,
# the stamp its claim returned, at ms or '' to drop. Returns 1 when settled.
SETTLE = """
if tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[1])
end
return 1
"""


async def now_ms(redis: Redis) -> int:
    """The store's clock: every node stamps races and moves with the same one."""
    seconds, micros = await redis.time()
    return int(seconds) * 1000 + int(micros) // 1000


def text(value: object) -> str:
    """A value as Redis returned it (bytes here; ``None`` for a missing one), as text."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else str(value)
