"""What a message holds that the reply schema (server/transport/replies.py) does not state: a
field the server sends belongs there, where the OpenAPI and AsyncAPI documents tell clients
what to rely on. Objects the schema leaves open by design (a rule set's own ``info``, a match
form's scorecard) are not looked into."""

from __future__ import annotations

import functools
import re
from typing import Any

from server.transport import replies

SCHEMAS = {kind: s for kind, (_, s) in {**replies.REPLIES, **replies.EVENTS}.items()}
ENVELOPE = {"type", "id"}


def branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema and the alternatives it is made of."""
    out = [schema]
    for key in ("oneOf", "anyOf", "allOf"):
        for b in schema.get(key, []):
            out += branches(b)
    return out


def unstated(message: dict[str, Any]) -> set[str]:
    """Each field of ``message`` (by its path) that its type's schema does not state."""
    schema = SCHEMAS.get(message.get("type", ""))
    if schema is None:
        return {f"type {message.get('type')!r}"}
    out: set[str] = set()
    _walk({k: v for k, v in message.items() if k not in ENVELOPE}, schema,
          message["type"], out)
    return out


@functools.cache
def _routes() -> list[tuple[str, re.Pattern[str], dict[str, Any]]]:
    from server.app import FEATURES

    return [(e.method, re.compile("^" + re.sub(r"\{\w+(:path)?\}",
                                               lambda m: ".+" if m[1] else "[^/]+", e.path)
                                  + "$"), e.reply or {}) for e in FEATURES.endpoints]


def unstated_rest(method: str, path: str, status: int, body: Any) -> set[str]:
    """The same for a REST reply of the API: a refusal against the error's schema, anything
    else against its route's reply schema."""
    where = f"{method} {path}"
    if not path.startswith("/api/"):
        return set()  # a probe's or a document's, not the API's
    if status >= 400:
        schema = replies.ERROR
    else:
        found = [s for m, route, s in _routes() if m == method and route.match(path)]
        if not found:
            return {f"{where}: no such route"}
        schema = found[0]
    out: set[str] = set()
    _walk({k: v for k, v in body.items() if k not in ENVELOPE} if isinstance(body, dict)
          else body, schema, where, out)
    return out


def _walk(value: Any, schema: dict[str, Any], path: str, out: set[str]) -> None:
    if isinstance(value, dict):
        shapes = [b for b in branches(schema) if "properties" in b or "additionalProperties" in b]
        if not shapes:
            return  # left open
        for key, v in value.items():
            stated = [b["properties"][key] for b in shapes if key in b.get("properties", {})]
            stated += [b["additionalProperties"] for b in shapes
                       if key not in b.get("properties", {})
                       and isinstance(b.get("additionalProperties"), dict)]
            if not stated:
                out.add(f"{path}.{key}")
            for s in stated:
                _walk(v, s, f"{path}.{key}", out)
    elif isinstance(value, list):
        for s in branches(schema):
            if isinstance(s.get("items"), dict):
                for item in value:
                    _walk(item, s["items"], f"{path}[]", out)
