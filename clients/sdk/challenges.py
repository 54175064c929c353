"""Challenges by name (docs/protocol.md#challenges): sending one, listing them, answering, and
an iterator of the challenges that come to you, so a bot can take on whoever challenges it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from .messages import Event, Race
from .payloads import Player
from .races import Races


@dataclass
class Challenge:
    """A challenge as both players see it: who challenged whom on which rule set, its
    ``state`` (pending, accepted, declined, withdrawn, expired) and, once accepted, its race."""

    id: str
    sender: Player
    to: Player
    game: str
    variant: str
    name: str
    state: str
    created: int
    expires_at: int
    race: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Challenge:
        return cls(id=str(raw["challenge"]), sender=raw["from"], to=raw["to"],
                   game=str(raw["game"]), variant=str(raw["variant"]),
                   name=str(raw.get("name", "")), state=str(raw["state"]),
                   created=int(raw["created"]), expires_at=int(raw["expires_at"]),
                   race=raw.get("race"), raw=raw)


class Challenges(Races):
    """Challenging players by name, and answering their challenges."""

    async def challenge(self, name: str | None = None, game: str = "", variant: str = "", *,
                        player: str | None = None) -> Challenge:
        """Challenge the player going by ``name`` (case aside), or the one whose id is
        ``player``, to race you on ``game``/``variant``. Never re-sent after a drop (it may
        have been sent): ``ConnectionLost``; ``challenges()`` says."""
        msg: dict[str, Any] = {"type": "challenge.send", "game": game, "variant": variant}
        if player is not None:
            msg["player"] = player
        if name is not None:
            msg["to"] = name
        return Challenge.from_raw(await self.request(msg, None))

    async def challenges(self) -> list[Challenge]:
        """Challenges to you and from you: the pending first, then the newest."""
        reply = await self.request({"type": "challenge.list"})
        return [Challenge.from_raw(c) for c in reply["challenges"]]

    async def accept_challenge(self, challenge: str) -> Race:
        """Accept a challenge to you: its race (a new deal only the two of you may join), with
        you seated; its events follow. Accepting again gives the same race, so it is re-sent
        after a drop."""
        async def recover() -> dict[str, Any] | None:
            return await self.request({"type": "challenge.accept", "challenge": challenge})
        return Race.from_raw(await self.request(
            {"type": "challenge.accept", "challenge": challenge}, recover))

    async def decline_challenge(self, challenge: str, block: bool = False) -> Challenge:
        """Decline a challenge to you; ``block``: refuse that player's challenges from now on."""
        return Challenge.from_raw(await self.request(
            {"type": "challenge.decline", "challenge": challenge, "block": block}, None))

    async def withdraw_challenge(self, challenge: str) -> Challenge:
        """Withdraw a challenge you sent, before its answer."""
        return Challenge.from_raw(await self.request(
            {"type": "challenge.withdraw", "challenge": challenge}, None))

    async def wait_challenge_answer(self, challenge: str,
                                    timeout: float | None = None) -> Challenge:
        """The answer to a challenge you sent (or received): accepted (with its ``race``, for
        you to join), declined, withdrawn or expired. Looked up again in ``challenges()``
        after a reconnect, since events sent meanwhile are not replayed."""
        answers: asyncio.Queue[Challenge | None] = asyncio.Queue()

        def listener(e: Event) -> None:
            if e.type == "challenge.answered" and e.raw.get("challenge") == challenge:
                answers.put_nowait(Challenge.from_raw(e.raw))
            elif e.type == "connection.resumed":
                answers.put_nowait(None)  # look it up again

        async def answered() -> Challenge:
            answers.put_nowait(None)
            while True:
                got = await answers.get()
                if got is not None:
                    return got
                for c in await self.challenges():
                    if c.id == challenge and c.state != "pending":
                        return c

        self.listeners.append(listener)
        try:
            return await asyncio.wait_for(answered(), timeout)
        finally:
            self.listeners.remove(listener)

    async def incoming_challenges(self) -> AsyncIterator[Challenge]:
        """Every challenge to you still pending, from those waiting now (listed first) to
        each new one as it comes (``challenge.received``), each once; after a reconnect the
        list is read again for any sent meanwhile. ``async for c in client.incoming_
        challenges(): await client.accept_challenge(c.id)``."""
        fresh: asyncio.Queue[Challenge | None] = asyncio.Queue()
        seen: set[str] = set()

        def listener(e: Event) -> None:
            if e.type == "challenge.received":
                fresh.put_nowait(Challenge.from_raw(e.raw))
            elif e.type == "connection.resumed":
                fresh.put_nowait(None)  # read the list again

        self.listeners.append(listener)
        try:
            fresh.put_nowait(None)
            while True:
                got = await fresh.get()
                batch = [got] if got is not None else [
                    c for c in reversed(await self.challenges())
                    if c.to.get("id") == self._me() and c.state == "pending"]
                for c in batch:
                    if c.id not in seen:
                        seen.add(c.id)
                        yield c
        finally:
            self.listeners.remove(listener)
