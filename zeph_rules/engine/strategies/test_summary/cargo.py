"""cargo test (libtest output, plain and ``-q``) and cargo nextest."""

from __future__ import annotations

from .... import _regex, _speedups
from .._common import BLOCK_MARGIN, omitted_marker, plural
from ._shared import (
    FEW_RESULTS, Placeholder, Report, choose_varied, cut_trace, fold_marked_runs, fold_names, keep_noted_passes,
    message_shape, resolve, tidy,
)

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    import re

_TEST_LINE = _regex.compile(r"^test (?P<name>.+?) (?:- should panic )?\.\.\. (?P<result>ok|FAILED|ignored\b.*|bench:.*)$")
_RUNNING_COUNT = _regex.compile(r"^running \d+ tests?$")
_QUIET_PROGRESS = _regex.compile(r"^[.iF]+(?: \d+/\d+)?$")
_RESULT = _regex.compile(
    r"^test result: (?P<status>ok|FAILED)\. (?P<passed>\d+) passed; (?P<failed>\d+) failed; "
    r"(?P<ignored>\d+) ignored; (?P<measured>\d+) measured; (?P<filtered>\d+) filtered out"
)
_DETAIL_HEADER = _regex.compile(r"^---- (?P<name>.+?) std(?:out|err) ----$")
# (not ``Finished``: the build's verdict, one line, and in ``cargo build && cargo test`` the first command's)
_BUILD_PROGRESS = _regex.compile(
    r"^\s*(?:Compiling|Downloading|Downloaded|Updating|Fetching|Fresh|Locking|Adding|Checking|Blocking|"
    r"Documenting|Building|Installing|Installed|Waiting|Locked) "
)
_TARGET_START = _regex.compile(r"^\s+(?:Running|Doc-tests) ")
#: cargo's own status lines; one ends the compiler diagnostic above it even with no blank line between
_CARGO_STATUS = _regex.compile(r"^\s+(?:Running|Doc-tests|Finished|Compiling|Checking|Fresh|Building) ")
_DIAGNOSTIC_START = _regex.compile(r"^(?P<kind>error|warning)(?:\[\w+\])?: ")
_TARGET_DIAGNOSTIC_END = _regex.compile(r"^(?:warning|error): .*(?:generated \d+ warnings?|could not compile|previous errors?)")
# cargo's own closing lines look like diagnostics but are summaries
_CARGO_EPILOGUE = _regex.compile(
    r"^error: (?:test failed|\d+ targets? failed|could not compile)|^(?:warning|error): `[^`]+` \(.*\) generated"
)
#: the tests of a run printed this many lines (--nocapture) before their runs of alike lines fold
_FOLD_PRINTED_FROM = 100
#: libtest's hint under a panic; every failure repeats it, the first one says it all
_BACKTRACE_NOTE = _regex.compile(r"^note: run with `RUST_BACKTRACE=(?:1|full)` environment variable to display a backtrace$")
# A panic message, or the location of a backtrace frame in the code under test: "at ./src/lib.rs:27:38",
# or an absolute path that is not the toolchain's, a registry crate's or glibc's ("at ./nptl/...").
#: a backtrace frame's location in the project (not the standard library's, nor a registry crate's, nor glibc's)
_PROJECT_AT_SOURCE = r"^\s*at (?!/rustc/|\./(?:nptl|misc|csu|stdlib)/)(?!\S*/(?:\.cargo/registry|\.rustup|rustlib)/)\S+:\d+"
_PROJECT_AT = _regex.compile(_PROJECT_AT_SOURCE)
_RUST_SIGNAL = _regex.compile(r"panicked at|assert|left:|right:|note: |expected|Error|" + _PROJECT_AT_SOURCE)

#: where a test panicked: "panicked at src/lib.rs:27:9:" (the message on the next line) or, before Rust
#: 1.73, "panicked at 'the message', src/lib.rs:27:9"
_PANIC_AT = _regex.compile(r"panicked at (?:'(?P<message>.*)', )?(?P<location>[^\s']+:\d+(?::\d+)?):?$")
#: how many lines under a panic line a failure shown in brief keeps: its message, ``left:`` and ``right:``
_BRIEF_LINES = 6
#: libtest's verdict on a `should_panic` test whose panic did not say what it expected
_SHOULD_PANIC_VERDICT = _regex.compile(r"^(?:note: panic did not contain expected string$|\s*panic message: |\s*expected substring: )")


class _Detail(Placeholder):
    """A failure's ``---- name stdout ----`` block: shown whole or in brief once every block has been read."""

    def __init__(self, name: str, header: str, body: list[str]) -> None:
        super().__init__()
        self.name = name
        self.header = header
        self.body = body
        self.location = ""
        self.shape: tuple[str, ...] = ()
        #: the panic line and the message under it: what every failure keeps, whatever the budget
        self.brief: list[str] = []
        #: the lines it stands for once shown (whole, in brief, or none), set by ``show_details``
        self.shown: list[str] = []
        for index, line in enumerate(body):
            found = _PANIC_AT.search(line)
            if found is None:
                continue
            self.location = found["location"]
            message = found["message"]
            if message is None and index + 1 < len(body):
                message = body[index + 1]
            self.shape = (message_shape(message or ""),)
            self.brief = [line]
            for following in body[index + 1 : index + 1 + _BRIEF_LINES]:
                if not following.strip() or _BACKTRACE_NOTE.match(following) or following.startswith("stack backtrace:"):
                    break
                self.brief.append(following)
            # a `#[should_panic(expected = ...)]` test that panicked with another message: libtest's verdict
            # under the panic says what was expected (batch 98b), and the panic alone reads as the wrong fix
            past = index + len(self.brief)
            self.brief.extend(following for following in body[past:] if _SHOULD_PANIC_VERDICT.match(following))
            break
        else:
            # no panic (a doc test that should have panicked, a test binary that died): what it said first
            self.brief = [line for line in body if line.strip() and not _BACKTRACE_NOTE.match(line)][:_BRIEF_LINES // 2]


# nextest
_NEXTEST_STATUS = _regex.compile(r"^\s+(?P<status>PASS|FAIL|SKIP|SIGSEGV|SIGABRT|TIMEOUT|LEAK|FLAKY|TRY \d+ FAIL|TRY \d+ PASS) \[")
_NEXTEST_SUMMARY = _regex.compile(r"^\s+Summary \[")
_NEXTEST_START = _regex.compile(r"^\s+(?:Starting|Nextest run ID|Cancelling) ")


# A passing libtest line, ``test NAME ... ok``, that no parser state can turn into
# anything else: banning ``... ignored`` / ``... bench:`` earlier in the line and
# ``test result: `` keeps out every line ``_TEST_LINE`` would read as another
# result and every line that ends a failure's details.
_PASSING_PREFIX = "test "
_PASSING_SUFFIX = " ... ok"
_PASSING_BANNED = (" ... ignored", " ... bench:", "test result: ")


class PassingRun(str):
    """Two or more consecutive passing ``test NAME ... ok`` lines standing as one item of a line list.

    Its value is the first of those lines, so the detectors (which ignore
    them or, for libtest, recognise them) answer as for the whole run;
    ``summarise_cargo`` handles the run in one step, as it would each line.
    """

    run_length: int
    _text: str
    _start: int
    _end: int

    def __new__(cls, text: str, start: int, end: int, count: int) -> PassingRun:
        first = text.find("\n", start, end)
        run = super().__new__(cls, text[start : end if first == -1 else first])
        run.run_length = count
        run._text, run._start, run._end = text, start, end
        return run

    def lines(self) -> list[str]:
        """Return every line of the run."""
        return self._text[self._start : self._end].split("\n")


def split_collapsing_passes(text: str) -> tuple[list[str], bool, bool]:
    """Split ``text`` like ``split_lines``, runs of passing libtest lines standing as ``PassingRun`` items.

    Returns the lines, whether ``text`` ended with a newline and whether any
    run was collapsed.  The lines are for ``summarise_cargo`` only: any other
    parser needs the plain lines.
    """
    if not text:
        return [], False, False
    ends_with_newline = text.endswith("\n")
    # the whole text, not text[:-1]: copying megabytes costs more than the one empty line it adds
    items = _speedups.collapse_runs(text, _PASSING_PREFIX, _PASSING_SUFFIX, _PASSING_BANNED)
    if ends_with_newline:
        items.pop()  # the empty line after the final newline, never part of a run
    collapsed = False
    lines: list[str] = []
    for item in items:
        if type(item) is str:
            lines.append(item)
        else:
            lines.append(PassingRun(text, *item))
            collapsed = True
    return lines, ends_with_newline, collapsed


def looks_like_cargo(lines: list[str]) -> bool:
    """Return whether the output comes from libtest (cargo test)."""
    return any(_RESULT.match(line) or _RUNNING_COUNT.match(line) or _TEST_LINE.match(line) for line in lines)


def looks_like_nextest(lines: list[str]) -> bool:
    """Return whether the output comes from cargo nextest."""
    return any(_NEXTEST_SUMMARY.match(line) for line in lines) or sum(
        1 for line in lines if _NEXTEST_STATUS.match(line)
    ) >= 2


def looks_like_cargo_build_failure(lines: list[str]) -> bool:
    """Return whether cargo failed to build the tests (no test ran)."""
    return any(line.startswith("error: could not compile `") for line in lines)


def _scan_targets(lines: list[str]) -> tuple[set[int], set[int], int, set[int], set[int]]:
    """Return the targets to show whatever happens, the targets that ran a test, how many tests ran in all
    (or were announced, in a target that never finished), the targets that never finished and those that
    started running tests (``running 0 tests`` too; not ``cargo test -vv``'s ``Running `rustc ...` `` lines).

    A target is the index of its ``Running``/``Doc-tests`` line; -1 stands for
    the lines before the first such line (output without target headers).  A
    target is shown when a test of it failed, or when it started running tests
    and printed no ``test result``: it crashed, or the output was cut short
    (``| head``), and its header and test count are all that say what ran.
    """
    failing: set[int] = set()
    ran: set[int] = set()
    started: set[int] = set()
    finished: set[int] = set()
    announced: dict[int, int] = {}  # each target's "running N tests", for one that never finished
    tests = 0
    current = -1
    # a target whose first line is not libtest's runs a harness of its own (`harness = false`: a bench
    # binary's table, a custom runner): it started too, and its header says whose lines follow (batch 79b)
    own_harness = False
    for index, line in enumerate(lines):
        if _TARGET_START.match(line):
            current = index
            own_harness = "Running `" not in line  # not ``cargo test -vv``'s ``Running `rustc ...` ``
            continue
        if own_harness and line.strip():
            own_harness = False
            # (cargo's own `error: test failed, to rerun pass ...` under a header is no harness's line: the
            # header came late, its tests' lines above it, as `parallel --tag` groups a job's streams)
            if not (_RUNNING_COUNT.match(line) or _CARGO_STATUS.match(line) or line.startswith(("error", "warning"))):
                started.add(current)
        if _RUNNING_COUNT.match(line):
            started.add(current)
            announced[current] = int(line.split()[1])
            continue
        result = _RESULT.match(line)
        if result:
            finished.add(current)
            count = int(result["passed"]) + int(result["failed"]) + int(result["ignored"])
            tests += count
            if count:
                ran.add(current)
        test = _TEST_LINE.match(line)
        if (result and result["status"] == "FAILED") or (test and test["result"] == "FAILED"):
            failing.add(current)
    # a target that died (a stack overflow aborts the binary) announced its tests and printed no result
    tests += sum(count for target, count in announced.items() if target not in finished)
    return failing | (started - finished), ran, tests, started - finished, started


def _diagnostic_kind(line: str) -> str | None:
    """Return ``"error"``/``"warning"`` when ``line`` starts a compiler diagnostic."""
    if _CARGO_EPILOGUE.match(line):
        return None
    start = _DIAGNOSTIC_START.match(line)
    return start["kind"] if start else None


def _summed(results: list[re.Match[str]]) -> str:
    """Return one ``test result`` line adding up every target's counts."""
    total = {key: sum(int(m[key]) for m in results) for key in ("passed", "failed", "ignored", "measured", "filtered")}
    status = "FAILED" if any(m["status"] == "FAILED" for m in results) else "ok"
    return (
        f"test result (summed over {len(results)} test targets): {status}. {total['passed']} passed; "
        f"{total['failed']} failed; {total['ignored']} ignored; {total['measured']} measured; "
        f"{total['filtered']} filtered out"
    )


def _listed_successes(lines: list[str]) -> set[str]:
    """Return the names --show-output lists under "successes:" (indented, after the tests' output)."""
    names: set[str] = set()
    for index, line in enumerate(lines):
        if line != "successes:":
            continue
        for listed in lines[index + 1 :]:
            if type(listed) is PassingRun or not listed.startswith("    ") or not listed.strip():
                break
            names.add(listed.strip())
    return names


#: the key in ``ends`` of a green run's first and last passes (no target's index is negative but -1)
_WHOLE_RUN = -2


def summarise_cargo(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep failing tests with their panics, compile errors and every ``test result`` line."""
    report = Report()
    out: list[str | Placeholder] = []
    details: list[_Detail] = []
    warning_marker = Placeholder()
    warning_lines = 0
    troubled_targets, targets_that_ran, tests_run, unfinished, targets_started = _scan_targets(lines)
    # in a target that never finished (killed, timed out, crashed, cut by `| head`) the first and the last
    # passing result stay: where it started and the last thing that worked (reviewers quoted the last)
    ends: dict[int, list[tuple[int, int, str]]] = {}  # target -> [(where in out, 0, first pass), (where, 1, last)]
    # and a green run keeps its first and last passes, over all its targets: where it started and
    # ended, the evidence a reviewer quotes (blind reviewers of batches 36b and 52 picked the last)
    green = not troubled_targets  # (a failing target or one that never finished is troubled)

    def passed(run: str, count: int = 1) -> None:
        """Count ``count`` passes (a line, or a ``PassingRun``); in a target that never finished, note its ends."""
        report.omit_passed(count)
        if target in unfinished or green:
            # (only here does a run's text get split: a finished run of 100,000 passes costs one step)
            run_lines = run.lines() if type(run) is PassingRun else [run]
            found = ends.setdefault(target if target in unfinished else _WHOLE_RUN, [])
            if not found:
                found.append((len(out), 0, run_lines[0]))
            if found[0][2] != run_lines[-1]:
                found[1:] = [(len(out), 1, run_lines[-1])]
    few = tests_run <= FEW_RESULTS  # a run of a few tests keeps its passes, under their targets
    shown_targets = troubled_targets | targets_that_ran if few else troubled_targets
    target = -1  # the index of the current target's header line (-1: before any)
    results: list[re.Match[str]] = []

    detail_name: str | None = None
    detail: list[str] = []
    detail_header = ""
    diagnostic: str | None = None  # "error" or "warning" while inside a compiler diagnostic
    # between a target's "running N tests" and its "test result": what the tests print (--nocapture),
    # where a "warning: ..." line is the program's, not the compiler's
    in_run = False
    printed: set[int] = set()  # where in ``out`` the lines the tests printed are
    # under --show-output, the "successes:" section's "---- name stdout ----" blocks: what the passing
    # tests printed, asked for (kept as --nocapture's output is), and no failure's details; the names
    # listed under "successes:" after them tell a block whose heading a ``| tail`` cut off
    in_successes = False
    succeeded = _listed_successes(lines)
    relisted = 0  # "failures:" headings above details: each detail names its test
    notes_dropped = 0  # repeated RUST_BACKTRACE notes
    build_lines = 0  # the build's "Compiling x", "Downloading y" lines
    note_seen = False

    def drop_repeated_notes(body: list[str]) -> list[str]:
        nonlocal notes_dropped, note_seen
        kept: list[str] = []
        for line in body:
            if _BACKTRACE_NOTE.match(line):
                if note_seen:
                    notes_dropped += 1
                    continue
                note_seen = True
            kept.append(line)
        # blank lines and the doc-test runner's "stderr:" label frame the panic and say nothing
        kept = [line for line in kept if line.strip()]
        return [
            line for i, line in enumerate(kept)
            if not (line == "stderr:" and i > 0 and kept[i - 1].startswith("Test executable failed"))
        ]

    def flush_detail() -> None:
        nonlocal detail_name, detail
        if detail_name is None:
            return
        body = detail
        while body and not body[-1].strip():
            body = body[:-1]
        details.append(_Detail(detail_name, detail_header, body))
        out.append(details[-1])
        detail_name, detail = None, []

    def show_details() -> None:
        """Show the failures chosen for variety whole, every other one in brief: where and why it panicked.

        One test failing in twenty places cannot crowd out the others' details, and no failure loses its
        message (batch 40 asked for all twenty of a first run's).
        """
        picked = choose_varied(
            [(detail.name, detail.shape, detail.location, detail.location.split(":", 1)[0]) for detail in details],
            max_failures,
        )
        briefed: list[_Detail] = []
        hidden_lines = 0
        for index, item in enumerate(details):
            if index in picked:
                body = drop_repeated_notes(item.body)
                # a backtrace frame of the project's code stays with its location (`at src/x.rs:17`) through
                # the cut: under RUST_BACKTRACE=full batch 58b's reviewer quoted the function names
                frames = {body[at - 1] for at in range(1, len(body)) if _PROJECT_AT.match(body[at])}
                # the message under a panic's location (Rust 1.73 on: `panicked at tests/x.rs:86:5:`, then the
                # message) stays through the cut as the location does (batch 69b: a test that printed 4,600
                # lines kept its panic line, and its message went)
                messages = {body[at + 1] for at in range(len(body) - 1)
                            if (found := _PANIC_AT.search(body[at])) and not found["message"]}
                shown = cut_trace(body, trace_limit,
                                  lambda line: bool(_RUST_SIGNAL.search(line)) or line in frames or line in messages)
                item.shown = [item.header, *shown, ""]
                continue
            briefed.append(item)
            hidden_lines += len(item.body) + 1 - len(item.brief)
            item.shown = [*item.brief, ""] if item.brief else []
        if briefed:
            names = [item.name for item in briefed]
            briefed[0].shown.insert(0, (
                f"... ({plural(len(names), 'more failure')} shown by {'its' if len(names) == 1 else 'their'} panic only "
                f"({plural(hidden_lines, 'line')} omitted): {fold_names(names)}) ..."
            ))

    for index, line in enumerate(lines):
        if type(line) is PassingRun:
            # the run goes where each of its lines would: into a failure's detail, else out (a few results)
            # or counted; test lines sit at the margin, where no diagnostic has a line, so one ends above them
            if detail_name is not None:
                detail.extend(line.lines())
                continue
            diagnostic = None
            if few:
                out.extend(line.lines())
            else:
                passed(line, line.run_length)
            continue
        if detail_name is not None:
            if _DETAIL_HEADER.match(line) or line == "failures:" or _RESULT.match(line):
                flush_detail()
            else:
                detail.append(line)
                continue
        header = _DETAIL_HEADER.match(line)
        if not in_successes and succeeded and header and header["name"] in succeeded:
            in_successes = True  # the "successes:" heading above went with the head of the output
        if in_successes:
            if line == "successes:" or line == "failures:" or _RESULT.match(line) or (
                header and succeeded and header["name"] not in succeeded
            ):
                in_successes = False  # the list of their names, the failures, or the target's result
            else:
                if line.strip() and not header:
                    printed.add(len(out))
                out.append(line)
                continue
        if line == "successes:" and _DETAIL_HEADER.match(
            next((later for later in lines[index + 1 :] if later.strip()), "")
        ):
            in_successes = True
            out.append(line)
            continue
        if line == "failures:":
            following = next((later for later in lines[index + 1 :] if later.strip()), "")
            if _DETAIL_HEADER.match(following):
                relisted += 1  # the heading above the details: each detail names its test
                continue
        if diagnostic is not None:
            if not line.strip():
                diagnostic = None
            elif _diagnostic_kind(line) is not None and not _TARGET_DIAGNOSTIC_END.match(line):
                diagnostic = None  # the next head with no blank line before it: its own diagnostic
            elif _CARGO_STATUS.match(line) or _RUNNING_COUNT.match(line) or _RESULT.match(line):
                diagnostic = None  # cargo's and libtest's own lines are never a diagnostic's detail
            elif not line[:1].isspace() and not BLOCK_MARGIN.match(line) and not _TARGET_DIAGNOSTIC_END.match(line):
                # no diagnostic has this at its margin: what ran it (`make: *** [Makefile:10: clippy] Error
                # 101` under `make -k`), read for what it is
                diagnostic = None
            elif diagnostic == "error" or _TARGET_DIAGNOSTIC_END.match(line) or line.lstrip().startswith("-->"):
                out.append(line)
                continue
            else:
                warning_lines += 1
                continue
        if header:
            detail_name, detail_header, detail = header["name"], line, []
            continue
        test = _TEST_LINE.match(line)
        if test:
            result = test["result"]
            if result == "ok" and not few:
                passed(line)
            else:
                if result == "FAILED":
                    report.failures += 1
                out.append(line)
            continue
        if _QUIET_PROGRESS.match(line):
            progress = line.split(" ", 1)[0]
            report.omit_passed(progress.count("."))
            report.omit_skipped(progress.count("i"))
            if "F" in progress:
                out.append(line)
            continue
        if _RUNNING_COUNT.match(line):
            in_run = True
            if target in shown_targets or green:
                # how many tests the failing target (or a run of a few) ran; in a green run, each
                # target's (a line each: batch 57b's reviewer quoted "running 977 tests")
                out.append(line)
            continue
        if _BUILD_PROGRESS.match(line):
            build_lines += 1
            continue
        if _TARGET_START.match(line):
            target, in_run = index, False
            if index in shown_targets or index in targets_started:
                # whose tests the "test result" line below counts, also when it ran none ("Doc-tests core"
                # over "0 passed": reviewers quoted both); not ``-vv``'s ``Running `rustc ...` `` lines
                out.append(line)
            continue
        result_match = _RESULT.match(line)
        if result_match:
            in_run = False
            results.append(result_match)
            out.append(line)
            continue
        kind = _diagnostic_kind(line)
        if kind == "warning" and in_run:
            kind = None  # a test's own "warning: ..." (--nocapture): the lines under it are its output too
        if kind is not None:
            diagnostic = kind
            if kind == "error":
                report.failures += 1
            elif warning_marker not in out:
                out.append(warning_marker)
            out.append(line)
            continue
        if in_run and line.strip():
            printed.add(len(out))  # what a test printed (--nocapture), between the run's results
        out.append(line)
    flush_detail()
    # the places of what tests printed move on with them (fuzzing real fixtures found a run cut off after
    # its details whose stale places named a failure's block, which then printed as an object)
    printed = keep_noted_passes(
        out, [(position, kept) for position, _, kept in sorted(end for found in ends.values() for end in found)],
        report, printed,
    )
    if len(printed) >= _FOLD_PRINTED_FROM:
        out = fold_marked_runs(out, printed)

    show_details()
    if warning_lines:
        warning_marker.text = omitted_marker(warning_lines, "line", "of compiler warning detail")
    if len(results) > 1:
        out.append(_summed(results))
    if relisted:
        report.also_omitted.append(plural(relisted, "line") + " re-listing failures named above")
    if notes_dropped:
        report.also_omitted.append(plural(notes_dropped, "repeated RUST_BACKTRACE note"))
    if build_lines:
        report.also_omitted.append(plural(build_lines, "line") + " of build progress")
    report.lines = tidy(resolve([part for item in out for part in (item.shown if type(item) is _Detail else (item,))]))
    if not results and report.failures == 0:
        report.unsure = True
    return report


def summarise_nextest(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep nextest's failing tests, their output sections and the summary."""
    report = Report()
    out: list[str] = []
    build_lines = 0  # the build's lines and nextest's "Starting 12 tests across 3 binaries"
    for line in lines:
        status = _NEXTEST_STATUS.match(line)
        if status:
            if status["status"] in ("PASS", "FLAKY") or status["status"].startswith("TRY") and "PASS" in status["status"]:
                report.omit_passed()
                continue
            if status["status"] == "SKIP":
                report.omit_skipped()
                continue
            report.failures += 1
        elif _BUILD_PROGRESS.match(line) or _NEXTEST_START.match(line):
            build_lines += 1
            continue
        out.append(line)
    if build_lines:
        report.also_omitted.append(plural(build_lines, "line") + " of build and run progress")
    report.lines = tidy(cut_trace(out, trace_limit * max(max_failures, 1) + 20))
    return report


__all__ = [
    "PassingRun",
    "looks_like_cargo",
    "looks_like_cargo_build_failure",
    "looks_like_nextest",
    "plural",
    "split_collapsing_passes",
    "summarise_cargo",
    "summarise_nextest",
]
