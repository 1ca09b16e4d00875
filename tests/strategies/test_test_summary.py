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


# --- unittest -v: descriptions over two lines, output between "..." and the status, subtests ---

#: ``python3.11 -m unittest -v`` on a module with a docstring, subtests, a skip, an
#: expected failure, an unexpected success, an error and two tests writing to stderr
#: (captured 2>&1 from a real run).
_UNITTEST_VARIANTS = """\
test_boom (test_sub.NumbersTest.test_boom) ... ERROR
test_even (test_sub.NumbersTest.test_even)
Numbers 0 to 3 are even. ...\x20
  test_even (test_sub.NumbersTest.test_even) (i=1)
Numbers 0 to 3 are even. ... FAIL
  test_even (test_sub.NumbersTest.test_even) (i=3)
Numbers 0 to 3 are even. ... FAIL
test_fixed (test_sub.NumbersTest.test_fixed)
Was broken once. ... unexpected success
test_known (test_sub.NumbersTest.test_known) ... expected failure
test_plain (test_sub.NumbersTest.test_plain) ... talking to stderr
ok
test_skipped (test_sub.NumbersTest.test_skipped) ... skipped 'not today'
test_talks_again (test_sub.NumbersTest.test_talks_again) ... talking to stderr
ok

======================================================================
ERROR: test_boom (test_sub.NumbersTest.test_boom)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut_sub/test_sub.py", line 33, in test_boom
    raise KeyError("boom")
KeyError: 'boom'

======================================================================
FAIL: test_even (test_sub.NumbersTest.test_even) (i=1)
Numbers 0 to 3 are even.
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut_sub/test_sub.py", line 10, in test_even
    self.assertEqual(i % 2, 0)
AssertionError: 1 != 0

======================================================================
FAIL: test_even (test_sub.NumbersTest.test_even) (i=3)
Numbers 0 to 3 are even.
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ut_sub/test_sub.py", line 10, in test_even
    self.assertEqual(i % 2, 0)
AssertionError: 1 != 0

======================================================================
UNEXPECTED SUCCESS: test_fixed (test_sub.NumbersTest.test_fixed)
Was broken once.
----------------------------------------------------------------------
Ran 7 tests in 0.005s

FAILED (failures=2, errors=1, skipped=1, expected failures=1, unexpected successes=1)
"""


def test_unittest_verbose_with_docstrings_is_detected_before_libtest() -> None:
    # a docstring reading "test simple repeated functions ... ok" looks like a libtest line
    lines = _raw("unittest/mi_fail_v").split("\n")
    assert "test simple repeated functions ... ok" in lines
    found = detect_runner(lines)
    assert found is not None and found[0] == "unittest"


def test_unittest_verbose_drops_passing_tests_split_over_two_lines() -> None:
    raw = _raw("unittest/mi_fail_v")
    result = test_summary(raw, {}, 1)
    assert result.confidence is Confidence.FULL
    assert len(result.text) < len(raw) // 10
    lines = result.text.split("\n")
    # a failing test with a docstring keeps both its lines; a passing one loses both
    at = lines.index("Test with a default keyword ... FAIL")
    assert lines[at - 1] == "test_default (tests.test_recipes.FirstTrueTests.test_default)"
    at = lines.index("Doctest: more_itertools.more.always_reversible ... FAIL")
    assert lines[at - 1] == "always_reversible (more_itertools.more)"
    assert "test_call_once (tests.test_more.AdjacentTests.test_call_once)" not in lines
    assert "Test that the predicate is only called once per item. ... ok" not in lines
    assert "adjacent (more_itertools.more)" not in lines
    assert "test_incompatible_allow (tests.test_recipes.TransposeTests.test_incompatible_allow) ... skipped 'strict=True missing on 3.9'" in lines
    # the failure details of a doctest keep what was expected and what came
    assert "Expected:" in lines and "Got:" in lines and "Got nothing" in lines
    assert "FAILED (failures=4, skipped=1)" in lines


def test_unittest_verbose_keeps_a_warning_printed_mid_test_once() -> None:
    raw = _raw("unittest/mi_fail_v")
    warning = "DeprecationWarning: zip_equal will be removed in a future version of more-itertools."
    assert raw.count(warning) == 2
    result = test_summary(raw, {}, 1)
    assert result.text.count(warning) == 1
    assert "test_strict (tests.test_more.SortTogetherTest.test_strict) ... /tmp/" in result.text
    assert result.text.startswith("... (811 passing tests and 3 lines of repeated test output omitted) ...")


def test_unittest_verbose_variants_keep_every_status_but_ok() -> None:
    raw = sanitize(_UNITTEST_VARIANTS)
    result = test_summary(raw, {}, 1)
    assert result.confidence is Confidence.FULL
    lines = result.text.split("\n")
    assert lines[0] == "... (1 passing test and 2 lines of repeated test output omitted) ..."
    for kept in (
        "test_boom (test_sub.NumbersTest.test_boom) ... ERROR",
        "  test_even (test_sub.NumbersTest.test_even) (i=1)",
        "  test_even (test_sub.NumbersTest.test_even) (i=3)",
        "Was broken once. ... unexpected success",
        "test_known (test_sub.NumbersTest.test_known) ... expected failure",
        "test_skipped (test_sub.NumbersTest.test_skipped) ... skipped 'not today'",
        "FAIL: test_even (test_sub.NumbersTest.test_even) (i=3)",
        "UNEXPECTED SUCCESS: test_fixed (test_sub.NumbersTest.test_fixed)",
        "KeyError: 'boom'",
    ):
        assert kept in lines, kept
    assert lines.count("Numbers 0 to 3 are even. ... FAIL") == 2
    # what a passing test wrote stays the first time, with its status
    at = lines.index("test_plain (test_sub.NumbersTest.test_plain) ... talking to stderr")
    assert lines[at + 1] == "ok"
    assert not any(line.startswith("test_talks_again") for line in lines)


def test_unittest_subtest_failures_without_docstring_keep_their_test() -> None:
    # the same run with the docstring gone from test_even: "name ..." then the indented subtests
    raw = sanitize(_UNITTEST_VARIANTS).replace(
        "test_even (test_sub.NumbersTest.test_even)\nNumbers 0 to 3 are even. ...\n",
        "test_even (test_sub.NumbersTest.test_even) ...\n",
    ).replace("  test_even (test_sub.NumbersTest.test_even) (i=1)\nNumbers 0 to 3 are even. ... FAIL",
              "  test_even (test_sub.NumbersTest.test_even) (i=1) ... FAIL")
    assert "test_even (test_sub.NumbersTest.test_even) ...\n  test_even" in raw
    lines = test_summary(raw, {}, 1).text.split("\n")
    at = lines.index("  test_even (test_sub.NumbersTest.test_even) (i=1) ... FAIL")
    assert lines[at - 1] == "test_even (test_sub.NumbersTest.test_even) ..."


def test_unittest_plain_mode_still_counts_dots() -> None:
    result = test_summary(_raw("unittest/mi_fail"), {}, 1)
    assert result.confidence is Confidence.FULL
    assert "FAIL: test_nonseq_reversed (tests.test_more.AlwaysReversibleTests.test_nonseq_reversed)" in result.text
    assert "Ran 817 tests in" in result.text
