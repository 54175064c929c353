"""The WebSocket endpoint: one connection per client for live play.

Each connection reads messages in one task and writes in another, through one queue, so
replies and race events leave in order and a slow client never blocks the node. Race
events carry their number; the writer drops repeats and fills gaps from the race's event
window, or sends a full resync when the window no longer covers the gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import codec, schema, store
from .accounts import Player
from .api import OPERATIONS, Services
from .errors import ApiError
from .races import decode_event
from .sessions import session_payload

log = logging.getLogger("samedeal.ws")

WS_TYPES = frozenset(schema.MESSAGES) - {"player.register"}  # registration is REST only
OUTBOX = 1024  # queued messages before a client counts as too slow and is dropped
POLICY, TRY_AGAIN = 1008, 1013
FLOOD_WINDOW = 10.0  # seconds over which refusals for the rate limit add up to a flood


class Bucket:
    """Token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    def __init__(self, ws: WebSocket, sv: Services, encoding: str) -> None:
        self.ws = ws
        self.sv = sv
        self.encoding = encoding
        self.player: Player | None = None
        self.outbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue(OUTBOX)
        self.last_seq: dict[str, int] = {}  # race -> last event number sent
        self.listeners: dict[str, Any] = {}
        self.bucket = Bucket(sv.settings.rate_per_second, sv.settings.rate_burst)
        self.refused = 0
        self.refused_since = 0.0
        self.closing = False

    # ----- reading ----------------------------------------------------------------------

    async def serve(self, subprotocol: str | None) -> None:
        await self.ws.accept(subprotocol=subprotocol)
        self.sv.metrics.sockets.inc()
        writer = asyncio.create_task(self._write())
        try:
            auth = self.ws.headers.get("authorization", "")
            if auth.lower().startswith("bearer "):
                try:
                    self.send(await self._hello({"token": auth[7:].strip()}))
                except ApiError as e:  # stay open: a hello may still bring a good token
                    self.send({"type": "error", **e.body()})
            await self._read()
        except WebSocketDisconnect:
            pass
        finally:
            self.sv.metrics.sockets.dec()
            for rid in list(self.listeners):
                await self._unsubscribe(rid)
            if self.closing:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(writer), 2.0)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer

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
            data = msg.get("text") if msg.get("text") is not None else msg.get("bytes")
            await self._handle(data or b"")

    async def _handle(self, data: str | bytes) -> None:
        request_id = None
        try:
            if not self.bucket.take():
                now = time.monotonic()
                if now - self.refused_since > FLOOD_WINDOW:  # count refusals per window
                    self.refused, self.refused_since = 0, now
                self.refused += 1
                if self.refused > self.sv.settings.flood_after:
                    await self._close(POLICY, "rate.flood", "too many messages: disconnected")
                    return
                raise ApiError("rate.limited", "slow down: too many messages")
            message = codec.decode(data, self.encoding, self.sv.settings.max_message_bytes)
            if not isinstance(message, dict):
                raise ApiError("message.invalid", "a message is an object (a map)")
            request_id = message.get("id") if _plain_id(message.get("id")) else None
            kind = message.get("type")
            if not isinstance(kind, str) or kind not in WS_TYPES:
                raise ApiError("message.unknown_type",
                               "a message needs a known 'type' (see docs/protocol.md)")
            schema.validate(kind, message)
            reply = await self._dispatch(kind, message)
            if reply is not None:
                if request_id is not None:
                    reply["id"] = request_id
                self.send(reply)
                if "joined_seq" in reply and reply["race"] not in self.listeners:
                    # A new entrant follows the race from its own seat on, after the reply.
                    await self._subscribe(reply["race"], reply["joined_seq"], quiet=True)
        except ApiError as e:
            self.sv.metrics.errors.labels(e.code).inc()
            out: dict[str, Any] = {"type": "error", **e.body()}
            if request_id is not None:
                out["id"] = request_id
            self.send(out)
        except Exception:
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
        if kind == "race.subscribe":
            await self.sv.races.summary(m["race"])  # race.unknown before subscribing
            await self._subscribe(m["race"], m.get("after"))
            return None
        if kind == "race.unsubscribe":
            await self._unsubscribe(m["race"])
            return {"type": "unsubscribed", "race": m["race"]}
        operation, reply = OPERATIONS[kind]
        return {"type": reply, **await operation(self.sv, self.player, m)}

    async def _hello(self, m: dict[str, Any]) -> dict[str, Any]:
        self.player = await self.sv.accounts.authenticate(m["token"])
        reply = {"type": "welcome", "player": self.player.public()}
        return reply

    # ----- race events ------------------------------------------------------------------

    async def _subscribe(self, rid: str, after: int | None, quiet: bool = False) -> None:
        if rid not in self.listeners:
            def listener(data: bytes, rid: str = rid) -> None:
                self._post(("event", rid, data))

            self.listeners[rid] = listener
            await self.sv.hub.subscribe(store.race_channel(rid), listener)
        self._post(("subscribe", rid, after, quiet))

    async def _unsubscribe(self, rid: str) -> None:
        listener = self.listeners.pop(rid, None)
        self.last_seq.pop(rid, None)
        if listener is not None:
            await self.sv.hub.unsubscribe(store.race_channel(rid), listener)

    def send(self, message: dict[str, Any]) -> None:
        self._post(("send", message))

    def _post(self, item: tuple[Any, ...]) -> None:
        try:
            self.outbox.put_nowait(item)
        except asyncio.QueueFull:
            if not self.closing:  # drop what is queued: the client resumes from the window
                self.closing = True
                while not self.outbox.empty():
                    self.outbox.get_nowait()
                self.outbox.put_nowait(("close", TRY_AGAIN, "too slow: reconnect and resume"))

    async def _write(self) -> None:
        while True:
            item = await self.outbox.get()
            try:
                if item[0] == "send":
                    await self._send(item[1])
                elif item[0] == "close":
                    await self.ws.close(item[1], item[2])
                    return
                elif item[0] == "event":
                    await self._event(item[1], decode_event(item[2]))
                else:
                    await self._catch_up(*item[1:])
            except asyncio.CancelledError:
                raise
            except Exception:  # a closed socket, a failed read: the reader ends the connection
                log.debug("write failed", exc_info=True)

    async def _send(self, message: dict[str, Any]) -> None:
        data = codec.encode(message, self.encoding)
        if self.encoding == codec.MSGPACK:
            await self.ws.send_bytes(data)
        else:
            await self.ws.send_text(data.decode())

    async def _event(self, rid: str, event: dict[str, Any]) -> None:
        last = self.last_seq.get(rid)
        if last is None or event["seq"] <= last:
            return
        if event["seq"] > last + 1:
            missed = await self.sv.races.events_after(rid, last)
            if missed is None:
                summary = await self._sync(rid)
                await self._own_session(rid, {e["player"]: e["session"]
                                              for e in summary["entrants"] if "session" in e})
                return
        else:
            missed = [event]
        for e in missed:
            if e["seq"] > self.last_seq.get(rid, e["seq"]):
                await self._send(e)
                self.last_seq[rid] = e["seq"]
                if e["type"] == "race.started":
                    await self._own_session(rid, e["sessions"])

    async def _catch_up(self, rid: str, after: int | None, quiet: bool) -> None:
        """A new subscription: the events after ``after`` if the window has them, else the
        whole race; an entrant of a started race also gets their own session."""
        missed = None if after is None else await self.sv.races.events_after(rid, after)
        if missed is None:
            summary = await self._sync(rid, quiet)
        else:
            self.last_seq[rid] = after or 0
            for e in missed:
                await self._send(e)
                self.last_seq[rid] = e["seq"]
            summary = await self.sv.races.summary(rid)
        sessions = {e["player"]: e["session"] for e in summary["entrants"] if "session" in e}
        await self._own_session(rid, sessions)

    async def _sync(self, rid: str, quiet: bool = False) -> dict[str, Any]:
        summary = await self.sv.races.summary(rid)
        self.last_seq[rid] = summary["seq"]
        if not quiet:
            await self._send({"type": "race", **summary})
        return summary

    async def _own_session(self, rid: str, sessions: dict[str, str]) -> None:
        assert self.player is not None
        sid = sessions.get(self.player.id)
        if sid is not None:
            s = await self.sv.sessions.get(self.player, sid)
            await self._send({"type": "session", **session_payload(s)})

    async def _close(self, code: int, error: str, message: str) -> None:
        """Say why, then close once everything queued before has been written."""
        self.sv.metrics.errors.labels(error).inc()
        self.send({"type": "error", "code": error, "message": message})
        self._post(("close", code, message))
        self.closing = True


def _plain_id(value: Any) -> bool:
    return type(value) is int or (isinstance(value, str) and len(value) <= 64)


async def endpoint(ws: WebSocket) -> None:
    sv: Services = ws.app.state.services
    offered = [p.strip() for p in ws.headers.get("sec-websocket-protocol", "").split(",")]
    chosen = next((p for p in codec.SUBPROTOCOLS if p in offered), None)
    encoding = codec.SUBPROTOCOLS[chosen] if chosen else codec.JSON
    await Connection(ws, sv, encoding).serve(chosen)
