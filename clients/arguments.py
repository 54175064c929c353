"""Argument types of the client subcommands (``samedeal bot``, ``samedeal play``): checked
while the command line is read, so a mistake is told before anything is registered or sent.
The seed and count rules are the engine command's own (engine/cli.py), so every subcommand
says the same thing for the same mistake."""

from __future__ import annotations

import argparse

from engine import cli
from engine.cli import at_least

__all__ = ["at_least", "hex_seed", "option"]


def hex_seed(text: str) -> str:
    """A seed as the server takes it: the engine's rule, kept as lowercase hex."""
    return cli.hex_seed(text).hex()


def option(pair: str) -> tuple[str, str]:
    """``-o KEY=VALUE``: the key must be a Python name (it becomes a keyword argument)."""
    key, sep, value = pair.partition("=")
    if not sep or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE, like seed=7, not {pair!r}")
    return key, value
