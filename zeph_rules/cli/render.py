"""Format diagnostics and results for the terminal and for JSON consumers."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def source_lines(file: str) -> list[str] | None:
    """Return the lines of a rule file for snippets (built-ins come from the package)."""
    if file.startswith("<builtin>/"):
        from ..engine.loader import BUILTIN_DIR

        path = BUILTIN_DIR / file.split("/", 1)[1]
    else:
        path = Path(file)
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None


def diagnostics_text(diagnostics: Sequence[Any], snippets: bool = True) -> str:
    """Render diagnostics as ``file:line:col: severity: CODE: message`` plus a caret snippet."""
    cache: dict[str, list[str] | None] = {}
    out: list[str] = []
    for diagnostic in diagnostics:
        out.append(diagnostic.render())
        if snippets:
            if diagnostic.file not in cache:
                cache[diagnostic.file] = source_lines(diagnostic.file)
            snippet = diagnostic.snippet(cache[diagnostic.file])
            if snippet:
                out.append(snippet)
    return "\n".join(out)


def summary_line(diagnostics: Iterable[Any], files: int) -> str:
    items = list(diagnostics)
    errors = sum(1 for d in items if d.severity == "error")
    warnings = len(items) - errors
    if not items:
        return f"All checks passed ({files} file{'s' if files != 1 else ''})."
    return f"Found {errors} error{'s' if errors != 1 else ''} and {warnings} warning{'s' if warnings != 1 else ''} in {files} file{'s' if files != 1 else ''}."


def to_json(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=False, ensure_ascii=False)
