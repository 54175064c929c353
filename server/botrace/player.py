"""A server-run bot's play in a bot race: which example bot plays at each strength, its
human-like pace, and the loop that plays one race's bot through the same operations as the
transports (server/api.py), as its own player, seeing only what its session payload and the
race summary show any entrant (docs/server.md, "Racing a bot").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol, TypeVar

import engine

from ..accounts import Player
from ..config import Settings
from ..errors import ApiError
from ..transport.messages import Move, Resign, SessionGet
from ..transport.reply_types import Race

log = logging.getLogger("samedeal.bots")


class Bot(Protocol):
    """What the server asks of a bot: the example bots' interface (engine/bots)."""

    def learn(self, rules: dict[str, Any]) -> None: ...

    def choose(self, view: dict[str, Any], legal: list[str]) -> str: ...


@dataclass(frozen=True)
class Strength:
    """A named strength: the example bot that plays at it."""

    name: str
    title: str  # the bot account's display name
    make: Callable[[str], Bot]  # a bot for one race, from the race's id (a seed)
    #: The fixed rating (openskill mu, sigma) a human is rated against (server/boards/ratings.py).
    rating: tuple[float, float]


def installed_strengths() -> dict[str, Strength]:
    """The strengths the ``samedeal.bots`` entry points declare (engine/bots/strengths.py's,
    and any other installed): found as the ``samedeal`` command finds its commands."""
    out: dict[str, Strength] = {}
    for ep in entry_points(group="samedeal.bots"):
        for name, (title, make, rating) in ep.load().items():
            out[name] = Strength(name, title, make, rating)
    return out


STRENGTHS = installed_strengths()
DEFAULT_STRENGTH = "medium"


def strength_of(name: str | None) -> Strength:
    found = STRENGTHS.get(name or DEFAULT_STRENGTH)
    if found is None:
        raise ApiError("bot.unknown_strength", "there is no bot of that strength: choose "
                       + ", ".join(f"'{s}'" for s in STRENGTHS))
    return found


def think_time(settings: Settings, rng: random.Random, legal: list[str], move: str) -> float:
    """Seconds the bot waits before a move, as a person would: ``bot_think_min`` to
    ``bot_think_max`` at random, and a third of that for an obvious move (the only legal one,
    or a press of the stock)."""
    pause = rng.uniform(settings.bot_think_min, settings.bot_think_max)
    return pause / 3 if len(legal) == 1 or move == "s" else pause


M = TypeVar("M")
#: One operation as the bot's player calls it: (player, its message) -> reply.
Operation = Callable[[Player, M], Awaitable[dict[str, Any]]]


@dataclass
class Operations:
    """What the bot may do and see: its session (``session.get``), a move and a resignation
    (``move``, ``resign``), all as the transports call them, and the race's public summary
    (``GET /races/{race}``)."""

    look: Operation[SessionGet]
    move: Operation[Move]
    resign: Operation[Resign]
    race: Callable[[str], Awaitable[Race]]
    now_ms: Callable[[], Awaitable[int]]


class BotPlayer:
    """Plays ``bot``'s entry in race ``rid`` until the race ends, the bot's game is over, or
    ``hold`` says this node no longer holds the race's lease (or is stopping). Resumes from
    the session as stored, so any node can pick it up where another left it."""

    def __init__(self, settings: Settings, ops: Operations, rid: str, bot: Player,
                 strength: Strength, hold: Callable[[], Awaitable[bool]]) -> None:
        self.settings = settings
        self.ops = ops
        self.rid = rid
        self.bot = bot
        self.strength = strength
        self.hold = hold
        self.session = f"{rid}.{bot.id}"
        self.rng = random.Random()

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds``, keeping the lease; False as soon as it is lost."""
        step = max(0.05, self.settings.bot_lease / 3)
        while True:
            if not await self.hold():
                return False
            if seconds <= 0:
                return True
            await asyncio.sleep(min(step, seconds))
            seconds -= step

    async def run(self) -> str:
        """Why it stopped: 'ended', 'done' (its own game is over), 'resigned' (the human gave
        up) or 'lost' (the lease)."""
        brain: Bot | None = None
        failures = 0
        while True:
            race = await self.ops.race(self.rid)
            if race["state"] == "ended":
                return "ended"
            if race["state"] != "running":
                if not await self.pause(0.2):
                    return "lost"
                continue
            if brain is None:
                brain = self.strength.make(self.rid)
                brain.learn(engine.get(race["game"], race["variant"]).describe())
            wait = ((race["starts_at"] or 0) - await self.ops.now_ms()) / 1000
            if wait > 0:  # the countdown
                if not await self.pause(wait):
                    return "lost"
                continue
            payload = await self.ops.look(self.bot, {"type": "session.get",
                                                 "session": self.session})
            if payload["view"]["status"] != "playing":
                return "done"
            if gave_up(race, self.bot.id):
                await self._resign()
                return "resigned"
            legal: list[str] = payload["legal"]
            move = await asyncio.to_thread(brain.choose, payload["view"], legal)
            if not await self.pause(think_time(self.settings, self.rng, legal, move)):
                return "lost"
            if (getattr(brain, "stuck", False)
                    or payload["view"]["moves"] >= self.settings.bot_max_moves):
                await self._resign()
                return "done"
            try:
                await self.ops.move(self.bot, {"type": "move", "session": self.session,
                                               "move": move, "rev": payload["rev"]})
                failures = 0
            except ApiError as e:  # the race ended meanwhile; else looked at again
                failures += 1
                if failures >= 5:
                    log.warning("bot %s in race %s: %s; resigning", self.bot.id, self.rid,
                                e.code)
                    await self._resign()
                    return "done"

    async def _resign(self) -> None:
        with contextlib.suppress(ApiError):  # over already
            await self.ops.resign(self.bot, {"type": "resign", "session": self.session})


def gave_up(race: Race, bot: str) -> bool:
    """Whether every other entrant resigned: then the bot has no one left to race."""
    others = [e for e in race["entrants"] if e["player"] != bot]
    return bool(others) and all(e.get("resigned") for e in others)
