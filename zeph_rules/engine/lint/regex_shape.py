"""ZR201–ZR204: regexes that backtrack catastrophically or match every line.

Validation already rejects regexes that do not compile (ZR030) or are too
long (ZR031).  Here every regex of a checked file — `match.regex`, the
`/.../` literals of DSL conditions, strategy patterns, `args_match` — is
analysed for exponential-backtracking shapes, and the patterns of strategies
that delete or keep lines are tried for matching everything.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import models
from ..errors import ERROR, WARNING, Diagnostic
from ..ir import And, Compare, Expr, Not, Or, Regex
from ..source import PathKey, SourceFile
from .context import LintContext
from .regex_analysis import matches_everything, risky_shapes

_STRATEGY_SINGLE = ("summary_pattern", "location_pattern", "rule_pattern")
#: Strategies whose `patterns` delete the lines they match, and the one that keeps them.
_DELETES = ("strip_noise", "strip_annotated")
_KEEPS = ("keep_matching",)


def regex_shapes(ctx: LintContext) -> Iterator[Diagnostic]:
    """Report risky regex shapes and line patterns that match every line."""
    for src in ctx.checked_sources():
        for path, source, flags, offset, rule in _regexes(src):
            for shape in risky_shapes(source, flags):
                kind = "nested quantifiers" if shape.code == "ZR201" else "overlapping alternatives under a quantifier"
                yield ctx.at(
                    src, path, shape.code,
                    f"regex may backtrack catastrophically: `{shape.fragment}` has {kind} ({shape.detail})",
                    hint="make the parts unambiguous (e.g. `(a+)+` -> `a+`, `(\\w|\\d)+` -> `\\w+`), or use a possessive `++` / atomic `(?>...)`",
                    rule=rule, offset=offset + shape.offset, length=shape.length,
                )
        yield from _line_patterns(ctx, src)


def _line_patterns(ctx: LintContext, src: SourceFile) -> Iterator[Diagnostic]:
    reported: set[tuple[str, PathKey]] = set()
    for index, entry in enumerate(_list(src.data.get("rules"))):
        strategy = entry.get("strategy") if isinstance(entry, dict) else None
        if not isinstance(strategy, dict) or strategy.get("type") not in (*_DELETES, *_KEEPS):
            continue
        name = entry.get("name") if isinstance(entry.get("name"), str) else None
        if strategy.get("block_start"):
            # the patterns strip only the inside of closed blocks: one that matches every line empties each
            # block (a passing run's plan), its bounds and every line outside a block stay
            continue
        for k, item in enumerate(_list(strategy.get("patterns"))):
            if isinstance(item, str):
                places = [(src, ("rules", index, "strategy", "patterns", k), item)]
            elif isinstance(item, dict) and isinstance(item.get("use"), str):
                places = list(_set_patterns(ctx, item["use"]))  # reported where the set defines them
            else:
                continue
            for where, path, pattern in places:
                if (where.path, path) in reported or not matches_everything(pattern):
                    continue
                reported.add((where.path, path))
                if strategy["type"] in _DELETES:
                    yield ctx.at(where, path, "ZR203", f"pattern `{pattern}` matches every line (it matches the empty string), so `{strategy['type']}` would delete all output",
                                 hint="anchor it or require at least one character (e.g. `^\\s*$` for blank lines)", rule=name)
                else:
                    yield ctx.at(where, path, "ZR204", f"pattern `{pattern}` matches every line, so `keep_matching` keeps everything",
                                 hint="require at least one character", severity=WARNING, rule=name)


def _set_patterns(ctx: LintContext, set_name: str) -> Iterator[tuple[SourceFile, PathKey, str]]:
    """Yield (file, path, regex) of the pattern set a rule uses: the last loaded file's definition wins."""
    for src in reversed(ctx.sources):
        sets = src.data.get("pattern_sets")
        if isinstance(sets, dict) and set_name in sets:
            for k, pattern in enumerate(_list(sets[set_name])):
                if isinstance(pattern, str):
                    yield src, ("pattern_sets", set_name, k), pattern
            return


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _regexes(src: SourceFile) -> Iterator[tuple[PathKey, str, str, int, str | None]]:
    """Yield (path, regex source, flags, offset of the regex inside the string value, rule name)."""
    for index, entry in enumerate(_list(src.data.get("rules"))):
        if not isinstance(entry, dict):
            continue
        name = entry.get("name") if isinstance(entry.get("name"), str) else None
        base: PathKey = ("rules", index)
        match = entry.get("match")
        if isinstance(match, dict) and isinstance(match.get("regex"), str):
            yield base + ("match", "regex"), match["regex"], "", 0, name
        elif isinstance(match, str):
            yield from _dsl_regexes(base + ("match",), match, name)
        strategy = entry.get("strategy")
        if isinstance(strategy, dict):
            for key in _STRATEGY_SINGLE:
                if isinstance(strategy.get(key), str):
                    yield base + ("strategy", key), strategy[key], "", 0, name
            for key in models.PATTERN_LIST_FIELDS:
                for k, pattern in enumerate(_list(strategy.get(key))):
                    if isinstance(pattern, str):
                        yield base + ("strategy", key, k), pattern, "", 0, name
    sets = src.data.get("pattern_sets")
    for set_name, patterns in (sets.items() if isinstance(sets, dict) else ()):
        for k, pattern in enumerate(_list(patterns)):
            if isinstance(pattern, str):
                yield ("pattern_sets", set_name, k), pattern, "", 0, None
    tools = src.data.get("tools")
    for section in ("policy", "authorization"):
        table = tools.get(section) if isinstance(tools, dict) else None
        if not isinstance(table, dict):
            continue
        for index, entry in enumerate(_list(table.get("rules"))):
            if not isinstance(entry, dict):
                continue
            rule_id = entry.get("id") if isinstance(entry.get("id"), str) else f"{section}.rules[{index}]"
            base = ("tools", section, "rules", index)
            if isinstance(entry.get("args_match"), str):
                yield base + ("args_match",), entry["args_match"], "", 0, rule_id
            if isinstance(entry.get("when"), str):
                yield from _dsl_regexes(base + ("when",), entry["when"], rule_id)


def _dsl_regexes(path: PathKey, text: str, rule: str | None) -> Iterator[tuple[PathKey, str, str, int, str | None]]:
    from ...grammar import DslSyntaxError, parse_expression

    try:
        expr = parse_expression(text)
    except DslSyntaxError:
        return  # reported by validation
    searched = 0
    for regex in _regex_literals(expr):
        written = "/" + regex.source.replace("/", "\\/") + "/"
        at = text.find(written, searched)
        if at < 0:
            at = text.find(written)
        if at >= 0:
            searched = at + len(written)
        yield path, regex.source, regex.flags, max(at, 0) + 1, rule


def _regex_literals(expr: Expr) -> Iterator[Regex]:
    if isinstance(expr, Compare):
        if isinstance(expr.value, Regex):
            yield expr.value
    elif isinstance(expr, (And, Or)):
        for item in expr.items:
            yield from _regex_literals(item)
    elif isinstance(expr, Not):
        yield from _regex_literals(expr.item)


__all__ = ["ERROR", "regex_shapes"]
