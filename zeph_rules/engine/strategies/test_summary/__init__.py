"""``test_summary``: reduce a test run to its failures and its final summary.

One parser per runner; the first whose detector recognises the output wins.
Each parser keeps what it does not understand, so an unexpected line costs
compression, never information.
"""

from __future__ import annotations

from .... import _regex
from .._common import (
    Confidence,
    StrategyResult,
    fallback,
    guarded,
    int_param,
    join_lines,
    split_lines,
)
from ._detect import looks_like_go_json, looks_like_unittest
from ._shared import Report
from .cargo import (
    looks_like_cargo,
    looks_like_cargo_build_failure,
    looks_like_nextest,
    split_collapsing_passes,
    summarise_cargo,
    summarise_nextest,
)

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    Detector = Callable[[list[str]], bool]
    Summariser = Callable[[list[str], int, int], Report]


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """Return a function that imports ``module`` (of this package) on its first call and calls its ``name``.

    Only the matching runner's parser is needed, so a cargo run (the
    commonest, and the one ``filter`` must start fast for) imports no other.
    """

    def call(*args: Any) -> Any:
        # the submodule, as importlib.import_module would give it, without importing importlib
        return getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)(*args)

    call.__name__ = call.__qualname__ = name
    return call


#: (runner, detector, summariser), most specific detectors first
PARSERS: tuple[tuple[str, Detector, Summariser], ...] = (
    ("go-json", looks_like_go_json, _lazy("gotest", "summarise_go_json")),
    # before cargo: a docstring line "test that ... ok" in ``unittest -v`` reads like libtest,
    # while "Ran N tests in T.TTTs" is unittest's alone
    ("unittest", looks_like_unittest, _lazy("unittest", "summarise_unittest")),
    ("nextest", looks_like_nextest, summarise_nextest),
    ("cargo", looks_like_cargo, summarise_cargo),
    ("pytest", _lazy("pytest", "looks_like_pytest"), _lazy("pytest", "summarise_pytest")),
    ("node-tap", _lazy("javascript", "looks_like_node_tap"), _lazy("javascript", "summarise_node_tap")),
    ("node-spec", _lazy("javascript", "looks_like_node_spec"), _lazy("javascript", "summarise_node_spec")),
    ("jest", _lazy("javascript", "looks_like_jest"), _lazy("javascript", "summarise_jest")),
    # after jest: a test's console output could print "N passing (Tms)", jest's "Tests:" is its own
    ("mocha", _lazy("javascript", "looks_like_mocha"), _lazy("javascript", "summarise_mocha")),
    ("go", _lazy("gotest", "looks_like_go"), _lazy("gotest", "summarise_go")),
    ("ctest", _lazy("ctest", "looks_like_ctest"), _lazy("ctest", "summarise_ctest")),
    ("rspec", _lazy("rspec", "looks_like_rspec"), _lazy("rspec", "summarise_rspec")),
    ("cargo-build", looks_like_cargo_build_failure, summarise_cargo),
)

_ERROR_LINE = _regex.compile(r"error|fail|panic|exception|traceback", _regex.IGNORECASE)


def detect_runner(lines: list[str]) -> tuple[str, Summariser] | None:
    """Return the name and summariser of the test runner that produced ``lines``."""
    for name, detector, summariser in PARSERS:
        if detector(lines):
            return name, summariser
    return None


def _rescue_in_place(lines: list[str], kept: list[str]) -> list[str]:
    """Put back every error-looking line of ``lines`` that ``kept`` lacks, each where it stood.

    A kept line is placed by its first occurrence in ``lines`` after the last one placed; a line
    ``lines`` does not hold (a marker) follows the line before it; a rescued line goes in before
    the first kept line that stood below it (appended, rescued lines read as if printed after
    the final counts).
    """
    kept_set = set(kept)
    rescued = [at for at, line in enumerate(lines) if _ERROR_LINE.search(line) and line not in kept_set]
    if not rescued:
        return kept
    places: dict[str, list[int]] = {}
    for at, line in enumerate(lines):
        places.setdefault(line, []).append(at)
    tried = dict.fromkeys(places, 0)  # per text, how many of its places lie at or above the last placed
    out: list[str] = []
    after = -1  # where in ``lines`` the last kept line placed stood
    next_rescued = 0
    for line in kept:
        found = places.get(line, [])
        while tried.get(line, 0) < len(found) and found[tried[line]] <= after:
            tried[line] += 1
        place = found[tried[line]] if tried.get(line, 0) < len(found) else None
        if place is not None:
            while next_rescued < len(rescued) and rescued[next_rescued] < place:
                out.append(lines[rescued[next_rescued]])
                next_rescued += 1
            after = place
        out.append(line)
    out.extend(lines[at] for at in rescued[next_rescued:])
    return out


def _test_summary(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    # Runs of passing libtest lines stand as one item each (100,000 of them cost
    # one step); only the cargo parser reads that form, every other gets the lines.
    lines, ends_with_newline, collapsed = split_collapsing_passes(text)
    runner = detect_runner(lines)
    if collapsed and (runner is None or runner[0] != "cargo"):
        lines, ends_with_newline = split_lines(text)
        collapsed = False
        runner = detect_runner(lines)
    if runner is None:
        return fallback(text)
    _, summarise = runner
    max_failures = max(int_param(params, "max_failures", 10), 1)
    trace_limit = max(int_param(params, "truncate_stack_trace", 50), 1)
    report = summarise(lines, max_failures, trace_limit)
    kept = report.finish()
    failed_run = exit_code not in (None, 0)
    if failed_run and report.failures == 0:
        # The run failed but no failing test was found: keep every error-looking line
        # the parser dropped, and say the summary may be incomplete.
        if collapsed:
            lines = split_lines(text)[0]
        kept = _rescue_in_place(lines, kept)
        if not any(line.strip() for line in kept):
            return fallback(text)
        return StrategyResult(join_lines(kept, ends_with_newline), Confidence.PARTIAL)
    if not any(line.strip() for line in kept):
        return fallback(text)
    confidence = Confidence.PARTIAL if report.unsure else Confidence.FULL
    return StrategyResult(join_lines(kept, ends_with_newline), confidence)


test_summary = guarded(_test_summary)
test_summary.__test__ = False  # type: ignore[attr-defined]  # not a pytest test despite the name
