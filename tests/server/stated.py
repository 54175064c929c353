"""What a message holds that the reply schema (server/transport/replies.py) does not state: a
field the server sends belongs there, where the OpenAPI and AsyncAPI documents tell clients
what to rely on. Objects the schema leaves open by design (a rule set's own ``info``, a match
form's scorecard) are not looked into."""

from __future__ import annotations

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
