"""A ghost race as its keys hold it (``ghost_keys``), read whole into a typed record: each
field converted where it is named, so a misspelt field or a wrong type is the type checker's
to catch. The ghost race's scripts (server/ghosts/__init__.py) and ``Ghosts.create`` write
the fields; this reads them."""

from __future__ import annotations

import json
from typing import TypedDict, cast

from .. import store
from ..races.record import Seat
from ..transport.reply_types import GhostState


class EntrantInfo(Seat):
    """An entrant as the entry script keeps them, with when they entered (the store's
    clock, ms)."""

    entered: int


class GhostRecord(TypedDict):
    """A ghost race: its hash, who entered and whose runs have their end recorded."""

    ghost: str
    game: str
    variant: str
    creator: str
    state: GhostState
    seed: str
    commitment: str
    created: int
    closes_at: int
    closed_at: int | None
    revealed_at: int | None
    cap: int
    time_limit: int
    countdown: int
    entrants: int
    entrant_info: dict[str, EntrantInfo]
    recorded: set[str]


def ghost_keys(gid: str) -> tuple[str, str, str, str]:
    """The ghost race's hash, its entrants, its event list and its runs' timelines."""
    return (f"sd:{{{gid}}}:ghost", f"sd:{{{gid}}}:entrants", f"sd:{{{gid}}}:events",
            f"sd:{{{gid}}}:timelines")


def run_id(gid: str, pid: str) -> str:
    """The race of ``pid``'s run in ghost race ``gid``: one per entrant, so entering again
    finds it."""
    return f"{gid}-{pid}"


def board_key(gid: str) -> str:
    return f"ghost:{gid}"


def read(gid: str, meta: dict[bytes, bytes], entrants: dict[bytes, bytes],
         recorded: list[bytes]) -> GhostRecord:
    """The record of ghost race ``gid`` from its hash and entrants' hash, as HGETALL gives
    them (the hash not empty), and its timelines' fields, as HKEYS does."""
    m = {store.text(k): store.text(v) for k, v in meta.items()}
    return {"ghost": gid, "game": m["game"], "variant": m["variant"],
            "creator": m["creator"], "state": cast(GhostState, m["state"]),
            "seed": m["seed"], "commitment": m["commitment"], "created": int(m["created"]),
            "closes_at": int(m["closes_at"]),
            "closed_at": store.number(m, "closed_at"),
            "revealed_at": store.number(m, "revealed_at"),
            "cap": int(m["cap"]), "time_limit": int(m["time_limit"]),
            "countdown": int(m["countdown"]), "entrants": int(m["entrants"]),
            "entrant_info": {store.text(k): json.loads(v) for k, v in entrants.items()},
            "recorded": {store.text(k) for k in recorded}}
