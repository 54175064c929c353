"""The example bots, by the names bot authors use (``clients.bots.random:RandomBot``,
``from clients.bots import Bot``). They live in engine/bots, below both the server, which races
them as its house bots, and the clients, which run them; they use nothing of the engine and see
only what any client sees (docs/bots.md)."""

from engine.bots import Bot

__all__ = ["Bot"]
