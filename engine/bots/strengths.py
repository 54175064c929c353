"""The example bots a server plays races with (docs/protocol.md, "Racing a bot"), by strength.

The server finds this table through the ``samedeal.bots`` entry point (pyproject.toml), where
other strengths can be installed too; its bots play through the same operations as anyone's.

Ordered by self-play (clients/bots/measure.py, deals 0..29; docs/bots.md, "Racing a server's
bot"): random < greedy scoring moves only < greedy planning, on every rule set tried. Each has
the fixed rating (openskill mu, sigma) a human is rated against: a new player starts at
25 +- 8.3, so beating the medium bot is an even result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import Bot
from .greedy import GreedyBot
from .random import RandomBot


class Unschooled(GreedyBot):
    """GreedyBot not told the rule set's description: it scores the legal moves from the view
    alone and never plans ahead (GreedyBot's own behaviour without ``learn``)."""

    def learn(self, rules: dict[str, Any]) -> None:
        self.rules = rules  # kept, not used: its layout stays unknown


#: name -> (the bot account's display name, a bot for one race from the race's id, rating)
STRENGTHS: dict[str, tuple[str, Callable[[str], Bot], tuple[float, float]]] = {
    "easy": ("Easy bot", lambda seed: RandomBot(seed), (15.0, 2.0)),
    "medium": ("Medium bot", lambda seed: Unschooled(), (25.0, 2.0)),
    "hard": ("Hard bot", lambda seed: GreedyBot(), (32.0, 2.0)),
}
