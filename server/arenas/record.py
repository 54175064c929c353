"""An arena as its keys hold it (``arena_keys``), read whole into a typed record: each field
converted where it is named, so a misspelt field or a wrong type is the type checker's to
catch. The arena's scripts (server/arenas/__init__.py) and ``Arenas.make`` write the fields;
this reads them."""

from __future__ import annotations

import json
from typing import TypedDict, cast

from .. import store
from ..races.record import Seat
from ..transport.reply_types import ArenaState

ANNOUNCED = "announced:"  # a field per round whose race was announced: announced:<round>


class ArenaRecord(TypedDict):
    arena: str
    name: str
    game: str
    variant: str
    state: ArenaState
    starts_at: int
    ends_at: int
    duration: int  # seconds
    interval: int  # seconds: a round each
    repeat: int  # seconds to the next occurrence, 0: none
    created: int
    ended_at: int | None
    next: str | None  # a repeat's next occurrence, once made
    repeat_of: str | None
    round: int  # the latest round claimed, -1 before the first
    current: str | None  # its race
    announced: set[int]  # the rounds whose race was announced
    winner: str | None  # JSON, once ended
    kind: str | None  # a feature's own arena: scored by its scorer, listed by it
    seed: str | None  # a feature's own arena: the seed every round deals
    rounds: list[str]  # every round's race, in order
    players: dict[str, Seat]


def read(aid: str, meta: dict[bytes, bytes], players: dict[bytes, bytes],
         rounds: list[bytes]) -> ArenaRecord:
    """The record of arena ``aid`` from its hash, its players' hash and its rounds' list, as
    Redis gives them (the hash not empty)."""
    m = {store.text(k): store.text(v) for k, v in meta.items()}
    ended = m.get("ended_at")
    return {
        "arena": aid, "name": m["name"], "game": m["game"], "variant": m["variant"],
        "state": cast(ArenaState, m["state"]), "starts_at": int(m["starts_at"]),
        "ends_at": int(m["ends_at"]), "duration": int(m["duration"]),
        "interval": int(m["interval"]), "repeat": int(m["repeat"]),
        "created": int(m["created"]), "ended_at": int(ended) if ended else None,
        "next": m.get("next") or None, "repeat_of": m.get("repeat_of") or None,
        "round": int(m.get("round", -1)), "current": m.get("current"),
        "announced": {int(k[len(ANNOUNCED):]) for k in m if k.startswith(ANNOUNCED)},
        "winner": m.get("winner") or None, "kind": m.get("kind") or None,
        "seed": m.get("seed") or None, "rounds": [store.text(r) for r in rounds],
        "players": {store.text(k): json.loads(v) for k, v in players.items()}}
