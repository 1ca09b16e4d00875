"""Properties every strategy and hot path keeps, whatever the input."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from zeph_rules import _speedups
from zeph_rules._speedups import _dedup_py, _truncate_py
from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import STRATEGIES

#: default parameters per strategy (the required ones given a typical value)
DEFAULT_PARAMS: dict[str, dict[str, Any]] = {
    "strip_noise": {"patterns": [r"^\s*$", "Compiling"]},
    "keep_matching": {"patterns": ["error", r"\d+"]},
    "strip_annotated": {"patterns": ["^Compiling"], "summary_pattern": "^Finished",
                        "long_output_threshold": 30, "keep_head": 10, "keep_tail": 5},
    "truncate": {"max_lines": 10, "head": 3, "tail": 3},
    "test_summary": {"max_failures": 10, "truncate_stack_trace": 50},
    "group_by_rule": {"location_pattern": None, "rule_pattern": None},
    "git_status": {},
    "git_diff": {"max_diff_lines": 5},
    "dedup": {"normalize_patterns": None, "max_unique_patterns": 3},
}

# Text that looks like tool output often enough to reach the parsers' inner branches.
_FRAGMENTS = [
    "test a ... ok", "test b ... FAILED", "---- b stdout ----", "failures:", "running 2 tests",
    "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    "=== RUN   TestX", "--- FAIL: TestX (0.00s)", "FAIL\tpkg\t0.1s", "ok  \tpkg\t0.1s", "panic: boom",
    "goroutine 1 [running]:", "E   assert 1 == 2", "____ test_x ____", "=== FAILURES ===", "1 failed in 0.1s",
    "warning: unused", " --> src/a.rs:1:2", "error[E0308]: mismatched", "a.py:1:2: E501 too long",
    "diff --git a/x b/x", "@@ -1 +1 @@", "+added", "-removed", "On branch main", "Changes to be committed:",
    "\tmodified:   a.py", "not ok 1 - x", "  ---", "  ...", "TAP version 13", "ℹ tests 1", "✖ x",
    "Ran 1 test in 0.0s", "FAIL: test_x (m.C.test_x)", "2024-01-01 10:00:00 INFO 12 done", "",
]
text_like_output = st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=40)), max_size=40).map("\n".join)


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(), text_like_output), exit_code=st.one_of(st.none(), st.integers(-1, 3)))
def test_strategies_never_raise_never_grow_and_are_deterministic(text: str, exit_code: int | None) -> None:
    for name, strategy in STRATEGIES.items():
        result = strategy(text, DEFAULT_PARAMS[name], exit_code)
        assert isinstance(result.text, str)
        assert len(result.text) <= len(text), name
        assert result == strategy(text, DEFAULT_PARAMS[name], exit_code), name
        if text.strip():
            assert result.text.strip(), f"{name} emptied non-empty input"


@settings(max_examples=200, deadline=None)
@given(text=st.text())
def test_sanitize_never_raises_and_removes_escapes(text: str) -> None:
    clean = sanitize(text)
    assert "\r" not in clean
    assert "\x1b" not in clean
    assert "\n\n\n\n" not in clean


def _reference(text: str, head: int, tail: int) -> tuple[int, int, int]:
    pieces = text.split("\n")
    lines = [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    if len(lines) <= head + tail:
        return len(text), len(text), 0
    head_end = sum(len(line) for line in lines[:head])
    tail_start = len(text) - sum(len(line) for line in lines[len(lines) - tail:])
    return head_end, tail_start, len(lines) - head - tail


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(st.text(alphabet="ab\n", max_size=5), max_size=30).map("\n".join),
    head=st.integers(0, 12),
    tail=st.integers(0, 12),
)
def test_head_tail_split_agrees_with_a_naive_split(text: str, head: int, tail: int) -> None:
    assert _speedups.head_tail_split(text, head, tail) == _reference(text, head, tail)
    assert _truncate_py.head_tail_split(text, head, tail) == _reference(text, head, tail)
    assert _speedups.count_lines(text) == len([p for p in text.split("\n")[:-1]]) + (1 if text.split("\n")[-1] else 0)


@settings(max_examples=300, deadline=None)
@given(line=st.text())
def test_normalize_line_never_raises_and_twins_agree(line: str) -> None:
    once = _speedups.normalize_line(line)
    assert isinstance(once, str)
    assert _dedup_py.normalize_line(line) == once


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.text(max_size=20), max_size=30), max_unique=st.integers(1, 5))
def test_dedup_lines_accounts_for_every_line(lines: list[str], max_unique: int) -> None:
    groups = _speedups.dedup_lines(lines, max_unique)
    assert sum(count for _, count in groups) == len(lines)
    firsts = [first for first, _ in groups]
    assert firsts == sorted(firsts)


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.sampled_from(["row 1", "row 22", "kept", "", "row x y", "other"]), max_size=60),
    min_run=st.integers(0, 8),
    ends=st.integers(0, 4),
)
def test_strip_noise_folding_keeps_order_and_counts_every_line_it_cuts(lines: list[str], min_run: int, ends: int) -> None:
    text = "\n".join(lines) + "\n"
    params = {"patterns": ["^row "], "min_run": min_run, "keep_run_ends": ends, "label": "row"}
    out = STRATEGIES["strip_noise"](text, params, 0).text
    assert len(out) <= len(text)
    kept = [line for line in out.split("\n") if not line.startswith("... (")]
    # what stays is the input in order, less lines the patterns match, and the markers count those
    rest = iter(text.split("\n"))
    assert all(any(line == other for other in rest) for line in kept)
    counted = sum(int(line.split("(", 1)[1].split(" ", 1)[0]) for line in out.split("\n") if line.startswith("... ("))
    assert len(text.split("\n")) - len(kept) == counted


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.sampled_from(["cat >cfg << 'EOF'", "EOF", "\tkey", "packagefile x", "# default", "A = a",
                                    "#  Builtin rule", "", "compile -p main"]), max_size=60),
    take_next=st.integers(0, 2),
    blocks=st.booleans(),
    paragraphs=st.booleans(),
    whole_paragraphs=st.booleans(),
)
def test_strip_noise_blocks_paragraphs_and_take_next_keep_order_and_count_every_cut(
        lines: list[str], take_next: int, blocks: bool, paragraphs: bool, whole_paragraphs: bool) -> None:
    text = "\n".join(lines) + "\n"
    params: dict[str, object] = {"patterns": ["^\\t", "^packagefile ", "^# default$"], "take_next": take_next,
                                 "label": "cut line"}
    if blocks:
        params.update(block_start="<< 'EOF'$", block_end="^EOF$")
    if paragraphs:
        params["drop_paragraphs_with"] = "^#  Builtin rule$"
    if whole_paragraphs:
        params["drop_paragraphs_matching"] = "# default\nA = a(\ncompile -p main)*"
    out = STRATEGIES["strip_noise"](text, params, 0).text
    assert len(out) <= len(text)
    kept = [line for line in out.split("\n") if not line.startswith("... (")]
    rest = iter(text.split("\n"))
    assert all(any(line == other for other in rest) for line in kept)  # the input's lines, in order
    counted = sum(int(line.split("(", 1)[1].split(" ", 1)[0]) for line in out.split("\n") if line.startswith("... ("))
    assert out == text or len(text.split("\n")) - len(kept) == counted
    if blocks and not paragraphs and not whole_paragraphs and not take_next and out != text:
        # what goes is exactly the pattern lines inside a closed block; the bounds and the rest stay
        inside: set[int] = set()
        opened = None
        for row, line in enumerate(lines):
            if opened is None:
                opened = row if line.endswith("<< 'EOF'") else None
            elif line == "EOF":
                inside.update(range(opened + 1, row))
                opened = None
        expected = [line for row, line in enumerate(lines)
                    if not (row in inside and (line.startswith(("\t", "packagefile ")) or line == "# default"))]
        assert kept == [*expected, ""]


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.text(alphabet=st.sampled_from(list("aPnIcß\uFB01İıK\u212A x:")), max_size=12), max_size=12),
    words=st.lists(st.sampled_from(["panic", "ss", "fi", "i", "k", "x:"]), min_size=1, max_size=3),
)
def test_lines_with_words_finds_exactly_the_lines_whose_folded_text_holds_a_word(
    lines: list[str], words: list[str]
) -> None:
    # ß folds to "ss" and ﬁ to "fi": the folded text is longer, and each line must still be found by
    # where it starts in the text itself (every line used to be a candidate then)
    from zeph_rules.engine.strategies._common import lines_with_words

    text = "\n".join(lines)
    starts, offset = [], 0
    for line in lines:
        if any(word in line.casefold().replace("\u0131", "i").replace("i\u0307", "i") for word in words):
            starts.append(offset)
        offset += len(line) + 1
    assert lines_with_words(text, tuple(words)) == starts
