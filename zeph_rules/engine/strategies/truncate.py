"""``truncate``: keep the first and last lines of long output."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import _speedups
from ._common import Confidence, StrategyResult, guarded, int_param, omitted_marker


def _truncate(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    max_lines = int_param(params, "max_lines", 200)
    head = int_param(params, "head", 20)
    tail = int_param(params, "tail", 20)
    if _speedups.count_lines(text) <= max_lines:
        return StrategyResult(text, Confidence.FULL)
    head_end, tail_start, omitted = _speedups.head_tail_split(text, head, tail)
    if omitted == 0:
        return StrategyResult(text, Confidence.FULL)
    head_text = text[:head_end]
    if head_text and not head_text.endswith("\n"):
        head_text += "\n"
    return StrategyResult(f"{head_text}{omitted_marker(omitted)}\n{text[tail_start:]}", Confidence.PARTIAL)


truncate = guarded(_truncate)
