"""The filter path's shortcuts change nothing: each is checked against the plain computation it skips.

* ``sanitize`` runs a rule only when the text holds what it acts on;
* ``test_summary`` hands runs of passing libtest lines to the cargo parser as one item;
* the security-signal candidates come from one multi-word search;
* ``strip_noise`` never compiles a pattern none of whose required literals is in the text.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from zeph_rules import _speedups
from zeph_rules.engine import pipeline
from zeph_rules.engine.security import Scanner, default_scanner
from zeph_rules.engine.signals import SIGNAL_WORDS
from zeph_rules.engine.sanitize import (
    _BLANK_RUN,
    _ESCAPES,
    _TRAILING_SPACE,
    _last_carriage_state,
    sanitize,
)
from zeph_rules.engine.strategies import STRATEGIES
from zeph_rules.engine.strategies._common import split_lines
from zeph_rules.engine.strategies.test_summary import detect_runner
from zeph_rules.engine.strategies.test_summary.cargo import split_collapsing_passes

cargo_module = importlib.import_module("zeph_rules.engine.strategies.test_summary.cargo")
strip_noise_module = importlib.import_module("zeph_rules.engine.strategies.strip_noise")


def plain_sanitize(text: str) -> str:
    """``sanitize`` as it was: every rule over the whole text."""
    if not text:
        return ""
    text = _ESCAPES.sub("", text).replace("\x1b", "")
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(_last_carriage_state(line) if "\r" in line else line for line in text.split("\n"))
    text = _TRAILING_SPACE.sub("", text)
    return _BLANK_RUN.sub("\n\n", text)


terminal_text = st.lists(st.sampled_from(["a", "ok", " ", "\t", "\f", "\v", "\n", "\n", "\r", "\r\n", "\x1b[31m", "\x1b]0;t\x07",
                                          "\x1b", "\x9b1m", "é", "日", "𝄞", "\udcff"]), max_size=50).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=terminal_text)
@example(text="a\n\n\n\nb")
@example(text="a \n\t\n\n\nb \t")
@example(text="progress 10%\rprogress 100%\r\ndone")
def test_sanitize_equals_the_plain_rules(text: str) -> None:
    assert sanitize(text) == plain_sanitize(text)


# -- test_summary: collapsed runs of passing tests ---------------------------------------------

CARGO_LINES = [
    "running 3 tests", "test a::b ... ok", "test a::c ... ok", "test a::d ... ok", "test a::e ... FAILED",
    "test a::f ... ignored", "test a::g ... ignored, slow", "test a::h ... ignored ... ok", "test a::i ... bench: 10 ns ... ok",
    "test a::j - should panic ... ok", "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out ... ok",
    "test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    "", "failures:", "", "---- a::e stdout ----", "thread 'a::e' panicked at src/lib.rs:3:5:", "assertion failed: x",
    "    a::e", "error[E0308]: mismatched types", " --> src/lib.rs:3:5", "warning: unused variable: `x`",
    "warning: `inv` (lib test) generated 1 warning", "error: test failed, to rerun pass `--lib`",
    "     Running unittests src/lib.rs (target/debug/deps/inv-1)", "   Compiling inv v0.1.0", "..F.i 5/5",
    "        PASS [   0.01s] inv a::b", '{"Action":"run"}', "=== RUN   TestX", "ok  \texample.com/x\t0.01s",
]
cargo_output = st.lists(st.sampled_from(CARGO_LINES), max_size=60).map("\n".join) | st.lists(
    st.sampled_from(CARGO_LINES), max_size=60).map(lambda lines: "\n".join(lines) + "\n")


def _plain_split(text: str, prefix: str, suffix: str, banned: tuple[str, ...] = ()) -> list[Any]:
    return text.split("\n")


@settings(max_examples=600, deadline=None)
@given(text=cargo_output, exit_code=st.sampled_from([None, 0, 101]), max_failures=st.sampled_from([1, 10]))
@example(text="test a ... ok\ntest b ... ok\n", exit_code=101, max_failures=10)
def test_test_summary_with_collapsed_passes_equals_line_by_line(text: str, exit_code: int | None, max_failures: int) -> None:
    params = {"max_failures": max_failures, "truncate_stack_trace": 3}
    fast = STRATEGIES["test_summary"](text, params, exit_code)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_speedups, "collapse_runs", _plain_split)
        plain = STRATEGIES["test_summary"](text, params, exit_code)
    assert fast == plain


@settings(max_examples=300, deadline=None)
@given(text=cargo_output)
def test_collapsed_lines_detect_the_same_runner(text: str) -> None:
    """Passing libtest lines never make a detector that runs before cargo's fire, so one line stands for a run."""
    lines, _, _ = split_collapsing_passes(text)
    full = text[:-1].split("\n") if text.endswith("\n") else (text.split("\n") if text else [])
    assert (detect_runner(lines) or ("none",))[0] == (detect_runner(full) or ("none",))[0]


@settings(max_examples=300, deadline=None)
@given(text=cargo_output)
def test_collapsed_lines_expand_to_the_lines(text: str) -> None:
    lines, ends_with_newline, _ = split_collapsing_passes(text)
    expanded = [part for line in lines
                for part in (line.lines() if isinstance(line, cargo_module.PassingRun) else [line])]
    assert (expanded, ends_with_newline) == split_lines(text)


def test_a_passing_run_is_one_item() -> None:
    text = "running 4 tests\n" + "".join(f"test m::t{i} ... ok\n" for i in range(4)) + "\ntest result: ok. 4 passed; 0 failed\n"
    lines, ends_with_newline, collapsed = split_collapsing_passes(text)
    assert collapsed and ends_with_newline
    run = lines[1]
    assert isinstance(run, cargo_module.PassingRun) and run == "test m::t0 ... ok" and run.run_length == 4
    assert run.lines() == [f"test m::t{i} ... ok" for i in range(4)]


# -- security-signal candidates --------------------------------------------------------------

def plain_signal_candidates(clean: str) -> str:
    # each line as the regex ignore-case folds it (a character folding to several, "İ" or "ß",
    # lengthens its line, not the others')
    dotless = str.maketrans({"\u0131": "i"})
    lines = clean.split("\n")
    return "\n".join(line for line in lines
                     if any(word in line.casefold().translate(dotless).replace("i\u0307", "i") for word in SIGNAL_WORDS))


signal_text = st.lists(st.sampled_from(["PANIC", "panicked at", "Permission Denied", "cve-2024-1", "GHSA", " severity", "ı",
                                        "İ", "\u212a", "ſecurity ", "security ", "x", "\n", "\n", " ", "日"]),
                       max_size=30).map("".join)


@settings(max_examples=600, deadline=None)
@given(text=signal_text)
@example(text="thread panıcked\nok")
@example(text="Straße\nthread PANİCked\nok")
def test_signal_candidates_equal_the_plain_search(text: str) -> None:
    assert pipeline._signal_candidates(text) == plain_signal_candidates(text)


# the words the security scan marks lines by, with what sanitising leaves and what makes the scan step aside
marked_text = st.lists(st.sampled_from(["PANIC", "panicked at x", "Permission Denied", "cve-2024-1", " severity", "security ",
                                        "keep", "keep panic", "x", "\n", "\n", "\n\n\n\n", "  ", "\t", "\r", "\r\n",
                                        "pa\rnic", "panic\rxx", "\x1b[31m", "pa\x1b[1mnicked at x", "ſecurity ", "日"]),
                       max_size=30).map("".join)


@functools.cache
def _unmarking_scanner() -> Scanner:
    return Scanner(default_scanner().patterns)


@settings(max_examples=300, deadline=None)
@given(text=marked_text)
@example(text="panicked at x  \nsecurity \nkeep")
@example(text="panicked at x\r\nsecurity \rx\npanic\rpanic\r\nkeep")
@example(text="pa\x1b[1mnicked at x\nkeep")
def test_signal_lines_marked_by_the_scan_equal_the_sanitised_search(text: str) -> None:
    # the security pass finds the signal lines in the raw output when it can; the filtered output
    # must be exactly what searching the sanitised text gives
    plan_rules = (("strip-all-but-keep", "strip_noise", (("patterns", ["^(?!keep)"]),)),)
    marking, plain = default_scanner(), _unmarking_scanner()
    assert marking.marks_lines and not plain.marks_lines
    with_marks = pipeline.run_plan(pipeline.FilterPlan(plan_rules, False, marking), "x", text, 0)
    without = pipeline.run_plan(pipeline.FilterPlan(plan_rules, False, plain), "x", text, 0)
    assert with_marks == without


# -- strip_noise literal prefilter -----------------------------------------------------------

NOISE_PATTERNS = [r"^\s+\d+: +(__rustc::|std::|core::|<F as )", r"^\s+at /rustc/[0-9a-f]+/library/", r"(?i)^npm WARN",
                  r"^\s*$", r"^\s*Downloading\s"]
noise_lines = st.lists(st.sampled_from(["  12: std::rt::lang_start", "   3: core::ops", "      at /rustc/abc/library/x",
                                        "npm warn deprecated", "NPM WARN x", "", "   ", "Downloading x", "keep me", "std::x"]),
                       max_size=12).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(text=noise_lines, patterns=st.lists(st.sampled_from(NOISE_PATTERNS), max_size=3))
def test_strip_noise_prefilter_changes_nothing(text: str, patterns: list[str]) -> None:
    fast = STRATEGIES["strip_noise"](text, {"patterns": patterns}, 0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(strip_noise_module, "_may_match", lambda source, text, folded: True)
        plain = STRATEGIES["strip_noise"](text, {"patterns": patterns}, 0)
    assert fast == plain



# -- the warm path stays lean ------------------------------------------------------------------

_WARM_FILTER_PROBE = """
import io, sys
before = set(sys.modules)
sys.stdin = io.TextIOWrapper(io.BytesIO(b"running 2 tests\\ntest a ... ok\\ntest b ... ok\\n\\ntest result: ok. 2 passed\\n"))
from zeph_rules.cli.main import main
code = main(["filter", "--command", "cargo test", "--exit-code", "0"])
print()
print("NEW", " ".join(sorted(set(sys.modules) - before)))
print("WARM", "zeph_rules.engine.compiler" not in sys.modules)
print("LOADED", code, " ".join(sorted(sys.modules)))
"""

_SCAN_PROBE = """
import sys
from zeph_rules.engine.loader import load
scanner = load().extra["scanner"]
clean = scanner.scan(b"running 2 tests\\ntest a ... ok\\n")
print("WARM", "zeph_rules.engine.compiler" not in sys.modules)
print("CLEAN", len(clean), "regex" in sys.modules)
found = scanner.scan(("export AWS_SECRET_ACCESS_KEY=" + "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY" + "\\n").encode())
print("SECRET", [f.rule for f in found], "regex" in sys.modules)
"""


def _run_warm(probe: str, tmp_path: Any, *args: str) -> list[str]:
    """Run ``probe`` (with ``args``) until a run finds what it needs cached (the first fills the cache); return its lines."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "ZEPH_RULES_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(4):  # a rule file edited between two runs makes the next one cold again
        lines = subprocess.run([sys.executable, "-c", probe, *args], env=env, capture_output=True, text=True,
                               check=True, cwd=tmp_path).stdout.splitlines()
        if "WARM True" in lines:
            return lines
    raise AssertionError("the compiled graph was never found in the cache")


def test_warm_filter_imports_only_what_it_runs(tmp_path: Any) -> None:
    last = _run_warm(_WARM_FILTER_PROBE, tmp_path)[-1].split()
    assert last[:2] == ["LOADED", "0"]
    modules = set(last[2:])
    assert not {"lark", "pydantic", "tomlkit", "yaml", "tomllib"} & modules
    assert not {m for m in modules if m == "click" or m.startswith("click.")}  # main() parses this command line
    assert "zeph_rules.engine.source" not in modules  # the front end
    for strategy in ("dedup", "git_diff", "git_status", "group_by_rule", "keep_matching", "strip_annotated", "truncate"):
        assert f"zeph_rules.engine.strategies.{strategy}" not in modules, strategy
    for command in ("bench", "check", "decide", "hook", "scan", "schema"):
        assert f"zeph_rules.cli.{command}" not in modules, command


def test_scanning_clean_output_needs_no_regex_engine(tmp_path: Any) -> None:
    lines = _run_warm(_SCAN_PROBE, tmp_path)
    assert lines[-2] == "CLEAN 0 False"  # no candidate window survived the compiled prefilter
    # a credential is still found, and verified with re: the regex module is for guarded patterns and long windows
    assert lines[-1] == "SECRET ['aws-secret-access-key'] False"


_PLAN_HIT_PROBE = _WARM_FILTER_PROBE.replace(
    'print("WARM", "zeph_rules.engine.compiler" not in sys.modules)',
    'print("WARM", "zeph_rules.engine.graph" not in sys.modules)',
)


def test_a_cached_plan_needs_no_graph(tmp_path: Any) -> None:
    """On a plan hit ``filter`` neither loads the graph nor imports the matcher or the rule regex engine."""
    last = _run_warm(_PLAN_HIT_PROBE, tmp_path)[-1].split()
    assert last[:2] == ["LOADED", "0"]
    modules = set(last[2:])
    heavy = {"lark", "pydantic", "tomlkit", "yaml", "tomllib", "regex", "click"}
    assert not {m for m in modules if m.split(".")[0] in heavy}
    for name in ("graph", "evaluate", "ir", "commands", "compiler", "source", "desugar"):
        assert f"zeph_rules.engine.{name}" not in modules, name
    assert list((tmp_path / "cache" / "plans").glob("*/scanner.marshal"))


#: what a warm ``filter`` run must not import (a regular install: an editable one imports some at start-up)
_SLOW_MODULES = {
    "typing", "pathlib", "pickle", "dataclasses", "inspect", "importlib.util", "threading", "hashlib", "string",
    "tempfile", "contextlib", "importlib", "bisect", "math", "enum", "_pickle", "copyreg", "json",
    "re",  # re: patterns come from the programs cached by the first run
    # collections (3.3 ms), which functools, array and Cython's typed memoryviews import
    "collections", "collections.abc", "functools", "array", "operator",
    "regex",  # 32 ms: rule patterns proven fast run with re's cached programs (patterns.RulePattern)
}


_FIXTURE_PROBE = """
import io, sys
before = set(sys.modules)
sys.stdin = io.TextIOWrapper(open(sys.argv[1], "rb"))
from zeph_rules.cli.main import main
code = main(["filter", "--command", sys.argv[2], "--exit-code", sys.argv[3]])
print()
print("NEW", " ".join(sorted(set(sys.modules) - before)))
print("WARM", "zeph_rules.engine.graph" not in sys.modules)
"""


# git log, npm and the logs: rules whose own strip_noise, dedup and routine patterns match lines there
@pytest.mark.parametrize("case", ["git/status", "ls/la_big", "go/big_test_v", "eslint/q10_f_compact_underscore",
                                  "pytest/fail", "git/q4_log", "npm/q10_ci_no_lockfile", "logs/q4_dpkg_tail"])
def test_a_cached_plan_of_each_strategy_imports_no_slow_standard_module(case: str, tmp_path: Any) -> None:
    """Each strategy's module is imported by the runs that use it: none may bring typing, collections, re or regex."""
    import tomllib
    from pathlib import Path

    folder = Path(__file__).parent / "fixtures" / case
    meta = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
    lines = _run_warm(_FIXTURE_PROBE, tmp_path, str(folder / "raw.txt"), meta["command"], str(meta["exit_code"]))
    new = set(next(line for line in lines if line.startswith("NEW")).split()[1:])
    assert not _SLOW_MODULES & new, _SLOW_MODULES & new


def test_a_cached_plan_imports_no_slow_standard_module(tmp_path: Any) -> None:
    """Every ``filter`` process pays for what it imports: a warm run leaves these to the cold paths.

    Only modules the interpreter had not imported before count (an editable install imports
    ``pathlib`` at start-up); in a regular install, as in CI, every one of these counts.
    """
    lines = _run_warm(_PLAN_HIT_PROBE, tmp_path)
    new = set(next(line for line in lines if line.startswith("NEW")).split()[1:])
    assert not _SLOW_MODULES & new, _SLOW_MODULES & new
