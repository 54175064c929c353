"""Hints: the next move of a practice game, searched in a process pool; never in competition."""

from __future__ import annotations

from typing import Any

from ..accounts import Player
from ..api import Services
from ..feature import Feature, Operation
from ..transport.rest import post


async def hint(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    assert sv.hints is not None  # build_services makes it
    return await sv.hints.hint(player, body["session"])


def start(sv: Services) -> None:
    if sv.hints is not None:  # the pool's processes start now, not at the first hint
        sv.hints.warm()


async def stop(sv: Services) -> None:
    if sv.hints is not None:
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
