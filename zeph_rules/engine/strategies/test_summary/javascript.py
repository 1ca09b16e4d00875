"""JavaScript runners: jest, vitest, mocha, and node's built-in runner (spec, dot and TAP reporters)."""

from __future__ import annotations

from .... import _regex
from .._common import indent_of, omitted_marker, plural
from ._shared import (
    FEW_RESULTS,
    FailureBudget,
    Report,
    choose_varied,
    cut_trace,
    few_results,
    keep_noted_passes,
    message_shape,
    note_end,
    tidy,
)

# --- jest / vitest ------------------------------------------------------------
_JEST_SUMMARY = _regex.compile(r"^\s*(?:Test Suites|Tests|Snapshots|Time|Test Files|Start at|Duration):?\s")
_PASSING_CASE = _regex.compile(r"^\s+[✓√✔]\s(?!\S+\.(?:test|spec)\.[cm]?[jt]sx? \(\d+ tests?)")
_FAILING_CASE = _regex.compile(r"^\s+[✕×✗]\s")
_SKIPPED_CASE = _regex.compile(r"^\s+(?:[↓○]|skipped)\s")
_PASSING_FILE = _regex.compile(r"^\s*PASS\s+\S")
_FAILURE_BLOCK = _regex.compile(r"^\s*(?:●\s+(?!Console)|FAIL\s+\S.*\s>\s)(?P<name>.+)$")
#: jest's line for a test file that failed: "FAIL tests/template.test.js" (with its time, or its project)
_FAILING_FILE = _regex.compile(r"^\s*FAIL\s+\S+(?:\s+\(\d[\d.]* ?m?s\))?$|^\s*FAIL\s+\S+\s+\S+$")
#: the rule that opens istanbul's coverage table: "--------------|---------|----------|..."
_COVERAGE_RULE = _regex.compile(r"^-+\|-+\|")
_CODE_FRAME = _regex.compile(r"^\s*(?:>\s*)?\d+\s*\|")
_CODE_FRAME_CARET = _regex.compile(r"^\s+\|\s+[\^~]+\s*$")
_VITEST_BANNER = _regex.compile(r"^\s*RUN\s+v\d")
_VITEST_RULE = _regex.compile(r"^⎯+(?:\[\d+/\d+\])?⎯*$")
#: vitest's section of failure details, where each failing test's message is printed whole
_VITEST_FAILED_TESTS = _regex.compile(r"^⎯+ Failed Tests \d+ ⎯+$")
#: under a failing test in vitest's progress, the first line of its message ("→ Unable to find ...")
_VITEST_ARROW = _regex.compile(r"^\s+→ ")
#: where a failure past the budget failed: vitest's "❯ tests/x.test.ts:34:27", jest's first frame
_BRIEF_LOCATION = _regex.compile(r"^\s*(?:❯\s+\S+:\d+:\d+$|at (?:.* \()?[^\s()]+:\d+:\d+\)?$)")
#: how many lines of its message such a failure keeps (jest: the matcher, Expected, Received)
_BRIEF_MESSAGE_LINES = 3
#: a test file's line in vitest's progress: " ✓ src/cart.test.ts (4 tests) 2ms", " ❯ src/x.test.tsx (3 tests | 1 failed)"
_VITEST_FILE = _regex.compile(r"^\s*[✓❯×↓]\s+\S+\.(?:test|spec)\.[cm]?[jt]sx?\s")
#: a message's lines under its arrow are dropped only from this many on (a short one costs less than its marker)
_REPEATED_MESSAGE_FROM = 4

# --- node --test ----------------------------------------------------------------
#: "ok 1 - name" (node --test); the dash is optional in TAP, and tape prints none ("ok 1 parses a string")
_TAP_RESULT = _regex.compile(
    r"^(?P<indent>\s*)(?P<status>ok|not ok) \d+(?: -)? (?P<name>.*?)(?P<directive> # (?:TODO|SKIP)\b.*)?$"
)
_TAP_SUBTEST = _regex.compile(r"^\s*# Subtest: ")
_TAP_PLAN = _regex.compile(r"^\s*1\.\.\d+$")
_TAP_VERSION = _regex.compile(r"^TAP version \d+$")
#: a comment line: node's totals, or the name of the test whose assertions follow (tape)
_TAP_COMMENT = _regex.compile(r"^# ")
#: node's verdict on a test its parent's failure stopped: a consequence, not a cause
_TAP_CANCELLED = _regex.compile(r"^\s*failureType: '(?:cancelledByParent|cancelledBySuite)'")
#: a parent test that failed only because some of its subtests did: its block says how many, no more
_TAP_SUBTESTS_FAILED = _regex.compile(r"^\s*failureType: 'subtestsFailed'")
#: a comment that reports trouble (node's "# Error: Test ... generated asynchronous activity"), or a
#: warning node printed for the process with its hint below it ("# (node:4185) [DEP0005]
#: DeprecationWarning: Buffer() is deprecated ...", "# (Use `node --trace-deprecation ...` ...)": the
#: code under test calls what is going away, batch 89b)
#: (a test's name may say "error": "# throws error with wrong decoder" is tape's name of a test)
_TAP_TROUBLE = _regex.compile(r"^# (?:\w*(?:Error|Warning|Exception)\b|\(node:\d+\) |\(Use `node --trace-)")
_TAP_TOTALS = _regex.compile(r"^# (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ")
_SPEC_PASS = _regex.compile(r"^\s*✔ ")
_SPEC_FAIL = _regex.compile(r"^\s*✖ (?!failing tests:)")
_SPEC_SKIP = _regex.compile(r"^\s*﹣ ")
#: the spec reporter shows a todo test as passing, its reason after the duration: "✔ name (4.1ms) # reason"
_SPEC_TODO = _regex.compile(r"^\s*✔ .*\(\d+(?:\.\d+)?m?s\) # \S")
_SPEC_TOTALS = _regex.compile(r"^ℹ (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ")
#: the dot reporter: one character per test, then "Failed tests:" and the failures as the spec reporter shows them
_NODE_DOTS = _regex.compile(r"^[.X]+$")

# --- mocha ----------------------------------------------------------------------
#: mocha's summary, after the tree of suites: "  61 passing (60ms)", then "  3 failing", "  2 pending"
_MOCHA_PASSING = _regex.compile(r"^\s*\d+ passing \(\d+(?:\.\d+)?(?:ms|s|m|h)\)$")
_MOCHA_PASS = _regex.compile(r"^\s+[✔✓√] ")
_MOCHA_PENDING = _regex.compile(r"^\s+- \S")
#: a failing test in the tree ("    1) treats NaN as an alarm"), and the head of its details below the summary
_MOCHA_FAIL = _regex.compile(r"^\s+\d+\) \S")
_MOCHA_DETAIL = _regex.compile(r"^  \d+\) \S")
#: the dot reporter's progress: "." passed, "," pending, "!" failed (U+2024 on some terminals)
_MOCHA_DOTS = _regex.compile(r"^\s*[.․,!]+$")

# Stack frames inside node itself: "at Test.run (node:internal/...)", "new Promise (<anonymous>)"
_NODE_INTERNAL_FRAME = _regex.compile(r"^\s*(?:at\s+)?(?:async\s+)?(?:\S.*\()?(?:node:|<anonymous>\))|^\s*(?:at\s+)?node:")


#: jest's name for the failure of a test file that could not run at all
_SUITE_FAILED = "Test suite failed to run"


def looks_like_jest(lines: list[str]) -> bool:
    """Return whether the output comes from jest or vitest."""
    return any(line.lstrip().startswith(("Tests:", "Test Files ")) for line in lines) or any(
        _VITEST_BANNER.match(line) for line in lines
    )


def looks_like_node_tap(lines: list[str]) -> bool:
    """Return whether the output is TAP (``node --test``, tape, bats).

    Its ``TAP version`` header; where ``| tail`` cut the header off, node's ``# tests N`` totals; or
    the plan (``1..262``) a producer without a header opens with (bats), or closes with (a C
    project's test program under ``make test``, TAP's plan at the end), at the margin.
    """
    first = next((line for line in lines if line.strip()), "")
    return (
        any(_TAP_VERSION.match(line) or line.startswith("# tests ") or (line.startswith("1..") and _TAP_PLAN.match(line))
            for line in lines)
        or bool(_TAP_PLAN.match(first))
    ) and any(_TAP_RESULT.match(line) for line in lines)


def looks_like_node_spec(lines: list[str]) -> bool:
    """Return whether the output is node's spec reporter, or its dot reporter with failures."""
    return any(_SPEC_TOTALS.match(line) for line in lines) or (
        "Failed tests:" in lines and any(_NODE_DOTS.match(line) for line in lines)
    )


def looks_like_mocha(lines: list[str]) -> bool:
    """Return whether the output ends the way mocha's spec, dot and list reporters end."""
    return any(_MOCHA_PASSING.match(line) for line in lines)


def _messages_shown_again(lines: list[str]) -> set[int]:
    """Return the lines of vitest's progress that repeat a failure's message its details show whole.

    Under a failing test vitest prints the message after an arrow, every line
    of it: testing-library's "Unable to find an accessible element" brings
    the page's accessible roles and its DOM, 870 lines, which the "Failed
    Tests" section prints again.  The arrow's line stays; the lines under it
    go when every one of them is in that section.
    """
    failed_at = next((index for index, line in enumerate(lines) if _VITEST_FAILED_TESTS.match(line)), None)
    if failed_at is None:
        return set()
    shown_again = set(lines[failed_at:])
    repeats: set[int] = set()
    for index in range(failed_at):
        if not _VITEST_ARROW.match(lines[index]):
            continue
        end = index + 1
        while end < failed_at and not (
            _PASSING_CASE.match(lines[end]) or _FAILING_CASE.match(lines[end]) or _SKIPPED_CASE.match(lines[end])
            or _VITEST_FILE.match(lines[end]) or _VITEST_ARROW.match(lines[end]) or _JEST_SUMMARY.match(lines[end])
        ):
            end += 1
        message = [row for row in range(index + 1, end) if lines[row].strip()]
        if len(message) >= _REPEATED_MESSAGE_FROM and all(lines[row] in shown_again for row in message):
            repeats.update(range(index + 1, end))
    return repeats


def summarise_jest(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep failing files, cases and failure blocks (code frames cut) and the summary block."""
    report = Report()
    budget = FailureBudget(max_failures)
    out: list[str] = []
    frame_lines = 0
    hiding = False
    block_lines = 0
    located = False  # the block's first frame in the project's code is kept
    few = few_results(lines, _PASSING_CASE, _FAILING_CASE, _SKIPPED_CASE)
    # a run of a few test files keeps their PASS lines: one each, and they say what ran (reviewers of
    # batches 22 and 44b asked for them in green runs of three suites)
    few_files = len({line for line in lines if _PASSING_FILE.match(line) or _FAILING_FILE.match(line)}) <= FEW_RESULTS
    repeats = _messages_shown_again(lines)
    repeated = repeated_at = 0
    brief_lines, brief_located = 0, False  # of a failure past the budget: its message lines, its location
    # a green verbose run keeps its first and last passing tests, as pytest's, go's and cargo's do:
    # where it started and ended (batch 57b's reviewer of a green vitest run picked both)
    green = not any(_FAILING_CASE.match(line) or _FAILING_FILE.match(line) or _FAILURE_BLOCK.match(line) for line in lines)
    case_ends: list[tuple[int, str]] = []
    suite_failed = advice = False  # in the block of a file that could not run; in jest's advice there
    advice_lines = 0
    for index, line in enumerate(lines):
        if index in repeats:
            if index - 1 not in repeats:
                repeated_at, repeated = len(out), 0
                out.append("")
            repeated += 1
            out[repeated_at] = f"... ({plural(repeated, 'line')} of the message omitted: Failed Tests shows it whole) ..."
            continue
        block = _FAILURE_BLOCK.match(line)
        # advice is only ever set inside a suite's failure, so outside one there is nothing to reset
        if block or (suite_failed and (_FAILING_FILE.match(line) or _PASSING_FILE.match(line))):
            suite_failed = block is not None and block["name"].strip() == _SUITE_FAILED
            advice = False
        if block:
            report.failures += 1
            # a file whose tests never ran (its syntax error, a module it cannot find) is no test's
            # failure among many: it is shown whatever the budget (batch 109b: after 40 failures of one
            # test, the SyntaxError of a suite under jest's advice was briefed away)
            hiding = block["name"].strip() != _SUITE_FAILED and not budget.admit(block["name"].strip())
            if hiding:
                # past the budget a failure keeps its line, its message and where it failed (the issue:
                # every failing test's name with its message and location), not the rest of its block
                brief_lines, brief_located = 0, False
                out.append(line)
                continue
        if hiding and (_PASSING_FILE.match(line) or _COVERAGE_RULE.match(line)):
            hiding = False  # the failure's block is over: passing files, then the coverage table
        if hiding and not _JEST_SUMMARY.match(line) and not _VITEST_RULE.match(line):
            if _FAILING_FILE.match(line):
                out.append(line)  # the next file's header: which file its failures, briefed or not, are in
            elif _BRIEF_LOCATION.match(line) and "node_modules" not in line and not brief_located:
                brief_located = True
                out.append(line)
            elif (brief_lines < _BRIEF_MESSAGE_LINES and line.strip() and not brief_located
                  and not _CODE_FRAME.match(line) and not _CODE_FRAME_CARET.match(line)
                  and not line.lstrip().startswith("at ")):
                brief_lines += 1
                out.append(line)
            else:
                budget.hidden_lines += 1
            continue
        if _JEST_SUMMARY.match(line):
            hiding = False
        if _PASSING_CASE.match(line) and few:
            out.append(line)  # a run of a few tests: the passes are the answer
            continue
        if _PASSING_FILE.match(line) and few_files:
            out.append(line)
            continue
        if _PASSING_CASE.match(line) or _PASSING_FILE.match(line):
            report.omit_passed()
            if green and _PASSING_CASE.match(line):
                note_end(case_ends, (len(out), line))
            continue
        if _SKIPPED_CASE.match(line):
            out.append(line)  # skips are rare, and say what was not tested
            continue
        if (_CODE_FRAME.match(line) and not line.lstrip().startswith(">")) or _CODE_FRAME_CARET.match(line):
            # the frame's line at its ">" pointer stays: the failing expectation as written
            # (blind reviewers of batch 35 quoted it in four runs of four)
            frame_lines += 1
            continue
        if block_lines > trace_limit and line.lstrip().startswith("at ") and (located or "node_modules" in line):
            # a long block's stack goes, but for its first frame in the project's code: where the test
            # failed (batch 88b: under a 74-line toEqual diff, "at Object.toEqual (__tests__/compare.test.js:16:30)")
            frame_lines += 1
            continue
        if suite_failed and (advice or line.strip() == "Here's what you can do:"):
            # jest's advice on configuring transforms, the same under every file it could not parse, up
            # to the "Details:" that says what this one's error was
            advice = line.strip() != "Details:"
            if advice:
                advice_lines += 1
                continue
        if suite_failed and line.lstrip().startswith("at ") and "node_modules" in line:
            frame_lines += 1  # the parser's own stack under a file's syntax error
            continue
        if block:
            located = False
        elif line.lstrip().startswith("at ") and "node_modules" not in line:
            located = True
        block_lines = 0 if block else block_lines + 1
        out.append(line)
    keep_noted_passes(out, case_ends, report)
    marker = budget.marker()
    tail = [omitted_marker(frame_lines, "line", "of code frames and stack")] if frame_lines else []
    if advice_lines:
        tail.append(omitted_marker(advice_lines, "line", "of jest's advice on transforms"))
    summary_at = next((i for i, line in enumerate(out) if _JEST_SUMMARY.match(line)), len(out))
    out[summary_at:summary_at] = ([marker] if marker else []) + tail
    report.lines = tidy(out)
    return report


def _cut_node_frames(lines: list[str]) -> tuple[list[str], int]:
    """Drop stack frames inside node itself; return the kept lines and the count dropped."""
    kept = [line for line in lines if not _NODE_INTERNAL_FRAME.match(line)]
    return kept, len(lines) - len(kept)


#: where a TAP failure's YAML block says it failed: ``location: '/x/test/deepmerge.test.mjs:9:1'``
_TAP_LOCATION = _regex.compile(r"^\s+location: '(?P<file>[^':]+):\d+")
#: a place in a file in a comment under a failure: ``test/test_label.c:133`` or bats's ``(in test file
#: test/x.bats, line 15)``
_COMMENT_PLACE = _regex.compile(r"(?P<file>[\w./-]+\.\w+):\d+|\(in test file (?P<bats_file>\S+), line \d+\)")
#: the first line of its error: ``error: 'Expected values ...'`` or the line under ``error: |-``
_TAP_ERROR = _regex.compile(r"^\s+error: (?:\|-?\s*$|'?(?P<message>.+?)'?$)")


def _comments_end(lines: list[str], start: int) -> int:
    """Return where the run of comment lines from ``start`` ends: a failure's diagnostics, when it has no YAML.

    Bare ``#`` lines belong to the run (bats separates its diagnostics with them); node's totals
    (``# tests 16``) do not.
    """
    end = start
    while end < len(lines) and (
        lines[end] == "#" or _TAP_COMMENT.match(lines[end]) and not _TAP_TOTALS.match(lines[end])
    ):
        end += 1
    return end


def _varied_tap_failures(lines: list[str], limit: int) -> set[int]:
    """Return the rows of the ``not ok`` results whose details to show, chosen for variety.

    Eleven failures of one parametrised test must not crowd out the one failure in another file
    (batch 65b: deepmerge's after eleven camelCase cases): ``choose_varied`` reads each failure's
    test (its name without arguments), its error's shape, its location and its file.
    """
    failures: list[tuple[str, tuple[str, ...], str, str]] = []
    rows: list[int] = []
    for at, line in enumerate(lines):
        result = _TAP_RESULT.match(line)
        if result is None or result["status"] == "ok":
            continue
        location = file = message = ""
        parent = False  # failed by its subtests: not one of the failures chosen
        for entry in lines[at + 1 : at + 40]:
            if _TAP_RESULT.match(entry):
                break
            if _TAP_SUBTESTS_FAILED.match(entry):
                parent = True
                break
            found = _TAP_LOCATION.match(entry)
            if found and not location:
                location, file = entry.strip(), found["file"]
            error = _TAP_ERROR.match(entry)
            if error and not message:
                message = error["message"] or entry.strip()
        comments = [] if location else lines[at + 1 : _comments_end(lines, at + 1)]
        if comments and _TAP_COMMENT.match(comments[0]):
            # no YAML block: the comments under it (bats's, a C harness's "#   failed at
            # test/test_label.c:133: got == want"), whose first place in a file locates it (batch 92b:
            # the one failure of another check, sixteenth, lost its diagnostic to ten alike above it)
            message = message or comments[0]
            place = next((found for entry in comments if (found := _COMMENT_PLACE.search(entry))), None)
            if place:
                location, file = place[0], place["file"] or place["bats_file"]
        if not parent:
            failures.append((result["name"].split("(", 1)[0].strip(), (message_shape(message),), location, file))
            rows.append(at)
    return {rows[chosen] for chosen in choose_varied(failures, limit)}


def summarise_node_tap(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep ``not ok`` results with their YAML diagnostics (node-internal frames cut) and the totals."""
    report = Report()
    budget = FailureBudget(max_failures)
    out: list[str] = []
    dropped_frames = 0
    names_dropped = 0
    cancelled_detail = 0
    cancelled_shown = False  # a cancelled test's detail is shown (once)
    last_result = max((at for at, line in enumerate(lines) if _TAP_RESULT.match(line)), default=-1)
    # a comment below a failure, before the next result, is that failure's (bats prints its diagnostics
    # so, and a line of stderr may come between them): it is no name of a test to come
    after_failure = False
    few = few_results(lines, _TAP_RESULT)
    # a green run keeps its first and last passing tests, as the other runners' do (batch 65b's
    # reviewer of a green node --test run quoted its first)
    green = not any(line.lstrip().startswith("not ok") and _TAP_RESULT.match(line) for line in lines)
    case_ends: list[tuple[int, str]] = []
    shown = _varied_tap_failures(lines, max_failures)
    i = 0
    while i < len(lines):
        line = lines[i]
        result = _TAP_RESULT.match(line)
        if result:
            # The YAML block: "  ---" ... "  ..." indented like the result plus two spaces.
            block_end = i + 1
            if block_end < len(lines) and lines[block_end].strip() == "---":
                margin = indent_of(lines[block_end])
                closing = lines[block_end][:margin] + "..."
                block_end += 1
                # to its closing line; a line left of the block's margin means the block was never closed
                # (output cut short, a line lost): the block ends there rather than swallow what follows
                while block_end < len(lines) and lines[block_end] != closing:
                    entry = lines[block_end]
                    if entry.strip() and indent_of(entry) < margin:
                        report.unsure = True
                        break
                    block_end += 1
                else:
                    block_end += 1
            elif result["status"] != "ok":
                # no YAML block: a producer that prints a failure's diagnostics as the comments right
                # under it (bats: "# (in test file test/x.bats, line 15)", the assertion, the output)
                block_end = _comments_end(lines, block_end)
            block = lines[i + 1 : block_end]
            after_failure = result["status"] != "ok"
            if result["status"] == "ok":
                directive = result["directive"] or ""
                if directive.startswith(" # TODO"):
                    out.append(line)  # a test marked unfinished: its reason names known-broken behaviour
                elif directive or few:
                    out.append(line)  # a skip (rare, says what was not tested), or one of a few results
                else:
                    report.omit_passed()
                    if green:
                        note_end(case_ends, (len(out), line))
            elif any(_TAP_SUBTESTS_FAILED.match(entry) for entry in block):
                # a parent failed by its subtests ("4 subtests failed"): a few lines, outside the failure
                # budget, which is for the subtests (batch 66: four parents had crowded out two of them)
                report.failures += 1
                out.append(line)
                kept, _ = _cut_node_frames([entry for entry in block if "duration_ms:" not in entry])
                dropped_frames += len(block) - len(kept)
                out.extend(kept)
            else:
                report.failures += 1
                cancelled = any(_TAP_CANCELLED.search(entry) for entry in block)
                if cancelled and cancelled_shown:
                    # cancelled because its parent failed (a hook, a timeout): the cause is told once
                    # above or below, and the first cancelled test's detail says what befell the others;
                    # each keeps its line, outside the failure budget
                    out.append(line)
                    cancelled_detail += len(block)
                elif i in shown:
                    cancelled_shown = cancelled_shown or cancelled
                    out.append(line)
                    kept, _ = _cut_node_frames([entry for entry in block if "duration_ms:" not in entry])
                    dropped_frames += len(block) - len(kept)
                    out.extend(cut_trace(kept, trace_limit))
                else:
                    out.append(line)  # every failing test keeps its line; one not chosen, not its detail
                    budget.hide(result["name"])
                    budget.hidden_lines += len(block)
            i = max(block_end, i + 1)
            continue
        if _TAP_SUBTEST.match(line) or _TAP_PLAN.match(line) and line[:1].isspace():
            i += 1  # a subtest's plan; the top-level one stays (vitest's TAP prints no other count)
            continue
        if (_TAP_COMMENT.match(line) and not _TAP_TOTALS.match(line) and not few and not _TAP_TROUBLE.search(line)
                and not after_failure):
            # tape names each test in a comment above its assertions (node prints a test's own output
            # as comments): one goes when every assertion it introduces passed, or when it introduces
            # none and tests after it report (a parent test's name above its subtests' names); one
            # above a failure, or the last before the run died, stays, and so does a diagnostic
            # (node's "# Error: ... generated asynchronous activity")
            end = next((at for at in range(i + 1, len(lines)) if _TAP_COMMENT.match(lines[at])), len(lines))
            results = [later for later in lines[i + 1 : end] if _TAP_RESULT.match(later)]
            passed = bool(results) and not any(later.lstrip().startswith("not ok") for later in results)
            if passed or not results and last_result >= end:
                names_dropped += 1
                i += 1
                continue
        out.append(line)
        i += 1
    keep_noted_passes(out, case_ends, report)
    marker = budget.marker()
    totals_at = next((k for k, line in enumerate(out) if _TAP_TOTALS.match(line)), len(out))
    extra = ([marker] if marker else []) + (
        [omitted_marker(dropped_frames, "line", "of timings and node-internal stack frames")] if dropped_frames else []
    )
    out[totals_at:totals_at] = extra
    if names_dropped:
        report.also_omitted.append(plural(names_dropped, "comment line") + " of passing tests")
    if cancelled_detail:
        report.also_omitted.append(plural(cancelled_detail, "line") + " of detail under tests cancelled by their parent")
    report.lines = tidy(out)
    return report


#: a spec-reporter failure's frame in the project's own code: ``at TestContext.<anonymous> (/x/test/seq.test.js:12:49)``
_SPEC_PROJECT_FRAME = _regex.compile(r"^\s+at (?:.* \()?(?:file://)?(?P<file>/[^():]+?\.[cm]?[jt]s):\d+(?::\d+)?\)?$")


def _varied_spec_failures(lines: list[str], limit: int) -> set[int]:
    """Return the rows of the ``✖`` failures before the recap whose details to show, chosen for variety.

    As for node's TAP output (``_varied_tap_failures``): sixty failures of one parametrised test
    must not crowd out a missing file's ENOENT in another test file (batch 75b).  A failure is read
    as its test's name without the duration, its first two lines of message (the error's kind, then
    the values compared) and the first frame of the project's code.
    """
    failures: list[tuple[str, tuple[str, ...], str, str]] = []
    rows: list[int] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        if line.strip() == "✖ failing tests:":
            break
        at += 1
        if not _SPEC_FAIL.match(line):
            continue
        rows.append(at - 1)
        message: list[str] = []
        location = file = ""
        while at < len(lines) and not (_SPEC_FAIL.match(lines[at]) or _SPEC_PASS.match(lines[at])
                                       or lines[at].strip() == "✖ failing tests:"):
            entry = lines[at].strip()
            frame = _SPEC_PROJECT_FRAME.match(lines[at])
            if frame and "node_modules" not in entry and not location:
                location, file = entry, frame["file"]
            elif entry and not entry.startswith("at ") and len(message) < 2:
                message.append(entry)
            at += 1
        name = line.strip()[1:].split("(", 1)[0].strip()  # without its duration: "codon TAA -> * (0.13ms)"
        failures.append((name, tuple(message_shape(part) for part in message), location, file))
    return {rows[chosen] for chosen in choose_varied(failures, limit)}


def summarise_node_spec(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep ``✖`` tests with their errors (node-internal frames cut), the totals and failure locations."""
    report = Report()
    budget = FailureBudget(max_failures)
    out: list[str] = []
    dropped = 0
    repeated = 0
    in_recap = False  # node prints every failure a second time after "✖ failing tests:"
    showing = True
    few = few_results(lines, _SPEC_PASS, _SPEC_FAIL, _SPEC_SKIP)
    shown = _varied_spec_failures(lines, max_failures)
    # what the run printed before its recap: a recap line not among them (the output was cut to its
    # tail, say `| tail -n 60`, and the failure's first report went with the head) is news and stays
    before_recap: set[str] = set()
    for row, line in enumerate(lines):
        stripped = line.strip()
        if stripped == "✖ failing tests:":
            in_recap = True
            out.append(line)
            continue
        if in_recap:
            if stripped.startswith("test at ") or _SPEC_FAIL.match(line):
                out.append(line)
            elif not stripped:
                continue
            elif stripped in before_recap:
                repeated += 1
            elif _NODE_INTERNAL_FRAME.match(line):
                dropped += 1
            else:
                out.append(line)
            continue
        before_recap.add(stripped)
        if _SPEC_PASS.match(line):
            if _SPEC_TODO.match(line) or few:
                # a todo test passes, and its reason names known-broken behaviour; a few results are the answer
                out.append(line)
            else:
                report.omit_passed()
            continue
        if _SPEC_SKIP.match(line):
            out.append(line)  # skips are rare, and say what was not tested
            continue
        if _SPEC_FAIL.match(line):
            report.failures += 1
            showing = row in shown
            if not showing:
                budget.hide(stripped)
            out.append(line)
            continue
        if not showing and line.startswith(" "):
            budget.hidden_lines += 1
            continue
        if _NODE_INTERNAL_FRAME.match(line):
            dropped += 1
            continue
        out.append(line)
    marker = budget.marker()
    if marker:
        out.append(marker)
    if dropped:
        out.append(omitted_marker(dropped, "line", "of node-internal stack frames"))
    if repeated:
        out.append(omitted_marker(repeated, "line", "repeating the failures above"))
    report.lines = tidy(out)
    return report


def summarise_mocha(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep failing tests under their suites' titles, the counts, and each failure's error and frames.

    Above the summary, mocha prints the tree of suites: passing tests go
    (counted) unless the run has only a few, pending ones stay, a suite's title
    stays only above a test it shows, and what is not indented (a test's
    console output) stays.  Below the summary come
    the failures' details, each cut to ``trace_limit`` lines without node's own frames.
    """
    report = Report()
    budget = FailureBudget(max_failures)
    summary_at = next(index for index, line in enumerate(lines) if _MOCHA_PASSING.match(line))
    out: list[str] = []
    titles: list[tuple[int, str, bool]] = []  # (indent, title, shown) of the suites open at this line
    hidden_titles = 0
    few = few_results(lines[:summary_at], _MOCHA_PASS, _MOCHA_FAIL, _MOCHA_PENDING)
    for line in lines[:summary_at]:
        stripped = line.strip()
        indent = indent_of(line)
        if not stripped:
            out.append(line)
        elif _MOCHA_PASS.match(line) and not few:
            report.omit_passed()
        elif _MOCHA_PENDING.match(line) or _MOCHA_FAIL.match(line) or _MOCHA_PASS.match(line):
            # failing and pending tests stay (pending ones are rare and say what was not tested), and
            # the passes of a run of a few, each under the titles of the suites that hold it
            if _MOCHA_FAIL.match(line):
                report.failures += 1
            for position, (title_indent, title, shown) in enumerate(titles):
                if title_indent < indent and not shown:
                    out.append(title)
                    titles[position] = (title_indent, title, True)
                    hidden_titles -= 1
            out.append(line)
        elif _MOCHA_DOTS.match(line):
            report.omit_passed(stripped.count(".") + stripped.count("․"))
            report.omit_skipped(stripped.count(","))
            report.failures += stripped.count("!")  # each is detailed below the summary
        elif indent == 0:
            out.append(line)  # not part of the tree: a test's own output, npm's notices
        else:
            while titles and titles[-1][0] >= indent:
                titles.pop()
            titles.append((indent, line, False))
            hidden_titles += 1
    if hidden_titles:
        report.also_omitted.append(plural(hidden_titles, "suite title"))
    frames = 0
    block: list[str] = []

    def flush() -> None:
        nonlocal frames
        if not block:
            return
        if budget.admit(block[0].strip()):
            kept = [entry for entry in block if not _NODE_INTERNAL_FRAME.match(entry)]
            frames += len(block) - len(kept)
            out.extend(cut_trace(kept, trace_limit))
        else:
            budget.hidden_lines += len(block)
        block.clear()

    for line in lines[summary_at:]:
        if _MOCHA_DETAIL.match(line):
            flush()
            block.append(line)
        elif block:
            block.append(line)
        else:
            out.append(line)  # the counts
    flush()
    marker = budget.marker()
    if marker:
        out.append(marker)
    if frames:
        out.append(omitted_marker(frames, "line", "of node-internal stack frames"))
    report.lines = tidy(out)
    return report
