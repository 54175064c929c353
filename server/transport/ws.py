"""The WebSocket endpoint: one connection per client for live play.

Each connection reads messages in one task and writes in another, through its outbox
(server/transport/outbox.py), so replies and race or match events leave in order and a slow client
never blocks the node. A reply finding the outbox empty and nothing being written is written by the
reading task itself, with no hand-over to the writer.
Events carry their number. Every event a socket is sent passes one check (``_frame``), which
refuses a number at or below the last one sent and notes the new one: no path sends an event
twice, or goes back. The writer fills a gap from the stream's event window, or sends a
full resync when the window no longer covers it; a catch-up starts where the socket stands when
it runs, not when it was queued. What a stream is (a race, a match: its summary, the events that
end it, what of it is a player's own, whether following it counts as presence) is its feature's
``Stream`` (server/feature.py): this module knows no game mode. On protocol v2 a change's ack
carries what changed, and in a race takes the place of the mover's own progress event
(server/ws_v2.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Mapping
from typing import Any

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .. import store
from ..accounts import Player
from ..api import Services, seen_from
from ..crash_points import operation as counted
from ..errors import ApiError, store_unavailable
from ..feature import Stream
from . import acks, codec, drain, schema
from .events import decode_event, event_frame, events_after, seen_by, step_of
from .outbox import Outbox
from .rest import address_of
from .ws_v2 import CHANGES, V2Socket

log = logging.getLogger("samedeal.ws")

#: Streams a socket goes on following once they ended (a rematch's event may still come);
#: past it, the one that ended first is let go, so a socket that plays race after race keeps
#: no listener for each.
ENDED_KEPT = 16
OUTBOX = 1024  # queued messages before a client counts as too slow and is dropped
POLICY, TRY_AGAIN = 1008, 1013
FLOOD_WINDOW = 10.0  # seconds over which refusals for the rate limit add up to a flood
#: Seconds a socket's stream waits for the store to come back (Redis restarting, a failover)
#: when its events could not be read, before the socket is closed for the client to resume.
STORE_BACK_WITHIN = 10.0
#: Queued items that are about one stream (their second field): resynced when they fail.
STREAM_ITEMS = frozenset({"event", "own", "resume", "subscribe"})


class Bucket:
    """Token bucket: ``rate`` messages a second, ``burst`` at once. A refused message is
    given a turn of its own (``promise``): messages refused together get turns one token apart,
    so a client that sends each again at its turn is not refused again."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = time.monotonic()
        self.promised = -math.inf  # the latest turn given to a refused message

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def promise(self) -> float:
        """Promise a message just refused by ``take`` the first token not promised to one
        refused before it: the seconds until then, rounded up to the millisecond."""
        if self.rate <= 0:
            return 1.0
        turn = max(self.at + max(0.0, 1 - self.tokens) / self.rate,
                   self.promised + 1 / self.rate)
        self.promised = turn
        return max(0.001, math.ceil((turn - self.at) * 1000) / 1000)

    def refusal(self) -> ApiError:
        """``rate.limited`` naming the limit, with ``retry_after`` (this message's turn)."""
        wait = self.promise()
        return ApiError("rate.limited", f"slow down: over this socket's limit of {self.rate:g} "
                        f"messages a second (bursts of {self.burst}); retry in {wait:g} s",
                        retry_after=wait, limit="socket")


class Connection(V2Socket):
    def __init__(self, ws: WebSocket, sv: Services, encoding: str, v2: bool = False) -> None:
        self.features = sv.features  # what a message is, and the features' hooks
        self.ws = ws
        self.sv = sv
        self.encoding = encoding
        self._v2_init(v2)
        self.player: Player | None = None
        self.outbox = Outbox(OUTBOX)
        self.last_seq: dict[str, int] = {}  # followed id -> last event number sent
        self.listeners: dict[str, Any] = {}
        #: followed id -> its stream, as the subscription or the seat taken said (an id's
        #: letters mean nothing)
        self.following: dict[str, Stream] = {}
        self.ended: dict[str, None] = {}  # followed ids that ended, oldest first
        self.present: set[str] = set()  # followed ids that count as the player's presence
        self.kept: dict[str, Any] = {}  # followed id -> what its stream keeps (``Follower``)
        self.bucket = Bucket(sv.settings.rate_per_second, sv.settings.rate_burst)
        self.limits = sv.limits  # the account's budget and its sockets, on every node
        self.socket_id = self.limits.socket_id()
        self.address = address_of(ws)  # the client's, as the limits and fingerprints read it
        self.agent = ws.headers.get("user-agent", "")
        self.limited = not self.limits.free(self.address)
        self.refused = 0
        self.refused_since = 0.0
        self.closing = False
        self.restarting = False  # the node is shutting down: no new message is handled
        self.idle = asyncio.Event()  # not in the middle of handling a message
        self.idle.set()
        self.task: asyncio.Task[Any] | None = None  # serving it (drain.py logs where it waits)
        self.own: dict[str, Any] = {}  # what each feature keeps for this socket (feature.py)

    # ----- reading ----------------------------------------------------------------------

    async def serve(self, subprotocol: str | None) -> None:
        await self.ws.accept(subprotocol=subprotocol)
        self.task = asyncio.current_task()
        self.sv.metrics.sockets.inc()
        self.sv.drain.opened(self)
        writer = asyncio.create_task(self._write())
        try:
            auth = self.ws.headers.get("authorization", "")
            if auth.lower().startswith("bearer "):
                try:
                    token = schema.check_token(auth[7:].strip())
                    self.send(await self._hello({"token": token}))
                except ApiError as e:  # stay open: a hello may still bring a good token
                    self.send({"type": "error", **e.body()})
            await self._read()
        except WebSocketDisconnect:
            pass
        finally:
            self.sv.metrics.sockets.dec()
            for eid in list(self.listeners):
                await self.unfollow(eid)
            await self.features.closed(self)
            with contextlib.suppress(Exception):  # Redis away: the lease lapses by itself
                await self.limits.close_socket(self.socket_id)
            await self._stop(writer)
            self.sv.drain.closed(self)

    async def restart(self) -> None:
        """The node is shutting down: finish the message in hand, then tell the client to
        reconnect (to another node) and close; messages after this are left unanswered, so
        the client sends them again where it lands."""
        self.restarting = True
        await self.idle.wait()
        self.send(drain.NOTICE)
        self._post(("close", drain.RESTART, "server restarting"))
        self.closing = True

    async def _stop(self, writer: asyncio.Task[None]) -> None:
        """End the writer by an item it reads, not by cancelling it: a cancellation that
        lands in a store call can be swallowed there, and the writer would wait on its queue
        for ever (and the node's shutdown with it). A closing socket's queue is written
        first, for up to 2 s."""
        if not self.closing:
            self.outbox.clear()
        self._post(("stop",), force=True)
        done, _ = await asyncio.wait({writer}, timeout=2.0)
        if not done:
            writer.cancel()

    async def _read(self) -> None:
        deadline = time.monotonic() + self.sv.settings.hello_timeout
        while not self.closing:
            if self.player is None:
                try:
                    msg = await asyncio.wait_for(self.ws.receive(),
                                                 max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    await self._close(POLICY, "auth.required", "say hello with your token")
                    return
            else:
                msg = await self.ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if self.restarting:
                continue
            data = msg.get("text") if msg.get("text") is not None else msg.get("bytes")
            self.idle.clear()
            try:
                await self._handle(data or b"")
            finally:
                self._held_done()
                self.idle.set()

    async def _handle(self, data: str | bytes) -> None:
        request_id = None
        try:
            message: Any = None
            bad: ApiError | None = None  # an undecodable frame, refused after the rate check
            try:
                message = codec.decode(data, self.encoding, self.sv.settings.max_message_bytes)
            except ApiError as e:
                bad = e
            if isinstance(message, dict) and schema.plain_id(message.get("id")):
                request_id = message["id"]  # even a refusal for the rate names its request
            refusal = None if self.bucket.take() else self.bucket.refusal()
            if refusal is None and self.player is not None and self.limited and not (
                    isinstance(message, dict) and message.get("type") == "ping"):
                refusal = await self.limits.account(self.player.id)  # every socket's, REST's
            if refusal is not None:
                now = time.monotonic()
                if now - self.refused_since > FLOOD_WINDOW:  # count refusals per window
                    self.refused, self.refused_since = 0, now
                self.refused += 1
                if self.refused > self.sv.settings.flood_after:
                    await self._close(POLICY, "rate.flood", "too many messages: disconnected")
                    return
                raise refusal
            if bad is not None:
                raise bad
            if not isinstance(message, dict):
                raise ApiError("message.invalid", "a message is an object (a map)")
            kind = message.get("type")
            types = self.features.ws_types
            if not (type(kind) is str and kind in types and schema.fits(kind, message)):
                schema.check_text(message)  # before anything else reads a string of it
                if not isinstance(kind, str) or kind not in types:
                    raise ApiError("message.unknown_type",
                                   "a message needs a known 'type' (see docs/protocol.md)")
                schema.check_fields(kind, message)
            await self._hold(kind, message)
            reply = await self._dispatch(kind, message)
            if reply is not None:
                if request_id is not None:
                    reply["id"] = request_id
                await self._answer(reply)
                stream = self.features.streams.get(reply["type"])  # the reply says what
                eid = reply.get(stream.name) if stream is not None else None  # it joined
                if "joined_seq" in reply and isinstance(eid, str) and eid not in self.listeners:
                    # A new entrant follows the stream from its own seat on, after the reply;
                    # where following is presence, they were counted present as they sat.
                    assert stream is not None
                    if stream.presence is not None:
                        self.present.add(eid)
                    await self.follow(eid, reply["joined_seq"], stream.name, quiet=True)
                await self.features.answered(self, reply)
        except Exception as e:
            if isinstance(e, ApiError):
                error = e
            elif store.failed(e):
                error = store_unavailable()
                await store.forget_idle(self.sv.redis)
            else:
                self._failed(request_id)
                return
            self.sv.metrics.errors.labels(error.code).inc()
            out: dict[str, Any] = {"type": "error", **error.body()}
            if request_id is not None:
                out["id"] = request_id
            await self._answer(out)

    def _failed(self, request_id: Any) -> None:
        """A fault of the server's own: logged with its traceback, answered ``server.error``."""
        log.exception("message failed")
        self.sv.metrics.errors.labels("server.error").inc()
        out = {"type": "error", "code": "server.error",
               "message": "the server failed on that message; it changed nothing"}
        if request_id is not None:
            out["id"] = request_id
        self.send(out)

    async def _dispatch(self, kind: str, m: dict[str, Any]) -> dict[str, Any] | None:
        if kind == "ping":
            return {"type": "pong"}
        if kind == "hello":
            return await self._hello(m)
        if self.player is None:
            raise ApiError("auth.required", "say hello with your token first")
        op = self.features.operations.get(kind)
        if op is not None and op.seats:
            # This socket follows the match from its seat on (see _handle): the player is
            # present from the moment they sit, so a start their seat causes finds them here.
            m = {**m, "present": True}
        if op is not None and op.copies_name:
            # The name may have changed since hello (a rename over REST, or on another tab):
            # what is copied into a race, a match or a board is the current one.
            self.player = await self.sv.accounts.get(self.player.id)
        answer = self.features.socket.get(kind)
        if answer is not None:  # a message this socket answers itself (a subscription)
            return await answer(self, kind, m)
        assert op is not None  # every type a socket may send is one or the other
        if self.v2 and kind in CHANGES:
            out = {"type": "ack", **await acks.ack(self.sv, self.player, m, kind,
                                                   self.revs.get(m["session"]))}
            await seen_from(self.sv, m, out, self.address, self.agent)
            self._sent_rev(out)
            return out
        # A test hook counts the request's store calls (server/crash_points.py); else off.
        with counted(kind) if self.sv.settings.crash_at else contextlib.nullcontext():
            out = {"type": op.reply, **await op.handler(self.sv, self.player, m)}
        if op.noted:
            await seen_from(self.sv, m, out, self.address, self.agent)
        self._sent_rev(out)
        return out

    @property
    def watcher_id(self) -> str:
        """Whose own entry this socket is sent with a board it watches."""
        assert self.player is not None
        return self.player.id

    async def _hello(self, m: dict[str, Any]) -> dict[str, Any]:
        player = await self.sv.accounts.authenticate(m["token"])
        if self.limited:  # counted among the account's sockets, or refused
            await self.limits.open_socket(self.socket_id, player.id)
        self.player = player
        await self.features.greeted(self)
        reply = {"type": "welcome", "player": self.player.public()}
        return reply

    # ----- the streams a socket follows (races, matches) ---------------------------------

    async def follow(self, eid: str, after: int | None, stream: str,
                     quiet: bool = False) -> None:
        """Follow ``eid``, a stream of the kind ``stream`` names, from after event
        ``after``."""
        if eid not in self.listeners:
            def listener(data: bytes | None, eid: str = eid) -> None:
                step = None if data is None else step_of(data)
                if step is not None:  # a private note (a bowler's card that kept their turn)
                    if step == self.viewer:
                        self._post(("own", eid))
                elif data is not None:
                    self._follow(eid, ("event", eid, data))
                elif eid in self.last_seq:  # pub/sub was down: what did we miss?
                    self._follow(eid, ("resume", eid))

            self.listeners[eid] = listener
            kind = self.following[eid] = self.features.streams[stream]
            await self.sv.hub.subscribe(store.channel(eid), listener)
            assert self.player is not None
            if kind.presence is not None and eid not in self.present:
                self.present.add(eid)
                await kind.presence(self.sv, eid, self.player.id, +1)
        self._post(("subscribe", eid, after, quiet))

    async def unfollow(self, eid: str) -> None:
        self.ended.pop(eid, None)
        listener = self.listeners.pop(eid, None)
        stream = self.following.pop(eid, None)
        self.last_seq.pop(eid, None)
        self.kept.pop(eid, None)
        if listener is not None:
            await self.sv.hub.unsubscribe(store.channel(eid), listener)
        if eid in self.present and self.player is not None:
            self.present.discard(eid)
            if stream is not None and stream.presence is not None:
                with contextlib.suppress(Exception):  # a closing socket must not fail on this
                    await stream.presence(self.sv, eid, self.player.id, -1)

    def send(self, message: dict[str, Any]) -> None:
        """A reply, or what stands for one: the reply of a change in hand goes with the race
        events it holds (ws_v2)."""
        if not self._reply_held(message):
            self._post(("send", message))

    def push(self, message: dict[str, Any]) -> None:
        """A message of the server's own (a board's update), from another task: never taken
        for the reply of the change the reader has in hand."""
        self._post(("send", message))

    async def _answer(self, message: dict[str, Any]) -> None:
        """A request's reply: written here when nothing is queued or being written (the
        order is kept: nothing can be ahead of it), else queued behind what is; the reply
        of a change that holds its race's events goes with them (ws_v2), and is written here
        only when no earlier event of the race is still to be sent."""
        rid = self.holding
        if not self.outbox.idle or self.closing or (
                rid is not None and not self._ack_now(rid, message)):
            self.send(message)
            return
        held = self._release()[1]
        self.outbox.begin()
        try:
            seq = message.get("seq")
            if rid is not None and isinstance(seq, int):
                self._stood_for(rid, seq)
            await self._send(message)
        except Exception:  # a closed socket: the reader ends the connection
            log.debug("write failed", exc_info=True)
        finally:
            self.outbox.done()
        for item in held:
            self._follow(item[1], item)

    def _post(self, item: tuple[Any, ...], force: bool = False) -> None:
        if self.outbox.full and not force:
            if self.closing:
                return
            self.closing = True  # drop what is queued: the client resumes from the window
            self.outbox.clear()
            item = ("close", TRY_AGAIN, "too slow: reconnect and resume")
        self.outbox.put(item)

    async def _write(self) -> None:
        while True:
            item = await self.outbox.next()
            try:
                if item[0] == "stop":
                    return
                if item[0] == "close":
                    await self.ws.close(item[1], item[2])
                    return
                await self._run(item)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if item[0] == "send" or WebSocketState.DISCONNECTED in (
                        self.ws.client_state, self.ws.application_state):
                    log.debug("write failed", exc_info=True)  # closed: the reader ends it
                    continue
                # A catch-up, or the session or grid that goes with an event, could not be
                # read: what this socket was sent is no longer whole, and it would miss every
                # event after. Once the store is back, the stream's summary makes it whole
                # again; else close it: the client resumes from its last event on a new one.
                if item[0] in STREAM_ITEMS and store.failed(e) and await self._resync(item[1]):
                    continue
                log.info("a socket's events could not be read (%s): closing it to resume",
                         type(e).__name__)
                with contextlib.suppress(Exception):
                    await self.ws.close(TRY_AGAIN, "events could not be read: reconnect and resume")
                return
            finally:
                self.outbox.done()

    async def _resync(self, eid: str) -> bool:
        """Send stream ``eid``'s summary and the player's own part of it as soon as the store
        answers again, within ``STORE_BACK_WITHIN`` seconds; whether it was sent. Events
        go on from the summary's number (``_sync``), as after a gap the window no longer
        holds, so none is sent twice or missed."""
        loop = asyncio.get_running_loop()
        deadline, wait = loop.time() + STORE_BACK_WITHIN, 0.1
        while loop.time() + wait < deadline:
            await asyncio.sleep(wait)
            try:
                await self._own(eid, summary=await self._sync(eid))
                return True
            except Exception as e:
                if not store.failed(e):
                    return False
                wait = min(2 * wait, 1.0)
        return False

    async def _run(self, item: tuple[Any, ...]) -> None:
        if item[0] == "send":
            await self._send(item[1])
        elif item[0] == "ack":
            await self._ack(item[1], item[2], item[3])
        elif item[0] == "event":
            await self._event(item[1], item[2])
        elif item[0] == "own":
            await self._own(item[1])
        elif item[0] == "resume":
            await self._resume(item[1])
        else:
            await self._catch_up(*item[1:])

    def _encode(self, message: dict[str, Any]) -> str | bytes:
        return (codec.encode(message, codec.MSGPACK) if self.encoding == codec.MSGPACK
                else codec.text(message))

    async def _send(self, message: dict[str, Any]) -> None:
        await self._send_frame(self._encode(message))

    async def write(self, message: dict[str, Any]) -> None:
        """A message of a stream's own for this socket's player, written now (``Follower``)."""
        self._sent_rev(message)
        await self._send(message)

    def sent(self, eid: str) -> int | None:
        return self.last_seq.get(eid)

    @property
    def viewer(self) -> str | None:
        """Whose eyes this socket's events are for (their audience: events.seen_by)."""
        return self.player.id if self.player is not None else None

    def _frame(self, eid: str, event: dict[str, Any], entry: bytes | None = None
               ) -> str | bytes | None:
        """The frame of stream ``eid``'s ``event`` for this socket, its number noted as
        the last one sent; ``None`` when this socket was sent it or a later one, or does not
        follow ``eid``. Every event sent passes here, so none is ever sent twice. ``entry``:
        the event as stored, whose frame every socket of this encoding shares."""
        last = self.last_seq.get(eid)
        if last is None or event["seq"] <= last:
            return None
        self.last_seq[eid] = event["seq"]
        if entry is not None:
            whole = "to" not in event or self.viewer in event["to"]
            return event_frame(entry, self.encoding, whole)
        return self._encode(seen_by(event, self.viewer))

    def _stood_for(self, rid: str, seq: int) -> None:
        """A v2 ack that stands for race ``rid``'s event ``seq`` was sent: the event counts
        as sent (never a step back)."""
        if seq > self.last_seq.get(rid, seq):
            self.last_seq[rid] = seq

    async def _send_event(self, eid: str, event: dict[str, Any]) -> bool:
        """A stream's event (a stored one), as this socket's player may see it,
        unless this socket was sent it already; whether it was sent now."""
        frame = self._frame(eid, event)
        if frame is None:
            return False
        await self._send_frame(frame)
        return True

    async def _send_frame(self, frame: str | bytes) -> None:
        if isinstance(frame, bytes):
            await self.ws.send_bytes(frame)
        else:
            await self.ws.send_text(frame)

    async def _event(self, eid: str, entry: bytes) -> None:
        """A published event (its stored entry): the next one is sent as the frame every
        socket of this encoding shares (encoded once); after a gap, the missed ones first."""
        stream = self.following.get(eid)
        if stream is None:
            return  # unfollowed meanwhile
        event = decode_event(entry)
        if event["type"] in stream.ended and eid not in self.ended:
            await self._ended(eid)
        last = self.last_seq.get(eid)
        if last is None or event["seq"] <= last:
            return
        if event["seq"] == last + 1 and event["type"] not in stream.owned:
            frame = self._frame(eid, event, entry)
            if frame is not None:
                await self._send_frame(frame)
            return
        if event["seq"] > last + 1:
            missed = await events_after(self.sv.redis, eid, last)
            if missed is None:
                await self._own(eid, summary=await self._sync(eid))
                return
        else:
            missed = [event]
        await self._send_events(eid, missed)

    async def _send_events(self, eid: str, events: list[dict[str, Any]]) -> None:
        """Events this socket may not have been sent yet, in order, each followed by what is
        the player's own after it (``Stream.owned``: their session at a race's start, a
        called-card grid)."""
        stream = self.following.get(eid)
        for e in events:
            if await self._send_event(eid, e) and stream is not None and e["type"] in (
                    stream.owned):
                await self._own(eid, e)

    async def _ended(self, eid: str) -> None:
        """Note that ``eid`` ended; let go of the races and matches that ended before it
        past ``ENDED_KEPT``."""
        self.ended[eid] = None
        while len(self.ended) > ENDED_KEPT:
            await self.unfollow(next(iter(self.ended)))

    async def _catch_up(self, eid: str, after: int | None, quiet: bool) -> None:
        """A subscription: the events after ``after`` if the window has them, else the whole
        stream's summary; then what of it is the player's own (``Stream.own``). A socket
        already following ``eid`` goes on from the last event it was sent, if later: it is
        never sent one again."""
        if eid not in self.listeners:
            return  # unsubscribed before this ran
        missed = None
        if after is not None:
            after = max(after, self.last_seq.get(eid, after))
            missed = await events_after(self.sv.redis, eid, after)
            if missed is not None:
                self.last_seq[eid] = after
                for e in missed:
                    await self._send_event(eid, e)
        summary = await self._sync(eid, quiet) if missed is None else None
        await self._own(eid, summary=summary)

    async def _resume(self, eid: str) -> None:
        """After the pub/sub connection was made again: the events published meanwhile, after
        the last one this socket was sent by the time this runs (events queued ahead of this
        were sent since it was queued)."""
        last = self.last_seq.get(eid)
        if last is not None:
            await self._catch_up(eid, last, False)

    async def _sync(self, eid: str, quiet: bool = False) -> Mapping[str, Any] | None:
        stream = self.following.get(eid)
        if stream is None:
            return None  # unfollowed meanwhile
        summary = await stream.summary(self.sv, eid, self.viewer)
        # Events resume after the summary's number; never before one this socket was sent.
        self.last_seq[eid] = max(summary["seq"], self.last_seq.get(eid, 0))
        if not quiet:
            await self._send({"type": stream.name, **summary})
        return summary

    async def _own(self, eid: str, event: dict[str, Any] | None = None,
                   summary: Mapping[str, Any] | None = None) -> None:
        """What is the player's own in a stream they follow, after ``event`` or a (re)sync."""
        stream = self.following.get(eid)
        if stream is not None and stream.own is not None:
            await stream.own(self, eid, event, summary)

    async def send_up_to(self, eid: str, seq: int) -> None:
        """The events after the last one this socket was sent, up to ``seq``; the summary if
        the window no longer holds them. Later copies arriving by pub/sub are dropped."""
        last = self.last_seq.get(eid)
        if last is None:
            return  # unsubscribed meanwhile
        missed = await events_after(self.sv.redis, eid, last)
        if missed is None:
            await self._sync(eid)
            return
        for e in missed:
            if e["seq"] <= seq:
                await self._send_event(eid, e)

    async def _close(self, code: int, error: str, message: str) -> None:
        """Say why, then close once everything queued before has been written."""
        self.sv.metrics.errors.labels(error).inc()
        self.send({"type": "error", "code": error, "message": message})
        self._post(("close", code, message))
        self.closing = True


async def endpoint(ws: WebSocket) -> None:
    sv: Services = ws.app.state.services
    if sv.drain.draining:  # 503 before the upgrade: the load balancer tries another node
        await ws.send_denial_response(JSONResponse(
            {"code": "server.restarting", "message": "this server is restarting: try another"},
            503))
        return
    offered = [p.strip() for p in ws.headers.get("sec-websocket-protocol", "").split(",")]
    chosen = next((p for p in codec.SUBPROTOCOLS if p in offered), None)
    encoding = codec.SUBPROTOCOLS[chosen] if chosen else codec.JSON
    await Connection(ws, sv, encoding, chosen in codec.V2).serve(chosen)
