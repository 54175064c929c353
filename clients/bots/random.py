"""``clients.bots.random:RandomBot``: engine/bots/random.py's, by its public name."""

from engine.bots.random import RandomBot

__all__ = ["RandomBot"]
