"""``samedeal bot`` and ``samedeal play``: subcommands the engine's command finds through an
entry point."""

from __future__ import annotations

import argparse


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from . import runner, terminal

    runner.add_command(sub)
    terminal.add_command(sub)
