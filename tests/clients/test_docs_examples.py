"""The README's tour and docs/bots.md's first bot, run as written against a real server: every
shell command and Python block in order, with only the server's address, and the ids and
tokens the reader copies from one step to the next (``...the token...``, ``SESSION``,
``RACE``), filled in. A step must succeed and show what its comment says."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients.sdk import BlockingClient, ServerError
from tests.server.client import Node

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r'\{"code":\s*"([\w.]+)"')


def steps(text: str) -> Iterator[tuple[str, str]]:
    """("sh", command) for each command of the indented and ```sh blocks (continuation lines
    joined, comment lines dropped), ("python", code) for each ```python block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            kind = line[3:].strip()
            end = lines.index("```", i + 1)
            body = lines[i + 1:end]
            i = end + 1
            if kind == "python":
                yield "python", "\n".join(body) + "\n"
            elif kind == "sh":
                yield from commands(body)
            continue
        block = []
        while i < len(lines) and (lines[i].startswith("    ") or
                                  (block and not lines[i].strip())):
            block.append(lines[i][4:])
            i += 1
        if block:
            yield from commands(block)
        else:
            i += 1


def commands(block: list[str]) -> Iterator[tuple[str, str]]:
    command = ""
    for line in block:
        if not command and (not line.strip() or line.lstrip().startswith("#")):
            continue
        command += line.rstrip()
        if command.endswith("\\"):
            command += "\n"
            continue
        yield "sh", command
        command = ""


def section(path: Path, start: str, end: str) -> str:
    text = path.read_text()
    return text[text.index(start):text.index(end)]


class Reader:
    """Runs the steps as a reader would, carrying what one step prints into the next."""

    def __init__(self, node: Node, cwd: Path) -> None:
        self.node, self.cwd = node, cwd
        self.hostport = node.url.removeprefix("http://")
        self.env = os.environ | {"SAMEDEAL_SERVER": node.url,
                                 "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}"}
        self.env.pop("SAMEDEAL_TOKEN", None)
        self.last = ""
        self.filled: dict[str, str] = {}
        self.times: list[tuple[float, str]] = []  # for a failure's report

    def fill(self, text: str) -> str:
        text = text.replace("http://127.0.0.1:8000", self.node.url)
        text = text.replace("ws://127.0.0.1:8000", "ws://" + self.hostport)
        text = text.replace("localhost:8000", self.hostport)
        for placeholder, value in self.filled.items():
            text = text.replace(placeholder, value)
        return text

    def sh(self, command: str, timeout: float = 600) -> str:  # a guard against a hang
        export = re.fullmatch(r"export (\w+)=\.\.\.(.*)\.\.\.", command.strip())
        if export:  # the reader copies the token the last step printed
            token = self.token(self.last)
            self.env[export.group(1)] = token
            self.filled[f"...{export.group(2)}..."] = token
            return ""
        began = time.monotonic()
        done = subprocess.run(["bash", "-c", self.fill(command)], cwd=self.cwd, env=self.env,
                              input="quit\n", capture_output=True, text=True, timeout=timeout)
        self.times.append((round(time.monotonic() - began, 1), command[:60]))
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, done.stderr
        self.last = done.stdout + done.stderr
        said = CODE.search(command)
        if said:  # the comment shows the refusal the server gives
            assert f'"code":"{said.group(1)}"' in done.stdout.replace(" ", ""), done.stdout
        return self.last

    def python(self, code: str) -> str:
        done = subprocess.run([sys.executable, "-c", self.fill(code)], cwd=self.cwd,
                              env=self.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{code}\n{done.stdout}\n{done.stderr}"
        self.last = done.stdout
        return done.stdout

    @staticmethod
    def token(text: str) -> str:
        found = re.search(r'"token":\s*"([^"]+)"', text)
        if found:
            return found.group(1)
        printed = re.search(r"next time\):\n(\S+)", text)  # samedeal bot --register's
        assert printed, text
        return printed.group(1)


def test_the_readme_tour_runs_as_written(node: Node, tmp_path: Path) -> None:
    reader = Reader(node, ROOT)
    tour = section(ROOT / "README.md", "## A five-minute tour", "## Documents")
    seen: list[str] = []
    for kind, text in steps(tour):
        if kind == "python":
            out = reader.python(text)
            race = re.search(r'"race":\s*"(\w+)"', out)
            if "race.create" in text:
                assert race, out
                reader.filled["RACE"] = race.group(1)
            seen.append("python")
            continue
        if "--race RACE" in text:  # Ann, the race's creator, takes her seat and resigns
            ann = threading.Thread(target=resign_race, args=(node, reader.env["T"],
                                                             reader.filled["RACE"]))
            ann.start()
            out = reader.sh(text)
            ann.join(60)
            assert "ended" in out and "Randy" in out and "<- you" in out, out
            assert "human account" not in out
        else:
            out = reader.sh(text)
        seen.append(text.split()[0] + " " + " ".join(text.split()[1:3]))
        if "/solo" in text:
            reader.filled["SESSION"] = json.loads(out)["session"]
        if "around=me" in text:
            assert '"you":null' in out.replace(" ", ""), out  # the attempt is still going
        if " verify " in text:
            assert out.startswith("ok:"), out
        if "selfplay" in text:
            assert "0 errors" in out
        if "--solo golf easy --games 50" in text:
            assert "50 games of golf/easy" in out
    assert len(seen) >= 20 and "python" in seen, seen
    print(reader.times)  # shown with -s: how long each step took


def resign_race(node: Node, token: str, race: str) -> None:
    with BlockingClient(node.url, token) as ann:
        ann.subscribe_race(race)
        session = ann.wait_race_session(race, timeout=120)
        for _ in range(120):  # after the countdown (race.not_started until then)
            try:
                if session is not None:
                    ann.resign(session.id)
                return
            except ServerError as e:
                assert e.code == "race.not_started", e
                time.sleep(0.25)


def test_the_first_bot_of_bots_md_runs_as_written(node: Node, tmp_path: Path) -> None:
    """From "A working bot in under 30 lines": the project's .venv stands in for the fresh
    virtual environment the page makes (the same package, installed)."""
    reader = Reader(node, tmp_path)
    page = section(ROOT / "docs" / "bots.md", "## A working bot", "## The Bot interface")
    ran = []
    for kind, text in steps(page):
        if kind == "python":
            (tmp_path / "homebot.py").write_text(text)
            continue
        if text.startswith(("python3 -m venv", "pip install")):
            continue
        if text.startswith("curl"):
            out = reader.sh(text)
            reader.filled["RACE"] = json.loads(out)["race"]
        elif text.endswith("&"):  # the first runner of the race, left running as the page does
            rest = [t for k, t in steps(page) if k == "sh"]
            script = "\n".join(rest[rest.index(text):])
            out = reader.sh(script)
            assert out.count("(golf/easy) ended") == 2 and "HomeBot" in out and "Randy" in out, out
            assert "human account" not in out
            break
        else:
            out = reader.sh(text)
        ran.append(text)
        if "--games 20" in text:  # HomeBot gives up, long before the runner's 1000-move cap
            assert "20 games of klondike/easy" in out, out
            mean = re.search(r"mean moves ([\d.]+)", out)
            assert mean and float(mean.group(1)) < 300, out
    assert len(ran) == 4, ran


@pytest.mark.parametrize("doc", ["README.md", "docs/bots.md"])
def test_the_examples_are_found(doc: str) -> None:
    """The extraction itself: each page has the commands the tests above run."""
    found = list(steps((ROOT / doc).read_text()))
    assert any(k == "python" for k, _ in found)
    assert any("samedeal bot" in t for _, t in found)
