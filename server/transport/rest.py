"""The REST routes under /api/v1: request/response work in JSON or msgpack.

A body is read up to the size limit, decoded by its Content-Type, and checked against the
message schema before an operation sees it; the reply is encoded as the Accept header asks.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import Response

from ..accounts import Player
from ..accounts.limits import Limits
from ..accounts.signups import Network, is_address, within
from ..api import Services, seen_from
from ..errors import ApiError
from . import codec, schema
from .endpoints import Endpoint, Handler

API = "/api/v1"


def services(request: HTTPConnection) -> Services:
    sv: Services = request.app.state.services
    return sv


def address_of(request: HTTPConnection) -> str:
    """The client's address as every limit and fingerprint reads it (``trusted_proxies``)."""
    return client_address(request, services(request).signups.trusted)


def reply_encoding(request: Request) -> str:
    return codec.MSGPACK if codec.MEDIA[codec.MSGPACK] in request.headers.get(
        "accept", "") else codec.JSON


def respond(request: Request, payload: Any, status: int = 200,
            headers: dict[str, str] | None = None) -> Response:
    encoding = reply_encoding(request)
    return Response(codec.encode(payload, encoding), status, headers,
                    media_type=codec.MEDIA[encoding])


async def read_body(request: Request, kind: str, in_path: tuple[str, ...] = ()) -> dict[str, Any]:
    """The body as a ``kind`` message, checked; its ``type`` is the route's, whatever the
    body says (a handler's message has its type: server/transport/messages.py)."""
    limit = services(request).settings.max_message_bytes
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise ApiError("frame.too_big", f"a request body is at most {limit} bytes")
    except ClientDisconnect:  # the client's mistake, answered (to nobody) like any other
        raise ApiError("frame.malformed", "the request's body was cut short") from None
    encoding = codec.MSGPACK if request.headers.get("content-type", "").startswith(
        codec.MEDIA[codec.MSGPACK]) else codec.JSON
    data = codec.decode(bytes(raw), encoding, limit) if raw else {}
    return {**schema.validate(kind, data, in_path), "type": kind}


def param(request: Request, name: str) -> str:
    """A path parameter, checked as text and against its declaration before use."""
    return schema.check_param(name, request.path_params[name])


async def caller(request: Request) -> Player:
    """The token's player, within their account's limit (server/accounts/limits.py); a request whose
    token is missing or bad counts for its address, as one without a token does."""
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else None
    try:
        if token:
            schema.check_token(token)
        who = await services(request).accounts.authenticate(token)
    except ApiError:
        await anonymous(request)
        raise
    limits, address = limits_of(request)
    if not limits.free(address):
        refusal = await limits.account(who.id)
        if refusal is not None:
            raise refusal
    return who


def limits_of(request: Request) -> tuple[Limits, str]:
    """The node's limits and the request's client address."""
    return services(request).limits, address_of(request)


async def anonymous(request: Request) -> None:
    """A request without a token (or with a bad one): within its address's limit."""
    limits, address = limits_of(request)
    if not limits.free(address):
        refusal = await limits.origin(address)
        if refusal is not None:
            raise refusal


def limited(e: Endpoint) -> Endpoint:
    """A route within the limits: a public one (or an optional token left out) counts for the
    client's address before anything else; one with a token counts for its account in
    ``caller``."""
    errors = e.errors if "rate.limited" in e.errors else (*e.errors, "rate.limited")
    if e.auth == "bearer":
        return replace(e, errors=errors)
    handler = e.handler

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        if e.auth == "none" or "authorization" not in request.headers:
            await anonymous(request)
        return await handler(request)

    return replace(e, handler=endpoint, errors=errors)


def client_address(request: HTTPConnection, trusted: list[Network]) -> str:
    """The client's address: the connection's, or, when that is a trusted proxy, the
    right-most X-Forwarded-For entry that is not one (each proxy appends the address it saw,
    so entries further left are the client's own say and are not believed)."""
    address = request.client.host if request.client else ""
    if not trusted or not within(address, trusted):
        return address
    hops = [h.strip() for line in request.headers.getlist("x-forwarded-for")
            for h in line.split(",")]
    for hop in reversed(hops):
        if not is_address(hop):  # garbage: keep the last proxy's
            break
        address = hop
        if not within(hop, trusted):
            break
    return address


def run(kind: str, path: str = "", status: int = 200) -> Handler:
    """A route running the operation ``kind`` (server/feature.py) with the body, plus the id
    named in the path."""
    in_path = (path,) if path else ()

    async def endpoint(request: Request) -> Response:
        who = await caller(request)
        body = await read_body(request, kind, in_path)
        if path:
            body[path] = schema.check_param(path, request.path_params[path],
                                            schema.MESSAGES[kind][path])
        sv = services(request)
        op = sv.operations[kind]
        out = await op.handler(sv, who, body)
        if op.noted:
            await seen_from(sv, body, out, address_of(request),
                            request.headers.get("user-agent", ""))
        return respond(request, out, status)

    endpoint.__name__ = kind.replace(".", "_")
    return endpoint


def query_body(request: Request, kind: str, path: str = "") -> dict[str, Any]:
    """The query string (and a path part) as the body of a ``kind`` message, checked (its
    ``type`` is ``kind``); whole numbers (ASCII digits, at most 30 of them) are read as
    integers, after the text check."""
    body: dict[str, Any] = dict(request.query_params.items())
    if path:
        body[path] = request.path_params[path]
    schema.check_text(body)
    for k, v in body.items():
        if k != path and v.isascii() and v.isdigit() and len(v) <= 30:
            body[k] = int(v)
    schema.check_fields(kind, body)
    return {**body, "type": kind}


def run_query(kind: str, path: str = "") -> Handler:
    """A GET route running the operation ``kind`` for the caller, with ``query_body``."""

    async def endpoint(request: Request) -> Response:
        who = await caller(request)
        body = query_body(request, kind, path)
        sv = services(request)
        return respond(request, await sv.operations[kind].handler(sv, who, body))

    endpoint.__name__ = kind.replace(".", "_")
    return endpoint


def post(path: str, kind: str, summary: str, errors: tuple[str, ...], status: int = 200,
         refusable: bool = False) -> Endpoint:
    """A POST route under the API running the operation ``kind``, the path's id in the body."""
    params = [p[1:-1] for p in path.split("/") if p.startswith("{")]
    return Endpoint("POST", f"{API}{path}", run(kind, params[0] if params else "", status),
                    summary, kind, status, errors=errors, refusable=refusable, operation=kind)


def get(path: str, kind: str, summary: str, errors: tuple[str, ...] = ()) -> Endpoint:
    """A GET route under the API running the operation ``kind``, its query (and the path's
    id) as the body."""
    params = [p[1:-1].partition(":")[0] for p in path.split("/") if p.startswith("{")]
    return Endpoint("GET", f"{API}{path}", run_query(kind, params[0] if params else ""),
                    summary, kind, errors=errors, operation=kind)
