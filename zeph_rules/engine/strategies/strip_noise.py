"""``strip_noise``: drop lines matching any of the rule's regexes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._common import (
    Confidence,
    StrategyResult,
    guarded,
    join_lines,
    matches_any,
    plural,
    split_lines,
    user_pattern,
)


def _strip_noise(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    patterns = [user_pattern(source) for source in params.get("patterns") or ()]
    lines, ends_with_newline = split_lines(text)
    kept = [line for line in lines if not matches_any(patterns, line)]
    stripped = len(lines) - len(kept)
    if stripped == 0:
        return StrategyResult(text, Confidence.FULL)
    kept.append(f"... ({plural(stripped, 'noise line')} stripped) ...")
    return StrategyResult(join_lines(kept, ends_with_newline), Confidence.FULL)


strip_noise = guarded(_strip_noise)
