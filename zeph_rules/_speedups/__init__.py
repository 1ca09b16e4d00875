"""The one seam between the compiled hot paths and their pure-Python twins.

Everything else in zeph_rules imports hot paths from here and nowhere else.
The compiled modules are used when they were built and can be imported; the
pure twins otherwise, or always when ``ZEPH_RULES_NO_EXTENSIONS`` is set to a
non-empty value other than ``0``.
"""

from __future__ import annotations

import os
import platform

from ._tables import LiteralTable, build_literal_table

IMPLEMENTATION: str


def _pure_forced() -> bool:
    return os.environ.get("ZEPH_RULES_NO_EXTENSIONS", "") not in ("", "0")


if _pure_forced() or platform.python_implementation() != "CPython":
    from ._literals_py import find_literal_hits, find_literals

    IMPLEMENTATION = "pure"
else:
    try:
        from ._literals_c import find_literal_hits, find_literals  # type: ignore[no-redef]
    except ImportError:
        from ._literals_py import find_literal_hits, find_literals

        IMPLEMENTATION = "pure"
    else:
        IMPLEMENTATION = "compiled"

__all__ = [
    "IMPLEMENTATION",
    "LiteralTable",
    "build_literal_table",
    "find_literal_hits",
    "find_literals",
]
