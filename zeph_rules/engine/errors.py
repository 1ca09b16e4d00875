"""The error taxonomy and the diagnostic record shared by every stage.

One root exception, one subclass per stage.  Each carries a ``Diagnostic`` with
file, line, column, an end position, a code and an optional "did you mean", so
the CLI can render ``file:line:col: error: CODE: message`` with a caret snippet
and ``check`` can collect every problem of a run instead of stopping at the first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a rule file, at a position."""

    file: str
    line: int
    col: int
    severity: str
    code: str
    message: str
    end_line: int = 0
    end_col: int = 0
    rule: str | None = None
    hint: str | None = None

    def render(self) -> str:
        """Return the one-line ``file:line:col: severity: CODE: message`` form."""
        text = f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.code}: {self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return text

    def snippet(self, source_lines: Sequence[str] | None) -> str:
        """Return the offending source line with a caret under the column, or ''."""
        if not source_lines or not 1 <= self.line <= len(source_lines):
            return ""
        line = source_lines[self.line - 1].rstrip("\n").expandtabs(1)
        width = 1
        if self.end_line == self.line and self.end_col > self.col:
            width = self.end_col - self.col
        width = max(1, min(width, max(1, len(line) - self.col + 1)))
        return f"  {line}\n  {' ' * max(0, self.col - 1)}{'^' * width}"

    def as_json(self) -> dict[str, object]:
        """Return the stable JSON shape documented in the README."""
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line or self.line,
            "end_col": self.end_col or self.col,
            "severity": self.severity,
            "code": self.code,
            "message": self.message if not self.hint else f"{self.message} ({self.hint})",
            "rule": self.rule,
        }


class ZephRulesError(Exception):
    """Root of every error zeph-rules raises on purpose."""

    exit_code = 1

    def __init__(self, message: str, diagnostics: Iterable[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)


class RuleFileError(ZephRulesError):
    """A rule file could not be read or parsed."""


class SchemaError(ZephRulesError):
    """A rule file parsed but does not fit the schema."""


class DslError(ZephRulesError):
    """A DSL expression could not be parsed or type-checked."""


class CompileError(ZephRulesError):
    """The IR could not be lowered to a matcher graph."""


class UsageError(ZephRulesError):
    """The caller used the API or the command line wrongly."""

    exit_code = 2


@dataclass
class DiagnosticSink:
    """Collects diagnostics; ``check`` reports them all, ``load`` raises on errors."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == ERROR]


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """Return ``did you mean `x`?`` for the closest candidate, or None."""
    import difflib  # only when there is an error to explain

    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{matches[0]}`?" if matches else None
