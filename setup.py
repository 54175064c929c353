"""The engine's inner loop compiled with Cython (docs/solver.md "Compiled"), beside the rest
of pyproject.toml's build. Each listed module is compiled from its own Python source, which
stays the fallback: the build is optional, so a machine without a C compiler installs the
same engine in pure Python, and a compiled module is loaded only while its source is the one
it was built from (engine/compiled.py reads the ``.source`` file written beside it here).
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# engine/compiled.py names the modules; read as a file, not imported with the engine.
COMPILED = runpy.run_path(str(Path(__file__).parent / "engine" / "compiled.py"))
SUFFIX = COMPILED["SOURCE_SUFFIX"]  # beside each build: ``digest`` of its source


def source(name: str) -> str:
    return name.replace(".", "/") + ".py"


class BuildRecordingSources(build_ext):
    """Writes beside each compiled module the SHA-256 of the source it was compiled from,
    and copies it along where an editable install copies the module into the source tree."""

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)  # an optional module that fails raises here: no record
        digest = COMPILED["digest"](ext.name, Path(source(ext.name)))
        Path(self.get_ext_fullpath(ext.name) + SUFFIX).write_text(digest + "\n")

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()
        for inplace, built in self._records():
            if Path(built).exists():
                self.copy_file(built, inplace, level=self.verbose)

    def _get_output_mapping(self):  # type: ignore[no-untyped-def]
        yield from super()._get_output_mapping()
        if self.inplace:
            for inplace, built in self._records():
                yield built, inplace

    def _records(self) -> list[tuple[str, str]]:
        build_py = self.get_finalized_command("build_py")
        pairs = (self._get_inplace_equivalent(build_py, ext) for ext in self.extensions)
        return [(inplace + SUFFIX, built + SUFFIX) for inplace, built in pairs]


# No debug information, and -O1: half the compiler's time of -O2 for a search a few per cent
# slower; the step search, where Klondike's million positions a second are, at -O2.
FLAGS = {"engine.solver.steps": ["-O2", "-g0"]}


def flags(name: str) -> list[str]:
    """The module's flags, less its -O level when CFLAGS names one: the builder's choice wins
    (the flags here come last on the compiler's line, so they would override it)."""
    own = FLAGS.get(name, ["-O1", "-g0"])
    if any(f.startswith("-O") for f in os.environ.get("CFLAGS", "").split()):
        return [f for f in own if not f.startswith("-O")]
    return own


extensions = [Extension(name, [source(name)], optional=True, extra_compile_args=flags(name))
              for name in COMPILED["MODULES"]]
setup(ext_modules=cythonize(extensions, build_dir="build/cython", quiet=True,
                            nthreads=os.cpu_count() or 1,
                            compiler_directives={"language_level": 3, "binding": True}),
      cmdclass={"build_ext": BuildRecordingSources},
      # One compiler a core (the editable install takes it from "build"): rules.c is half.
      options={cmd: {"parallel": os.cpu_count() or 1} for cmd in ("build", "build_ext")})
