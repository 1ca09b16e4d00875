"""python -m unittest (plain and ``-v``).

In ``-v`` mode unittest writes, per test, its description, `` ... `` and a
status.  The description is ``name (module.Class.name)``, followed on the next
line by the first line of the docstring when the test has one (doctests have
``Doctest: module.name``); a subtest that fails gets its own indented line
after its test's `` ... ``; and whatever the test prints to the same stream
lands between the `` ... `` and the status, which then stands on a line of its
own.  Passing tests go (counted); every other status stays with its
description; what a passing test printed stays the first time it is seen.
"""

from __future__ import annotations

from .... import _regex
from .._common import omitted_marker, plural
from ._detect import RAN as _RAN
from ._detect import looks_like_unittest  # noqa: F401  # the detector lives apart; importable from here too
from ._shared import Report, choose_varied, cut_trace, few_results, message_shape, tidy

_VERDICT = _regex.compile(r"^(?:OK|FAILED)(?: \(.*\))?$")
_FAILURE_HEADER = _regex.compile(r"^(?P<kind>FAIL|ERROR|UNEXPECTED SUCCESS): (?P<name>\S+)(?: \((?P<where>[^)]*)\))?")
_STATUS = r"(?:ok|FAIL|ERROR|skipped(?: .*)?|expected failure|unexpected success)"
#: ``<description> ... <status>``: the description is a test name, or a docstring line after one
_RESULT = _regex.compile(rf"^(?P<desc>.*?) \.\.\. (?P<status>{_STATUS})$")
#: ``<description> ... <anything else>``: the test started and printed something (or has subtests)
_STARTED = _regex.compile(r"^(?P<desc>.*?) \.\.\.(?: (?P<rest>.*))?$")
_STATUS_ONLY = _regex.compile(rf"^{_STATUS}$")
#: a test's ``str()``: ``name (module.Class.name)``, a subtest adds `` [msg]`` and/or `` (params)``
_TEST_NAME = _regex.compile(r"^\s*[^\s()]+ \([\w.]+\)(?: \[.*?\])?(?: \(.*\))?$")
_PROGRESS = _regex.compile(r"^[.FEsxu]+$")
_SEPARATOR = _regex.compile(r"^(?:=+|-+)$")
#: a traceback's frame line: ``  File "/app/tests/test_x.py", line 12, in test_y``
_FRAME = _regex.compile(r'^\s+File "(?P<file>[^"]+)", line (?P<line>\d+)')
#: an exception's line at the end of a traceback: ``AssertionError: 'B' != 'A'``, ``ValueError: ...``
_EXCEPTION = _regex.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Failure|Warning|Exit|Interrupt|Iteration)\b")
_SIGNAL = _regex.compile(r'^\s*File "|Error|Exception|assert|^[-+?] |^\w+(?:\.\w+)*: ')


class _VerboseResults:
    """Read the ``-v`` result lines: drop passing tests, keep everything else in order."""

    def __init__(self, out: list[str], report: Report, few: bool = False) -> None:
        self.out = out
        self.report = report
        self.few = few  # a run of a few tests: its passes stay
        self.held: str | None = None  # a name line whose docstring line comes next
        self.started: list[str] | None = None  # description lines of a test still without a status
        self.printed: list[str] = []  # what that test printed meanwhile (after the ``...``)
        self.captured: list[str] = []  # the lines following its description
        self.shown = False  # its description is already out (a subtest failed)
        self.outputs_seen: set[tuple[str, ...]] = set()
        self.repeated_lines = 0

    def feed(self, line: str) -> bool:
        """Take ``line`` if it belongs to the results; return False to leave it to the caller."""
        held, self.held = self.held, None
        result = _RESULT.match(line)
        if result and (held is not None or _TEST_NAME.match(result["desc"])):
            if self.started is not None and line.startswith(" ") and held is None:
                self._subtest(line, result["status"])
                return True
            self.close()
            if held is not None and _TEST_NAME.match(result["desc"]):
                self.out.append(held)  # not a docstring line: the held line was something else
                held = None
            if result["status"] == "ok" and not self.few:
                self.report.omit_passed()
            else:
                self.out.extend([held, line] if held is not None else [line])
            return True
        started = _STARTED.match(line)
        if started and (held is not None or _TEST_NAME.match(started["desc"])):
            self.close()
            self.started = [held, line] if held is not None else [line]
            self.printed = [started["rest"]] if (started["rest"] or "").strip() else []
            return True
        if _TEST_NAME.match(line):
            self.close()
            self._emit_held(held)
            self.held = line
            return True
        self._emit_held(held)
        if self.started is not None:
            if _STATUS_ONLY.match(line):
                self._finish(line)
            else:
                self.captured.append(line)
            return True
        return False

    def close(self) -> None:
        """End the results (or the test in progress): what was not understood is kept."""
        self._emit_held(self.held)
        self.held = None
        if self.started is not None:
            if not self.shown:
                self.out.extend(self.started)
            self.out.extend(self.captured)
            self._reset()

    def _emit_held(self, held: str | None) -> None:
        if held is not None:
            self.out.append(held)

    def _subtest(self, line: str, status: str) -> None:
        """A subtest's result inside its test: failures stay, with the test's description."""
        if status == "ok":
            self.report.omit_passed()
            return
        if not self.shown:
            self.out.extend(self.started or ())
            self.shown = True
        self.out.extend(self.captured)
        self.captured = []
        self.out.append(line)

    def _finish(self, status_line: str) -> None:
        """The status of the test in progress, on a line of its own after what the test printed."""
        output = tuple(self.printed + self.captured)
        if status_line == "ok" and not self.shown and output in self.outputs_seen:
            self.report.omit_passed()
            self.repeated_lines += len(self.started or ()) + len(self.captured) + 1
        else:
            self.outputs_seen.add(output)
            if not self.shown:
                self.out.extend(self.started or ())
            self.out.extend(self.captured)
            self.out.append(status_line)
        self._reset()

    def _reset(self) -> None:
        self.started, self.printed, self.captured, self.shown = None, [], [], False


class _Block:
    """One ``FAIL:``/``ERROR:`` block, shown in detail or in brief once every block has been read."""

    def __init__(self, header: str, name: str) -> None:
        self.header = header
        self.name = name
        self.body: list[str] = []

    def frame(self) -> str:
        """The block's last ``File "...", line N`` line: where it failed, or ``""``."""
        return next((line for line in reversed(self.body) if _FRAME.match(line)), "")

    def message(self) -> str:
        """The exception's line (the last one of a chain), or the block's last line."""
        found = next((line for line in reversed(self.body) if _EXCEPTION.match(line)), "")
        return found or next((line for line in reversed(self.body) if line.strip()), "")

    def key(self) -> tuple[str, tuple[str, ...], str, str]:
        """What ``choose_varied`` tells failures apart by: the test, its message's shape, where, which file."""
        frame = _FRAME.match(self.frame())
        location = f"{frame['file']}:{frame['line']}" if frame else ""
        return self.name, (message_shape(self.message()),), location, frame["file"] if frame else ""


def _render(out: list[str | _Block], max_failures: int, trace_limit: int) -> list[str]:
    """Show up to ``max_failures`` blocks in detail, chosen for variety; the others in brief.

    In output order the first ten may all be one bug (a fixture file missing under six CLI
    tests) while four different assertions fail below them (batch 43): the blocks shown are
    chosen as pytest's are, and each other block keeps its header, its last frame and its
    message: every failing test's name with its message and location.
    """
    blocks = [item for item in out if isinstance(item, _Block)]
    chosen = choose_varied([block.key() for block in blocks], max_failures)
    rendered: list[str] = []
    briefed = hidden_lines = 0
    marker_at: int | None = None
    index = 0
    for item in out:
        if not isinstance(item, _Block):
            rendered.append(item)
            continue
        body = list(item.body)
        while body and not body[-1].strip():
            body.pop()
        if index in chosen:
            rendered.append(item.header)
            rendered.extend(cut_trace(body, trace_limit, lambda line: bool(_SIGNAL.search(line))))
            rendered.append("")
        else:
            if marker_at is None:
                marker_at = len(rendered)
            brief = [line for line in (item.frame(), item.message()) if line]
            rendered.extend([item.header, *brief, ""])
            briefed += 1
            hidden_lines += len(body) - len(brief)
        index += 1
    if briefed:
        rendered.insert(marker_at or 0, (
            f"... ({plural(briefed, 'more failure')} not shown in detail ({plural(hidden_lines, 'line')} "
            f"omitted): each below as its header, its last frame and its message) ..."))
    return rendered


def summarise_unittest(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep each FAIL/ERROR with its traceback (cut), drop passing ``-v`` lines and separators."""
    report = Report()
    out: list[str | _Block] = []
    results = _VerboseResults(out, report, few_results(lines, _RESULT))  # type: ignore[arg-type]
    block: _Block | None = None
    separators = 0

    for line in lines:
        failure = _FAILURE_HEADER.match(line)
        if failure:
            results.close()
            report.failures += 1
            block = _Block(line, failure["name"])
            out.append(block)
            continue
        if _SEPARATOR.match(line) and len(line) >= 20:
            results.close()
            separators += 1
            if line.startswith("="):
                block = None  # the next block's opening rule ("-" rules sit under a block's header)
            continue
        if _RAN.match(line):
            results.close()
            block = None
            out.append(line)
            continue
        if block is not None:
            block.body.append(line)
            continue
        if results.feed(line):
            continue
        if _PROGRESS.match(line) and not _VERDICT.match(line):
            if "F" in line or "E" in line or "u" in line:
                out.append(line)  # where the failures and unexpected successes fell (batch 21)
                continue
            report.omit_passed(line.count("."))
            report.omit_skipped(line.count("s") + line.count("x"))
            continue
        out.append(line)
    results.close()
    rendered = _render(out, max_failures, trace_limit)
    if results.repeated_lines:
        report.also_omitted.append(f"{plural(results.repeated_lines, 'line')} of repeated test output")
    if separators:
        rendered.append(omitted_marker(separators, "separator line"))
    report.lines = tidy(rendered)
    return report
