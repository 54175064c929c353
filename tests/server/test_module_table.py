"""docs/server.md's tables name every module of server/, so a reader finds each one there: by
its path in a row of its own, or by its name in its package's row (`matches/`), or, for a
feature's `feature.py`, by the contract every feature's declares."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server"
DOC = (ROOT / "docs" / "server.md").read_text()


def named(module: Path) -> bool:
    rel = module.relative_to(SERVER).as_posix()
    if f"`{rel}`" in DOC or module.name == "feature.py":
        return True
    package_row = f"| `{module.parent.relative_to(SERVER).as_posix()}/` |"
    return any(line.startswith(package_row) and f"`{module.name}`" in line
               for line in DOC.splitlines())


def test_every_server_module_is_in_the_docs_tables() -> None:
    modules = [p for p in SERVER.rglob("*.py") if p.name != "__init__.py"]
    assert len(modules) > 80
    assert [m.relative_to(SERVER).as_posix() for m in modules if not named(m)] == []
