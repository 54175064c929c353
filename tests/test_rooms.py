"""Imports point one way (the design's rooms): the server and the clients build on the engine,
the engine on nothing of the project, and the server on nothing of the clients."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The rooms each room may not import.
FORBIDDEN = {"engine": {"server", "clients", "bench", "tests"},
             "server": {"clients", "bench", "tests"}}


def imported(path: Path) -> set[str]:
    """The top-level packages a module imports (absolute imports; relative ones stay home)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_no_module_imports_a_room_above_its_own(room: str) -> None:
    wrong = {str(p.relative_to(ROOT)): sorted(imported(p) & FORBIDDEN[room])
             for p in (ROOT / room).rglob("*.py")}
    assert {p: w for p, w in wrong.items() if w} == {}


def test_the_running_server_loads_nothing_of_the_clients() -> None:
    """Entry points included: the house bots (``samedeal.bots``) come from the engine."""
    code = ("import sys, server.app, server.botrace.player as b; assert b.STRENGTHS; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('clients', 'bench')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
