"""Protocol v2's part of a WebSocket connection (docs/protocol.md "Protocol v2").

A move's ack carries what changed since the revision this socket was last sent
(server/acks.py), so the socket remembers the highest revision it queued of each session. In a
race the socket follows, the ack stands in the place of the mover's own ``race.progress``
event: the race's events are held while the change is handled, and the ack is written after
every event numbered below its ``seq`` and before every event above it; the event itself,
arriving later, is dropped as already sent. Everyone else gets the event as on v1.
"""

from __future__ import annotations

from typing import Any

from .events import decode_event

#: the changes of a session, whose v2 replies are acks
CHANGES = frozenset({"move", "undo", "resign"})
KNOWN_SESSIONS = 256  # sessions whose last revision a socket remembers


class V2Socket:
    """Mixed into ``ws.Connection``: the bookkeeping only a v2 socket does."""

    v2: bool
    listeners: dict[str, Any]
    last_seq: dict[str, int]

    def _v2_init(self, v2: bool) -> None:
        self.v2 = v2
        self.revs: dict[str, int] = {}  # session -> the highest revision queued
        self.held: dict[str, list[tuple[Any, ...]]] = {}  # race -> its items held (writer)
        self.holding: str | None = None  # the race whose events the change in hand holds

    def _post(self, item: tuple[Any, ...]) -> None:
        raise NotImplementedError

    async def _send(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    async def _send_up_to(self, eid: str, seq: int) -> None:
        raise NotImplementedError

    async def _run(self, item: tuple[Any, ...]) -> None:
        """Do one of the writer's items (``ws.Connection._write``)."""
        raise NotImplementedError

    def _hold(self, kind: str, m: dict[str, Any]) -> None:
        """Before a change of a race session this socket follows: hold the race's events
        until its reply (the ack, or the error) is written."""
        if not self.v2 or kind not in CHANGES:
            return
        sid: str = m["session"]
        rid = sid.partition(".")[0]
        if rid != sid and rid in self.listeners:
            self.holding = rid
            self._post(("hold", rid))

    def _reply_held(self, message: dict[str, Any] | None) -> bool:
        """Queue the reply of the change that holds a race's events; ``False`` when no change
        holds any (the reply goes as any message). Every reply a reader sends must come
        through here; ``None`` (``_held_done``) lets the race's events go without one."""
        rid, self.holding = self.holding, None
        if rid is None:
            return False
        self._post(("ack", rid, message))
        return True

    def _held_done(self) -> None:
        """After a message is handled: a hold its reply did not end (a reply written some
        other way) ends here, so a race's events are never held for good."""
        self._reply_held(None)

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

    def _held_back(self, item: tuple[Any, ...]) -> bool:
        """The writer's item, kept for after the reply when its race is held."""
        if item[0] == "hold":
            self.held.setdefault(item[1], [])
            return True
        if item[0] in ("event", "subscribe") and item[1] in self.held:
            self.held[item[1]].append(item)
            return True
        return False

    async def _ack(self, rid: str, reply: dict[str, Any] | None) -> None:
        """The reply that held race ``rid``'s events, then those events. An ack carries the
        number of the race.progress event it stands for (``seq``): every event before it goes
        first (those held, then any the window still has)."""
        held = self.held.pop(rid, [])
        seq = reply.get("seq") if reply is not None else None
        if isinstance(seq, int) and rid in self.last_seq:
            before = sorted((decode_event(i[2]) for i in held if i[0] == "event"),
                            key=lambda e: int(e["seq"]))
            for e in before:
                if e["seq"] == self.last_seq[rid] + 1 < seq:
                    await self._send(e)
                    self.last_seq[rid] = e["seq"]
            if self.last_seq[rid] < seq - 1:  # a gap the events held do not fill
                await self._send_up_to(rid, seq - 1)
            self.last_seq[rid] = max(self.last_seq[rid], seq)
        if reply is not None:
            await self._send(reply)
        for item in held:  # those already sent, and the ack's own event, are dropped
            await self._run(item)
