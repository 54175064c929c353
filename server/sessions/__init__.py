"""Game sessions: one player's game of one rule set, solo (practice) or as a race entrant.

Redis holds each session as its seed and move list; a process keeps the live ``State`` of
the sessions it served lately, keyed by revision, and rebuilds one from the move list when
another process changed it. Every move is written (with its race event, in one script)
before it is acknowledged.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import msgpack
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

import engine
from engine.core import PLAYING, Move, State, status_of
from engine.safe import safe_moves

from .. import store
from ..accounts import Player, new_id
from ..config import Settings
from ..errors import ApiError
from ..followups import Expected
from ..store import script_replies, scripts
from ..transport.messages import MoveValue
from ..transport.reply_types import Session as SessionPayload
from ..transport.reply_types import SessionMode, SessionTranscript
from . import retries
from .cache import SessionCache
from .turns import Turns

PUSH, POP = "push", "pop"


@dataclass
class Session:
    id: str
    player: str
    race: str  # "" for solo practice
    seed: bytes
    reveal: bool  # the player chose the seed, or its daily deal is revealed: no secret
    rev: int
    state: State
    daily: str = ""  # the daily deal's day (YYYY-MM-DD), "" for other deals
    created: int = 0  # server ms when it was dealt: the first card shown
    #: the race event (``race.progress``) number of the last change stored by this process
    progress_seq: int = 0
    #: the last payload built of this session (``session_payload``): what a v2 ack's changes
    #: are taken against (server/transport/acks.py)
    shown: SessionPayload | None = field(default=None, compare=False, repr=False)
    #: the cards on the foundations after the last change stored (its race.progress event's)
    cards: int = 0
    #: the piles the last change stored by this process touched (engine ``moved_piles``)
    moved: set[int] = field(default_factory=set, compare=False, repr=False)

    @property
    def competitive(self) -> bool:
        """Ranked play (a race, a ranked daily attempt): no undo that shows a card, no
        undo after the end."""
        return self.state.competitive

    @property
    def mode(self) -> SessionMode:
        if self.race:
            return "race"
        if self.daily:
            return "daily" if self.competitive else "daily-replay"
        return "practice"

    @property
    def rules(self) -> engine.RuleSet:
        return self.state.rules

    @functools.cached_property
    def commitment(self) -> str:
        return engine.commitment(self.seed)  # in every reply: hashed once

    @functools.cached_property
    def script_keys(self) -> tuple[str, ...]:
        """The keys a change's script touches: the session's, and a race entry's race and
        event list (named once, not on every move)."""
        own = (*store.session_keys(self.id), store.undos_key(self.id))
        if not self.race:
            return own
        rk, _, ek = store.race_keys(self.race)
        return (*own, rk, ek)

    @functools.cached_property
    def channel(self) -> str:
        """A race entry's race's event channel."""
        return store.channel(self.race)


def rules_for(game: str, variant: str) -> engine.RuleSet:
    try:
        return engine.get(game, variant)
    except engine.UnknownGame as e:
        raise ApiError("game.unknown", str(e)) from None


def foundation_cards(st: State) -> int:
    return sum(len(st.piles[p]) for p in st.rules.by_kind.get("foundation", ()))


def parse(rules: engine.RuleSet, move: MoveValue) -> Move:
    try:
        if isinstance(move, str):
            return engine.parse_move(rules, move)
        return engine.move_from_json(rules, move)
    except engine.IllegalMove as e:
        raise ApiError(e.code, e.message) from None


class Sessions:
    def __init__(self, redis: Redis, settings: Settings,
                 on_change: Callable[[Session, script_replies.Changed], Awaitable[None]]) -> None:
        self.redis = redis
        self.settings = settings
        self.on_change = on_change  # after every stored change, with the CHANGE script's result
        self._cache = SessionCache(settings.cache_size, settings.cache_idle)
        self._turns = Turns()  # one change at a time per session on this process
        self._store_change = script_replies.bind(redis, scripts.CHANGE, script_replies.Changed.of,
                                                 settings.move_wait)
        self._open = script_replies.bind(redis, scripts.OPEN, script_replies.Opened.of)
        self._expected = Expected(redis, settings)

    async def start_solo(self, player: Player, game: str, variant: str,
                         seed_hex: str | None) -> Session:
        rules = rules_for(game, variant)
        seed = bytes.fromhex(seed_hex) if seed_hex else os.urandom(32)
        session = await self.open(new_id("s"), player, rules, seed, reveal=bool(seed_hex))
        assert session is not None  # a fresh random id
        return session

    async def open(self, sid: str, player: Player, rules: engine.RuleSet, seed: bytes, *,
                   reveal: bool = False, competitive: bool = False, daily: str = "",
                   ends_at: int = 0) -> Session | None:
        """Deal and store a new session; ``None`` if ``sid`` exists already."""
        st = rules.deal(seed, competitive=competitive)
        now = await store.now_ms(self.redis)
        fields: dict[str, Any] = {
            "game": rules.id, "variant": rules.variant, "seed": seed.hex(),
            "player": player.id, "competitive": int(competitive), "reveal": int(reveal),
            "rev": 0, "status": st.status, "score": st.score, "moves": 0,
            "tie": rules.tie_break(st), "created": now}
        if daily:
            fields["daily"] = daily
        if ends_at:  # a ranked daily attempt's deadline: no move is stored after it
            fields["ends_at"] = ends_at
        # A ranked daily attempt is in flight (not yet recorded) from before its start: a node
        # dying in between leaves an entry whose session the sweep finds missing, never an
        # attempt that no close or follow-up records.
        added = ends_at and await self.redis.zadd(store.DAILY_INFLIGHT, {sid: ends_at}, nx=True)
        flat = [x for kv in fields.items() for x in kv]
        if not (await self._open(keys=[store.session_keys(sid)[0]], args=flat)).created:
            if added:  # an attempt already recorded: not in flight again
                await self.redis.zrem(store.DAILY_INFLIGHT, sid)
            return None
        session = Session(sid, player.id, "", seed, reveal, 0, st, daily, now)
        self._remember(session)
        return session

    def cached(self, sid: str) -> Session | None:
        """The session as this process last had it, without asking Redis (maybe stale)."""
        return self._cache.peek(sid)

    @property
    def kept(self) -> int:
        """How many game states this process keeps (``samedeal_cached_sessions``)."""
        return len(self._cache)

    def _remember(self, s: Session) -> None:
        self._cache.keep(s)

    async def load(self, sid: str, check: bool = True) -> Session:
        """The session as Redis has it now; the cached state when its revision is current."""
        key, _ = store.session_keys(sid)
        cached = self._cache.use(sid)
        if cached is not None and check:
            rev = await self.redis.hget(key, "rev")
            if rev is not None and int(rev) == cached.rev:
                return cached
        elif cached is not None:
            return cached
        m, entries = await self._read(sid)
        rules = engine.get(m["game"], m["variant"])
        seed = bytes.fromhex(m["seed"])
        st = rules.deal(seed, competitive=m["competitive"] == "1")
        for entry in entries:
            text = entry.decode().partition(" ")[2]
            if text == "resign":
                st.resign()
            else:
                st.push(engine.parse_move(rules, text))
        session = Session(sid, m["player"], m.get("race", ""), seed, m.get("reveal") == "1",
                          int(m["rev"]), st, m.get("daily", ""), int(m["created"]))
        self._remember(session)
        return session

    async def _read(self, sid: str) -> tuple[dict[str, str], list[bytes]]:
        """The session's fields and its move-list entries, in one round trip."""
        key, moves_key = store.session_keys(sid)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(key)
            pipe.lrange(moves_key, 0, -1)
            meta, entries = await pipe.execute()
        if not meta:
            raise ApiError("session.unknown", f"there is no session {sid[:40]!r}")
        return {k.decode(): v.decode() for k, v in meta.items()}, entries

    async def get(self, player: Player, sid: str) -> Session:
        s = await self.load(sid)
        if s.player != player.id:
            raise ApiError("session.not_yours", "that session is another player's")
        return s

    async def settled(self, player: Player, sid: str) -> tuple[Session, State]:
        """``get``, with a copy of its state taken while no change of this process to it is
        under way (a change applies its move before storing it): the revision and the copy
        agree, whatever happens to the session after (hints read it across awaits)."""
        await self._turns.take(sid)
        try:
            s = await self.get(player, sid)
            return s, s.state.copy()
        finally:
            self._turns.give(sid)

    async def change(self, player: Player, sid: str, op: str,
                     move: MoveValue | None = None,
                     rev: int | None = None) -> tuple[Session, bool]:
        """Play, undo or resign; persisted before this returns. ``op``: move|undo|resign.
        Also whether it was made before: sent again with the ``rev`` it was made at (its
        reply lost), it changes nothing now (server/sessions/retries.py)."""
        try:
            return await self._change(player, sid, op, move, rev)
        except (RedisConnectionError, RedisTimeoutError):
            # Redis away: the change may or may not be stored, so the cached state is not to be
            # trusted. If it was stored and ended the game, its follow-up is in the due set
            # (stored with it), for any node's sweep to complete (server/followups.py).
            self._cache.drop(sid)
            raise

    async def _change(self, player: Player, sid: str, op: str,
                      move: MoveValue | None,
                      rev: int | None) -> tuple[Session, bool]:
        await self._turns.take(sid)
        try:
            return await self._change_in_turn(player, sid, op, move, rev)
        finally:
            self._turns.give(sid)

    async def _change_in_turn(self, player: Player, sid: str, op: str,
                              move: MoveValue | None,
                              rev: int | None) -> tuple[Session, bool]:
        latest: int | None = None  # the revision a script found, when it found another
        for attempt in range(3):
            s = await self.load(sid, check=attempt > 0)
            if s.player != player.id:
                raise ApiError("session.not_yours", "that session is another player's")
            if rev is not None and rev != s.rev and attempt == 0:
                continue  # the cache may be behind: check against Redis
            if rev is not None and rev != s.rev:
                if rev < s.rev and await retries.made(self.redis, s.id, rev,
                                                      retries.entry(s.rules, op, move)):
                    return s, True
                raise ApiError("conflict", f"the session is at revision {s.rev}, not {rev}",
                               rev=s.rev)
            try:
                done, entry = self._apply(s, op, move)
            except ApiError:
                if rev is None and attempt == 0:
                    continue  # refused by a copy that may be behind: judged again on Redis's
                raise
            result = await self._persist(s, PUSH if entry else POP, entry or "")
            if result.ok:
                s.rev = result.rev
                s.progress_seq = result.seq
                await self.on_change(s, result)
                if s.state.over:  # nothing left to save a replay for
                    self._cache.drop(sid)
                return s, False
            done()  # put the state back as it was
            why = result.why
            if why != "conflict":
                if why == "race.over":
                    await self.on_change(s, result)
                    raise ApiError("race.over", "the race is over")
                if why == "race.not_started":
                    wait = int(result.detail) / 1000
                    raise ApiError(why, f"the race starts in {wait:.1f} s")
                if why == "daily.closed":
                    raise ApiError(why, "the day's challenge has closed: the attempt "
                                   "counts as it stands")
                raise ApiError(why, "that session is gone")
            self._cache.drop(sid)
            latest = int(result.detail)
        raise ApiError("conflict", "the session kept changing; try again", rev=latest)

    def _apply(self, s: Session, op: str,
               move: MoveValue | None) -> tuple[Callable[[], object], str]:
        """Change the cached state; return how to take it back and the log entry to append
        ("" for an undo, which pops the last entry)."""
        st = s.state
        if op == "move":
            assert move is not None
            m = parse(s.rules, move)
            try:
                st.play(m)
            except engine.IllegalMove as e:
                raise ApiError(e.code, e.message) from None
            s.moved = st.moved_piles()
            return st.pop, engine.move_text(s.rules, m)
        if op == "resign":
            if st.over:
                raise ApiError("game.over", f"the game is over ({st.status})")
            st.resign()
            s.moved = set()
            return st.pop, "resign"
        if s.competitive and st.over:
            raise ApiError("undo.finished", "a finished ranked game can't be taken back")
        why = st.can_undo()
        if why is not None:
            raise ApiError(why.code, why.message)
        s.moved = st.moved_piles()
        undone = st.pop()
        return lambda: st.push(undone), ""

    async def _persist(self, s: Session, op: str, entry: str) -> script_replies.Changed:
        st = s.state
        st.legal_moves()  # the reply lists them: one search answers the status below too
        if st.over:  # this change may end the game, or the race (server/followups.py)
            await self._expected.soon(follow_up(s))
        status, score, ply = st.status, st.score, st.ply
        args: list[Any] = [s.rev, op, entry, status, score, ply, s.rules.tie_break(st)]
        if s.race:
            s.cards = foundation_cards(st)
            event = {"type": "race.progress", "race": s.race, "player": s.player,
                     "moves": ply, "score": score, "cards": s.cards, "status": status}
            args += [msgpack.packb(event), self.settings.event_window, s.channel]
        return await self._store_change(keys=list(s.script_keys), args=args)

    async def transcript(self, sid: str, reveal: bool) -> SessionTranscript:
        """The move list with server times; the seed only when ``reveal``."""
        m, entries = await self._read(sid)
        times, moves = [], []
        for entry in entries:
            t, _, text = entry.decode().partition(" ")
            times.append(int(t))
            moves.append(text)
        seed = bytes.fromhex(m["seed"])
        return {
            "session": sid, "player": m["player"], "game": m["game"],
            "variant": m["variant"], "competitive": m["competitive"] == "1",
            "commitment": engine.commitment(seed), "seed": seed.hex() if reveal else None,
            "moves": moves, "times": times, "status": status_of(m["status"]),
            "score": int(m["score"]),
            "created": int(m["created"]), "daily": m.get("daily") or None,
            "hints": int(m.get("hints", 0)),  # hints served in it (server/hints/__init__.py)
        }


def follow_up(s: Session) -> str:
    """What ending this game leaves to do: end the race; put a ranked daily attempt on the
    boards; count a practice game or an unranked replay in the player's statistics."""
    if s.race:
        return store.follow_up("race", s.race)
    if s.daily and s.competitive:
        return store.follow_up("daily", s.id)
    return store.follow_up("game", s.id)


def session_payload(s: Session) -> SessionPayload:
    """What the session's own player sees: the view, the legal moves, never a hidden card."""
    live = live_fields(s)
    out: SessionPayload = {
        "session": s.id,
        "rev": s.rev,
        "mode": s.mode,
        "view": s.state.view(),
        "legal": live["legal"],
        "safe": live["safe"],
        "can_undo": live["can_undo"],
        "commitment": s.commitment,
        "created": s.created,
    }
    if s.race:
        out["race"] = s.race
    elif s.daily:
        out["daily"] = s.daily
    if "seed" in live:
        out["seed"] = live["seed"]
    s.shown = out.copy()  # callers may add to ``out``: the copy stays as built
    return out


class LiveFields(TypedDict):
    """The session payload's fields besides the view that a change may change."""

    legal: list[str]
    safe: list[str]
    can_undo: bool
    seed: NotRequired[str]


def live_fields(s: Session) -> LiveFields:
    """The payload's fields besides the view that a change may change: the legal moves, the
    safe ones, whether undo is open, and the seed once it may be shown."""
    st = s.state
    rules = s.rules
    legal = st.legal_moves()
    out: LiveFields = {
        "legal": [engine.move_text(rules, m) for m in legal],
        # The foundation moves a client may play for the player (auto-move): public facts only.
        "safe": [engine.move_text(rules, m) for m in safe_moves(st, legal)],
        "can_undo": st.can_undo() is None and not (s.competitive and st.over),
    }
    if s.reveal or (not s.race and not s.daily and st.status != PLAYING):
        out["seed"] = s.seed.hex()
    return out
