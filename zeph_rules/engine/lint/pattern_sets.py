"""ZR603: a pattern set no rule uses.

A `[pattern_sets]` entry only acts through the rules that name it with
`{ use = "name" }`; one that nothing names is dead (often a typo on the rule's
side is reported as ZR027 there, and the set it meant shows up here).  Every
loaded file's rules count, so a user file may define sets for the next file.
A set that a later file redefines is dead too: the later definition wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import models
from ..errors import WARNING, Diagnostic
from ..source import SourceFile
from .context import LintContext


def unused_pattern_sets(ctx: LintContext) -> Iterator[Diagnostic]:
    """Report pattern sets of the checked files that no loaded rule uses, or that a later file replaces."""
    used = {name for src in ctx.sources for name in _references(src)}
    for position, src in enumerate(ctx.sources):
        if src.path not in ctx.checked:
            continue
        for name in _set_names(src):
            later = next((s for s in ctx.sources[position + 1:] if name in _set_names(s)), None)
            if later is not None:
                line = later.key_span_of(("pattern_sets", name)).line
                yield ctx.at(src, ("pattern_sets", name), "ZR603", f"pattern set `{name}` is replaced by the one at {later.path}:{line}",
                             hint="rename one of them, or delete this one", severity=WARNING, key=True)
            elif name not in used:
                yield ctx.at(src, ("pattern_sets", name), "ZR603", f"pattern set `{name}` is not used by any rule",
                             hint=f'use it in a strategy\'s pattern list (`{{ use = "{name}" }}`), or delete it', severity=WARNING, key=True)


def _set_names(src: SourceFile) -> list[str]:
    sets = src.data.get("pattern_sets")
    return list(sets) if isinstance(sets, dict) else []


def _references(src: SourceFile) -> Iterator[str]:
    for entry in _list(src.data.get("rules")):
        strategy = entry.get("strategy") if isinstance(entry, dict) else None
        if not isinstance(strategy, dict):
            continue
        for key in models.PATTERN_LIST_FIELDS:
            for item in _list(strategy.get(key)):
                if isinstance(item, dict) and isinstance(item.get("use"), str):
                    yield item["use"]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
