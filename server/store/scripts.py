"""The Lua scripts that change several keys at once, each atomically, on the keys of one game
(or one race, match or board: one hash tag, so one Redis Cluster shard). server/store/__init__.py
binds them (``store.script``); what each answers is decoded in server/store/script_replies.py.
"""

from __future__ import annotations

#: The first line of every script that publishes: a Redis Cluster gets SPUBLISH instead
#: (``sharded``), so a race's events stay on the shard that owns the race.
_PUBLISH = "local PUBLISH = 'PUBLISH'\n"
_SHARDED = "local PUBLISH = 'SPUBLISH'\n"
#: For scripts kept elsewhere (server/boards/__init__.py) that publish too.
PUBLISHES = _PUBLISH


def sharded(lua: str) -> str:
    """The script as a Redis Cluster runs it: its events published with SPUBLISH."""
    return lua.replace(_PUBLISH, _SHARDED, 1)

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

# Change a session: push a move or pop one, only if nobody changed it since ``rev``; a pop
# sets its revision's bit in the session's undos (server/sessions/retries.py reads them).
# KEYS: session, moves, undos [, race, events]; ARGV: rev, op, move, status, score, ply, tie-break
# [, payload, window, channel]. Returns {1, rev, now, seq, done, entrants, first finish} or
# {0, why, detail}; "first finish" is 1 when this change ended the game for the first time.
CHANGE = _EMIT + """
local s = redis.call('HMGET', KEYS[1], 'rev', 'ends_at', 'status')
local rev = s[1]
if not rev then return {0, 'session.unknown', ''} end
if rev ~= ARGV[1] then return {0, 'conflict', rev} end
local now = now_ms()
if s[2] and now >= tonumber(s[2]) then return {0, 'daily.closed', s[2]} end
local race = #KEYS > 3
local r
if race then
  r = redis.call('HMGET', KEYS[4], 'state', 'starts_at', 'ends_at', 'done', 'entrants')
  if r[1] ~= 'running' then return {0, 'race.over', r[1]} end
  local starts = tonumber(r[2])
  if now < starts then return {0, 'race.not_started', tostring(starts - now)} end
  if now >= tonumber(r[3]) then return {0, 'race.over', 'time'} end
end
if ARGV[2] == 'push' then
  redis.call('RPUSH', KEYS[2], tostring(now) .. ' ' .. ARGV[3])
else
  redis.call('RPOP', KEYS[2])
  redis.call('SETBIT', KEYS[3], rev + 1, 1)
end
local old = s[3]
local new = ARGV[4]
redis.call('HSET', KEYS[1], 'rev', rev + 1, 'status', new, 'score', ARGV[5], 'moves', ARGV[6],
  'tie', ARGV[7])
local first = 0
if old == 'playing' and new ~= 'playing' then
  first = redis.call('HSETNX', KEYS[1], 'finished_at', now)
end
if not race then return {1, rev + 1, now, 0, 0, 0, first} end
local done = tonumber(r[4] or '0')
local entrants = tonumber(r[5])
if old == 'playing' and new ~= 'playing' then
  done = redis.call('HINCRBY', KEYS[4], 'done', 1)
end
local seq = emit(KEYS[4], KEYS[5], ARGV[10], ARGV[8], tonumber(ARGV[9]))
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

# Join an open race (a rematch or a challenge's race: only if invited). KEYS: race, entrants,
# events; ARGV: player, name, payload, window, chan, 1 when the race's start is expected on the
# due set (else 0). A seat that would fill a race that starts when full is refused as
# 'filling' unless its start is expected: a crash before the start must leave it due.
JOIN = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, 'race.unknown'} end
if state ~= 'open' then return {0, 'race.not_open'} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {0, 'race.joined'} end
if (redis.call('HEXISTS', KEYS[1], 'rematch_of') == 1
    or redis.call('HEXISTS', KEYS[1], 'challenge') == 1)
    and redis.call('HEXISTS', KEYS[1], 'invited:' .. ARGV[1]) == 0 then
  return {0, 'race.not_invited'}
end
local n = redis.call('HLEN', KEYS[2])
local seats = tonumber(redis.call('HGET', KEYS[1], 'seats'))
if n >= seats then return {0, 'race.full'} end
if n + 1 >= seats and ARGV[6] ~= '1' and redis.call('HGET', KEYS[1], 'start') == 'full' then
  return {0, 'filling'}
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local seq = emit(KEYS[1], KEYS[3], ARGV[5], ARGV[3], tonumber(ARGV[4]))
return {1, n + 1, seats, seq}
"""

# Open a race with its seats taken, in one step: a bot race (server/botrace/__init__.py), never seen
# open with a seat to fill. KEYS: race, entrants, events; ARGV: window, chan, the number of
# the race's field-value pairs, those pairs, then per seat: player, info, race.joined payload.
# Returns the last seat's event number; 0 if the race exists already.
OPEN_SEATED = _EMIT + """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local n = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], unpack(ARGV, 4, 3 + 2 * n))
local seq = 0
for i = 4 + 2 * n, #ARGV, 3 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  seq = emit(KEYS[1], KEYS[3], ARGV[2], ARGV[i + 2], tonumber(ARGV[1]))
end
return seq
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
# score, tie-break, the race's id (each session hash names its race), then the entrants' ids
# in KEYS order.
START = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, 'race.unknown'} end
if state ~= 'open' then return {0, 'race.not_open'} end
local n = #KEYS - 3
if redis.call('HLEN', KEYS[2]) ~= n then return {0, 'conflict'} end
local r = redis.call('HMGET', KEYS[1], 'game', 'variant', 'seed')
for i = 1, n do
  local pid = ARGV[9 + i]
  if redis.call('HEXISTS', KEYS[2], pid) == 0 then return {0, 'conflict'} end
  redis.call('HSET', KEYS[3 + i], 'game', r[1], 'variant', r[2], 'seed', r[3],
    'player', pid, 'competitive', 1, 'rev', 0, 'status', ARGV[6], 'score', ARGV[7],
    'moves', 0, 'tie', ARGV[8], 'created', ARGV[4], 'race', ARGV[9])
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


# Ask for a rematch of an ended race or match: the first asker's new race or match (made
# beforehand, unlisted, its id ``candidate``) is recorded on the old one and announced on its
# channel; every later asker gets the one recorded. KEYS: the race or match, its entrants or
# players, events; ARGV: player, candidate, payload, window, chan, replay ms, 'race'|'match',
# the code for someone not in it. Returns {1, the rematch's id, seq (0: recorded before)} or
# {0, why}.
REMATCH = _EMIT + """
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return {0, ARGV[7] .. '.unknown'} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return {0, ARGV[8]} end
if state ~= 'ended' then return {0, ARGV[7] .. '.not_over'} end
local taken = redis.call('HGET', KEYS[1], 'rematch')
if taken then return {1, taken, 0} end
redis.call('HSET', KEYS[1], 'rematch', ARGV[2], 'rematch_by', ARGV[1])
local seq = emit(KEYS[1], KEYS[3], ARGV[5], ARGV[3], tonumber(ARGV[4]))
redis.call('PEXPIRE', KEYS[3], ARGV[6])
return {1, ARGV[2], seq}
"""

# ----- matches (server/matches/) -------------------------------------------------------

# Take a seat in an open match (a rematch: only if invited). KEYS: match, players, events;
# ARGV: player, info, payload, window, chan, 1 when a socket of the player follows the match
# from now on (else 0), 1 when the match's start is expected on the due set (else 0: a seat
# that would fill a match that starts when full is then refused as 'filling').
# Returns {1, seated, seats, seq} or {0, why}.
MATCH_JOIN = _EMIT + """
local m = redis.call('HMGET', KEYS[1], 'state', 'seats', 'start')
if not m[1] then return {0, 'match.unknown'} end
if m[1] ~= 'open' then return {0, 'match.not_open'} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {0, 'match.joined'} end
if redis.call('HEXISTS', KEYS[1], 'rematch_of') == 1
    and redis.call('HEXISTS', KEYS[1], 'invited:' .. ARGV[1]) == 0 then
  return {0, 'match.not_invited'}
end
local n = redis.call('HLEN', KEYS[2])
if n >= tonumber(m[2]) then return {0, 'match.full'} end
if n + 1 >= tonumber(m[2]) and ARGV[7] ~= '1' and m[3] == 'full' then
  return {0, 'filling'}
end
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
# shown_at, deadline, forfeiting player or '', the turn's deadline as everyone sees it, the
# bowler's private note. A card that keeps the turn (empty payload) is no event: only the
# note goes out, to the bowler's own sockets. Returns {1, rev, seq} or {0, why}.
MATCH_MOVE = _EMIT + """
local m = redis.call('HMGET', KEYS[1], 'state', 'rev', 'seq')
if m[1] ~= 'running' then return {0, 'match.not_running'} end
if m[2] ~= ARGV[1] then return {0, 'conflict'} end
redis.call('RPUSH', KEYS[2], tostring(now_ms()) .. ' ' .. ARGV[2])
redis.call('HSET', KEYS[1], 'rev', tonumber(m[2]) + 1, 'shown_at', ARGV[6], 'deadline', ARGV[7],
  'turn_deadline', ARGV[9])
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'out:' .. ARGV[8], 1) end
if ARGV[3] == '' then
  redis.call('HINCRBY', KEYS[1], 'steps', 1)
  redis.call(PUBLISH, ARGV[5], ARGV[10])
  return {1, tonumber(m[2]) + 1, tonumber(m[3] or '0')}
end
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
# (the turn timer then waits out the grace period), the first one back clears it. Back after
# the turn's deadline passed, the turn waits ``turn_time`` from now, never past ``turn_time`` +
# ``grace`` from when its card was shown (Timers.due_at keeps the same bound).
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
  local t = redis.call('HMGET', KEYS[1], 'deadline', 'shown_at', 'turn_time', 'grace')
  local now, turn = now_ms(), tonumber(t[3]) * 1000
  if tonumber(t[1]) < now then
    local last = tonumber(t[2]) + turn + tonumber(t[4]) * 1000
    redis.call('HSET', KEYS[1], 'deadline', math.max(tonumber(t[1]), math.min(now + turn, last)))
  end
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
