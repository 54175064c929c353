"""Racing a server-run bot (docs/protocol.md#racing-a-bot): one call makes and starts it."""

from __future__ import annotations

from .connection import Connection
from .messages import Race


class BotRaces(Connection):
    """``race_bot``: a race against a bot the server runs, on a fresh deal."""

    async def race_bot(self, game: str, variant: str, strength: str | None = None) -> Race:
        """A started race between you and a server-run bot (``strength``: ``"easy"``,
        ``"medium"`` (the server's default) or ``"hard"``); its ``bot`` names the bot. The race's
        events follow, then your session (``wait_race_session``). Never re-sent after a drop
        (a second would be refused ``race.bot_busy`` while the first is live):
        ``ConnectionLost``."""
        msg = {"type": "race.bot", "game": game, "variant": variant}
        if strength is not None:
            msg["strength"] = strength
        return Race.from_raw(await self.request(msg, None))
