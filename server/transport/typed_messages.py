"""Writes server/transport/messages.py: a TypedDict per message type of the one message schema
(``schema.MESSAGES``), so mypy checks that a handler reads only the fields its message has,
with their types. Run ``python -m server.transport.typed_messages`` after changing the schema;
a test fails while the file is not what this writes."""

from __future__ import annotations

import json
import keyword
import sys
from pathlib import Path

from . import schema
from .schema import Field

OUT = Path(__file__).with_name("messages.py")

#: What the socket adds to an operation's message before its handler runs
#: (server/transport/ws.py, ``_dispatch``): ``present`` when the operation seats the caller
#: (``Operation.seats``), which REST leaves out. Declared here, from the schema alone, so the
#: module can be written before any handler takes it; ``register`` (server/feature.py)
#: checks every operation that seats has ``present`` in its message.
PRESENT = Field("boolean", required=False,
                doc="the socket that sent it follows the match from the seat on")
SOCKET_ADDS: dict[str, dict[str, Field]] = {
    "match.create": {"present": PRESENT},
    "match.join": {"present": PRESENT},
    "match.rematch": {"present": PRESENT},
}


HEADER = '''"""The messages of the one message schema (server/transport/schema.py) as TypedDicts,
one per message type, for the handlers' bodies. Generated from the schema by
``python -m server.transport.typed_messages`` (server/transport/typed_messages.py): do not
edit; run it again after changing the schema."""

from typing import Literal, NotRequired, TypedDict

#: A move: in notation ('t7-f1') or its JSON object (``schema.Field.check``, kind "move").
MoveValue = str | dict[str, str | int | list[str]]
#: A request id: echoed in the reply.
RequestId = str | int
'''


def class_name(kind: str) -> str:
    """"race.join" -> RaceJoin, "daily_live.join" -> DailyLiveJoin."""
    return "".join(part.capitalize() for part in kind.replace("_", ".").split("."))


def python_type(f: Field) -> str:
    if f.kind in ("string", "hex"):
        return f"Literal[{', '.join(json.dumps(c) for c in f.choices)}]" if f.choices else "str"
    return {"integer": "int", "boolean": "bool", "move": "MoveValue", "id": "RequestId"}[f.kind]


def typed_dict(kind: str, fields: dict[str, Field]) -> str:
    rows = {"type": f"Literal[{json.dumps(kind)}]"}
    for name, f in {"id": schema.REQUEST_ID, **fields}.items():
        rows[name] = python_type(f) if f.required else f"NotRequired[{python_type(f)}]"
    name = class_name(kind)
    if all(n.isidentifier() and not keyword.iskeyword(n) for n in rows):
        return f"class {name}(TypedDict):\n" + "".join(f"    {n}: {t}\n" for n, t in rows.items())
    body = "".join(f"    {json.dumps(n)}: {t},\n" for n, t in rows.items())
    return f"{name} = TypedDict({json.dumps(name)}, {{\n{body}}})\n"


def generate() -> str:
    """The module, from the schema as it is now."""
    unknown = sorted(set(SOCKET_ADDS) - set(schema.MESSAGES))
    if unknown:
        raise ValueError(f"the socket adds fields to messages the schema lacks: {unknown}")
    names = [class_name(kind) for kind in schema.MESSAGES]
    if len(set(names)) != len(names):
        raise ValueError("two message types make the same class name")
    parts = [HEADER]
    for kind, fields in schema.MESSAGES.items():
        parts.append(typed_dict(kind, {**fields, **SOCKET_ADDS.get(kind, {})}))
    table = "".join(f"    {json.dumps(kind)}: {class_name(kind)},\n" for kind in schema.MESSAGES)
    parts.append(f"#: Each message type's TypedDict.\nMESSAGES: dict[str, type] = {{\n{table}}}\n")
    return "\n\n".join(parts)


if __name__ == "__main__":
    OUT.write_text(generate())
    sys.stdout.write(f"wrote {OUT}\n")
