"""Load rule files (built-ins first, then the user's, in order) into a graph.

``load`` is the warm path: it hashes the rule files' bytes and, when a cached
graph exists for that hash, unpickles it without importing the front end
(lark, pydantic, tomlkit, yaml).  Otherwise it parses, validates, desugars and
compiles, then caches the result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

from .cache import fingerprint, load_cached, store_cached
from .graph import MatcherGraph

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "builtin_rules"
#: Built-in rule files, loaded through the same path as user files.
BUILTIN_FILES = ("filters.toml", "blocklist.toml")


def builtin_paths() -> list[Path]:
    return [BUILTIN_DIR / name for name in BUILTIN_FILES if (BUILTIN_DIR / name).exists()]


def _display(path: Path) -> str:
    try:
        if path.is_relative_to(BUILTIN_DIR):
            return f"<builtin>/{path.name}"
    except (ValueError, OSError):
        pass
    return str(path)


def _read_inputs(paths: Sequence[str | Path], builtin: bool) -> list[tuple[str, Path, bytes | None]]:
    files = (builtin_paths() if builtin else []) + [Path(p) for p in paths]
    inputs = []
    for path in files:
        try:
            data: bytes | None = path.read_bytes()
        except OSError:
            data = None
        inputs.append((_display(path), path, data))
    return inputs


def load_ruleset(paths: Sequence[str | Path] = (), builtin: bool = True):  # type: ignore[no-untyped-def]
    """Parse and desugar rule files into a ``RuleSet`` (the cold front end)."""
    from .desugar import desugar
    from .source import parse_rule_bytes, read_rule_file

    sources = []
    for display, path, data in _read_inputs(paths, builtin):
        if data is None:
            sources.append(read_rule_file(path, display))  # reports the OSError
        else:
            sources.append(parse_rule_bytes(data, display, yaml=path.suffix in (".yaml", ".yml")))
    return desugar(sources)


def load(paths: Sequence[str | Path] = (), builtin: bool = True, cache: bool = True) -> MatcherGraph:
    """Return the compiled graph for the rule files, from the cache when fresh."""
    inputs = _read_inputs(paths, builtin)
    key = fingerprint([(name, data if data is not None else b"\0missing") for name, _, data in inputs],
                      options=f"builtin={builtin}")
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
