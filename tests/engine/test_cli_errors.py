"""The samedeal command's one error path, tried as a new user would, on real processes: a
mistake is one line on standard error with exit code 2, found before anything is made;
Ctrl-C and a closed pipe end quietly; every --help page says what the command and each option
do. (The failures that need a server are in tests/clients/test_cli_errors.py.)"""

from __future__ import annotations

import argparse
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.cli import build_parser, main, selfplay

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-m", "engine.cli"]
NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing listens there


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args, said", [
    (["serve", "--port", "99999"], "a port is a number from 1 to 65535, not '99999'"),
    (["serve", "--log-level", "nonsense"], "'critical', 'error', 'warning', 'info', 'debug'"),
    (["serve", "--redis-url", "http://127.0.0.1:6379"], "a Redis URL is redis://HOST:PORT/DB"),
    (["chain", "show", "--redis-url", "localhost:6379"], "unix:///PATH/redis.sock or redis-"),
    (["deal", "golf", "easy", "--seed", "0"], "a seed is an even number of hex digits"),
    (["verify", "--seed", "abc", "--commitment", "00"], "a seed is an even number of hex"),
    (["verify", "--seed", "00", "--commitment", "6e34"], "a commitment is a SHA-256 written"),
    (["selfplay", "golf", "easy", "--games", "-1"], "a whole number from 1 up, not '-1'"),
    (["selfplay", "golf", "easy", "--seed", "1"], "a seed is an even number of hex digits"),
    (["bot", "clients.bots.random:RandomBot", "--server", NOWHERE, "--token", "t",
      "--solo", "golf", "easy", "--games", "0"], "a whole number from 1 up, not '0'"),
    (["bot", "clients.bots.random:RandomBot", "--server", NOWHERE, "--token", "t",
      "--solo", "golf", "easy", "-o", "nosuch=1"], "cannot be made with -o nosuch="),
    (["bot", "clients.bots.random:RandomBot", "--server", NOWHERE, "--token", "t",
      "--solo", "golf", "easy", "-o", "7"], "an option is KEY=VALUE, like seed=7, not '7'"),
    (["bot", "clients.bots.random:RandomBot", "--server", NOWHERE, "--register", "X",
      "--solo", "golf", "easy", "--seed", "zz"], "a seed is an even number of hex digits"),
    (["play", "golf", "easy", "--seed", "0"], "a seed is an even number of hex digits"),
])
def test_a_usage_mistake_is_one_line_and_exit_2(args: list[str], said: str) -> None:
    out = run(*args)
    assert out.returncode == 2, out.stderr
    assert said in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert out.stdout == ""  # nothing was made: no account registered, no server started


#: The command as a terminal starts it, Ctrl-C on: a background job (a CI runner's, say)
#: starts its children with SIGINT ignored, and Python then never raises KeyboardInterrupt.
AT_A_TERMINAL = [sys.executable, "-c",
                 "import runpy, signal; "
                 "signal.signal(signal.SIGINT, signal.default_int_handler); "
                 "runpy.run_module('engine.cli', run_name='__main__', alter_sys=True)"]


def test_ctrl_c_in_play_ends_quietly_with_130() -> None:
    proc = subprocess.Popen([*AT_A_TERMINAL, "play", "klondike", "easy", "--seed", "00"],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + 60
    while not seen.endswith(b"> ") and time.monotonic() < deadline:  # the prompt: it waits
        if select.select([proc.stdout], [], [], 1)[0]:
            seen += os.read(proc.stdout.fileno(), 4096)
    assert seen.endswith(b"> "), seen
    proc.send_signal(signal.SIGINT)
    # Stdin stays open until it has ended: closing it first (communicate) races the signal
    # with an end of input, which ends the game quietly with 0.
    proc.wait(timeout=30)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert err.decode().strip() == "samedeal play: interrupted"


def test_ctrl_c_while_the_commands_load_ends_quietly_with_130(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The first moments of a command load the server's and the clients' commands: a Ctrl-C
    then is told as any other, with no traceback."""
    import engine.cli

    def interrupted() -> argparse.ArgumentParser:
        raise KeyboardInterrupt

    monkeypatch.setattr(engine.cli, "build_parser", interrupted)
    assert main(["games"]) == 130
    assert capsys.readouterr().err == "\nsamedeal: interrupted\n"


@pytest.mark.parametrize("args", [["games"], ["games", "--json"]])
def test_a_closed_pipe_ends_quietly_with_0(args: list[str]) -> None:
    """``samedeal games | head -1``: the reader leaves before the command writes."""
    proc = subprocess.Popen([*COMMAND, *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == b""


def test_selfplay_seed_is_hex_like_every_other_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "golf", "easy", "--games", "3", "--seed", "10"]) == 0
    printed = capsys.readouterr().out
    tally = selfplay("golf", "easy", 3, bytes([0x10]))
    assert printed == "golf/easy: " + ", ".join(f"{v} {k}" for k, v in tally.items()) + "\n"
    assert tally != selfplay("golf", "easy", 3, bytes([10]))  # 0x10 is 16, not ten


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    sub = next(a for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices.items())


@pytest.mark.parametrize("name, parser", parsers(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_help_page_says_what_the_command_and_each_option_do(
        name: str, parser: argparse.ArgumentParser) -> None:
    assert parser.description and len(parser.description) > 20, name
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        what = "/".join(action.option_strings) or action.dest
        assert action.help, f"samedeal {name} {what} has no help"
        default = action.default
        if action.option_strings and default not in (None, False, [], argparse.SUPPRESS):
            assert "default" in action.help, f"samedeal {name} {what} does not say its default"


def test_no_command_is_a_usage_mistake_told_with_the_whole_help() -> None:
    out = run()
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("usage: samedeal") and "verify" in out.stderr


def test_the_exit_codes_are_in_the_top_help_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "0 done; 1 the server or the game refused" in text
    assert "2 a mistake on the command line; 130 interrupted" in text


@pytest.mark.parametrize("args", [["chain", "show"], ["arena", "list"],
                                  ["moderate", "daily", "2026-01-01", "golf", "easy"]])
def test_an_operators_command_with_no_redis_url_names_the_private_ones(args: list[str]
                                                                       ) -> None:
    out = subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=120,
                         cwd=ROOT, stdin=subprocess.DEVNULL,
                         env={k: v for k, v in os.environ.items()
                              if k not in ("SAMEDEAL_REDIS_URL", "SAMEDEAL_DATA_DIR")})
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith(f"samedeal {args[0]}: give --redis-url")
    assert f"keeps them at unix://{ROOT / 'var' / 'redis' / 'redis.sock'}\n" in out.stderr


def test_moderate_without_a_redis_there_says_so_with_exit_1() -> None:
    out = run("moderate", "daily", "2026-01-01", "golf", "easy",
              "--redis-url", "redis://127.0.0.1:9/0")
    assert out.returncode == 1
    assert out.stderr.startswith("samedeal moderate: cannot read the boards from redis://")
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
