"""``dedup``: collapse lines that differ only in timestamps, ids and numbers."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ... import _speedups
from ..patterns import REGEX_TIMEOUT
from ._common import (
    Confidence,
    StrategyResult,
    guarded,
    int_param,
    join_lines,
    split_lines,
    user_pattern,
)

# Error and warning lines are grouped only with exact repeats: the id, the
# count or the attempt number that differs between them may be the clue.
_SIGNAL = re.compile(
    r"\b(?:error|err|fatal|critical|crit|warn|warning|panic|panicked|exception|traceback|failed|failure)\b",
    re.IGNORECASE,
)


def _apply_user_normalisers(lines: list[str], sources: list[str]) -> list[str]:
    """Replace each user pattern's matches with ``<*>`` so they group together (a timeout leaves the line)."""
    patterns = [user_pattern(source) for source in sources]
    normalised: list[str] = []
    for line in lines:
        for pattern in patterns:
            try:
                line = pattern.sub("<*>", line, timeout=REGEX_TIMEOUT)
            except TimeoutError:
                continue
        normalised.append(line)
    return normalised


# A log record: a timestamp or a level word first (after a bracket or a
# `level=`), or syslog's `Mon dd hh:mm:ss host`.  A program's other output
# (tables, JSON, prose) repeats shapes that carry data, so it is never grouped
# when the rule asks for log lines only.
_LOG_RECORD = re.compile(
    r"^\s*[\[(]?(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d|\d{4}/\d\d/\d\d \d\d:\d\d"
    r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d"
    r"|[IWEF]\d{4} \d\d:\d\d:\d\d"
    r"|(?:time|ts|timestamp)=|\{\s*\"(?:@?timestamp|time|ts|level|severity|msg|message)\""
    r"|(?:level=)?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL|trace|debug|info|warn|warning|error)\b)"
)


def _groups(
    lines: list[str], keys: list[str], max_unique: int, log_lines_only: bool
) -> list[tuple[int, int]]:
    """Return ``(first index, count)`` groups in first-seen order.

    Signal lines group only with their verbatim repeats; with ``log_lines_only``
    a line that is not a log record stays a group of its own.
    """
    plain_indices: list[int] = []
    signal_groups: dict[str, list[int]] = {}
    groups: list[tuple[int, int]] = []
    for index, line in enumerate(lines):
        if log_lines_only and not _LOG_RECORD.match(line):
            groups.append((index, 1))
        elif _SIGNAL.search(line):
            signal_groups.setdefault(line, [index, 0])[1] += 1
        else:
            plain_indices.append(index)
    groups.extend(
        (plain_indices[first], count)
        for first, count in _speedups.dedup_lines([keys[index] for index in plain_indices], max_unique)
    )
    groups.extend((first, count) for first, count in signal_groups.values())
    groups.sort()
    return groups


def _dedup(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    lines, ends_with_newline = split_lines(text)
    if not lines:
        return StrategyResult(text, Confidence.FULL)
    max_unique = int_param(params, "max_unique_patterns", 10_000)
    sources = list(params.get("normalize_patterns") or ())
    # Grouping runs on the user-normalised copy; the output shows the original first line.
    keys = _apply_user_normalisers(lines, sources) if sources else lines
    groups = _groups(lines, keys, max_unique, bool(params.get("log_lines_only")))
    if len(groups) == len(lines):
        return StrategyResult(text, Confidence.FULL)
    out = [lines[first] if count == 1 else f"{lines[first]} (x{count})" for first, count in groups]
    return StrategyResult(join_lines(out, ends_with_newline), Confidence.FULL)


dedup = guarded(_dedup)
