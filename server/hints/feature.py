"""Hints: the next move of a practice game, searched in a process pool; never in competition."""

from __future__ import annotations

from ..accounts import Player
from ..api import Services
from ..feature import Feature, Operation
from ..transport.messages import Hint
from ..transport.reply_types import SuggestionReply
from ..transport.rest import post


async def hint(sv: Services, player: Player, body: Hint) -> SuggestionReply:
    return await sv.hints.hint(player, body["session"])


def start(sv: Services) -> None:
    sv.hints.warm()  # the pool's processes start now, not at the first hint


async def stop(sv: Services) -> None:
    sv.hints.shutdown()


FEATURE = Feature(
    "hints",
    operations={"hint": Operation(hint, "suggestion")},
    endpoints=[
        post("/sessions/{session}/hint", "hint", "A hint in a practice game: the next move to "
             "play (not played)", ("session.unknown", "session.not_yours", "hint.not_allowed",
                                   "rate.limited"), refusable=True),
    ],
    start=start,
    stop=stop,
)
