"""A race as its keys hold it (``store.race_keys``), read whole into a typed record: each
field converted where it is named, so a misspelt field or a wrong type is the type checker's
to catch. The scripts of server/store/scripts.py write the fields; this reads them."""

from __future__ import annotations

import json
from functools import partial
from typing import NotRequired, TypedDict, cast

from .. import store
from ..transport.reply_types import PlayerKind, RaceBot, Start, State


class Seat(TypedDict):
    """A player as a race's, a ghost race's or an arena's join script keeps them."""

    name: str
    kind: PlayerKind


class Terms(TypedDict):
    """What a race is made with: ``race.create``'s fields, and those a rematch, a challenge,
    a bot race and a ghost race's run make their races with (where left out, the defaults
    below)."""

    game: str
    variant: str
    seats: int
    start: NotRequired[Start]
    time_limit: NotRequired[int]  # seconds
    countdown: NotRequired[int]  # seconds


#: A race's start, time limit and countdown where its maker names none.
DEFAULT_START: Start = "full"
DEFAULT_TIME_LIMIT, DEFAULT_COUNTDOWN = 600, 3


class RaceRecord(TypedDict):
    race: str
    game: str
    variant: str
    state: State
    start: Start
    seed: str
    commitment: str
    creator: str
    seats: int
    time_limit: int
    countdown: int
    created: int | None
    seq: int  # the number of its last event
    entrants: int  # seated at the start (0 before it)
    done: int  # of those, finished (0 before the start)
    starts_at: int | None  # from the start
    ends_at: int | None
    ended_at: int | None  # from the end, with its results
    results: str | None  # JSON
    rematch: str | None  # the rematch asked for once it ended...
    rematch_by: str | None  # ...and who asked first
    rematch_of: str | None
    ghost: str | None  # a ghost race's run: its ghost race
    arena: str | None  # an arena's round: its arena
    bot: RaceBot | None  # a race against a server's bot
    entrant_info: dict[str, Seat]


def read(rid: str, meta: dict[bytes, bytes], entrants: dict[bytes, bytes]) -> RaceRecord:
    """The record of race ``rid`` from its hash and its entrants' hash, as HGETALL gives
    them (the hash not empty)."""
    m = {k.decode(): v.decode() for k, v in meta.items()}
    number = partial(store.number, m)

    bot: RaceBot | None = None
    if m.get("bot"):
        bot = {"player": m["bot"], "name": m["bot_name"], "strength": m["bot_strength"]}
    return {
        "race": rid, "game": m["game"], "variant": m["variant"],
        "state": cast(State, m["state"]), "start": cast(Start, m["start"]),
        "seed": m["seed"], "commitment": m["commitment"], "creator": m["creator"],
        "seats": int(m["seats"]), "time_limit": int(m["time_limit"]),
        "countdown": int(m["countdown"]), "created": number("created"),
        "seq": number("seq") or 0, "entrants": number("entrants") or 0,
        "done": number("done") or 0, "starts_at": number("starts_at"),
        "ends_at": number("ends_at"), "ended_at": number("ended_at"),
        "results": m.get("results"), "rematch": m.get("rematch"),
        "rematch_by": m.get("rematch_by"), "rematch_of": m.get("rematch_of"),
        "ghost": m.get("ghost"), "arena": m.get("arena"), "bot": bot,
        "entrant_info": {k.decode(): json.loads(v) for k, v in entrants.items()}}
