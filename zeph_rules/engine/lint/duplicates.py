"""ZR601: two rules with one name.

A filter rule with the name of an earlier one *in the same file* silently
replaces it (the override is meant for user files over the built-ins), and a
policy or authorization `id` used twice makes decisions name an ambiguous
rule.  Both are reported at the second occurrence, naming the first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Diagnostic
from ..source import PathKey, SourceFile
from .context import LintContext


def duplicate_names(ctx: LintContext) -> Iterator[Diagnostic]:
    """Report filter names repeated within a file and policy ids repeated anywhere checked."""
    ids: dict[str, tuple[SourceFile, PathKey]] = {}
    for src in ctx.checked_sources():
        names: dict[str, PathKey] = {}
        for index, entry in enumerate(_list(src.data.get("rules"))):
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(name, str):
                continue
            path: PathKey = ("rules", index, "name")
            if name in names:
                first = src.span_of(names[name])
                yield ctx.at(src, path, "ZR601", f"filter rule name `{name}` is already used at line {first.line}; this rule silently replaces that one",
                             hint="give each rule its own name, or delete the older one", rule=name)
            else:
                names[name] = path
        tools = src.data.get("tools")
        for section in ("policy", "authorization"):
            table = tools.get(section) if isinstance(tools, dict) else None
            for index, entry in enumerate(_list(table.get("rules") if isinstance(table, dict) else None)):
                rule_id = entry.get("id") if isinstance(entry, dict) else None
                if not isinstance(rule_id, str):
                    continue
                path = ("tools", section, "rules", index, "id")
                if rule_id in ids:
                    first_src, first_path = ids[rule_id]
                    span = first_src.span_of(first_path)
                    where = f"line {span.line}" if first_src is src else f"{first_src.path}:{span.line}"
                    yield ctx.at(src, path, "ZR601", f"rule id `{rule_id}` is already used at {where}; decisions would name either",
                                 hint="give each rule its own id", rule=rule_id)
                else:
                    ids[rule_id] = (src, path)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
