"""truncate: head + marker + tail."""

from __future__ import annotations

from zeph_rules.engine.strategies import STRATEGIES, Confidence

truncate = STRATEGIES["truncate"]


def _lines(n: int) -> str:
    return "".join(f"line {i}\n" for i in range(n))


def test_short_output_is_unchanged() -> None:
    assert truncate(_lines(5), {"max_lines": 5, "head": 2, "tail": 2}, 0) == (_lines(5), Confidence.FULL)


def _distinct(n: int) -> str:
    """Lines with nothing in common: no family to fold."""
    return "".join(f"line {'x' * i}\n" for i in range(n))


def test_long_output_keeps_head_and_tail_with_a_counted_marker() -> None:
    result = truncate(_distinct(100), {"max_lines": 10, "head": 2, "tail": 3}, 0)
    assert result.confidence is Confidence.PARTIAL
    lines = _distinct(100).splitlines()
    assert result.text == "\n".join([*lines[:2], "... (95 lines omitted) ...", *lines[-3:]]) + "\n"


def test_similar_lines_fold_to_their_first_and_last_three() -> None:
    result = truncate(_lines(100), {"max_lines": 10, "head": 2, "tail": 3}, 0)
    assert result.text == "line 0\nline 1\nline 2\n... (94 similar lines omitted) ...\nline 97\nline 98\nline 99\n"


def test_folded_lines_count_in_the_final_marker() -> None:
    text = _lines(20).rstrip("\n")
    assert truncate(text, {"max_lines": 4, "head": 1, "tail": 1}, 0).text == "line 0\n... (18 lines omitted) ...\nline 19"


def test_tree_keeps_its_top_level_and_ls_r_its_headers() -> None:
    tree = "".join(f"├── dir{'x' * d}\n" + "".join(f"│   ├── f{'y' * (d * 10 + i)}.py\n" for i in range(10)) for d in range(10))
    out = truncate(tree, {"max_lines": 20, "head": 5, "tail": 5}, 0).text
    assert all(f"├── dir{'x' * d}\n" in out for d in range(10))
    listing = "".join(f"src/{'d' * d}:\n" + "".join(f"{'f' * (d * 10 + i)}.py\n" for i in range(10)) + "\n" for d in range(10))
    out = truncate(listing, {"max_lines": 20, "head": 5, "tail": 5}, 0).text
    assert all(f"src/{'d' * d}:\n" in out for d in range(10))


def test_missing_final_newline_and_empty_input() -> None:
    text = _distinct(20).rstrip("\n")
    lines = text.split("\n")
    assert truncate(text, {"max_lines": 4, "head": 1, "tail": 1}, 0).text == f"{lines[0]}\n... (18 lines omitted) ...\n{lines[-1]}"
    assert truncate("", {"max_lines": 4}, None) == ("", Confidence.FULL)
