"""``strip_annotated``: drop progress lines of build tools, keep diagnostics and summaries.

Made for ``cargo build``-like output: ``Compiling``/``Downloading`` lines go,
the ``Finished`` summary stays, and when what is left is still long, only its
head and tail are kept -- except diagnostic lines (``error``, ``warning:``,
``--> file:line``, ``panicked``), which survive wherever they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ._common import (
    Confidence,
    StrategyResult,
    guarded,
    int_param,
    join_lines,
    matches_any,
    omitted_marker,
    plural,
    split_lines,
    user_pattern,
)

_ERROR_START = re.compile(r"^(?:error(?:\[\w+\])?:|\S+:\d+:(?:\d+:)? (?:fatal )?error:)")
_DIAGNOSTIC = re.compile(r"\berror\b|\bwarning\b|^\s*--> |panicked|\bFAILED\b|^\s*= (?:note|help):", re.IGNORECASE)


def _strip_annotated(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    noise = [user_pattern(source) for source in params.get("patterns") or ()]
    summary_source = params.get("summary_pattern")
    summary = [user_pattern(summary_source)] if summary_source else []
    threshold = int_param(params, "long_output_threshold", 30)
    keep_head = int_param(params, "keep_head", 10)
    keep_tail = int_param(params, "keep_tail", 5)

    lines, ends_with_newline = split_lines(text)

    def must_keep(line: str) -> bool:
        return bool(_DIAGNOSTIC.search(line)) or matches_any(summary, line)

    remaining = [line for line in lines if must_keep(line) or not matches_any(noise, line)]
    stripped = len(lines) - len(remaining)
    confidence = Confidence.FULL
    if len(remaining) > threshold:
        head_end = min(keep_head, len(remaining))
        tail_start = max(len(remaining) - keep_tail, head_end)
        middle: list[str] = []
        gap = cut = 0
        in_error_block = False
        for line in remaining[head_end:tail_start]:
            # An error is kept with its whole block (up to the next blank line): the
            # source excerpt and the help that follow it are what makes it fixable.
            if _ERROR_START.match(line):
                in_error_block = True
            elif not line.strip():
                in_error_block = False
            if in_error_block or must_keep(line):
                if gap:
                    middle.append(omitted_marker(gap))
                    gap = 0
                middle.append(line)
            else:
                gap += 1
                cut += 1
        if gap:
            middle.append(omitted_marker(gap))
        if cut:
            remaining = remaining[:head_end] + middle + remaining[tail_start:]
            confidence = Confidence.PARTIAL
    if stripped:
        remaining.append(f"... ({plural(stripped, 'progress line')} stripped) ...")
    elif confidence is Confidence.FULL:
        return StrategyResult(text, Confidence.FULL)
    return StrategyResult(join_lines(remaining, ends_with_newline), confidence)


strip_annotated = guarded(_strip_annotated)
