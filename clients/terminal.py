"""``samedeal play``: any rule set in the terminal (to be written)."""

from __future__ import annotations

import argparse


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    pass
