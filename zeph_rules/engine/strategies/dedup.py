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


def _groups(lines: list[str], keys: list[str], max_unique: int) -> list[tuple[int, int]]:
    """Return ``(first index, count)`` groups in first-seen order; signal lines group only verbatim."""
    plain_indices = [index for index, line in enumerate(lines) if not _SIGNAL.search(line)]
    groups = [
        (plain_indices[first], count)
        for first, count in _speedups.dedup_lines([keys[index] for index in plain_indices], max_unique)
    ]
    signal_groups: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        if _SIGNAL.search(line):
            signal_groups.setdefault(line, [index, 0])[1] += 1
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
    groups = _groups(lines, keys, max_unique)
    if len(groups) == len(lines):
        return StrategyResult(text, Confidence.FULL)
    out = [lines[first] if count == 1 else f"{lines[first]} (x{count})" for first, count in groups]
    return StrategyResult(join_lines(out, ends_with_newline), Confidence.FULL)


dedup = guarded(_dedup)
