"""Argument types of the client subcommands (``samedeal bot``, ``samedeal play``): checked
while the command line is read, so a mistake is told before anything is registered or sent.
The same rules as the engine's command (engine/cli.py), written here because clients speak
the protocol only."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def hex_seed(text: str) -> str:
    """A seed as the server takes it: 1 to 64 bytes written in hex, two digits a byte."""
    t = text.strip()
    try:
        ok = len(t) % 2 == 0 and 1 <= len(bytes.fromhex(t)) <= 64
    except ValueError:
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError(
            f"a seed is an even number of hex digits (2 to 128), like 00 or 0a1b, not {text!r}")
    return t.lower()


def at_least(low: int) -> Callable[[str], int]:
    """An argument type: a whole number no smaller than ``low``."""

    def whole(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = low - 1
        if n < low:
            raise argparse.ArgumentTypeError(f"give a whole number from {low} up, not {text!r}")
        return n

    whole.__name__ = f"at_least_{low}"
    return whole


def option(pair: str) -> tuple[str, str]:
    """``-o KEY=VALUE``: the key must be a Python name (it becomes a keyword argument)."""
    key, sep, value = pair.partition("=")
    if not sep or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE, like seed=7, not {pair!r}")
    return key, value
