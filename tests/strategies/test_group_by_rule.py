"""group_by_rule: grouping choices the fixtures do not pin down."""

from __future__ import annotations

from pathlib import Path

from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import STRATEGIES, Confidence

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
group_by_rule = STRATEGIES["group_by_rule"]


def _raw(case: str) -> str:
    return sanitize((FIXTURES / case / "raw.txt").read_text(encoding="utf-8"))


def test_clippy_repeats_fold_under_their_lint() -> None:
    result = group_by_rule(_raw("cargo/clippy_warnings"), {}, 0)
    assert result.confidence is Confidence.FULL
    assert "== warning[clippy::redundant_field_names] x6: redundant field names in struct initialization" in result.text
    assert result.text.count("warning: redundant field names in struct initialization") == 1
    assert "  --> src/orders.rs:7:21" in result.text


def test_rustc_lint_learnt_from_the_first_note() -> None:
    # rustc names the lint (#[warn(unused_variables)]) only on the first unused variable
    result = group_by_rule(_raw("cargo/check_warnings"), {}, 0)
    assert "== warning[unused_variables] x" in result.text


def test_errors_are_never_grouped() -> None:
    raw = _raw("cargo/clippy_error")
    result = group_by_rule(raw, {}, 101)
    assert "error: approximate value of `f{32, 64}::consts::PI` found" in result.text
    assert "  = note: `#[deny(clippy::approx_constant)]` on by default" in result.text
    assert "error: could not compile `mathy` (bin \"mathy\") due to 2 previous errors; 4 warnings emitted" in result.text


def test_one_line_formats_keep_every_line_until_a_rule_repeats_a_lot() -> None:
    # a few one-line findings read best as the tool printed them
    result = group_by_rule(_raw("pylint/errors"), {}, 30)
    assert "inventory/io.py:15:0: C0116: Missing function or method docstring (missing-function-docstring)" in result.text
    assert "************* Module inventory.io" in result.text
    assert "Your code has been rated at 4.16/10" in result.text
    # many of one rule fold into one example and every other location
    text = "".join(f"src/m.py:{i}:1: E501 line too long ({80 + i} > 79 characters)\n" for i in range(1, 41))
    folded = group_by_rule(text, {}, 1).text
    assert folded.startswith("src/m.py:1:1: E501 line too long (81 > 79 characters)\n   also at: src/m.py:2:1, ")
    assert "src/m.py:40:1" in folded


def test_source_excerpts_go_and_error_labels_stay() -> None:
    result = group_by_rule(_raw("cargo/build_errors"), {}, 101)
    assert "  --> src/main.rs:29:26" in result.text
    assert "println!" not in result.text
    assert "expected `String`, found `&str`" in result.text  # an error's labelled excerpt line
    assert "source excerpts" in result.text


def test_grep_output_grouped_by_file() -> None:
    params = {"rule_pattern": r"^(?:((?:[A-Za-z]:)?[^\s:][^:]*?)[:-](?=\d+[:-])|(?=\d+[:-])|((?:[A-Za-z]:)?[^\s:]*[/.][^\s:]*):)",
              "location_pattern": r"^(?:(?:[A-Za-z]:)?[^\s:][^:]*?[:-])?(\d+)[:-]"}
    text = "".join(f"a/x.py:{i}:    # TODO: case {i}\n" for i in range(1, 6)) + "b.md:3:TODO other\n"
    assert group_by_rule(text, params, 0).text == (
        "a/x.py:1:    # TODO: case 1\n   also at: 2, 3, 4, 5\nb.md:3:TODO other\n"
    )
    heading = "a/x.py\n1:  # FIXME 1\n7:  # FIXME 7\n9:  # other\n\nb.py\n4:  x\n"
    assert group_by_rule(heading, params, 0).text == "a/x.py\n1:  # FIXME 1\n9:  # other\n   also at: 7\n\nb.py\n4:  x\n"


def test_user_patterns_group_lines() -> None:
    text = "".join(f"src/file_{i}.x:{i} [R1] something is not right here\n" for i in range(4)) + "b.x:2 [R2] worse\n"
    result = group_by_rule(text, {"location_pattern": r"^\S+:\d+", "rule_pattern": r"\[(\w+)\]"}, 1)
    assert result.text == (
        "src/file_0.x:0 [R1] something is not right here\n"
        "   also at: src/file_1.x:1, src/file_2.x:2, src/file_3.x:3\n"
        "b.x:2 [R2] worse\n"
    )


def test_not_lint_output_falls_back() -> None:
    assert group_by_rule("all good\n", {}, 0) == ("all good\n", Confidence.FALLBACK)


def test_output_without_diagnostics_passes_through_when_not_required() -> None:
    prose = "Entering directory 'docs'\nbuilding the manual\n"
    assert group_by_rule(prose, {}, 0) == (prose, Confidence.FALLBACK)
    assert group_by_rule(prose, {"require_diagnostics": False}, 0) == (prose, Confidence.FULL)


def test_make_output_keeps_commands_and_diagnostics_without_excerpts() -> None:
    result = group_by_rule(_raw("make/build_error"), {"require_diagnostics": False}, 2)
    assert result.confidence is Confidence.FULL
    assert "cc -Wall -Wextra -O2 -std=c11 -c src/parse.c -o build/parse.o" in result.text
    assert "src/parse.c:6:5: error: expected ‘,’ or ‘;’ before ‘if’" in result.text
    assert "make: *** [Makefile:11: build/parse.o] Error 1" in result.text
    assert "|" not in result.text  # gcc's gutters went
    assert "... (20 lines of source excerpts and repeats omitted) ..." in result.text


def test_only_two_notes_into_system_headers_per_diagnostic() -> None:
    raw = _raw("clang/cpp_errors")
    result = group_by_rule(raw, {}, 1)
    assert raw.count("note: candidate constructor not viable") == 7
    assert result.text.count("/usr/bin/../lib/gcc/") == 4  # two under each of the two overload errors
    assert "... (6 notes into system headers past the first two per diagnostic omitted) ..." in result.text
    assert "err.cpp:21:5: error: use of undeclared identifier 'undeclared'" in result.text
