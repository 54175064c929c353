"""``samedeal bot``, ``samedeal play`` and ``samedeal verify-day``: subcommands the engine's
command finds through an entry point."""

from __future__ import annotations

import argparse


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from . import runner, terminal, verify_day

    runner.add_command(sub)
    terminal.add_command(sub)
    verify_day.add_command(sub)
