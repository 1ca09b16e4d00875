"""``keep_matching``: keep only the lines matching one of the rule's regexes."""

from __future__ import annotations

from ._common import (
    Confidence,
    StrategyResult,
    fallback,
    guarded,
    join_lines,
    matches_any,
    plural,
    split_lines,
    user_pattern,
)

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _keep_matching(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    patterns = [user_pattern(source) for source in params.get("patterns") or ()]
    lines, ends_with_newline = split_lines(text)
    kept = [line for line in lines if matches_any(patterns, line)]
    if not kept:
        if not text.strip():
            # no output at all (`cargo fmt --check` with nothing to format): nothing to keep, nothing unsure
            return StrategyResult(text, Confidence.FULL)
        # An empty answer would read as "no output"; show everything instead.
        return fallback(text)
    dropped = len(lines) - len(kept)
    if dropped:
        kept.append(f"... ({plural(dropped, 'non-matching line')} omitted) ...")
    return StrategyResult(join_lines(kept, ends_with_newline), Confidence.FULL)


keep_matching = guarded(_keep_matching)
