"""Protocol v2's part of a WebSocket connection (docs/protocol.md "Protocol v2").

A move's ack carries what changed since the revision this socket was last sent
(server/transport/acks.py), so the socket remembers the highest revision it queued of each session.
In a race the socket follows, the ack stands in the place of the mover's own ``race.progress``
event: the race's events are held by the reader while the change is handled, and the ack is written
after every event numbered below its ``seq`` and before every event above it; the event
itself, arriving later, is dropped as already sent. When nothing is queued and no earlier
event is missing, the reader writes the ack itself, with no hand-over to the writer. Everyone
else gets the event as on v1.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..errors import ApiError
from .events import decode_event

if TYPE_CHECKING:
    from ..api import Services

#: the changes of a session, whose v2 replies are acks
CHANGES = frozenset({"move", "undo", "resign"})
KNOWN_SESSIONS = 256  # sessions whose last revision a socket remembers


class V2Socket:
    """Mixed into ``ws.Connection``: the bookkeeping only a v2 socket does."""

    v2: bool
    sv: Services
    listeners: dict[str, Any]
    last_seq: dict[str, int]
    # ws.Connection's: queue an item for the writer, write a message, send a race's event
    # unless sent already, send a race's events up to a number, count an event an ack stood
    # for as sent, do one of the writer's items
    _post: Callable[[tuple[Any, ...]], None]
    _send: Callable[[dict[str, Any]], Awaitable[None]]
    _send_event: Callable[[str, dict[str, Any]], Awaitable[bool]]
    send_up_to: Callable[[str, int], Awaitable[None]]
    _stood_for: Callable[[str, int], None]
    _run: Callable[[tuple[Any, ...]], Awaitable[None]]

    def _v2_init(self, v2: bool) -> None:
        self.v2 = v2
        self.revs: dict[str, int] = {}  # session -> the highest revision queued
        self.holding: str | None = None  # the race whose events the change in hand holds
        self.held: list[tuple[Any, ...]] = []  # that race's items, kept by the reader


    async def _hold(self, kind: str, m: dict[str, Any]) -> None:
        """Before a change of a race session this socket follows: hold the race's events
        until its reply (the ack, or the error) is written or queued. The session says its
        race (read as the change will read it: from this process's cache, else the store)."""
        if not self.v2 or kind not in CHANGES or not self.listeners:
            return
        sid: str = m["session"]
        try:
            s = await self.sv.sessions.load(sid, check=False)  # the cached one, if any
        except ApiError:  # no such session: the change refuses it as it would anyway
            return
        if s.race and s.race in self.listeners:
            self.holding, self.held = s.race, []

    def _follow(self, eid: str, item: tuple[Any, ...]) -> None:
        """An item of a race or match this socket follows (an event, a catch-up): dropped
        when it is an event already sent (an ack stood for it), kept while its race is held,
        else queued."""
        if item[0] == "event" and decode_event(item[2])["seq"] <= self.last_seq.get(eid, -1):
            return
        if eid == self.holding:
            self.held.append(item)
        else:
            self._post(item)

    def _release(self) -> tuple[str | None, list[tuple[Any, ...]]]:
        """Stop holding: the race held, if any, and its items."""
        rid, held = self.holding, self.held
        self.holding, self.held = None, []
        return rid, held

    def _reply_held(self, message: dict[str, Any]) -> bool:
        """Queue the reply of the change that holds a race's events, with them; ``False``
        when no change holds any (the reply goes as any message)."""
        rid, held = self._release()
        if rid is None:
            return False
        self._post(("ack", rid, message, held))
        return True

    def _held_done(self) -> None:
        """After a message is handled: a hold its reply did not end (a reply written some
        other way) ends here, so a race's events are never held for good."""
        for item in self._release()[1]:
            self._post(item)

    def _ack_now(self, rid: str, reply: dict[str, Any]) -> bool:
        """Can the reply that held race ``rid`` be written before anything else: no event
        numbered below the ``seq`` it stands for is still to be sent?"""
        seq = reply.get("seq")
        return not isinstance(seq, int) or self.last_seq.get(rid) == seq - 1

    def _sent_rev(self, reply: dict[str, Any]) -> None:
        """Note the revision of a ``session`` or ``ack`` queued for this socket (the client
        keeps the highest it gets): a v2 ack diffs from it only when it is the previous one."""
        if not self.v2 or reply["type"] not in ("session", "ack"):
            return
        sid, rev = reply["session"], reply["rev"]
        if rev > self.revs.get(sid, -1):
            self.revs.pop(sid, None)
            self.revs[sid] = rev
            if len(self.revs) > KNOWN_SESSIONS:
                del self.revs[next(iter(self.revs))]

    async def _ack(self, rid: str, reply: dict[str, Any], held: list[tuple[Any, ...]]) -> None:
        """The reply that held race ``rid``'s events, then those events. An ack carries the
        number of the race.progress event it stands for (``seq``): every event before it goes
        first (those held, then any the window still has)."""
        seq = reply.get("seq")
        if isinstance(seq, int) and rid in self.last_seq:
            before = sorted((decode_event(i[2]) for i in held if i[0] == "event"),
                            key=lambda e: int(e["seq"]))
            for e in before:
                if e["seq"] == self.last_seq.get(rid, seq) + 1 < seq:
                    await self._send_event(rid, e)
            if self.last_seq.get(rid, seq) < seq - 1:  # a gap the events held do not fill
                await self.send_up_to(rid, seq - 1)
            self._stood_for(rid, seq)
        await self._send(reply)
        for item in held:  # those already sent, and the ack's own event, are dropped
            await self._run(item)
