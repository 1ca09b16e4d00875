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


def test_one_line_formats_keep_every_location() -> None:
    result = group_by_rule(_raw("pylint/errors"), {}, 30)
    assert "also at: inventory/io.py:6:0, inventory/io.py:15:0" in result.text
    assert "Your code has been rated at 4.16/10" in result.text


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
