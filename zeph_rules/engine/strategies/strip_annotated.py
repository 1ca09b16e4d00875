"""``strip_annotated``: drop progress lines of build tools, keep diagnostics and summaries.

Made for ``cargo build``-like output: ``Compiling``/``Downloading`` lines go,
the ``Finished`` summary stays, and when what is left is still long, only its
head and tail are kept -- except diagnostic lines (``error``, ``warning:``,
``--> file:line``, ``panicked`` and the panic's message under it), which
survive wherever they are.  The last summary line ends the tool's own output
(``Running `target/debug/app` ``): what follows is the program's, the answer,
and is not cut.  With no summary line and no error (``cargo run -q``), nothing
says where the tool's output ends: none of it is cut.
"""

from __future__ import annotations

from ... import _regex
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

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

_ERROR_START = _regex.compile(r"^(?:error(?:\[\w+\])?:|\S+:\d+:(?:\d+:)? (?:fatal )?error:)")
_DIAGNOSTIC = _regex.compile(r"\berror\b|\bwarning\b|^\s*--> |panicked|\bFAILED\b|^\s*= (?:note|help):", _regex.IGNORECASE)
#: what ends a panic's message (the lines between ``panicked at ...:`` and it are the message)
_PANIC_END = _regex.compile(r"^\s*$|^note: |^stack backtrace:")
#: a panic's message is kept up to this many lines (with its ``panicked at`` line)
_PANIC_MESSAGE_LINES = 20


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
    # the program's own output, after the tool's last summary line, is never cut
    last_summary = max((index for index, line in enumerate(remaining) if matches_any(summary, line)), default=-1)
    tool_lines = len(remaining) if last_summary < 0 else last_summary + 1
    if summary and last_summary < 0 and not any(_ERROR_START.match(line) for line in remaining):
        # no summary line and no error: the tool was quiet (`cargo run -q`) and every line may be
        # the program's, its backtrace with the frames in the code under test among them
        tool_lines = 0
    if tool_lines > threshold:
        head_end = min(keep_head, tool_lines)
        tail_start = max(tool_lines - keep_tail, head_end)
        middle: list[str] = []
        gap = cut = 0
        in_error_block = False
        panic_left = 0  # lines of a panic (its `panicked at` line and message) still to keep
        for index, line in enumerate(remaining[:tail_start]):
            # An error is kept with its whole block (up to the next blank line): the
            # source excerpt and the help that follow it are what makes it fixable.
            # The state runs from the first line: a block the head opens goes on in the middle.
            if _ERROR_START.match(line):
                in_error_block = True
            elif not line.strip():
                in_error_block = False
            if "panicked at" in line:
                panic_left = _PANIC_MESSAGE_LINES
            elif panic_left and _PANIC_END.match(line):
                panic_left = 0
            in_panic = panic_left > 0
            if in_panic:
                panic_left -= 1
            if index < head_end:
                continue  # the head is kept whole
            if in_error_block or in_panic or must_keep(line):
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
