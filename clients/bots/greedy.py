"""``clients.bots.greedy:GreedyBot``: engine/bots/greedy.py's, by its public name."""

from engine.bots.greedy import GreedyBot, parse, predict

__all__ = ["GreedyBot", "parse", "predict"]
