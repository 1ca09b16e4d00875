"""Build zeph-rules, compiling the Cython hot paths when possible.

The pure-Python twins in ``zeph_rules/_speedups`` are always installed, so a
machine without Cython or a C compiler still gets a working package: the build
prints one warning line and carries on.  ``ZEPH_RULES_NO_EXTENSIONS=1`` skips
compilation on purpose (the pure leg of CI, PyPy, debugging).
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
SPEEDUPS = HERE / "zeph_rules" / "_speedups"


def _warn(message: str) -> None:
    sys.stderr.write(f"WARNING: zeph-rules: {message}; installing the pure-Python implementation\n")


class OptionalBuildExt(build_ext):
    """Build extensions, but never fail the install because of them.

    Every module that cannot be compiled is left out (its pure twin serves)
    and the build ends with one warning line naming them all.
    """

    def run(self) -> None:
        self._failed: list[str] = []
        try:
            super().run()
        except Exception as exc:  # compiler missing, headers missing, ...
            _warn(f"C extensions could not be built ({type(exc).__name__}: {exc})")
            return
        if self._failed:
            names = ", ".join(name.rsplit(".", 1)[-1] for name in self._failed)
            _warn(f"{len(self._failed)} of {len(self.extensions)} C extensions could not be built ({names})")

    def build_extension(self, ext):  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception:
            self._failed.append(ext.name)


def _extensions() -> list:  # type: ignore[type-arg]
    if os.environ.get("ZEPH_RULES_NO_EXTENSIONS"):
        sys.stderr.write("zeph-rules: ZEPH_RULES_NO_EXTENSIONS is set; skipping the C extensions\n")
        return []
    if platform.python_implementation() != "CPython":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        _warn("Cython is not available")
        return []
    extensions = []
    # one module at a time: a module that fails to translate costs only itself
    # (its pure twin is used), not every extension
    for source in sorted(str(p.relative_to(HERE)) for p in SPEEDUPS.glob("*.pyx")):
        try:
            extensions += cythonize(
                [source],
                language_level=3,
                compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
                quiet=True,
            )
        except Exception as exc:
            _warn(f"Cython could not translate {source} ({exc})")
    return extensions


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
