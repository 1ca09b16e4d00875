"""Pieces every test-runner parser uses: the report it builds and the failure budget."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .._common import cut_block, omitted_marker, plural

#: a ``path/to/file.ext:LINE`` location anywhere in a line
LOCATION = re.compile(r"[\w./\\-]+\.\w+:\d+")


@dataclass
class Report:
    """The lines a parser keeps, and what it learnt while choosing them."""

    lines: list[str] = field(default_factory=list)
    failures: int = 0
    passed_omitted: int = 0
    skipped_omitted: int = 0
    other_omitted: int = 0
    #: further dropped material for the head marker, e.g. ``"5 lines of session header"``
    also_omitted: list[str] = field(default_factory=list)
    #: set when the parser met something it did not expect (the report stays conservative)
    unsure: bool = False

    def omit_passed(self, count: int = 1) -> None:
        """Count dropped passing-test lines."""
        self.passed_omitted += count

    def omit_skipped(self, count: int = 1) -> None:
        """Count dropped skipped / ignored / expected-failure test lines."""
        self.skipped_omitted += count

    def finish(self) -> list[str]:
        """Return the lines, headed by one marker counting everything dropped wholesale."""
        parts = []
        if self.passed_omitted:
            parts.append(plural(self.passed_omitted, "passing test"))
        if self.skipped_omitted:
            parts.append(plural(self.skipped_omitted, "skipped test"))
        parts += self.also_omitted
        if not parts:
            return self.lines
        listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
        return [f"... ({listed} omitted) ...", *self.lines]


class FailureBudget:
    """Admit the first ``limit`` failure details; name the rest in one marker."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.shown = 0
        self.hidden: list[str] = []
        self.hidden_lines = 0

    def admit(self, name: str) -> bool:
        """Return whether the details of failure ``name`` should be shown."""
        if self.shown < self.limit:
            self.shown += 1
            return True
        self.hidden.append(name)
        return False

    def marker(self) -> str | None:
        """Return the marker naming the failures whose details were cut, if any."""
        if not self.hidden:
            return None
        names = ", ".join(self.hidden)
        return (
            f"... ({plural(len(self.hidden), 'more failure')} not shown in detail "
            f"({plural(self.hidden_lines, 'line')} omitted): {names}) ..."
        )


def cut_trace(lines: list[str], limit: int, is_signal: Callable[[str], bool] | None = None) -> list[str]:
    """Cut one failure's details to ``limit`` lines, keeping messages and locations."""
    return cut_block(lines, limit, is_signal or looks_important)


_IMPORTANT = re.compile(
    r"panicked at|assert|Error|error|FAIL|Expected|Received|expected|actual|\bleft\b|\bright\b|^E\s|^>\s"
)


def looks_important(line: str) -> bool:
    """Return whether a detail line carries a message or a location worth keeping past a cut."""
    return bool(_IMPORTANT.search(line)) or bool(LOCATION.search(line))


__all__ = ["LOCATION", "FailureBudget", "Report", "cut_trace", "looks_important", "omitted_marker"]


def tidy(lines: list[str]) -> list[str]:
    """Drop leading and trailing blank lines and squeeze blank runs left behind by cuts."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


class Placeholder:
    """A slot in an output list, filled with a marker once the whole input has been read."""

    def __init__(self) -> None:
        self.text: str | None = None


def resolve(lines: list[str | Placeholder]) -> list[str]:
    """Replace placeholders by their marker text; drop the ones left empty."""
    resolved: list[str] = []
    for item in lines:
        if isinstance(item, str):
            resolved.append(item)
        elif item.text:
            resolved.append(item.text)
    return resolved
