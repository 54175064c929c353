"""``samedeal bot``: runs a bot class against a server (to be written)."""

from __future__ import annotations

import argparse


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    pass
