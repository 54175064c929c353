"""Bot races: a player races a server-run bot at once, on a fresh secret deal."""

from __future__ import annotations

from ..accounts import Player
from ..api import Services
from ..ended import RaceEnded
from ..feature import Feature, Listen, Operation
from ..transport.messages import RaceBot
from ..transport.reply_types import Race
from ..transport.rest import post


async def race_bot(sv: Services, player: Player, body: RaceBot) -> Race:
    sv.metrics.races.labels("created").inc()
    return await sv.bot_races.start(player, body)


async def stop(sv: Services) -> None:
    """The node's bots' leases handed back: another node plays their races on."""
    await sv.bot_races.stop()


async def race_ended(sv: Services, ended: RaceEnded) -> None:
    if ended.bot and not ended.ghost:  # its player may race a bot again
        await sv.bot_races.ended(ended.results)


FEATURE = Feature(
    "bot races",
    operations={"race.bot": Operation(race_bot, "race", copies_name=True)},
    endpoints=[
        post("/races/bot", "race.bot",
             "Race a server-run bot now: a new race on a fresh secret deal, you and the bot "
             "as its entrants, started at once",
             ("game.unknown", "bot.unknown_strength", "race.bot_busy", "race.bot_limit",
              "race.bot_capacity"), 201),
    ],
    # bots whose node died, played on here
    sweeps=lambda sv: [sv.bot_races.take_over],
    stop=stop,
    listens=[Listen(RaceEnded, race_ended)],
)
