"""The engine's inner loop, compiled: which modules the build compiles with Cython (setup.py)
and when a compiled one is loaded instead of its Python source.

The compiled modules are the same source, compiled (move listing's innermost functions and
the solver's key typed in Cython's pure-Python mode): they play, list moves and search
exactly as the pure-Python ones do, faster (the solver: 27 times the positions a second on
the median rule set, about 75 times on Klondike; bench/results.md "Solver"). A compiled
module is loaded only when the SHA-256 of the source beside it is the one recorded when it
was built, so an edited source is never shadowed by a stale build; ``SAMEDEAL_PURE_PYTHON=1``
loads every module from its source. Without a C compiler the build skips them, and the
engine is the pure-Python one. This file is read by setup.py without the engine: it imports
nothing of it.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules of the inner loop: the position and its moves, the rules' move generation,
#: the solver's search, its key, its table, its move choice, its board and the searches on it.
MODULES = ("engine.core", "engine.rules", "engine.solver.position", "engine.solver.board",
           "engine.solver.gap_board", "engine.solver.pair_board", "engine.solver.home_order",
           "engine.solver.table", "engine.solver.depth",
           "engine.solver.bestfirst", "engine.solver.steps")
#: Beside a compiled module (``rules.cpython-311-x86_64-linux-gnu.so``), the SHA-256 of the
#: source it was compiled from, in a file of that name and this suffix.
SOURCE_SUFFIX = ".source"
PURE_ENV = "SAMEDEAL_PURE_PYTHON"
ROOT = Path(__file__).resolve().parent.parent


#: Modules compiled against another's C types (a ``cimport`` in their ``.pxd``): built from
#: that one's source too, so that neither runs compiled beside the other's Python (such a
#: module with no current build, beside its base running compiled, refuses to import: its
#: Python subclass would leave the base's C methods in place, and search wrongly).
USES = {"engine.solver.gap_board": ("engine.solver.board",),
        "engine.solver.pair_board": ("engine.solver.board",),
        "engine.solver.home_order": ("engine.solver.board",),
        "engine.solver.depth": ("engine.solver.board", "engine.solver.pair_board",
                                "engine.solver.home_order", "engine.solver.table"),
        "engine.solver.bestfirst": ("engine.solver.board",)}


def digest(name: str, source: Path) -> str:
    """The SHA-256 a build records of what module ``name`` was compiled from: its Python
    source, the C types declared for it beside it (a ``.pxd`` of the same name) where there
    are some, and the same of each module whose C types it uses (``USES``), found beside it
    wherever the package is (a checkout, an installed wheel)."""
    root = source.parents[name.count(".")]
    h = hashlib.sha256()
    for module in (name, *USES.get(name, ())):
        path = source if module == name else root.joinpath(*module.split(".")).with_suffix(
            ".py")
        h.update(path.read_bytes())
        types = path.with_suffix(".pxd")
        if types.exists():
            h.update(types.read_bytes())
    return h.hexdigest()


def built_from(compiled: Path, source: Path, name: str) -> bool:
    """Whether ``compiled``, module ``name``, was built from ``source`` as it is now."""
    try:
        recorded = Path(str(compiled) + SOURCE_SUFFIX).read_text().strip()
        return recorded == digest(name, source)
    except OSError:
        return False


class Finder(importlib.abc.MetaPathFinder):
    """Finds each of ``MODULES``: compiled when a build of its present source is beside it
    (and ``pure`` is false), else its source; any other module of the engine from its
    source, never from a compiled file left from a build where it was one of ``MODULES``.
    ``loaded``: the names it found compiled."""

    def __init__(self, pure: bool) -> None:
        self.pure = pure
        self.loaded: set[str] = set()

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith("engine."):
            return None
        base = ROOT.joinpath(*name.split("."))
        source = base.with_suffix(".py")
        if name not in MODULES:
            return (importlib.util.spec_from_file_location(name, source) if source.exists()
                    else None)
        if not self.pure:
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                compiled = base.with_name(base.name + suffix)
                if compiled.exists() and built_from(compiled, source, name):
                    self.loaded.add(name)
                    return importlib.util.spec_from_file_location(name, compiled)
            extended = [m for m in USES.get(name, ()) if m in self.loaded]
            if extended:  # its Python would not override the compiled class's C methods
                raise ImportError(
                    f"{name} has no build of its present source while {extended[0]}, whose "
                    "classes it extends, runs compiled: build again (make, or pip install "
                    f"-e .), or run everything from source with {PURE_ENV}=1")
        return importlib.util.spec_from_file_location(name, source)


FINDER = Finder(os.environ.get(PURE_ENV) == "1")


def compiled() -> list[str]:
    """The modules of ``MODULES`` this process runs compiled (the others run their source)."""
    return sorted(FINDER.loaded)
