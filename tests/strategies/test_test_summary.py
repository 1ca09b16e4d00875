"""test_summary: behaviour the fixtures do not pin down (limits, exit codes, markers)."""

from __future__ import annotations

from pathlib import Path

from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import STRATEGIES, Confidence
from zeph_rules.engine.strategies.test_summary import detect_runner

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
test_summary = STRATEGIES["test_summary"]


def _raw(case: str) -> str:
    return sanitize((FIXTURES / case / "raw.txt").read_text(encoding="utf-8"))


def test_runners_are_detected() -> None:
    expected = {
        "cargo/test_fail": "cargo", "pytest/fail": "pytest", "pytest/big_q": "pytest", "go/test_fail": "go",
        "go/test_json_fail": "go-json", "unittest/fail": "unittest", "npm/test_fail": "node-tap",
        "npm/test_fail_spec": "node-spec", "vitest/run_fail": "jest",
    }
    for case, runner in expected.items():
        found = detect_runner(_raw(case).split("\n"))
        assert found is not None and found[0] == runner, case


def test_max_failures_names_the_rest() -> None:
    result = test_summary(_raw("cargo/test_fail"), {"max_failures": 2, "truncate_stack_trace": 50}, 101)
    assert "... (3 more failures not shown in detail" in result.text
    assert "tests::withdraw_too_many_panics" in result.text  # still named
    assert "stock dropped to 0" not in result.text  # its details went


def test_stack_traces_are_cut_with_a_marker() -> None:
    result = test_summary(_raw("cargo/test_fail_backtrace"), {"max_failures": 10, "truncate_stack_trace": 5}, 101)
    assert "panicked at src/lib.rs:27:38" in result.text
    assert "lines omitted) ..." in result.text


def test_passing_run_is_short() -> None:
    raw = _raw("cargo/test_many_pass")
    result = test_summary(raw, {}, 0)
    assert result.confidence is Confidence.FULL
    assert len(result.text) < len(raw) // 10
    assert result.text.startswith("... (360 passing tests omitted) ...")


def test_failed_exit_without_failures_is_partial() -> None:
    raw = _raw("cargo/test_many_pass")
    assert test_summary(raw, {}, 101).confidence is Confidence.PARTIAL


def test_summed_summary_over_several_targets() -> None:
    result = test_summary(_raw("cargo/test_fail_no_fail_fast"), {}, 101)
    assert result.text.rstrip().endswith(
        "test result (summed over 3 test targets): FAILED. 7 passed; 6 failed; 0 ignored; 0 measured; 0 filtered out"
    )


def test_unrecognised_output_falls_back() -> None:
    assert test_summary("make: *** No rule to make target\n", {}, 2) == (
        "make: *** No rule to make target\n", Confidence.FALLBACK)
    assert test_summary("", {}, 0) == ("", Confidence.FALLBACK)


def test_pytest_drops_import_machinery_frames_but_keeps_the_error() -> None:
    raw = _raw("pytest/collection_error_q")
    assert "<frozen importlib._bootstrap>" in raw and "site-packages/_pytest/" in raw
    result = test_summary(raw, {}, 2)
    assert "<frozen importlib" not in result.text
    assert "site-packages/_pytest/" not in result.text
    assert "???" not in result.text
    # The user's own frames and every E line stay.
    assert "tests/test_module_level.py:3: in <module>" in result.text
    assert "E   SyntaxError: '(' was never closed" in result.text
    assert 'E       result = greet("BOB"' in result.text


def test_pytest_one_head_marker_counts_tests_header_and_links() -> None:
    result = test_summary(_raw("pytest/pass"), {}, 0)
    first = result.text.split("\n")[0]
    assert first == "... (11 passing tests, 5 lines of session header and 1 docs link omitted) ..."
    assert "11 passed, 1 warning" in result.text
