"""Load rule files (built-ins first, then the user's, in order) into a graph.

``load`` is the warm path: it hashes the rule files' bytes and, when a cached
graph exists for that hash, unpickles it without importing the front end
(lark, pydantic, tomlkit, yaml).  Otherwise it parses, validates, desugars and
compiles, then caches the result.

``load_plan`` is the warmer path of ``zeph-rules filter``: with the same key it
finds the cached filter plan for one command line and exit code, and imports
neither the graph nor the matcher (nor the regex engine rule conditions use).
This module therefore imports the graph only where it builds or loads one.
"""

from __future__ import annotations

import os

from .cache import (
    fingerprint,
    load_cached,
    load_cached_plan,
    store_cached,
    store_cached_plan,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable, Sequence
    from pathlib import Path

    from .graph import MatcherGraph
    from .pipeline import FilterPlan
    from .ruleset import RuleSet

    BUILTIN_DIR: Path

#: the built-in rules' folder as a string: the warm ``filter`` path does without ``pathlib``
#: (``BUILTIN_DIR``, the same folder as a ``Path``, is made on first use)
_BUILTIN_FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "builtin_rules")
#: Built-in rule files, loaded through the same path as user files.
BUILTIN_FILES = ("filters.toml", "blocklist.toml")


def __getattr__(name: str) -> Path:
    if name != "BUILTIN_DIR":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from pathlib import Path

    folder = globals()["BUILTIN_DIR"] = Path(_BUILTIN_FOLDER)
    return folder


def builtin_paths() -> list[Path]:
    from pathlib import Path

    return [Path(path) for path in _builtin_files()]


def _builtin_files() -> list[str]:
    return [path for path in (os.path.join(_BUILTIN_FOLDER, name) for name in BUILTIN_FILES) if os.path.exists(path)]


def _display(path: Path) -> str:
    try:
        if path.is_relative_to(_BUILTIN_FOLDER):
            return f"<builtin>/{path.name}"
    except (ValueError, OSError):
        pass
    return str(path)


def _read_inputs(paths: Sequence[str | Path], builtin: bool) -> list[tuple[str, str | Path, bytes | None]]:
    """Return (display name, path, bytes or None when unreadable) of the built-in files, then of ``paths``."""
    inputs: list[tuple[str, str | Path, bytes | None]] = [
        (f"<builtin>/{os.path.basename(path)}", path, _read_bytes(path)) for path in (_builtin_files() if builtin else ())]
    if paths:
        from pathlib import Path

        for given in paths:
            path = Path(given)
            inputs.append((_display(path), path, _read_bytes(path)))
    return inputs


def _read_bytes(path: str | Path) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def load_ruleset(paths: Sequence[str | Path] = (), builtin: bool = True) -> RuleSet:
    """Parse and desugar rule files into a ``RuleSet`` (the cold front end)."""
    from .desugar import desugar
    from .source import parse_rule_bytes, read_rule_file

    sources = []
    for display, path, data in _read_inputs(paths, builtin):
        if data is None:
            sources.append(read_rule_file(path, display))  # reports the OSError
        else:
            sources.append(parse_rule_bytes(data, display, yaml=os.path.splitext(path)[1] in (".yaml", ".yml")))
    return desugar(sources)


#: the built-in credential patterns: every graph's security pass compiles them, with or without the
#: built-in rules, so they are part of every graph's cache key
_SECURITY_FILE = os.path.join(_BUILTIN_FOLDER, "security.toml")


def _graph_key(inputs: Sequence[tuple[str, str | Path, bytes | None]], builtin: bool) -> str:
    """Return the cache key of the graph compiled from ``inputs`` (see ``cache.fingerprint``).

    The credential patterns count by their file's size and time, not its bytes: hashing its 70 KB
    again doubled the key's cost on every ``filter`` call, and a release changes the version anyway;
    an edited checkout changes the time.
    """
    try:
        found = os.stat(_SECURITY_FILE)
        security = f"{found.st_size}:{found.st_mtime_ns}"
    except OSError:
        security = "missing"
    return fingerprint([(name, data if data is not None else b"\0missing") for name, _, data in inputs],
                       options=f"builtin={builtin} security={security}")


def load(paths: Sequence[str | Path] = (), builtin: bool = True, cache: bool = True) -> MatcherGraph:
    """Return the compiled graph for the rule files, from the cache when fresh."""
    inputs = _read_inputs(paths, builtin)
    return _load(inputs, _graph_key(inputs, builtin), paths, builtin, cache)


def load_plan(paths: Sequence[str | Path], builtin: bool, command: str, exit_code: int | None) -> FilterPlan:
    """Return the filter plan of the rule files for ``command`` and ``exit_code``, from the cache when fresh.

    On a miss the graph is loaded as by ``load`` and the plan built from it is
    cached; with caching off (``ZEPH_RULES_CACHE_DIR=off``) this is always a miss.
    """
    from .pipeline import FilterPlan, build_plan

    inputs = _read_inputs(paths, builtin)
    key = _graph_key(inputs, builtin)
    complete = not any(data is None for _, _, data in inputs)  # else loading the graph reports the missing file
    if complete:
        cached = load_cached_plan(key, command, exit_code)
        if cached is not None:
            return FilterPlan(*cached)
    plan = build_plan(_load(inputs, key, paths, builtin, cache=True), command, exit_code)
    if complete:
        store_cached_plan(key, command, exit_code, plan.rules, plan.redact, plan.scanner, plan.pattern_facts)
    return plan


def _load(inputs: Sequence[tuple[str, str | Path, bytes | None]], key: str, paths: Sequence[str | Path], builtin: bool,
          cache: bool) -> MatcherGraph:
    from .graph import MatcherGraph

    if cache:
        cached = load_cached(key)
        if isinstance(cached, MatcherGraph):
            return cached
    from .compiler import compile_rules

    ruleset = load_ruleset(paths, builtin)
    graph = compile_rules(ruleset, fingerprint=key)
    graph = _with_diagnostics(graph, ruleset.diagnostics)
    if cache and not any(data is None for _, _, data in inputs):
        store_cached(key, graph)
    return graph


def _with_diagnostics(graph: MatcherGraph, diagnostics: Iterable[object]) -> MatcherGraph:
    from dataclasses import replace

    return replace(graph, extra={**graph.extra, "diagnostics": tuple(diagnostics)})
