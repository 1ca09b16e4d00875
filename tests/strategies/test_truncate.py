"""truncate: head + marker + tail."""

from __future__ import annotations

from zeph_rules.engine.strategies import STRATEGIES, Confidence

truncate = STRATEGIES["truncate"]


def _lines(n: int) -> str:
    return "".join(f"line {i}\n" for i in range(n))


def test_short_output_is_unchanged() -> None:
    assert truncate(_lines(5), {"max_lines": 5, "head": 2, "tail": 2}, 0) == (_lines(5), Confidence.FULL)


def test_long_output_keeps_head_and_tail_with_a_counted_marker() -> None:
    result = truncate(_lines(100), {"max_lines": 10, "head": 2, "tail": 3}, 0)
    assert result.confidence is Confidence.PARTIAL
    assert result.text == "line 0\nline 1\n... (95 lines omitted) ...\nline 97\nline 98\nline 99\n"


def test_missing_final_newline_and_empty_input() -> None:
    text = _lines(20).rstrip("\n")
    assert truncate(text, {"max_lines": 4, "head": 1, "tail": 1}, 0).text == "line 0\n... (18 lines omitted) ...\nline 19"
    assert truncate("", {"max_lines": 4}, None) == ("", Confidence.FULL)
