"""Writes server/transport/reply_types.py: a TypedDict per reply and event type of the reply
schema (``replies.REPLIES``, ``replies.EVENTS``) and per object they are made of, so mypy checks
that what a handler answers has the fields the schema promises, with their types. Run
``python -m server.transport.typed_replies`` after changing the reply schema; a test fails while
the file is not what this writes.

A schema's named objects and value sets (``replies.VIEW``, ``replies.RACE``,
``replies.STATE``, ...) become classes and ``Literal`` aliases of their names (View, Race,
State); one without a name of its own is named after where it lies (a ``Daily``'s deals:
``DailyDeal``). A schema allows fields it does not list; a TypedDict does not: a field a reply
carries belongs in the schema, where clients read what to rely on."""

from __future__ import annotations

import json
import keyword
import sys
import textwrap
from pathlib import Path
from typing import Any

from . import replies

OUT = Path(__file__).with_name("reply_types.py")

HEADER = '''"""The replies and events of the reply schema (server/transport/replies.py) as
TypedDicts, for what the handlers answer. Generated from the schema by
``python -m server.transport.typed_replies`` (server/transport/typed_replies.py): do not edit;
run it again after changing the schema."""

from typing import Any, Literal, NotRequired, TypedDict
'''

SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool",
           "null": "None"}


def camel(name: str) -> str:
    """"BOARD_UPDATE" -> BoardUpdate, "race.progress" -> RaceProgress."""
    return "".join(p.capitalize() for p in name.replace(".", "_").lower().split("_") if p)


class Writer:
    """The classes in the order each is first needed, every one before its users."""

    def __init__(self) -> None:
        self.named = {id(v): camel(k) for k, v in vars(replies).items()
                      if k.isupper() and isinstance(v, dict) and ("properties" in v or "enum" in v)}
        self.classes: dict[str, str] = {}
        self.enums: dict[str, str] = {}

    def type_of(self, s: dict[str, Any], where: str) -> str:
        if "const" in s:
            return f"Literal[{s['const']!r}]"
        if "enum" in s:  # named, for a value read back from the store: ChallengeState
            said = f"Literal[{', '.join(json.dumps(v) for v in s['enum'])}]"
            if said not in self.enums:  # the same values, the first name they had
                self.enums[said] = self.named.get(id(s), where)
                self.classes[self.enums[said]] = wrapped(f"{self.enums[said]} = {said}")
            return self.enums[said]
        if "oneOf" in s and "properties" not in s:
            return " | ".join(dict.fromkeys(self.type_of(o, where) for o in s["oneOf"]))
        kind = s.get("type")
        if isinstance(kind, list):
            return " | ".join(self.type_of({**s, "type": k}, where) for k in kind)
        if kind == "array":  # its items named for one of them: DailyDeals -> DailyDeal
            return f"list[{self.type_of(s['items'], singular(where))}]"
        if "properties" in s:
            return self.object_class(s, where)
        if kind == "object":
            extra = s.get("additionalProperties")
            return f"dict[str, {self.type_of(extra, singular(where)) if extra else 'Any'}]"
        return SCALARS[kind] if kind else "Any"  # a schema that names no type allows any

    def object_class(self, s: dict[str, Any], where: str) -> str:
        name = self.named.get(id(s), where)
        if name in self.classes:
            return name
        self.classes[name] = ""  # claimed: a field of the same name inside is named apart
        required = set(s.get("required", ()))
        rows = {field: self.type_of(sub, name + camel(field))
                for field, sub in s["properties"].items()}
        rows = {f: t if f in required else f"NotRequired[{t}]" for f, t in rows.items()}
        del self.classes[name]  # written after the classes its fields use
        self.classes[name] = typed_dict(name, rows, s.get("description", ""))
        return name


def singular(name: str) -> str:
    """A name for one of a list's or a map's values: DailyDeals -> DailyDeal."""
    return name[:-3] + "y" if name.endswith("ies") else name.removesuffix("s")


def typed_dict(name: str, rows: dict[str, str], doc: str) -> str:
    lines = textwrap.wrap(f'"""{doc[0].upper() + doc[1:]}."""', 92) if doc else []
    said = "".join(f"    {line}\n" for line in lines) + "\n" if doc else ""
    if all(n.isidentifier() and not keyword.iskeyword(n) for n in rows):
        body = "".join(wrapped(f"    {n}: {t}") for n, t in rows.items())
        return f"class {name}(TypedDict):\n{said}{body or '    pass' + chr(10)}"
    body = "".join(f"    {json.dumps(n)}: {t},\n" for n, t in rows.items())
    return f"{name} = TypedDict({json.dumps(name)}, {{\n{body}}})\n"


def wrapped(line: str) -> str:
    """A field's line, broken after commas inside its brackets where it is too long."""
    out = ""
    while len(line) > 100:
        cut = line.rindex(", ", 0, 99) + 1
        out += line[:cut] + "\n"
        line = "        " + line[cut:].lstrip()
    return out + line + "\n"


def generate() -> str:
    """The module, from the reply schema as it is now."""
    w = Writer()
    tables = [(label, word, {kind: w.object_class(s, camel(kind) + word.capitalize())
                             for kind, (_, s) in table.items()})
              for label, word, table in (("REPLIES", "reply", replies.REPLIES),
                                         ("EVENTS", "event", replies.EVENTS))]
    for name, s in vars(replies).items():  # named objects no reply holds whole
        if name.isupper() and isinstance(s, dict) and "properties" in s:
            w.object_class(s, camel(name))
    first = next(iter(w.classes.values()))
    parts = [HEADER if first.startswith("class ") else HEADER.rstrip("\n"), *w.classes.values()]
    for label, word, rows in tables:
        table = "".join(f"    {json.dumps(kind)}: {name},\n" for kind, name in rows.items())
        parts.append(f"#: Each {word} type's TypedDict.\n"
                     f"{label}: dict[str, type] = {{\n{table}}}\n")
    return "\n\n".join(parts)


if __name__ == "__main__":
    OUT.write_text(generate())
    sys.stdout.write(f"wrote {OUT}\n")
