"""The loaded, desugared rule set: IR rules plus settings, before compilation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import Diagnostic
from .ir import Rule
from .span import Span


@dataclass(frozen=True)
class InlineExample:
    """One ``[[tests]]`` entry, with where it was written."""

    values: tuple[tuple[str, Any], ...]
    span: Span

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.values).get(key, default)


@dataclass(frozen=True)
class RuleSet:
    """Everything the rule files said, as IR, in file order, ready to compile."""

    rules: tuple[Rule, ...] = ()
    settings: tuple[tuple[str, Any], ...] = ()
    tests: tuple[InlineExample, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    files: tuple[str, ...] = ()

    def setting(self, key: str, default: Any = None) -> Any:
        return dict(self.settings).get(key, default)

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")
