"""Hints in practice games: the next move of a winning line the solver finds, else a likely
move (engine/hints.py), for the session's own player.

The solver is thoughtful: it knows every face-down card, so a hint tells something about
cards nobody has seen. Hints are given only where that harms no one, by an allow-list of
session modes (``PRACTICE_MODES``): practice on a fresh private seed (or a seed the player
chose, which they know already) and unranked replays of a daily deal already revealed. Every
other session (a race entry, a ranked daily attempt, and any mode added later) and every
match is refused with ``hint.not_allowed``.

The search runs in the hint process pool (server/workers/hints.py), never on the event loop.
Its line is kept in Redis for the session (``sd:{S}:hint``, ``hint_line_ttl``): while the
player plays the hinted moves, the next hint is the line's next move, from any node, with no
new search. A hint changes nothing in the game (not a move, no revision); the session counts
the hints served (its ``hints`` field, shown in its transcript). The reply says the move in
card words too (engine/words.py, from the position it is for), so every client says it alike.

The per-player limit guards the search pool from a player asking again and again, not a player
taking the help: a hint asked right after playing the previous hint's move (``sd:{S}:hinted``
holds the position that move leads to) is free, however fast the player follows hints.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import msgpack
from redis.asyncio import Redis

import engine
from engine.hints import HEURISTIC, NONE, SOLVER, likely_move, visited
from engine.words import move_words

from .. import store, workers
from ..accounts import Player
from ..accounts.signups import TAKE
from ..config import Settings
from ..errors import ApiError
from ..metrics import Metrics
from ..sessions import Session, Sessions
from ..transport.reply_types import SuggestionReply, SuggestionReplySource
from ..workers import hints as hint_worker

log = logging.getLogger("samedeal.hints")

#: The session modes a hint is given in; anything else is refused.
PRACTICE_MODES = frozenset({"practice", "daily-replay"})
#: Searches waiting or running per pool process, past which a hint is a likely move found at
#: once instead (a node's hints never queue for longer than a few searches).
QUEUE_PER_WORKER = 4

# KEYS: the session's hash, its hint line, its followed mark. ARGV: the line record ("" to
# keep the stored one), their time to live (ms), the position the hinted move leads to ("" for
# none). Counts the hint in a session that still exists; returns the count.
SERVED = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] ~= '' then redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) end
if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[2])
else redis.call('DEL', KEYS[3]) end
return redis.call('HINCRBY', KEYS[1], 'hints', 1)
"""


def line_key(sid: str) -> str:
    return f"sd:{{{sid}}}:hint"


def followed_key(sid: str) -> str:
    return f"sd:{{{sid}}}:hinted"


def not_allowed(what: str) -> ApiError:
    return ApiError("hint.not_allowed", f"no hints in {what}: the solver behind them knows "
                    "the face-down cards, so hints are for practice games (and replays of "
                    "revealed daily deals) only")


def fingerprint(moves: list[str]) -> str:
    """The moves that led to a position, in one short digest."""
    return hashlib.blake2b("\n".join(moves).encode(), digest_size=12).hexdigest()


def rest_of_line(record: bytes | str | None, moves: list[str]) -> list[str]:
    """What is left of a stored line for a game whose moves so far are ``moves``: the line
    was found after its first ``ply`` moves, and every move since is the line's own."""
    if not record:
        return []
    try:
        rec = msgpack.unpackb(record)
        ply, line = int(rec["ply"]), list(rec["line"])
    except Exception:  # not ours, or from an older build: search again
        return []
    done = len(moves) - ply
    if not 0 <= done < len(line) or fingerprint(moves[:ply]) != rec["base"]:
        return []
    return line[done:] if moves[ply:] == line[:done] else []


class Hints:
    def __init__(self, redis: Redis, settings: Settings, sessions: Sessions,
                 metrics: Metrics) -> None:
        self.redis = redis
        self.settings = settings
        self.sessions = sessions
        self.metrics = metrics
        self.pool: ProcessPoolExecutor = workers.pool(settings.hint_workers)
        self.running = 0  # searches submitted and not yet answered
        self._served = store.script(redis, SERVED)
        self._take = store.script(redis, TAKE)
        self.per_ms = max(settings.hint_per_minute, 1e-6) / 60_000

    def warm(self) -> None:
        """Start the pool's processes now (the lifespan's start), not at the first hint; with
        ``hint_workers`` 0, its one process starts at the first hint instead (a node that
        gives no hints, or lives briefly, spawns none)."""
        for _ in range(self.settings.hint_workers):
            self.pool.submit(hint_worker.ready)

    def shutdown(self) -> None:
        workers.stop(self.pool)

    async def hint(self, player: Player, sid: str) -> SuggestionReply:
        s = await self._practice(player, sid)
        st = s.state
        if st.over:
            raise ApiError("game.over", f"the game is over ({st.status})")
        # The position asked about, as stored: the session may move on while this waits.
        s, here = await self.sessions.settled(player, sid)
        if here.over:
            raise ApiError("game.over", f"the game is over ({here.status})")
        rev, rules = s.rev, s.rules
        moves = [engine.move_text(rules, m) for m in s.state.history[:here.ply]]
        stored, followed = await self.redis.mget(line_key(sid), followed_key(sid))
        if followed != fingerprint(moves).encode():
            await self._limit(player)  # a hint right after playing the last one's move is free
        line = rest_of_line(stored, moves)
        record, searched, score, lost = "", False, None, False
        source: SuggestionReplySource
        if line:
            source = SOLVER
        else:
            source, line, score, lost, searched = await self._search(here, moves)
            if source == SOLVER:
                record = msgpack.packb({"ply": len(moves), "base": fingerprint(moves),
                                        "line": line})
        after = fingerprint([*moves, line[0]]) if line else ""
        count = await self._served(
            keys=[store.session_keys(sid)[0], line_key(sid), followed_key(sid)],
            args=[record, int(self.settings.hint_line_ttl * 1000), after])
        self.metrics.hints.labels(source, "yes" if searched else "no").inc()
        out: SuggestionReply = {"session": sid, "rev": rev,
                                "move": line[0] if line else None, "source": source,
                                "hints": int(count)}
        if line:
            out["words"] = move_words(here, engine.parse_move(rules, line[0]))
        if source == SOLVER:
            out["line_left"] = len(line)
            if score is not None:
                out["score"] = score
        if lost:
            out["lost"] = True
        return out

    async def _practice(self, player: Player, sid: str) -> Session:
        """The player's own session, if it is one hints are given in."""
        try:
            s = await self.sessions.get(player, sid)
        except ApiError as e:
            if e.code == "session.unknown" and await self.redis.exists(store.match_keys(sid)[0]):
                raise not_allowed("a match") from None
            raise
        if s.mode not in PRACTICE_MODES or s.race or s.competitive:
            raise not_allowed({"race": "a race", "daily": "a ranked daily attempt"}.get(
                s.mode, f"a game of mode {s.mode!r}"))
        return s

    async def _limit(self, player: Player) -> None:
        """One hint from the player's bucket (every node draws from the same), or
        ``rate.limited`` with the seconds until the next."""
        if self.settings.hint_burst <= 0:
            return
        wait_ms = int(await self._take(keys=[f"sd:hints:{{{player.id}}}"],
                                       args=[self.settings.hint_burst, repr(self.per_ms)]))
        if wait_ms:
            wait = math.ceil(wait_ms) / 1000
            raise ApiError("rate.limited", f"over the hint limit ({self.settings.hint_burst} at "
                           f"once, {self.settings.hint_per_minute:g} a minute): try again in "
                           f"{math.ceil(wait)} s", retry_after=wait, limit="hints")

    async def _search(self, here: engine.State, moves: list[str]
                      ) -> tuple[SuggestionReplySource, list[str], int | None, bool, bool]:
        """(source, moves, score, whether the search proved the position lost, whether a
        search ran) from ``here``, reached by ``moves``: the pool's answer, or a likely move
        found at once when the pool is full or failed."""
        if self.running < QUEUE_PER_WORKER * max(1, self.settings.hint_workers):
            snapshot = here.snapshot()
            self.running += 1
            try:
                loop = asyncio.get_running_loop()
                source, line, score, lost = await loop.run_in_executor(
                    self.pool, hint_worker.search, snapshot, moves,
                    self.settings.hint_positions, self.settings.hint_seconds)
                return source, line, score, lost, True
            except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool
                log.warning("the hint pool broke: starting a new one")
                self.pool = workers.pool(self.settings.hint_workers)
            except Exception:
                log.exception("a hint search failed")
            finally:
                self.running -= 1
        rules = here.rules
        played = [engine.parse_move(rules, m) for m in moves]
        m = likely_move(here, None, played[-1] if played else None,
                        visited(rules.deal(here.seed), played, here))
        if m is None:
            return NONE, [], None, False, False
        return HEURISTIC, [engine.move_text(here.rules, m)], None, False, False
