"""The engine's compiled inner loop (engine/compiled.py, setup.py): built by the README's
install, loaded only from the source it was built from, and the same engine as its pure-Python
source on every rule set."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.compiled import (
    MODULES,
    PURE_ENV,
    SOURCE_SUFFIX,
    USES,
    Finder,
    built_from,
    compiled,
    digest,
)

from .compiled_probe import probe

ROOT = Path(__file__).resolve().parents[2]


def test_the_install_compiled_the_inner_loop() -> None:
    """`make test` installs with setup.py, which needs a C compiler: the suite runs compiled
    (and the pure-Python engine below)."""
    for name in MODULES:
        importlib.import_module(name)
    assert compiled() == sorted(MODULES)


def test_pure_python_and_compiled_play_and_search_alike() -> None:
    """On every rule set: the same legal moves, statuses, scores and views along a random
    game, and the same verdict, winning line and positions from a search."""
    run = subprocess.run([sys.executable, "-m", "tests.engine.compiled_probe"], cwd=ROOT,
                         env=os.environ | {PURE_ENV: "1"}, capture_output=True, text=True,
                         timeout=300, check=True)
    pure = json.loads(run.stdout)
    assert pure["compiled"] == []
    here = probe()
    assert here["compiled"] == sorted(MODULES)
    assert len(here["rule_sets"]) == 60
    for key, seen in here["rule_sets"].items():
        assert seen == pure["rule_sets"][key], key


def test_a_build_of_another_source_is_not_loaded(tmp_path: Path) -> None:
    source = tmp_path / "rules.py"
    source.write_text("X = 1\n")
    build = tmp_path / "rules.cpython-311-x86_64-linux-gnu.so"
    build.write_bytes(b"")
    assert not built_from(build, source, "rules")  # no record
    record = Path(str(build) + SOURCE_SUFFIX)
    record.write_text(hashlib.sha256(b"X = 1\n").hexdigest() + "\n")
    assert built_from(build, source, "rules")
    source.write_text("X = 2\n")  # edited since the build
    assert not built_from(build, source, "rules")


def test_a_build_is_of_its_c_types_and_of_the_modules_whose_types_it_uses(
        tmp_path: Path) -> None:
    """A module's C types (its ``.pxd``) are part of its source; so are those of a module it
    is compiled against, so that it never runs compiled beside that one's Python."""
    source = tmp_path / "board.py"
    source.write_text("X = 1\n")
    alone = digest("board", source)
    (tmp_path / "board.pxd").write_text("cdef int x\n")
    assert digest("board", source) != alone
    for name, used in USES.items():
        own = ROOT.joinpath(*name.split(".")).with_suffix(".py")
        h = hashlib.sha256(own.read_bytes() + own.with_suffix(".pxd").read_bytes())
        assert digest(name, own) != h.hexdigest()  # the used module's source is in it
        for other in used:
            assert other in MODULES


def test_pure_python_is_asked_for_by_the_environment() -> None:
    spec = Finder(pure=True).find_spec("engine.rules")
    assert spec is not None and spec.origin is not None and spec.origin.endswith("rules.py")
    # Not one of the compiled: its source, never a compiled file a build left beside it.
    for pure in (True, False):
        spec = Finder(pure).find_spec("engine.cards")
        assert spec is not None and spec.origin is not None and spec.origin.endswith("cards.py")
    assert Finder(pure=False).find_spec("engine.solver") is None  # a package: the usual way


def test_a_module_with_no_build_beside_its_base_compiled_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A board subclass running its Python over a compiled board would leave the base's C
    methods in place and search wrongly: it refuses to import, saying how to build again."""
    monkeypatch.setattr("engine.compiled.built_from", lambda *args: False)
    finder = Finder(pure=False)
    spec = finder.find_spec("engine.solver.pair_board")  # its base not compiled: its source
    assert spec is not None and spec.origin is not None and spec.origin.endswith(".py")
    finder.loaded.add("engine.solver.board")
    with pytest.raises(ImportError, match="whose classes it extends, runs compiled"):
        finder.find_spec("engine.solver.pair_board")
