"""What every lint pass reads: the loaded files, the rule set, the graph."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import ERROR, Diagnostic
from ..ir import Rule
from ..ruleset import InlineExample, RuleSet
from ..source import PathKey, SourceFile
from ..span import Span

if TYPE_CHECKING:  # pragma: no cover
    from ..graph import MatcherGraph


def _span_key(span: Span) -> tuple[str, int, int, int, int]:
    return (span.file, span.line, span.col, span.end_line, span.end_col)


@dataclass
class LintContext:
    """The sources (built-ins included when they take part), their rule set, and which files to report on."""

    sources: tuple[SourceFile, ...]
    ruleset: RuleSet
    checked: frozenset[str]
    _graph: Any = field(default=None, repr=False)
    _paths: dict[tuple[str, int, int, int, int], tuple[SourceFile, PathKey]] | None = field(default=None, repr=False)

    # ------------------------------------------------------------ lookups

    @property
    def graph(self) -> MatcherGraph:
        """Return the compiled graph of the whole rule set (compiled once, on first use)."""
        if self._graph is None:
            from ..compiler import compile_rules

            self._graph = compile_rules(self.ruleset)
        return self._graph  # type: ignore[no-any-return]

    def source(self, file: str) -> SourceFile | None:
        return next((s for s in self.sources if s.path == file), None)

    def checked_sources(self) -> Iterator[SourceFile]:
        return (s for s in self.sources if s.path in self.checked)

    def reported(self, rule: Rule) -> bool:
        """Return whether diagnostics about ``rule`` are shown (it lives in a checked file)."""
        return rule.span.file in self.checked

    def locate(self, span: Span) -> tuple[SourceFile, PathKey] | None:
        """Return the source and data path of the rule or test table at ``span``."""
        if self._paths is None:
            self._paths = {}
            for src in self.sources:
                for path in _table_paths(src.data):
                    self._paths.setdefault(_span_key(src.span_of(path)), (src, path))
        return self._paths.get(_span_key(span))

    def rule_location(self, rule: Rule) -> tuple[SourceFile, PathKey] | None:
        return self.locate(rule.span)

    def test_location(self, test: InlineExample) -> tuple[SourceFile, PathKey] | None:
        return self.locate(test.span)

    # ------------------------------------------------------------ diagnostics

    def at(self, src: SourceFile, path: PathKey, code: str, message: str, *, hint: str | None = None,
           severity: str = ERROR, rule: str | None = None, offset: int | None = None, length: int = 1,
           key: bool = False) -> Diagnostic:
        """Build a diagnostic at the value (or key) at ``path``, or at ``offset`` inside that string."""
        if offset is not None and tuple(path) in src.strings:
            line, col = src.position_in_string(path, offset)
            end_line, end_col = line, col + max(1, length)
        else:
            span = src.key_span_of(path) if key else src.span_of(path)
            line, col, end_line, end_col = span.line, span.col, span.end_line, span.end_col
        return Diagnostic(src.path, line, col, severity, code, message, end_line, end_col, rule, hint)

    def at_rule(self, rule: Rule, code: str, message: str, *, sub: PathKey = (), hint: str | None = None,
                severity: str = ERROR) -> Diagnostic:
        """Build a diagnostic about ``rule``, at its ``sub`` key when there is one."""
        found = self.rule_location(rule)
        if found is None:
            s = rule.span
            return Diagnostic(s.file, s.line, s.col, severity, code, message, s.end_line, s.end_col, rule.id, hint)
        src, path = found
        target = path + sub if sub and _has(src.data, path + sub) else path
        return self.at(src, target, code, message, hint=hint, severity=severity, rule=rule.id)


def _has(data: Any, path: PathKey) -> bool:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return False
    return True


def _table_paths(data: dict[str, Any]) -> Iterator[PathKey]:
    """Yield the data paths that become rules or tests (their spans identify them)."""
    for index, _ in enumerate(_list(data.get("rules"))):
        yield ("rules", index)
    for index, _ in enumerate(_list(data.get("tests"))):
        yield ("tests", index)
    tools = data.get("tools")
    if not isinstance(tools, dict):
        return
    permissions = tools.get("permissions")
    if isinstance(permissions, dict):
        for tool, entries in permissions.items():
            for index, _ in enumerate(_list(entries)):
                yield ("tools", "permissions", tool, index)
    shell = tools.get("shell")
    if isinstance(shell, dict):
        for key in ("blocked_commands", "confirm_patterns", "allowed_commands"):
            for index, _ in enumerate(_list(shell.get(key))):
                yield ("tools", "shell", key, index)
    for section in ("policy", "authorization"):
        table = tools.get(section)
        if isinstance(table, dict):
            for index, _ in enumerate(_list(table.get("rules"))):
                yield ("tools", section, "rules", index)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
