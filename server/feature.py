"""The one contract a feature plugs in through. A feature (races, matches, the daily, ...)
declares what it adds to the server: its operations (a message type, its handler, its reply
type), the messages the socket itself answers for it (following a race, watching a board),
the numbered event streams a socket follows (a race, a match) and what of each is a player's
own, its REST routes, the jobs it adds to every node's sweep and background, and what it
does when a game, a race or a match ends (server/ended.py). The app factory
(server/app.py) lists the features; ``register`` merges and checks them, so a message type
declared twice, a route running an operation nobody declared, or a reply type the schema
does not know fails when the app is built, not in a player's hands. Each handler takes its
message and answers its reply as the TypedDicts generated from the schemas
(server/transport/messages.py, reply_types.py), so mypy checks what it reads and what it
builds, and ``register`` checks each is the one its operation declares.

The transports know no feature: the WebSocket looks a message up in the registry, the REST
routes are the features' own, and the sweep runs what the features declared."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import logging
import types
import typing
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from .accounts import Player
from .ended import Ended
from .transport import messages, replies, reply_types, schema
from .transport.endpoints import Endpoint

if TYPE_CHECKING:
    from .api import Services

log = logging.getLogger("samedeal")

Body = dict[str, Any]
#: A message as its handler takes it: its TypedDict (server/transport/messages.py).
M = TypeVar("M", bound=Mapping[str, Any])
#: A reply's payload as a handler makes it: its TypedDict (server/transport/reply_types.py).
Reply = Mapping[str, Any]
#: An operation: the caller and the checked message in, the reply's payload out.
Handler = Callable[["Services", Player, M], Awaitable[Reply]]
#: One of the node's jobs: a sweep step, or a background loop run until the event is set.
Job = Callable[[], Awaitable[object]]


class Socket(Protocol):
    """What a feature's socket handler may use of the WebSocket it answers on
    (server/transport/ws.py)."""

    sv: Services
    player: Player | None
    own: dict[str, Any]  # what each feature keeps for this socket, by the feature's name

    @property
    def watcher_id(self) -> str: ...

    def push(self, message: Body) -> None: ...

    async def follow(self, eid: str, after: int | None, stream: str) -> None:
        """Follow ``eid``, a stream of the kind named (``Stream.name``), after event
        ``after``."""

    async def unfollow(self, eid: str) -> None: ...


class Follower(Protocol):
    """What a stream's ``own`` may use of the socket following it, on the socket's writer
    (so what it sends keeps its place among the stream's events)."""

    sv: Services
    player: Player | None
    #: per followed id, what its stream keeps for this socket (let go when unfollowed)
    kept: dict[str, Any]

    def sent(self, eid: str) -> int | None:
        """The number of ``eid``'s last event this socket was sent (``None``: not
        followed)."""

    async def write(self, message: Body) -> None:
        """Write ``message`` now, in its place among the events."""

    async def send_up_to(self, eid: str, seq: int) -> None:
        """Send ``eid``'s events not yet sent, up to ``seq``."""


E = TypeVar("E", bound=Ended)


@dataclass(frozen=True)
class Listen(Generic[E]):
    """What a feature does when something of kind ``ended`` ends (server/ended.py); it may
    run again for the same end (a follow-up after a node died), so it is idempotent."""

    ended: type[E]
    handler: Callable[[Services, E], Awaitable[None]]


@dataclass(frozen=True)
class Stream:
    """A numbered event stream a socket follows (a race, a match): the socket sends its
    events in order, none twice, a summary after a gap the window no longer covers; the
    stream's feature says what the socket cannot know: how to summarise it for a viewer,
    which events end it, and what is a viewer's own (sent to them alone, after an event of
    ``owned`` or a summary)."""

    #: the kind: the summary message's type, the id's field in a reply that seats a player
    name: str
    #: (services, id, viewer) -> the summary its followers are sent, with its ``seq``
    summary: Callable[[Services, str, str | None], Awaitable[Reply]]
    #: the events after which it is over
    ended: frozenset[str]
    #: the events after which a follower gets what is theirs alone
    owned: frozenset[str] = frozenset()
    #: (follower, id, the event just sent or None, the summary just sent or None): what is
    #: the follower's own, written with ``Follower.write``; also run on a private note
    #: published for the follower alone (both None)
    own: Callable[[Follower, str, Body | None, Reply | None], Awaitable[None]] | None = None
    #: (services, id, player, +1 or -1): a follower counts as the player's presence
    presence: Callable[[Services, str, str, int], Awaitable[None]] | None = None


#: A message the socket answers itself (its type, then the message): the reply, or None
#: when the socket sends it.
SocketHandler = Callable[[Socket, str, M], Awaitable[Body | None]]
#: What a feature does when a socket's player says hello, or when a socket closes.
SocketHook = Callable[[Socket], Awaitable[None]]


@dataclass(frozen=True)
class Operation(Generic[M]):
    """A message type's handler and the type of its reply on the WebSocket."""

    handler: Handler[M]
    reply: str
    #: It copies the caller's name into what it makes (a race, a match, a board entry): a
    #: socket reads the name afresh first (it may have changed on another tab).
    copies_name: bool = False
    #: It seats the caller in a match: a socket that sends it counts them present from then.
    seats: bool = False
    #: A ranked daily attempt's start or change: where it came from is noted
    #: (server/fairplay/linked.py).
    noted: bool = False


@dataclass(frozen=True)
class Feature:
    """What one feature adds; every part is optional."""

    name: str
    operations: Mapping[str, Operation[Any]] = field(default_factory=dict)
    socket: Mapping[str, SocketHandler[Any]] = field(default_factory=dict)
    endpoints: Sequence[Endpoint] = ()
    #: The feature's steps in every node's sweep, given the services (idempotent: nodes overlap).
    sweeps: Callable[[Services], Sequence[Job]] = lambda sv: ()
    #: Its loops beside the sweep, each run until the node stops.
    loops: Callable[[Services, asyncio.Event], Sequence[Awaitable[None]]] = lambda sv, stop: ()
    #: At the node's start, before it serves (a pool's processes started).
    start: Callable[[Services], None] | None = None
    #: At the node's stop, after its loops ended and before the store closes.
    stop: Callable[[Services], Awaitable[None]] | None = None
    #: After a socket's good ``hello`` (its player known), and when a socket closes.
    greeted: SocketHook | None = None
    closed: SocketHook | None = None
    #: After a socket sent a reply (its operation done): what the socket goes on to do.
    answered: Callable[[Socket, Body], Awaitable[None]] | None = None
    #: The event streams a socket may follow, by their ``name``.
    streams: Sequence[Stream] = ()
    #: What it does when a game, a race or a match ends.
    listens: Sequence[Listen[Any]] = ()


@dataclass(frozen=True)
class Features:
    """The features merged: what the transports and the sweep look messages and jobs up in."""

    features: tuple[Feature, ...]
    operations: Mapping[str, Operation[Any]]
    socket: Mapping[str, SocketHandler[Any]]
    endpoints: tuple[Endpoint, ...]
    streams: Mapping[str, Stream]

    @functools.cached_property
    def ws_types(self) -> frozenset[str]:
        """The message types a socket may send."""
        return frozenset({"hello", "ping", *self.socket, *self.operations})

    def sweeps(self, sv: Services) -> list[Job]:
        return [job for f in self.features for job in f.sweeps(sv)]

    def loops(self, sv: Services, stop: asyncio.Event) -> list[Awaitable[None]]:
        return [loop for f in self.features for loop in f.loops(sv, stop)]

    def start(self, sv: Services) -> None:
        for f in self.features:
            if f.start is not None:
                f.start(sv)

    async def stop(self, sv: Services) -> None:
        """Every feature's stop, each whatever the others did (the store may be away)."""
        for f in self.features:
            if f.stop is not None:
                try:
                    await f.stop(sv)
                except Exception:
                    log.info("stopping %s failed", f.name, exc_info=True)

    async def ended(self, sv: Services, what: Ended) -> None:
        """Every feature that listens for ``what``'s kind, in the features' order; one that
        fails stops the rest, and the follow-up that ran it runs them all again."""
        for f in self.features:
            for listen in f.listens:
                if isinstance(what, listen.ended):
                    await listen.handler(sv, what)

    async def greeted(self, socket: Socket) -> None:
        for f in self.features:
            if f.greeted is not None:
                await f.greeted(socket)

    async def answered(self, socket: Socket, reply: Body) -> None:
        for f in self.features:
            if f.answered is not None:
                await f.answered(socket, reply)

    async def closed(self, socket: Socket) -> None:
        """A socket closed: every feature lets go of it, whatever the others did."""
        for f in self.features:
            if f.closed is not None:
                try:
                    await f.closed(socket)
                except Exception:
                    log.info("closing a socket's %s failed", f.name, exc_info=True)


def register(*features: Feature) -> Features:
    """Merge the features, checking their declarations against each other and the schema."""
    operations: dict[str, Operation[Any]] = {}
    socket: dict[str, SocketHandler[Any]] = {}
    for f in features:
        for kind, op in f.operations.items():
            _new(kind, operations, f)
            if kind not in schema.MESSAGES:
                raise ValueError(f"{f.name}: {kind!r} is not in the message schema")
            if op.reply not in replies.REPLIES and op.reply != "ack":
                raise ValueError(f"{f.name}: {kind!r} replies {op.reply!r}, which the reply "
                                 "schema does not know")
            takes = _takes(kind, op.handler, f)
            _answers(kind, op, f)
            if op.seats and "present" not in takes.__optional_keys__:
                raise ValueError(f"{f.name}: {kind!r} seats the caller, but its message has no "
                                 "'present' (server/transport/typed_messages.py SOCKET_ADDS)")
            operations[kind] = op
        for kind, handler in f.socket.items():
            _new(kind, socket, f)
            if kind not in schema.MESSAGES:
                raise ValueError(f"{f.name}: {kind!r} is not in the message schema")
            _takes(kind, handler, f)
            socket[kind] = handler
    endpoints = []
    for f in features:
        for e in f.endpoints:
            if e.operation is not None:
                if e.operation not in operations:
                    raise ValueError(f"{f.name}: {e.method} {e.path} runs {e.operation!r}, "
                                     "which no feature declares")
                e = dataclasses.replace(e, reply=reply_schema(operations[e.operation]))
            endpoints.append(e)
    routes = [(e.method, e.path) for e in endpoints]
    twice = sorted({r for r in routes if routes.count(r) > 1})
    if twice:
        raise ValueError(f"routes declared twice: {twice}")
    streams: dict[str, Stream] = {}
    for f in features:
        for st in f.streams:
            _new(st.name, streams, f)
            if st.name not in replies.REPLIES:
                raise ValueError(f"{f.name}: stream {st.name!r} is no reply type to send its "
                                 "summary as")
            unknown = sorted((st.ended | st.owned) - set(replies.EVENTS))
            if unknown:
                raise ValueError(f"{f.name}: stream {st.name!r} names events the schema does "
                                 f"not know: {unknown}")
            streams[st.name] = st
    return Features(features, operations, socket, tuple(endpoints), streams)


def _takes(kind: str, handler: Callable[..., object], f: Feature) -> Any:
    """The TypedDict of ``kind``, which ``handler`` must take as its message (its third
    parameter): that type, or a union of message types with it among them (a handler for
    several). Anything else, ``dict[str, Any]`` included, fails: mypy would not check it."""
    typed = messages.MESSAGES[kind]
    body = list(inspect.signature(handler).parameters)[2]
    hint = typing.get_type_hints(handler).get(body)
    named = getattr(handler, "__qualname__", repr(handler))
    takes = typing.get_args(hint) if isinstance(hint, types.UnionType) or (
        typing.get_origin(hint) is typing.Union) else (hint,)
    known = set(messages.MESSAGES.values())
    if typed not in takes or not known.issuperset(takes):
        raise ValueError(f"{f.name}: {kind!r} is handled by {named}, which takes "
                         f"{hint!r}, not {typed.__name__} (server/transport/messages.py)")
    return typed


def answers(op: Operation[Any]) -> Any:
    """What ``op``'s handler says it answers (its return annotation)."""
    return typing.get_type_hints(op.handler).get("return")


def _answers(kind: str, op: Operation[Any], f: Feature) -> None:
    """A handler answers its reply type's TypedDict (a change's: the session, which the
    transport turns into the ack), so mypy checks what it builds against the reply schema;
    ``dict[str, Any]`` fails, as mypy would not check it."""
    hint = answers(op)
    typed = reply_types.REPLIES["session" if op.reply == "ack" else op.reply]
    if hint is not typed:
        shown = hint.__name__ if typing.is_typeddict(hint) else repr(hint)
        raise ValueError(f"{f.name}: {kind!r} replies {op.reply!r}, whose payload is "
                         f"{typed.__name__} (server/transport/reply_types.py), but its "
                         f"handler answers {shown}")


def reply_schema(op: Operation[Any]) -> dict[str, Any]:
    """The JSON Schema of what a route running ``op`` answers: its WebSocket reply's fields (a
    change's is the whole session, as v1's ack: v2's acks are the WebSocket's alone)."""
    return replies.SESSION if op.reply == "ack" else replies.REPLIES[op.reply][1]


def _new(kind: str, seen: Mapping[str, Any], f: Feature) -> None:
    if kind in seen:
        raise ValueError(f"{f.name}: {kind!r} is declared twice")
