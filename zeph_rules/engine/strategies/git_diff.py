"""``git_diff``: every file and hunk header, body lines shared out under a limit, and a stat line.

Handles ``git diff`` (also ``--cached``, combined ``--cc`` diffs of merges)
and ``git show`` (the commit header is kept before the diff).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ._common import (
    Confidence,
    StrategyResult,
    fallback,
    guarded,
    int_param,
    join_lines,
    split_lines,
)

_FILE_START = re.compile(r"^diff --(?:git|cc|combined) (?P<paths>.+)$")
_HEADER = re.compile(
    r"^(?:index |--- |\+\+\+ |old mode |new mode |deleted file mode |new file mode |similarity index |"
    r"dissimilarity index |rename from |rename to |copy from |copy to |Binary files |GIT binary patch)"
)
_HUNK = re.compile(r"^@@@? ")
_PLUS_PATH = re.compile(r"^\+\+\+ (?:b/)?(?P<path>.+)$")


class _FileDiff:
    """One file's section of a diff: header lines, then hunks of body lines."""

    def __init__(self, first_line: str) -> None:
        self.lines: list[tuple[str, bool]] = [(first_line, True)]  # (line, is_header)
        match = _FILE_START.match(first_line)
        paths = match["paths"] if match else first_line
        self.path = paths.split(" b/", 1)[-1] if " b/" in paths else paths.split()[-1]
        self.combined = first_line.startswith(("diff --cc", "diff --combined"))
        self.in_header = True

    def add(self, line: str) -> None:
        if _HUNK.match(line):
            self.in_header = False
            self.lines.append((line, True))
        elif self.in_header and (_HEADER.match(line) or not line.startswith((" ", "+", "-"))):
            plus = _PLUS_PATH.match(line)
            if plus and plus["path"] != "/dev/null":
                self.path = plus["path"]
            self.lines.append((line, True))
        else:
            self.lines.append((line, False))

    @property
    def body_size(self) -> int:
        return sum(1 for _, is_header in self.lines if not is_header)

    def counts(self) -> tuple[int, int]:
        """Return (insertions, deletions) in this file's body."""
        width = 2 if self.combined else 1
        insertions = deletions = 0
        for line, is_header in self.lines:
            if is_header:
                continue
            marks = line[:width]
            if "+" in marks:
                insertions += 1
            elif "-" in marks:
                deletions += 1
        return insertions, deletions


def _parse(lines: list[str]) -> tuple[list[str], list[_FileDiff]]:
    preamble: list[str] = []
    files: list[_FileDiff] = []
    for line in lines:
        if _FILE_START.match(line):
            files.append(_FileDiff(line))
        elif files:
            files[-1].add(line)
        else:
            preamble.append(line)
    return preamble, files


def _stat_line(files: list[_FileDiff]) -> str:
    insertions = deletions = 0
    for file_diff in files:
        added, removed = file_diff.counts()
        insertions += added
        deletions += removed
    changed = len(files)
    return (
        f"{changed} file{'s' if changed != 1 else ''} changed, "
        f"{insertions} insertion{'s' if insertions != 1 else ''}(+), "
        f"{deletions} deletion{'s' if deletions != 1 else ''}(-)"
    )


def _budgets(files: list[_FileDiff], limit: int) -> list[int]:
    """Share ``limit`` body lines between files in proportion to their size (each gets a few)."""
    total = sum(file_diff.body_size for file_diff in files)
    if total <= limit:
        return [file_diff.body_size for file_diff in files]
    floor = min(5, limit // max(len(files), 1))
    return [
        min(file_diff.body_size, max(floor, file_diff.body_size * limit // total)) for file_diff in files
    ]


def _git_diff(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    lines, ends_with_newline = split_lines(text)
    preamble, files = _parse(lines)
    if not files:
        return fallback(text)
    limit = max(int_param(params, "max_diff_lines", 500), 1)
    out = list(preamble)
    cut_any = False
    for file_diff, budget in zip(files, _budgets(files, limit)):
        omitted = 0
        for line, is_header in file_diff.lines:
            if is_header:
                out.append(line)
            elif budget > 0:
                out.append(line)
                budget -= 1
            else:
                omitted += 1
        if omitted:
            cut_any = True
            out.append(f"... ({omitted} line{'s' if omitted != 1 else ''} omitted in {file_diff.path}) ...")
    out.append(_stat_line(files))
    return StrategyResult(join_lines(out, ends_with_newline), Confidence.PARTIAL if cut_any else Confidence.FULL)


git_diff = guarded(_git_diff)
