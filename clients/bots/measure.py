"""Win rates of the example bots on fixed deals, played locally through ``clients.local``:

    python -m clients.bots.measure --games 200 --rules klondike/easy golf/easy pyramid/easy
    python -m clients.bots.measure --games 50 --rules yukon/easy golf/difficult

Deal ``i`` uses the seed ``i.to_bytes(2, "big")`` (hex ``0000``, ``0001``, ...), so anyone can
replay any of them (``samedeal deal klondike easy --seed 0007``). The random baseline picks
uniformly among the legal moves with ``random.Random(i)``; both play at most ``--max-moves``
moves, then resign (some games let cards trade places for ever)."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

from clients.bots import Bot
from clients.bots.greedy import GreedyBot
from clients.local import LocalGame


class RandomBot(Bot):
    """The baseline: any legal move, from a seeded generator so a run can be repeated."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        return self.rng.choice(legal)


def seed_of(i: int) -> bytes:
    return i.to_bytes(2, "big")


def play_game(bot: Bot, game: LocalGame, max_moves: int = 2000) -> dict[str, Any]:
    """Play one game to its end; resign when the bot says it is stuck (GreedyBot.stuck) or at
    ``max_moves``.
    The bot is told the rule set first (``learn``), as the SDK's play helpers do.
    Returns the last session payload."""
    bot.learn(game.layout())
    payload = game.payload
    while payload["view"]["status"] == "playing":
        move = bot.choose(payload["view"], payload["legal"])
        if move not in payload["legal"]:
            raise AssertionError(f"{bot.name} chose {move!r}, not a legal move")
        if getattr(bot, "stuck", False) or payload["view"]["moves"] >= max_moves:
            return game.resign()  # checked after ``choose``, which notes a new game
        payload = game.move(move)
    return payload


def measure(rule: str, bot_name: str, games: int, first: int = 0,
            max_moves: int = 2000) -> dict[str, int]:
    """Wins (and games) of one bot on deals ``first`` .. ``first + games - 1``."""
    game_id, _, variant = rule.partition("/")
    tally = {"games": 0, "won": 0}
    for i in range(first, first + games):
        bot: Bot = GreedyBot() if bot_name == "greedy" else RandomBot(i)
        end = play_game(bot, LocalGame(game_id, variant, seed_of(i)), max_moves)
        tally["games"] += 1
        tally["won"] += end["view"]["status"] == "won"
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m clients.bots.measure", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="deals per rule set")
    p.add_argument("--first", type=int, default=0, help="the first deal's number")
    p.add_argument("--rules", nargs="+", required=True, metavar="GAME/VARIANT",
                   help="the rule sets to measure")
    p.add_argument("--bots", nargs="+", default=["greedy", "random"],
                   choices=["greedy", "random"])
    p.add_argument("--max-moves", type=int, default=2000)
    args = p.parse_args(argv)
    last = args.first + args.games - 1
    print(f"deals {args.first}..{last}: seeds {seed_of(args.first).hex()}.."
          f"{seed_of(last).hex()}")
    print(f"| rule set | {' | '.join(args.bots)} |")
    print(f"| --- |{' --- |' * len(args.bots)}")
    for rule in args.rules:
        cells = []
        for bot in args.bots:
            t = measure(rule, bot, args.games, args.first, args.max_moves)
            cells.append(f"{t['won']}/{t['games']} ({100 * t['won'] / t['games']:.1f}%)")
        print(f"| {rule} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
