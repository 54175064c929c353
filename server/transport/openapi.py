"""The OpenAPI document of the REST API, built from the route table (server/transport/rest.py's
``ENDPOINTS``, with the app's own routes) and the message schema, so it cannot drift from
either: each route is declared once, and both its Starlette route and its operation come
from that declaration."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..errors import REFUSED, STATUS
from . import schema
from .codec import MEDIA
from .endpoints import Endpoint

ERROR = {"$ref": "#/components/schemas/Error"}
ERROR_CONTENT = {media: {"schema": ERROR} for media in MEDIA.values()}


def path_schema(body: str | None, name: str) -> dict[str, Any]:
    """A path parameter's schema: its field's (the message's, or ``schema.PARAMS``), never
    empty (an empty path segment is another route)."""
    field = (schema.MESSAGES[body].get(name) if body else None) or schema.PARAMS.get(name)
    if field is None:
        return {"type": "string", "minLength": 1}
    out = field.json_schema()
    out["minLength"] = max(1, out.get("minLength", 0))
    return out


def responses(e: Endpoint) -> dict[str, Any]:
    """The success reply and the declared errors, grouped by HTTP status; anything else (the
    store unreachable, a server failure) is the default."""
    ok: dict[str, Any] = {"description": "done"}
    if e.reply is not None:
        ok["content"] = {media: {"schema": e.reply} for media in MEDIA.values()}
    elif e.media != "application/json":
        ok["content"] = {e.media: {}}
    out: dict[str, Any] = {str(e.status): ok}
    by_status: dict[int, list[str]] = defaultdict(list)
    for code in (*e.common_errors(), *e.errors):
        if code not in by_status[STATUS[code]]:
            by_status[STATUS[code]].append(code)
    if e.refusable:
        by_status[REFUSED].append("a rule's refusal, with the engine's code (move.*, "
                                  "game.over, undo.*...)")
    for status in sorted(by_status):
        out[str(status)] = {"description": "; ".join(by_status[status]),
                            "content": ERROR_CONTENT}
    out["default"] = {"description": "an error with a stable code (store.unavailable, "
                                     "server.error...)", "content": ERROR_CONTENT}
    return out


def operation(e: Endpoint) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": e.summary, "responses": responses(e)}
    params: list[dict[str, Any]] = [{"name": n, "in": "path", "required": True,
                                     "schema": path_schema(e.message, n)} for n in e.params]
    if e.message and e.method == "GET":  # the message's other fields come as the query
        query = schema.json_schema(e.message, e.params)
        params += [{"name": n, "in": "query", "schema": f,
                    "required": n in query["required"]}
                   for n, f in query["properties"].items()]
    elif e.message:
        body_schema = schema.json_schema(e.message, e.params)
        op["requestBody"] = {"required": bool(body_schema["required"]), "content": {
            media: {"schema": body_schema} for media in MEDIA.values()}}
    if params:
        op["parameters"] = params
    if e.auth == "bearer":
        op["security"] = [{"bearer": []}]
    elif e.auth == "optional":  # a token shows more (your own game before it is public)
        op["security"] = [{"bearer": []}, {}]
    return op


def document(endpoints: list[Endpoint]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for e in endpoints:
        path = e.path.replace(":path}", "}")
        ops = paths.setdefault(path, {})
        if e.method.lower() in ops:
            raise ValueError(f"{e.method} {e.path} is declared twice")
        ops[e.method.lower()] = operation(e)
    return {
        "openapi": "3.1.0",
        "info": {"title": "SameDeal", "version": "1",
                 "description": "Competitive solitaire: REST for request/response; live play "
                                "on the WebSocket /api/v1/ws (see docs/protocol.md, and its "
                                "AsyncAPI document at /asyncapi.json). Every body and reply "
                                "also comes as application/msgpack."},
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Error": {
                "type": "object", "required": ["code", "message"],
                "properties": {"code": {"type": "string", "examples": sorted(STATUS)},
                               "message": {"type": "string"}}}},
        },
    }
