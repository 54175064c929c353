"""What needs no connection: accounts, profiles, the catalog of rule sets, transcripts and
race summaries, all over REST."""

from __future__ import annotations

import asyncio
import copy
from typing import Any, cast

from . import rest
from .connection import Connection
from .messages import Race, Results
from .payloads import MatchTranscript, Profile, Stats, Transcript


class Accounts(Connection):
    """REST reads; the catalog entries are kept once fetched (a rule set never changes while
    a server runs)."""

    # ----- accounts (REST, no connection needed) ------------------------------------------

    @classmethod
    async def register(cls, url: str, name: str, kind: str = "human", *,
                       encoding: str = "json") -> tuple[dict[str, Any], str]:
        """A new account: ``(player, token)``. The token is shown only once: keep it."""
        body = await asyncio.to_thread(rest.call, url, "POST", "/players",
                                       {"name": name, "kind": kind}, None, encoding)
        return body["player"], body["token"]

    async def _rest(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return await asyncio.to_thread(rest.call, self.url, method, path, body, self.token,
                                       self.encoding, self.request_timeout)

    async def profile(self, player: str = "me") -> Profile:
        """A player's public profile with stats, streaks and ratings (``me``: yours)."""
        return cast(Profile, await self._rest("GET", f"/players/{player}"))

    async def stats(self, player: str) -> Stats:
        return cast(Stats, await self._rest("GET", f"/players/{player}/stats"))

    async def catalog(self) -> list[dict[str, Any]]:
        """Every rule set with its name, player counts, scoring and layout."""
        return list((await self._rest("GET", "/games"))["rule_sets"])

    async def rule_set(self, game: str, variant: str) -> dict[str, Any]:
        """One rule set, with the layout description a renderer draws the view from."""
        return dict(await self._rest("GET", f"/games/{game}/{variant}"))

    async def rules(self, game: str, variant: str) -> dict[str, Any]:
        """``rule_set``, fetched once per client: what a bot learns the game from (how moves
        are made, how piles are drawn, which cover which). A copy, so a caller may change it."""
        key = (game, variant)
        if key not in self._rule_sets:
            self._rule_sets[key] = await self.rule_set(game, variant)
        return copy.deepcopy(self._rule_sets[key])

    async def transcript(self, session: str) -> Transcript:
        """A session's move list, times and (once revealed) seed: ``samedeal replay`` input."""
        return cast(Transcript, await self._rest("GET", f"/sessions/{session}/moves"))

    async def races(self) -> list[Race]:
        """The open races, oldest first."""
        return [Race.from_raw(r) for r in (await self._rest("GET", "/races"))["races"]]

    async def race(self, race: str) -> Race:
        """A race's summary, read over REST (it does not subscribe)."""
        return Race.from_raw(await self._rest("GET", f"/races/{race}"))

    async def race_results(self, race: str) -> Results:
        """The ranking and revealed seed of an ended race (``race.not_over`` before)."""
        return Results.from_raw(await self._rest("GET", f"/races/{race}/results"))

    async def match_transcript(self, match: str) -> MatchTranscript:
        """A finished match's transcript: every placement, the seed and the results."""
        return cast(MatchTranscript, await self._rest("GET", f"/matches/{match}/transcript"))

