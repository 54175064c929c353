"""The asyncio client: REST for request/response, one WebSocket for live play, and the
bookkeeping that lets a dropped connection resume where it was (docs/protocol.md#events-and-
reconnecting). It speaks only the documented protocol; it imports nothing of the server."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect

from . import codec, rest
from .errors import ConnectionLost, SdkError, ServerError
from .messages import (
    Board,
    Daily,
    Event,
    Match,
    Notice,
    Race,
    RaceEnded,
    RaceEvent,
    RaceResync,
    RaceStarted,
    Results,
    Session,
    SessionPushed,
    event_from,
)

log = logging.getLogger("samedeal.sdk")

Recover = Callable[[], Awaitable[dict[str, Any] | None]]


class RequestTimeout(SdkError, TimeoutError):
    """No reply to a request within ``request_timeout`` seconds, on a connection that did not
    drop: the server is stuck or the request was lost in it."""


class _Lost(Exception):
    """Internal: the socket a request went out on closed before its reply came."""


async def _resend() -> dict[str, Any] | None:
    """The default recovery: nothing was changed by the request, so send it again."""
    return None


@dataclass
class RaceState:
    """What the client knows of a race it follows: the last event number (where a resume
    starts), the latest summary received (its ``state``, times and ``seed`` kept current by
    the events; its entrants as they were), your latest session if you are an entrant, and
    the ``race.ended`` event once it came."""

    id: str
    seq: int = 0
    summary: Race | None = None
    session: Session | None = None
    ended: RaceEnded | None = None

    @property
    def over(self) -> bool:
        return self.ended is not None or (self.summary is not None
                                           and self.summary.state == "ended")


@dataclass
class MatchState:
    """What the client knows of a match it follows: the last event number, the summary, and
    your own latest ``view``/``legal`` (from ``match.you`` or ``match.ack``)."""

    id: str
    seq: int = 0
    summary: Match | None = None
    you: dict[str, Any] | None = None
    you_seq: int = -1  # the match's event number when ``you`` was computed
    ended: dict[str, Any] | None = None


class Client:
    """An asyncio SameDeal client for one player.

    ``url`` is the server's address (``http://127.0.0.1:8000``); ``token`` the bearer token
    from registration; ``encoding`` ``"json"`` or ``"msgpack"`` (the WebSocket and REST both).
    The WebSocket opens on ``async with`` or on the first call that needs it. When it drops the
    client reconnects with backoff, says hello again and re-subscribes every race and match it
    follows from the last event it saw; a request that may already have been applied is never
    blindly sent twice (see ``move``)."""

    def __init__(self, url: str, token: str | None = None, *, encoding: str = "json",
                 reconnect: bool = True, reconnect_delay: float = 0.1,
                 max_reconnect_delay: float = 5.0, reconnect_timeout: float = 120.0,
                 request_timeout: float = 30.0, rate_retries: int = 6,
                 rate_limit: tuple[float, int] | None = (90.0, 180),
                 event_buffer: int = 10_000) -> None:
        self.url = rest.base_url(url)
        self.ws_url = rest.ws_url(url)
        self.token = token
        self.encoding = codec.check(encoding)
        self.reconnect = reconnect
        self.reconnect_delay = reconnect_delay
        self.max_reconnect_delay = max_reconnect_delay
        self.reconnect_timeout = reconnect_timeout
        self.request_timeout = request_timeout
        self.rate_retries = rate_retries
        # Pace our own messages under the server's default limit (100/s, bursts of 200),
        # so a fast bot is never refused; an unexpected rate.limited halves the pace.
        self._rate, self._burst = rate_limit or (0.0, 0)
        self._tokens = float(self._burst)
        self._tokens_at = 0.0
        #: your public profile from ``welcome`` ({"id", "name", "kind"}), once connected
        self.player: dict[str, Any] | None = None
        #: called with every pushed event (and the SDK's notices), before it is queued
        self.listeners: list[Callable[[Event], Any]] = []
        #: how many times the connection was (re)established
        self.connections = 0
        self._ws: ClientConnection | None = None
        self._up = False
        self._closing = False
        self._reconnecting = False
        self._dead: BaseException | None = None
        self._pending: dict[int, tuple[ClientConnection, asyncio.Future[dict[str, Any]]]] = {}
        self._ids = itertools.count(1)
        self._waiters: list[asyncio.Future[None]] = []
        self._events: deque[Event] = deque(maxlen=event_buffer)
        self._races: dict[str, RaceState] = {}
        self._matches: dict[str, MatchState] = {}
        self._revs: dict[str, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._connect_lock: asyncio.Lock | None = None

    # ----- accounts (REST, no connection needed) ------------------------------------------

    @classmethod
    async def register(cls, url: str, name: str, kind: str = "human", *,
                       encoding: str = "json") -> tuple[dict[str, Any], str]:
        """A new account: ``(player, token)``. The token is shown only once: keep it."""
        body = await asyncio.to_thread(rest.call, url, "POST", "/players",
                                       {"name": name, "kind": kind}, None, encoding)
        return body["player"], body["token"]

    async def _rest(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return await asyncio.to_thread(rest.call, self.url, method, path, body, self.token,
                                       self.encoding, self.request_timeout)

    async def profile(self, player: str = "me") -> dict[str, Any]:
        """A player's public profile with stats, streaks and ratings (``me``: yours)."""
        return dict(await self._rest("GET", f"/players/{player}"))

    async def stats(self, player: str) -> dict[str, Any]:
        return dict(await self._rest("GET", f"/players/{player}/stats"))

    async def catalog(self) -> list[dict[str, Any]]:
        """Every rule set with its name, player counts, scoring and layout."""
        return list((await self._rest("GET", "/games"))["rule_sets"])

    async def rule_set(self, game: str, variant: str) -> dict[str, Any]:
        """One rule set, with the layout description a renderer draws the view from."""
        return dict(await self._rest("GET", f"/games/{game}/{variant}"))

    async def transcript(self, session: str) -> dict[str, Any]:
        """A session's move list, times and (once revealed) seed: ``samedeal replay`` input."""
        return dict(await self._rest("GET", f"/sessions/{session}/moves"))

    async def races(self) -> list[Race]:
        """The open races, oldest first."""
        return [Race.from_raw(r) for r in (await self._rest("GET", "/races"))["races"]]

    async def race(self, race: str) -> Race:
        """A race's summary, read over REST (it does not subscribe)."""
        return Race.from_raw(await self._rest("GET", f"/races/{race}"))

    async def race_results(self, race: str) -> Results:
        """The ranking and revealed seed of an ended race (``race.not_over`` before)."""
        return Results.from_raw(await self._rest("GET", f"/races/{race}/results"))

    async def match_transcript(self, match: str) -> dict[str, Any]:
        """A finished match's transcript: every placement, the seed and the results."""
        return dict(await self._rest("GET", f"/matches/{match}/transcript"))

    # ----- the connection ------------------------------------------------------------------

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def connected(self) -> bool:
        return self._up

    async def connect(self) -> None:
        """Open the WebSocket and say hello (no-op when connected)."""
        if self._connect_lock is None:
            self._connect_lock = asyncio.Lock()
        async with self._connect_lock:
            if self._up:
                return
            self._closing = False
            self._dead = None
            try:
                await self._open()
            except (OSError, TimeoutError, websockets.WebSocketException, _Lost) as e:
                raise ConnectionLost(f"cannot connect to {self.ws_url}: {e}") from e

    async def close(self) -> None:
        """Close the WebSocket for good; following races and matches stops."""
        self._closing = True
        self._up = False
        ws = self._ws
        for task in list(self._tasks):
            if task is not asyncio.current_task() and task.get_name() == "samedeal-reconnect":
                task.cancel()
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._dead = SdkError("the client is closed")
        self._wake()

    async def _open(self) -> None:
        ws = await ws_connect(self.ws_url, subprotocols=[codec.SUBPROTOCOL[self.encoding]],
                              max_size=2**22, open_timeout=self.request_timeout, proxy=None,
                              user_agent_header="samedeal-sdk/0.1")
        self._ws = ws
        self._spawn(self._read(ws), "samedeal-read")
        try:
            if self.token:
                welcome = await self._roundtrip({"type": "hello", "token": self.token}, ws)
                if welcome.get("type") == "error":
                    raise ServerError(welcome["code"], welcome.get("message", ""))
                self.player = welcome["player"]
            for rs in self._races.values():
                msg: dict[str, Any] = {"type": "race.subscribe", "race": rs.id}
                if rs.seq:
                    msg["after"] = rs.seq
                await self._send(ws, msg)
            for ms in self._matches.values():
                msg = {"type": "match.subscribe", "match": ms.id}
                if ms.seq:
                    msg["after"] = ms.seq
                await self._send(ws, msg)
        except BaseException:
            with contextlib.suppress(Exception):
                await ws.close()
            raise
        self.connections += 1
        self._up = True
        self._wake()

    def _spawn(self, coro: Awaitable[Any], name: str) -> None:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for data in ws:
                try:
                    self._dispatch(codec.decode(data, self.encoding), ws)
                except SdkError as e:
                    log.warning("%s", e)
        except websockets.ConnectionClosed:
            pass
        finally:
            self._lost(ws)

    def _lost(self, ws: ClientConnection) -> None:
        for rid, (w, fut) in list(self._pending.items()):
            if w is ws:
                del self._pending[rid]
                if not fut.done():
                    fut.set_exception(_Lost())
                    fut.exception()  # its owner may be gone; nobody else need hear of it
        if ws is not self._ws or self._closing:
            return
        was_up, self._up = self._up, False
        if not was_up or self._reconnecting:
            self._wake()
            return
        reason = f"closed with code {ws.close_code}" if ws.close_code else "dropped"
        self._emit(Notice(type="connection.lost", reason=reason))
        if self.reconnect:
            self._reconnecting = True
            self._spawn(self._reconnect_loop(), "samedeal-reconnect")
        else:
            self._dead = ConnectionLost(f"the connection {reason}")
        self._wake()

    async def _reconnect_loop(self) -> None:
        loop = asyncio.get_running_loop()
        delay, started, attempts = self.reconnect_delay, loop.time(), 0
        try:
            while not self._closing:
                await asyncio.sleep(delay)
                attempts += 1
                try:
                    await self._open()
                except ServerError as e:
                    if e.code.startswith("auth."):
                        self._dead = e
                        return
                except (OSError, TimeoutError, websockets.WebSocketException, _Lost) as e:
                    log.info("reconnect attempt %d failed: %s", attempts, e)
                else:
                    self._emit(Notice(type="connection.resumed", attempts=attempts))
                    return
                if loop.time() - started > self.reconnect_timeout:
                    self._dead = ConnectionLost(
                        f"could not reconnect to {self.url} in {self.reconnect_timeout:g} s")
                    return
                delay = min(delay * 2, self.max_reconnect_delay)
        finally:
            self._reconnecting = False
            self._wake()

    # ----- waiting -------------------------------------------------------------------------

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait_for(self, predicate: Callable[[], bool], timeout: float | None = None) -> None:
        """Wait until ``predicate()`` holds; it is checked after every message and connection
        change. Raises the connection's error if it is gone for good."""
        async def loop() -> None:
            while not predicate():
                if self._dead is not None and not self._reconnecting:
                    raise self._dead
                fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
                self._waiters.append(fut)
                await fut

        await asyncio.wait_for(loop(), timeout)

    def _past(self, ws: ClientConnection) -> Callable[[], bool]:
        """Whether the client has noticed that ``ws`` is gone (a send can fail before the
        reader sees the close; waiting for it avoids spinning on a dead socket)."""
        return lambda: self._ws is not ws or not self._up

    async def _ready(self) -> ClientConnection:
        """The live socket: connecting lazily, or waiting out a reconnection."""
        if not self._up and self._reconnecting:
            await self.wait_for(lambda: self._up or not self._reconnecting)
        if not self._up:
            if self._dead is not None:  # closed, or reconnecting gave up: connect() revives
                raise self._dead
            await self.connect()
        assert self._ws is not None
        return self._ws

    # ----- requests ------------------------------------------------------------------------

    async def _pace(self) -> None:
        """Reserve a slot in our own token bucket, sleeping for it if need be."""
        if not self._rate:
            return
        now = asyncio.get_running_loop().time()
        if self._tokens_at:
            self._tokens = min(self._burst, self._tokens + (now - self._tokens_at) * self._rate)
        self._tokens_at = now
        self._tokens -= 1
        if self._tokens < 0:
            await asyncio.sleep(-self._tokens / self._rate)

    async def _send(self, ws: ClientConnection, message: dict[str, Any],
                    fut: asyncio.Future[dict[str, Any]] | None = None) -> None:
        """Send one message; with ``fut``, under a fresh id whose reply resolves it. The id is
        registered just before the frame goes out, so ``_pending`` is in the order the server
        handles the messages (an id-less ``rate.limited`` is matched by that order)."""
        await self._pace()
        if fut is not None:
            rid = next(self._ids)
            self._pending[rid] = (ws, fut)
            fut.add_done_callback(lambda _, rid=rid: self._pending.pop(rid, None))
            message = {**message, "id": rid}
        try:
            await ws.send(codec.encode(message, self.encoding))
        except websockets.ConnectionClosed:
            raise _Lost() from None

    async def _roundtrip(self, message: dict[str, Any], ws: ClientConnection) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        await self._send(ws, message, fut)
        try:
            return await asyncio.wait_for(fut, self.request_timeout)
        except TimeoutError:
            raise RequestTimeout(f"no reply to {message['type']} in "
                                 f"{self.request_timeout:g} s") from None

    async def request(self, message: dict[str, Any], recover: Recover | None = _resend
                      ) -> dict[str, Any]:
        """Send any protocol message and return its reply (``error`` raises ``ServerError``).

        ``recover`` decides what happens when the connection drops before the reply: the
        default re-sends (right for reads); ``None`` raises ``ConnectionLost`` (the outcome is
        unknown); a coroutine function may look at the server's state after the reconnect and
        return the reply to use, or ``None`` to re-send."""
        rate_tries = 0
        while True:
            ws = await self._ready()
            try:
                reply = await self._roundtrip(message, ws)
            except _Lost:
                await self.wait_for(self._past(ws))
                if recover is None:
                    raise ConnectionLost(
                        f"the connection dropped before the reply to {message['type']}: it may "
                        "or may not have been applied") from None
                await self._ready()
                found = await recover()
                if found is not None:
                    return found
                continue
            if reply.get("type") == "error":
                code = str(reply.get("code", ""))
                if code == "rate.limited" and rate_tries < self.rate_retries:
                    rate_tries += 1
                    await asyncio.sleep(0.05 * 2**rate_tries)
                    continue
                raise ServerError(code, str(reply.get("message", "")))
            return reply

    async def ping(self) -> None:
        await self.request({"type": "ping"})

    # ----- practice and sessions -----------------------------------------------------------

    async def solo(self, game: str, variant: str, seed: str | None = None) -> Session:
        """A practice game; ``seed`` (hex) makes it reproducible, else the server picks one."""
        msg: dict[str, Any] = {"type": "solo.start", "game": game, "variant": variant}
        if seed is not None:
            msg["seed"] = seed
        return Session.from_raw(await self.request(msg))

    async def session(self, session_id: str) -> Session:
        """Your current view of a session (practice, race or daily)."""
        return Session.from_raw(await self.request({"type": "session.get",
                                                    "session": session_id}))

    def _changed_since(self, session_id: str, rev: int | None, what: str) -> Recover:
        """After a drop: the change was applied if the session moved past ``rev``; if not,
        send it again. Without a known ``rev`` the outcome cannot be told."""
        async def recover() -> dict[str, Any] | None:
            now = await self.session(session_id)
            if rev is None:
                raise ConnectionLost(f"the connection dropped before the reply to {what}; the "
                                     f"session is now at revision {now.rev}")
            return now.raw if now.rev > rev else None
        return recover

    async def move(self, session_id: str, move: str | dict[str, Any], rev: int | None = None
                   ) -> Session:
        """Play a move (text notation or its JSON object). With ``rev`` a stale position gets
        ``conflict``. If the connection drops before the ack, the session is read again after
        the reconnect: if its revision moved on, the move was applied and that is returned;
        otherwise the move is sent again. It is never applied twice."""
        known = rev if rev is not None else self._revs.get(session_id)
        msg: dict[str, Any] = {"type": "move", "session": session_id, "move": move}
        if rev is not None:
            msg["rev"] = rev
        reply = await self.request(msg, self._changed_since(session_id, known, "move"))
        return Session.from_raw(reply)

    async def undo(self, session_id: str) -> Session:
        """Take back the last move (within the rules of the mode; ``undo.*`` codes)."""
        return Session.from_raw(await self.request(
            {"type": "undo", "session": session_id},
            self._changed_since(session_id, self._revs.get(session_id), "undo")))

    async def resign(self, session_id: str) -> Session:
        """End the game as lost."""
        return Session.from_raw(await self.request(
            {"type": "resign", "session": session_id},
            self._changed_since(session_id, self._revs.get(session_id), "resign")))

    # ----- races ---------------------------------------------------------------------------

    def _me(self) -> str:
        if not self.player:
            raise SdkError("not connected with a token: who am I?")
        return str(self.player["id"])

    async def create_race(self, game: str, variant: str, seats: int, *,
                          start: str | None = None, time_limit: int | None = None,
                          countdown: int | None = None, join: bool = True) -> Race:
        """A new race; with ``join`` you take a seat and follow its events from there.
        Never re-sent after a drop (it would make a second race): ``ConnectionLost``."""
        msg: dict[str, Any] = {"type": "race.create", "game": game, "variant": variant,
                               "seats": seats, "join": join}
        for key, value in (("start", start), ("time_limit", time_limit),
                           ("countdown", countdown)):
            if value is not None:
                msg[key] = value
        return Race.from_raw(await self.request(msg, None))

    async def join_race(self, race: str) -> Race:
        """Take a seat; the race's events follow, and your ``session`` when it starts."""
        async def recover() -> dict[str, Any] | None:
            summary = await self.race(race)
            if summary.entrant(self._me()) is None:
                return None
            await self.subscribe_race(race)
            return summary.raw
        return Race.from_raw(await self.request({"type": "race.join", "race": race}, recover))

    async def leave_race(self, race: str) -> Race:
        async def recover() -> dict[str, Any] | None:
            summary = await self.race(race)
            return summary.raw if summary.entrant(self._me()) is None else None
        return Race.from_raw(await self.request({"type": "race.leave", "race": race}, recover))

    async def start_race(self, race: str) -> Race:
        """Start a race you created (at least two entrants)."""
        async def recover() -> dict[str, Any] | None:
            summary = await self.race(race)
            return summary.raw if summary.state != "open" else None
        return Race.from_raw(await self.request({"type": "race.start", "race": race}, recover))

    async def subscribe_race(self, race: str, after: int | None = None) -> RaceState:
        """Follow a race's events. ``after``: the last ``seq`` you saw (missed events are
        replayed, or a summary resyncs you); left out, the client resumes from the last event
        it saw itself, or asks for the whole summary. Returns once the server has sent the
        catch-up (and your ``session`` if you are an entrant of a started race)."""
        rs = self._races.setdefault(race, RaceState(race))
        if after is not None:
            rs.seq = after
        await self._subscribe("race.subscribe", "race", race, rs.seq)
        return rs

    async def unsubscribe_race(self, race: str) -> None:
        self._races.pop(race, None)
        await self.request({"type": "race.unsubscribe", "race": race})

    async def _subscribe(self, kind: str, key: str, ident: str, after: int | None) -> None:
        """Subscribes have no reply on success: a ping after it answers once the server has
        handled it (one socket's messages are handled in order), and a refusal comes first.
        A rate-limited pair is sent again (subscribing twice is harmless: ``after`` and the
        event numbers keep it from repeating anything)."""
        tries = 0
        while True:
            ws = await self._ready()
            msg: dict[str, Any] = {"type": kind, key: ident}
            if after:
                msg["after"] = after
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            try:
                await self._send(ws, msg, fut)
                pong = await self._roundtrip({"type": "ping"}, ws)
            except _Lost:
                # The reconnect subscribes again by itself, from the last event seen.
                await self.wait_for(self._past(ws))
                await self._ready()
                return
            finally:
                if not fut.done():
                    fut.cancel()
            err = fut.result() if not fut.cancelled() else None
            if (pong.get("code") == "rate.limited" or (err and err.get("code") == "rate.limited")
                    ) and tries < self.rate_retries:
                tries += 1
                await asyncio.sleep(0.05 * 2**tries)
                state = (self._races if key == "race" else self._matches).get(ident)
                after = state.seq if state is not None else after
                continue
            if err is not None and err.get("type") == "error":
                (self._races if key == "race" else self._matches).pop(ident, None)
                raise ServerError(str(err["code"]), str(err.get("message", "")))
            return

    def race_state(self, race: str) -> RaceState | None:
        """What the client knows of a race it follows (``None`` if it does not)."""
        return self._races.get(race)

    async def wait_race_session(self, race: str, timeout: float | None = None
                                ) -> Session | None:
        """Your session in a race you joined, once it has started (``None`` if the race ended
        without one reaching you, e.g. a deal with no move at all)."""
        rs = self._races.setdefault(race, RaceState(race))
        await self.wait_for(lambda: rs.session is not None or rs.over, timeout)
        return rs.session

    async def wait_race_end(self, race: str, timeout: float | None = None) -> Results:
        """Wait for the race to end, then its results (ranking and revealed seed)."""
        rs = self._races.get(race)
        if rs is None:
            rs = await self.subscribe_race(race)
        await self.wait_for(lambda: rs.over, timeout)
        return await self.race_results(race)

    # ----- the daily challenge and leaderboards --------------------------------------------

    async def daily(self, day: str | None = None) -> Daily:
        """A day's deals and commitments (today's when ``day`` is left out)."""
        msg: dict[str, Any] = {"type": "daily.get"}
        if day is not None:
            msg["day"] = day
        return Daily.from_raw(await self.request(msg))

    async def start_daily(self, game: str, variant: str, ranked: bool = True,
                          day: str | None = None) -> Session:
        """Today's ranked attempt (asking again resumes it), or an unranked replay."""
        msg: dict[str, Any] = {"type": "daily.start", "game": game, "variant": variant,
                               "ranked": ranked}
        if day is not None:
            msg["day"] = day
        return Session.from_raw(await self.request(msg))

    async def board(self, name: str, kind: str = "human", start: int = 0, count: int = 20,
                    around: str | None = None) -> Board:
        """A page of a leaderboard (``daily/today/golf/easy``, ``alltime/all``, …);
        ``around``: ``me`` or a player id, to centre the page on them."""
        msg: dict[str, Any] = {"type": "board.get", "board": name, "kind": kind,
                               "start": start, "count": count}
        if around is not None:
            msg["around"] = around
        return Board.from_raw(await self.request(msg))

    # ----- matches (docs/protocol.md#matches) ------------------------------------------------

    async def create_match(self, game: str, variant: str, seats: int, *,
                           turn_time: int | None = None, grace: int | None = None,
                           start: str | None = None, join: bool = True) -> Match:
        msg: dict[str, Any] = {"type": "match.create", "game": game, "variant": variant,
                               "seats": seats, "join": join}
        for key, value in (("turn_time", turn_time), ("grace", grace), ("start", start)):
            if value is not None:
                msg[key] = value
        return Match.from_raw(await self.request(msg, None))

    async def join_match(self, match: str) -> Match:
        return Match.from_raw(await self.request({"type": "match.join", "match": match}, None))

    async def leave_match(self, match: str) -> Match:
        return Match.from_raw(await self.request({"type": "match.leave", "match": match},
                                                 None))

    async def start_match(self, match: str) -> Match:
        return Match.from_raw(await self.request({"type": "match.start", "match": match},
                                                 None))

    async def match(self, match: str) -> Match:
        return Match.from_raw(await self.request({"type": "match.get", "match": match}))

    async def subscribe_match(self, match: str, after: int | None = None) -> MatchState:
        ms = self._matches.setdefault(match, MatchState(match))
        if after is not None:
            ms.seq = after
        await self._subscribe("match.subscribe", "match", match, ms.seq)
        return ms

    async def unsubscribe_match(self, match: str) -> None:
        self._matches.pop(match, None)
        await self.request({"type": "match.unsubscribe", "match": match})

    async def match_move(self, match: str, move: str | dict[str, Any]) -> dict[str, Any]:
        """Play your move in a match; the reply (``match.ack``) as received. Not re-sent after
        a drop (``ConnectionLost``): re-subscribe and read your ``match.you`` instead."""
        return await self.request({"type": "match.move", "match": match, "move": move}, None)

    def match_state(self, match: str) -> MatchState | None:
        return self._matches.get(match)

    # ----- pushed events -------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:
                log.exception("an event listener failed")
        self._events.append(event)
        self._wake()

    async def next_event(self, timeout: float | None = None) -> Event:
        """The oldest pushed event not yet taken (``TimeoutError`` after ``timeout`` s)."""
        await self.wait_for(lambda: bool(self._events), timeout)
        return self._events.popleft()

    async def events(self) -> AsyncIterator[Event]:
        """Every pushed event, in order: race and match events (deduplicated by ``seq``
        across reconnects), resyncs, pushed sessions, and the SDK's ``connection.*``
        notices. Up to ``event_buffer`` events wait for you; older ones are dropped."""
        while True:
            yield await self.next_event()

    # ----- dispatching what arrives --------------------------------------------------------

    def _dispatch(self, msg: dict[str, Any], ws: ClientConnection | None = None) -> None:
        rid = msg.get("id")
        entry = self._pending.pop(rid, None) if isinstance(rid, int) else None
        kind = str(msg.get("type", ""))
        if entry is None and rid is None and kind == "error" and msg.get("code") == "rate.limited":
            # Refused before its id was read: it answers the oldest message still waiting on
            # this socket, since the server handles one socket's messages in order.
            oldest = next((k for k, (w, _) in self._pending.items() if w is ws), None)
            if oldest is not None:
                entry = self._pending.pop(oldest)
            self._rate = max(1.0, self._rate / 2) if self._rate else 0.0
        if entry is not None:
            self._note_reply(kind, msg)
            if not entry[1].done():
                entry[1].set_result(msg)
            self._wake()
            return
        if kind in ("welcome", "pong"):
            return
        event = self._note_push(kind, msg)
        if event is not None:
            self._emit(event)

    def _note_session(self, raw: dict[str, Any]) -> Session:
        s = Session.from_raw(raw)
        if s.rev >= self._revs.get(s.id, -1):
            self._revs[s.id] = s.rev
        if s.race:
            rs = self._races.get(s.race)
            if rs is not None and (rs.session is None or s.rev >= rs.session.rev):
                rs.session = s
        return s

    def _note_reply(self, kind: str, msg: dict[str, Any]) -> None:
        if kind in ("session", "ack"):
            self._note_session(msg)
        elif kind == "race":
            rid = str(msg.get("race"))
            if "joined_seq" in msg:  # a seat taken: the server follows the race for us
                rs = self._races.setdefault(rid, RaceState(rid))
                rs.seq = max(rs.seq, int(msg["joined_seq"]))
            if rid in self._races:
                self._races[rid].summary = Race.from_raw(msg)
        elif kind == "match":
            mid = str(msg.get("match"))
            if "joined_seq" in msg:
                ms = self._matches.setdefault(mid, MatchState(mid))
                ms.seq = max(ms.seq, int(msg["joined_seq"]))
            ms = self._matches.get(mid)
            if ms is not None:
                ms.summary = Match.from_raw(msg)
                self._offer(ms, msg)
                if msg.get("state") == "ended" and ms.ended is None:  # its event was missed
                    ms.ended = {"type": "match.ended", "match": mid, "seed": msg.get("seed"),
                                "results": msg.get("results")}
        elif kind == "match.ack":
            ms = self._matches.get(str(msg.get("match")))
            if ms is not None:
                self._offer(ms, msg)

    def _offer(self, ms: MatchState, msg: dict[str, Any]) -> None:
        """Keep the newest position offered to this player: a reply may reach us after an
        event that already moved the match on, so the match's event number decides."""
        you = msg.get("you")
        if not isinstance(you, dict):
            if "turn" in msg:  # Bowling: the shared view; legal moves only on our turn
                turn = msg["turn"]
                mine = (isinstance(turn, dict) and self.player is not None
                        and turn.get("player") == self.player["id"])
                you = msg if mine else {**msg, "legal": []}
            elif "legal" in msg:
                you = msg
            else:
                return
        seq = you.get("as_of", msg.get("seq"))
        if not isinstance(seq, int) or seq >= ms.you_seq:
            ms.you = you
            ms.you_seq = seq if isinstance(seq, int) else ms.you_seq

    def _note_push(self, kind: str, msg: dict[str, Any]) -> Event | None:
        event = event_from(msg)
        if isinstance(event, RaceEvent):
            rs = self._races.get(event.race)
            if rs is not None:
                if event.seq is not None and event.seq <= rs.seq:
                    return None  # seen before a reconnect
                rs.seq = event.seq or rs.seq
                if isinstance(event, RaceEnded):
                    rs.ended = event
                if rs.summary is not None:  # keep the summary's state and times current
                    if isinstance(event, RaceStarted):
                        rs.summary.state = "running"
                        rs.summary.starts_at, rs.summary.ends_at = event.starts_at, event.ends_at
                    elif isinstance(event, RaceEnded):
                        rs.summary.state, rs.summary.seed = "ended", event.seed
        elif isinstance(event, RaceResync) and event.summary is not None:
            rs = self._races.get(event.summary.id)
            if rs is not None:
                rs.summary = event.summary  # replaces what was known, event number too
                rs.seq = event.summary.seq
        elif isinstance(event, SessionPushed):
            event.session = self._note_session(msg)
        elif kind.startswith("match"):
            ms = self._matches.get(str(msg.get("match")))
            if ms is not None:
                seq = msg.get("seq")
                if isinstance(seq, int):
                    if seq <= ms.seq:
                        return None
                    ms.seq = seq
                self._offer(ms, msg)
                if kind == "match":
                    ms.summary = Match.from_raw(msg)
                    ms.seq = max(ms.seq, ms.summary.seq)
                elif kind == "match.ended":
                    ms.ended = msg
        return event
