"""The one seam between the compiled hot paths and their pure-Python twins.

Everything else in zeph_rules imports hot paths from here and nowhere else,
and calls them as attributes of this module (``_speedups.find_literals``), so
tests can switch implementations with ``select``.

Each twin pair is ``_<name>_c`` (Cython) and ``_<name>_py`` (pure), exporting
the same names.  The compiled modules are used when every one of them was built
and imports; the pure twins otherwise, or always when
``ZEPH_RULES_NO_EXTENSIONS`` is set to a non-empty value other than ``0``.

A twin is imported when one of its names is first used, not when this package
is: the filter command needs two of the seven, and importing them all (with the
pure twins the compiled ones check their arguments with) cost a short-lived
process several milliseconds.
"""

from __future__ import annotations

import os
import sys

from ._tables import BigramIndex, LiteralTable, build_bigram_index, build_literal_table

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:  # type checkers see the pure twins, the readable reference
    from types import ModuleType
    from typing import Any

    from ._decide_py import all_matches as all_matches
    from ._decide_py import candidate_orders as candidate_orders
    from ._decide_py import collect_candidates as collect_candidates
    from ._decide_py import decide_call as decide_call
    from ._decide_py import decide_lists as decide_lists
    from ._decide_py import first_match as first_match
    from ._decide_py import holds_test as holds_test
    from ._dedup_py import dedup_lines as dedup_lines
    from ._dedup_py import normalize_line as normalize_line
    from ._lines_py import collapse_runs as collapse_runs
    from ._lines_py import line_end_flags as line_end_flags
    from ._lines_py import lines_containing as lines_containing
    from ._literals_py import find_literal_hits as find_literal_hits
    from ._literals_py import find_literals as find_literals
    from ._scan_py import candidate_windows as candidate_windows
    from ._scan_py import windows_and_marked_lines as windows_and_marked_lines
    from ._topk_py import prepare_matrix as prepare_matrix
    from ._topk_py import topk_cosine as topk_cosine
    from ._truncate_py import count_lines as count_lines
    from ._truncate_py import head_tail_split as head_tail_split

#: twin module stem -> the names it exports
TWINS: dict[str, tuple[str, ...]] = {
    "_literals": ("find_literals", "find_literal_hits"),
    "_truncate": ("count_lines", "head_tail_split"),
    "_dedup": ("normalize_line", "dedup_lines"),
    "_scan": ("candidate_windows", "windows_and_marked_lines"),
    "_topk": ("prepare_matrix", "topk_cosine"),
    "_decide": ("collect_candidates", "candidate_orders", "holds_test", "first_match", "all_matches", "decide_lists", "decide_call"),
    "_lines": ("collapse_runs", "line_end_flags", "lines_containing"),
}
#: the stems that have a Cython twin (``_<stem>_c.pyx``); the others are pure-only so far
COMPILED: frozenset[str] = frozenset({"_literals", "_scan", "_truncate", "_dedup", "_topk", "_decide", "_lines"})

IMPLEMENTATION: str = "pure"


def _pure_forced() -> bool:
    return os.environ.get("ZEPH_RULES_NO_EXTENSIONS", "") not in ("", "0")


def _import(name: str) -> ModuleType:
    """``importlib.import_module(name)`` without importing ``importlib`` (every ``filter`` process would pay)."""
    __import__(name)
    return sys.modules[name]


def _modules(kind: str) -> dict[str, ModuleType] | None:
    """Import every twin of ``kind`` ('c' or 'py'); None if any compiled one is missing."""
    found: dict[str, ModuleType] = {}
    for stem in TWINS:
        try:
            found[stem] = _import(f"{__name__}.{stem}_{kind}")
        except ImportError:
            if kind == "c" and stem in COMPILED:
                return None
            if kind == "c":
                try:
                    found[stem] = _import(f"{__name__}.{stem}_py")
                except ImportError:
                    pass
    return found


def available() -> tuple[str, ...]:
    """Return the implementations that can be selected here: only the pure one where it is forced.

    ``ZEPH_RULES_NO_EXTENSIONS`` means no compiled code runs, not even when a
    test or ``bench`` asks for it by name.
    """
    if _pure_forced():
        return ("pure",)
    return ("compiled", "pure") if _modules("c") is not None else ("pure",)


def select(implementation: str) -> None:
    """Bind the hot-path names to ``"compiled"`` or ``"pure"`` (tests use this)."""
    global IMPLEMENTATION
    modules = _modules("c" if implementation == "compiled" else "py")
    if modules is None or implementation not in ("compiled", "pure"):
        raise ValueError(f"implementation {implementation!r} is not available")
    for stem, names in TWINS.items():
        module = modules.get(stem)
        for name in names:
            if module is not None and hasattr(module, name):
                globals()[name] = getattr(module, name)
    IMPLEMENTATION = implementation


#: hot-path name -> the twin stem that exports it
_STEM_OF = {name: stem for stem, names in TWINS.items() for name in names}


def _compiled_built() -> bool:
    """Return whether every compiled twin is on disk (found, not imported: importing is deferred)."""
    # the package's folders listed against the extension suffixes: ``importlib.util.find_spec`` would do,
    # but importing ``importlib.util`` costs every ``filter`` process about a millisecond (``_imp`` is
    # built in; ``importlib.machinery.EXTENSION_SUFFIXES`` is its answer)
    import _imp

    suffixes = _imp.extension_suffixes()
    names: set[str] = set()
    for folder in __path__:
        try:
            names.update(os.listdir(folder))
        except OSError:
            continue
    return all(any(f"{stem}_c{suffix}" in names for suffix in suffixes) for stem in COMPILED)


def _bind(stem: str) -> None:
    """Import the selected twin of ``stem`` and bind its names; a compiled one that fails means pure."""
    kind = "c" if IMPLEMENTATION == "compiled" and stem in COMPILED else "py"
    try:
        module = _import(f"{__name__}.{stem}_{kind}")
    except ImportError:
        if kind == "py":
            raise
        select("pure")  # a compiled twin that will not import: every name goes pure, as at startup
        return
    for name in TWINS[stem]:
        globals()[name] = getattr(module, name)


def resolved_implementation() -> str:
    """Import every selected twin now and return the implementation in use (``--version`` says it)."""
    for stem in TWINS:
        _bind(stem)
    return IMPLEMENTATION


def __getattr__(name: str) -> Any:
    """Bind a hot-path name on first use (PEP 562)."""
    stem = _STEM_OF.get(name)
    if stem is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    _bind(stem)
    return globals()[name]


if not _pure_forced() and sys.implementation.name == "cpython" and _compiled_built():
    IMPLEMENTATION = "compiled"

__all__ = [
    "IMPLEMENTATION",
    "TWINS",
    "BigramIndex",
    "LiteralTable",
    "available",
    "build_bigram_index",
    "build_literal_table",
    "resolved_implementation",
    "select",
]
for _names in TWINS.values():
    __all__.extend(_names)
