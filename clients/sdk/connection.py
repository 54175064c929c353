"""The connection: one WebSocket with request/reply over it, the bookkeeping that lets a
dropped connection resume where it was (docs/protocol.md#events-and-reconnecting), pacing
under the server's rate limit, and the queue of pushed events that callers wait on. What the
messages mean is the other mixins' job (``Following`` reads what arrives)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Self

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect

from . import codec, rest
from .board_updates import BoardUpdates
from .errors import ConnectionLost, SdkError, ServerError, retry_after
from .messages import Event, Notice
from .state import MatchState, RaceState

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



class Connection(ABC):
    """The socket, its requests and its events, for one player; the options are described on
    ``Client``."""

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
        # After a rate.limited: no new message before this (loop time), the last turn given.
        self._not_before = 0.0
        #: your public profile from ``welcome`` ({"id", "name", "kind"}), once connected
        self.player: dict[str, Any] | None = None
        #: called with every pushed event (and the SDK's notices), before it is queued
        self.listeners: list[Callable[[Event], Any]] = []
        #: how many times the connection was (re)established
        self.connections = 0
        #: the close code of each connection lost under the client (1006: dropped with no
        #: close frame, as a process killed or a network cut leaves it)
        self.lost_codes: list[int] = []
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
        self._boards: dict[tuple[str, str], BoardUpdates] = {}  # (board, kind) watched live
        # A board's first update may be read before subscribe_board has its reply in hand.
        self._early_boards: dict[tuple[str, str], dict[str, Any]] = {}
        self._revs: dict[str, int] = {}
        self._payloads: dict[str, dict[str, Any]] = {}  # session -> its latest payload (v2)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._connect_lock: asyncio.Lock | None = None
        self._rule_sets: dict[tuple[str, str], dict[str, Any]] = {}

    # ----- the connection ------------------------------------------------------------------

    async def __aenter__(self) -> Self:
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
        ws = await ws_connect(self.ws_url, subprotocols=codec.SUBPROTOCOLS[self.encoding],
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
            for watch in self._boards.values():  # its first update is the board as it is now
                await self._send(ws, watch.message)
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
        self.lost_codes.append(ws.close_code or 1006)
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

    def _back_off(self, wait: float) -> float:
        """The server refused a message for the rate and gave it a turn ``wait`` s from now
        (messages refused together get turns a token apart): returns that turn, at which the
        message goes again, and holds new messages until just after the last turn given, so
        they take no token promised to one refused."""
        turn = asyncio.get_running_loop().time() + wait
        self._not_before = max(self._not_before, turn + 0.001)
        return turn

    async def _pace(self, turn: float | None = None) -> None:
        """Reserve a slot in our own token bucket, sleeping for it if need be; a message the
        server refused for the rate waits for its ``turn``, a new one for the last turn."""
        now = asyncio.get_running_loop().time()
        start = self._not_before if turn is None else turn
        if start > now:
            await asyncio.sleep(start - now)
            now = asyncio.get_running_loop().time()
        if not self._rate:
            return
        if self._tokens_at:
            self._tokens = min(self._burst, self._tokens + (now - self._tokens_at) * self._rate)
        self._tokens_at = now
        self._tokens -= 1
        if self._tokens < 0:
            await asyncio.sleep(-self._tokens / self._rate)

    async def _send(self, ws: ClientConnection, message: dict[str, Any],
                    fut: asyncio.Future[dict[str, Any]] | None = None,
                    turn: float | None = None) -> None:
        """Send one message (at its ``turn`` after a refusal for the rate); with ``fut``, under
        a fresh id whose reply resolves it. The id is registered just before the frame goes
        out, so ``_pending`` is in the order the server handles the messages (an id-less
        ``rate.limited`` is matched by that order)."""
        await self._pace(turn)
        if fut is not None:
            rid = next(self._ids)
            self._pending[rid] = (ws, fut)
            fut.add_done_callback(functools.partial(self._forget, rid))
            message = {**message, "id": rid}
        try:
            await ws.send(codec.encode(message, self.encoding))
        except websockets.ConnectionClosed:
            raise _Lost() from None

    def _forget(self, rid: int, _: asyncio.Future[dict[str, Any]]) -> None:
        self._pending.pop(rid, None)

    async def _roundtrip(self, message: dict[str, Any], ws: ClientConnection,
                         turn: float | None = None) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        await self._send(ws, message, fut, turn)
        try:
            return await asyncio.wait_for(fut, self.request_timeout)
        except TimeoutError:
            raise RequestTimeout(f"no reply to {message['type']} in "
                                 f"{self.request_timeout:g} s") from None

    async def request(self, message: dict[str, Any], recover: Recover | None = _resend,
                      *, rate_retry: bool = True) -> dict[str, Any]:
        """Send any protocol message and return its reply (``error`` raises ``ServerError``).

        ``recover`` decides what happens when the connection drops before the reply: the
        default re-sends (right for reads); ``None`` raises ``ConnectionLost`` (the outcome is
        unknown); a coroutine function may look at the server's state after the reconnect and
        return the reply to use, or ``None`` to re-send. ``rate_retry=False``: a
        ``rate.limited`` raises at once, with no pause of the connection's other messages (a
        limit of one kind of request, such as hints, is not the socket's)."""
        rate_tries = 0
        turn = None  # after a refusal for the rate, the turn the server gave this message
        while True:
            ws = await self._ready()
            try:
                reply = await self._roundtrip(message, ws, turn)
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
                if code == "rate.limited" and rate_retry and rate_tries < self.rate_retries:
                    rate_tries += 1
                    turn = self._back_off(retry_after(reply, rate_tries))
                    continue
                wait = reply.get("retry_after")
                raise ServerError(code, str(reply.get("message", "")), None,
                                  wait if isinstance(wait, int | float) else None)
            return reply

    async def ping(self) -> None:
        await self.request({"type": "ping"})

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

    @abstractmethod
    def _dispatch(self, msg: dict[str, Any], ws: ClientConnection | None = None) -> None:
        """What to do with one message that arrived: ``Following`` knows."""
