"""The AsyncAPI 3.0 document of the WebSocket, built from the message schema (what the server
accepts: server/transport/schema.py) and the reply declarations (what it sends:
server/transport/replies.py), so it cannot drift from what the server checks and the tests check it
sends."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import replies, schema
from .codec import SUBPROTOCOLS

CHANNEL = "play"


def inbound(kind: str) -> dict[str, Any]:
    """A client message's payload: exactly its declared fields, its type and a request id."""
    payload = schema.json_schema(kind)
    payload["properties"] = {"type": {"const": kind}, **payload["properties"],
                             "id": schema.REQUEST_ID.json_schema()}
    payload["required"] = ["type", *payload["required"]]
    return payload


def outbound(kind: str, fields: dict[str, Any], reply: bool) -> dict[str, Any]:
    """A server message's payload: its type, the declared fields, the request's id on a
    reply (an event has none)."""
    payload = dict(fields)
    props = {"type": {"const": kind}, **fields.get("properties", {})}
    if reply:
        props["id"] = {"description": "the request's id, when it sent one",
                       **schema.REQUEST_ID.json_schema()}
    payload["properties"] = props
    payload["required"] = ["type", *fields.get("required", [])]
    return payload


def message(kind: str, summary: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"name": kind, "title": kind, "summary": summary, "payload": payload}


def document(path: str, types: Iterable[str]) -> dict[str, Any]:
    """The document for the WebSocket at ``path``, which accepts the message ``types``."""
    accepts = {k: message(k, f"client message {k} (docs/protocol.md)", inbound(k))
               for k in sorted(types)}
    sends = {k: message(k, when, outbound(k, fields, reply=True))
             for k, (when, fields) in replies.REPLIES.items()}
    sends |= {k: message(k, when, outbound(k, fields, reply=False))
              for k, (when, fields) in replies.EVENTS.items()}
    messages = {**accepts, **sends}

    def refs(names: dict[str, Any]) -> list[dict[str, str]]:
        return [{"$ref": f"#/channels/{CHANNEL}/messages/{n}"} for n in names]

    return {
        "asyncapi": "3.0.0",
        "info": {"title": "SameDeal live play", "version": "1",
                 "description": "The WebSocket for live play: say hello with your token, then "
                                "send requests (each may carry an id, echoed in its reply) and "
                                "receive replies, race and match events and the updates of "
                                "boards watched live. Frames are JSON "
                                "text or msgpack binary, by the subprotocol chosen at the "
                                "upgrade: " + ", ".join(SUBPROTOCOLS) + " (docs/protocol.md)."},
        "defaultContentType": "application/json",
        "channels": {CHANNEL: {
            "address": path, "title": "One player's connection",
            "messages": {n: {"$ref": f"#/components/messages/{n}"} for n in messages}}},
        "operations": {
            "accept": {"action": "receive", "channel": {"$ref": f"#/channels/{CHANNEL}"},
                       "summary": "What the server accepts from a client",
                       "messages": refs(accepts)},
            "send": {"action": "send", "channel": {"$ref": f"#/channels/{CHANNEL}"},
                     "summary": "Replies to requests, and events of the races, matches "
                                "and boards the client follows",
                     "messages": refs(sends)},
        },
        "components": {"messages": messages},
    }
