"""pytest: default, ``-q``, ``-v``/``-vv``, every ``--tb`` style, collection and fixture errors, xdist, pytest-cov."""

from __future__ import annotations

from .... import _regex
from .._common import indent_of, listed_places, omitted_marker, per_line, plural
from ._shared import (
    FEW_RESULTS,
    Placeholder,
    Report,
    choose_varied,
    cut_trace,
    few_results,
    fold_names,
    message_shape,
    note_end,
    resolve,
    tidy,
)

_SECTION = _regex.compile(r"^={3,} (?P<title>.+?) ={3,}$")
#: a final counts line that is not a green run's: something failed, errored or passed unexpectedly
_TROUBLE_COUNTS = _regex.compile(r"\d+ (?:failed|errors?|xpassed)\b|no tests ran")
#: the final line's counts of failed tests and errors
_FAILED_COUNT = _regex.compile(r"(\d+) (?:failed|errors?)\b")
#: a run that selected no test: ``collected 48 items / 48 deselected / 0 selected``, ``collected 0 items``
#: (not ``collected 0 items / 1 error``: its errors say what is wrong)
_NOTHING_SELECTED = _regex.compile(r"^collected (?:\d+ items? / \d+ deselected / 0 selected|0 items)$")
_FINAL = _regex.compile(
    r"^(?:=+ )?(?:\d+ (?:(?:subtests? )?(?:passed|failed|skipped|xfailed|xpassed)|errors?|warnings?|deselected|rerun)(?:, )?)+"
    r"(?: in [\d.]+s(?: \([\d:]+\))?)?(?: =+)?$|^=+ no tests ran in [\d.]+s =+$|^no tests ran in [\d.]+s$"
)
_HEADER_LINE = _regex.compile(
    r"^(?:platform |cachedir: |rootdir: |configfile: |plugins: |benchmark: |hypothesis profile |"
    r"testpaths: |metadata: |django: |asyncio: |"
    r"Test order randomisation|sensitiveurl: |xdist-)"
)
#: the session header's lines that stay (two blind reviewers, batches 19 and 22, asked for them); and
#: pytest-asyncio's mode when it is not the default strict one: set on purpose, it decides whether an
#: unmarked ``async def`` test runs (batch 31b's reviewer asked for ``asyncio: mode=Mode.AUTO``)
_HEADER_KEPT = _regex.compile(r"^(?:platform |rootdir: |configfile: |asyncio: mode=(?!Mode\.STRICT\b))")
# "tests/test_x.py ..F.s   [ 40%]" (default; also "docs/usage.rst ." of --doctest-glob) and "..F.s   [ 40%]" (-q)
_PROGRESS = _regex.compile(r"^(?:\S+\.\w+ )?[.FEsxXR]+\s*(?:\[\s*\d+%\])?$")
# "tests/test_x.py::test_y PASSED   [ 40%]" (-v)
_VERBOSE = _regex.compile(
    r"^(?P<id>\S+::\S.*?) (?P<status>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN)\b.*?(?:\s+\[\s*\d+%\])?$"
)
#: "[gw0] [ 40%] PASSED tests/test_x.py::test_y" (-v under pytest-xdist: the worker, then the result)
_XDIST_VERBOSE = _regex.compile(
    r"^\[gw\d+\] \[\s*\d+%\] (?P<status>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN) (?P<id>\S+::\S.*?)$"
)
#: ``--log-cli-level``'s sections: "----- live log call -----" under the test that logged them
_LIVE_LOG = _regex.compile(r"^-{3,} live log (?:setup|call|teardown|sessionstart|sessionfinish|collection|start|finish) -{3,}$")
#: under live logs a test's id stands alone ("tests/x.py::test_y"), its result on a line of its own
_ID_ALONE = _regex.compile(r"^\S+::\S.*$")
_LIVE_RESULT = _regex.compile(r"^(?P<status>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN)(?:\s+\[\s*\d+%\])?$")
#: the end of ``pytest --collect-only``: "329 tests collected in 0.54s", "12/329 tests collected (317 deselected) in 0.5s"
_COLLECTED = _regex.compile(r"^(?:=+ )?\d+(?:/\d+)? tests? collected(?: \(\d+ deselected\))? in [\d.]+s(?: \([\d:]+\))?(?: =+)?$")
_DOCS_LINK = _regex.compile(r"^-- Docs: https://docs\.pytest\.org/\S+$")
_PERCENT = _regex.compile(r"\s*\[\s*\d+%\]$")
# pytest centres the name in underscores; a name near the terminal width leaves one on a side
_FAILURE_HEADER = _regex.compile(r"^(?=__|.* __$)_+ (?P<name>[^_\s].*?) _+$")
#: what only a failure's or an error's block shows: the passes' blocks of ``-rP``/``-rA`` hold captured output
_FAILURE_EVIDENCE = _regex.compile(r"^(?:E(?:\s|$)|>\s|Traceback \(most recent call last\)|\[XPASS|\S+:\d+: )")
_CAPTURED = _regex.compile(r"^-+ Captured \w+ \w+ -+$")
#: a line of an assertion's diff under its message: ``E         - db {  # primary`` (the snapshot's),
#: ``E         + db { # primary`` (what the test got)
#: (not pytest's explanation of an assertion's values, ``E        +  where 2 = f(x)``)
_DIFF_LINE = _regex.compile(r"^E {3,}(?P<sign>[-+]) (?!\s*(?:where|and) )(?P<text>.*)$")
#: a line of pytest's explanation of a comparison that names the values differing: a differing item
#: of two dicts ("{'divisor': 5000} != {'divisor': 6000}"), a sequence's first difference ("At index 0
#: diff: ...")
_COMPARED_VALUES = _regex.compile(r"^E {3,}(?:At index \d+ diff: |\S.* != \S)")
#: an assertion whose values pytest shortened past telling apart: "assert {'actual_kg':...parcelo', ...}
#: == {'actual_kg':...parcelo', ...}" (the explanation below it says what differs)
_ELIDED_ASSERTION = _regex.compile(r"\bassert .*\.\.\.")
#: a plugin's report after the failures, under a ruler of dashes (syrupy's ``---- snapshot report
#: summary ----``: how many snapshots failed, went unused, and what to run): not the last block's tail.
#: A block's own sections have such rulers too (``Captured stdout call``, hypothesis's ``Hypothesis``
#: of a test's tried examples); a report is known by no failure following it before the next section
_PLUGIN_REPORT = _regex.compile(r"^-{3,} (?!Captured |Hypothesis -)\S.*? -{3,}$")
_FRAME_SEPARATOR = _regex.compile(r"^(?:_ ){5,}_?$")
#: a line of carets under a source line, behind an exception group's gutters too (``  |     ^^^^``)
_CARET_ONLY = _regex.compile(r"^(?: *\| )*\s*[\^~]+\s*$")
_LOCATION_LINE = _regex.compile(r"^\S+:\d+: ")
#: where a failure was raised: ``tests/x.py:12: AssertionError`` (not a ``path:line: in function`` frame)
_RAISED_AT = _regex.compile(r"^(?P<file>\S+):\d+: (?!in \S+$)")
#: a long failure's lines kept first: the assertion and its explanation, the location, the sections'
#: headers, hypothesis's falsifying example (the input that fails), and a captured log record at ERROR or
#: above (``ERROR    parcel.labels:labels.py:41 label 42 is over the weight limit``, among 120 DEBUG
#: records; pytest's log format puts the level first); read past an exception group's gutters too
#: (``  | E   AssertionError``, ``  | hypothesis.errors.FlakyFailure:``, as pytest prints hypothesis's)
#: a frame line of the project's own code in a long traceback: "pulsewatch/checker.py:61: in probe"
#: (not a library's under site-packages or the interpreter's under /usr/lib)
_PROJECT_FRAME = _regex.compile(r"^(?!\S*(?:site-packages|dist-packages|/usr/lib/|/lib/python\d))\S+:\d+: in \S+$")
#: an exception's first line that only heads what follows: pydantic's "2 validation errors for Order",
#: an ExceptionGroup's count, a message ending in a colon
_HEADING_MESSAGE = _regex.compile(r"\b\d+ validation errors? for \S+$|\(\d+ sub-exceptions?\)$|:$")
#: how many lines of its run such a heading brings with it into a brief
_HEADING_FOLLOWERS = 3
#: a frame of the project's code in a Python traceback or stack dump: `  File "/src/app/x.py", line 4, in f`
_PROJECT_PYTHON_FRAME = _regex.compile(
    r'^(?: *\| )*\s*File "(?![^"]*(?:site-packages|dist-packages|/usr/lib/|/lib/python\d|<frozen))[^"]+", line \d+, in ')
#: what a failure's block keeps through a cut; among its captured log records, a warning's too
#: (`WARNING  playpy.shuffle:shuffle.py:26 spread: cannot separate ...`, batch 69b: the clue under
#: forty lines of captured setup output)
_SIGNAL = _regex.compile(
    r"^(?:\s*\|)*\s?(?:E\s|>\s|\S+:\d+: |\S+:\d+:$|\[XPASS|\s*\+\s+where|Falsifying example:)|Error|Failure|Captured"
    r"|(?<![\w-])(?:ERROR|CRITICAL|FATAL)(?![\w-])|^WARNING +\S+:\S+:\d+ "
)

#: a live log line that says something went wrong though the test passed: a record at ERROR or above
#: (the level leads pytest's log format, or follows a timestamp a custom format puts first), a traceback
_LIVE_TROUBLE = _regex.compile(
    r"^(?:\S+ \S+ |\S+ )?\[?(?:ERROR|CRITICAL|FATAL)\]?\s|^Traceback \(most recent call last\):$"
)

_DETAIL_SECTIONS = ("FAILURES", "ERRORS")

#: a traceback's closing line when the style prints no ``E`` lines (``--tb=native``), and each
#: exception of an exception group's tree behind its gutters, whatever its class is called
#: (``  | ExceptionGroup: settlement run failed (2 sub-exceptions)``, ``    | ledger.DuplicateKey: ...``)
_EXCEPTION_LINE = _regex.compile(
    r"^[\w.]*(?:Error|Exception|Exit|Interrupt|Failure)\b:?|^(?: *\| )+(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*: "
)
#: ``FAILED tests/x.py::test_f[id] - message`` in the short summary: a parametrised test's line
_SUMMARY_ITEM = _regex.compile(r"^(?P<status>FAILED|ERROR|XFAIL|XPASS) (?P<test>[^\s\[]+)\[(?P<id>.*?)\](?: - (?P<message>.*))?$")
#: pytest-cov's heading: ``---------- coverage: platform linux, python 3.11 ----------`` (older)
#: or ``__________ coverage: platform linux, python 3.12 __________`` (newer, under "tests coverage")
_COVERAGE_HEADER = _regex.compile(r"^[-_]{3,} coverage: .+ [-_]{3,}$")
#: a row of the coverage table: ``src/x.py   13   2   85%   6-7`` (with branch columns, or TOTAL)
_COVERAGE_ROW = _regex.compile(r"^\S.*?\s+\d+\s+\d+(?:\s+\d+\s+\d+)?\s+\d+(?:\.\d+)?%(?:\s.*)?$")
_COVERAGE_FULL_ROW = _regex.compile(r"^(?!TOTAL\s)\S.*?\s+\d+\s+0(?:\s+\d+\s+0)?\s+100(?:\.0+)?%\s*$")
#: fewer alike short-summary lines than this stay as they are: a reader quotes a failure back by its
#: line (batch 20 asked for the third of four failing parameters of one test, batch 21 for the last
#: of twelve, batch 23 for the seventh and the tenth of fourteen); past it, the first and the last
#: stay and each folded line's parameter id is still listed.  Runs this long (dateutil's 60 easter
#: dates) are where folding saves: 12 KB of each of those runs' 23 KB
_FOLD_AT_LEAST = 30
#: a failure block this short (after its header) is shown outside the budget: naming it costs as much
_FREE_BLOCK_LINES = 2
#: a coverage table this long or shorter is kept whole
_COVERAGE_ROWS_KEPT = 10

# A frame of the import machinery, of pytest itself (collection errors walk
# through a dozen of them) or of a frozen standard module: ``path:line: in
# function`` and its indented source line, or ``???`` where the source is
# frozen.  The user's frame that called into them stays, with every E line.
_MACHINERY_FRAME = _regex.compile(
    r"^(?:\S*/site-packages/(?:_pytest|pluggy)/\S+|<frozen [\w.]+>"
    r"|\S*/lib/python[\d.]+/importlib/__init__\.py):\d+: in \w+$"
    # the same frames as ``--tb=native`` prints them (they come first there, and would take the budget),
    # and as an exception group's traceback prints them behind its gutters (``  |   File ...``: pytest 8
    # shows a test's ExceptionGroup that way, thirty frames of pytest and pluggy above the test's own)
    r"|^(?P<gutter>(?: *\| )*)  File \"(?:\S*/site-packages/(?:_pytest|pluggy)/[^\"]+|<frozen [\w.]+>"
    r"|\S*/lib/python[\d.]+/importlib/__init__\.py)\", line \d+, in \S+$"
)


#: a frame of pytest's own in faulthandler's dump: ``  File "/.../_pytest/runner.py", line 179 in pytest_runtest_call``
_PYTEST_FAULTHANDLER_FRAME = _regex.compile(r'^\s+File "[^"]*/_pytest/[^"]*", line \d+ in \w+$')


def looks_like_pytest(lines: list[str]) -> bool:
    """Return whether the output comes from pytest.

    A run that crashed before ``-q`` printed anything (a segfault in a C extension) is pytest's when
    faulthandler's dump of the crash runs through pytest's own frames.
    """
    crashed = False
    for line in lines:
        section = _SECTION.match(line)
        if section and (section["title"] in ("test session starts", "short test summary info", "FAILURES", "ERRORS")):
            return True
        if _FINAL.match(line) and " in " in line or _COLLECTED.match(line):
            return True
        if line.startswith("Fatal Python error: "):
            crashed = True
        elif crashed and _PYTEST_FAULTHANDLER_FRAME.match(line):
            return True
    return False


def _lines_before_a_section(lines: list[str]) -> list[bool]:
    """Return for each line whether no failure's header follows it before the next ``=== x ===`` section.

    One pass from the end: asking it of each ruler in turn would read the rest of the output once per
    ruler (forty thousand rulers, forty thousand reads).
    """
    found = [True] * len(lines)
    section_next = True
    for index in range(len(lines) - 1, -1, -1):
        found[index] = section_next
        line = lines[index]
        if _SECTION.match(line) or _FINAL.match(line):
            section_next = True
        elif _FAILURE_HEADER.match(line):
            section_next = False
    return found


def _few_marks(lines: list[str]) -> bool:
    """Return whether the progress rows hold at most ``FEW_RESULTS`` marks (stops counting past it)."""
    marks = 0
    for line in lines:
        if _PROGRESS.match(line):
            marks += len(_PERCENT.sub("", line).split()[-1])
            if marks > FEW_RESULTS:
                return False
    return True


def _last_green_row(lines: list[str]) -> int:
    """Return the index of the last progress row, or -1 when there is none or a row shows a failure."""
    rows = [index for index, line in enumerate(lines) if _PROGRESS.match(line)]
    if not rows or any(ch in _PERCENT.sub("", lines[index]).split()[-1] for index in rows for ch in "FE"):
        return -1
    return rows[-1]


def _text_bytes(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def _frame_without_context(body: list[str], keep_context: bool = False) -> tuple[list[str], int]:
    """Drop the source lines pytest prints above each ``>`` line; return the rest and how many went.

    Those lines are the test's own code leading up to the failing line; the
    failing line itself (``>``), the ``E`` lines and locations stay.  Frames of
    the import machinery and of pytest itself go whole.  With ``keep_context``
    only the machinery frames and the decoration go.
    """
    kept: list[str] = []
    frame: list[str] = []
    dropped = 0
    in_machinery = False

    def close_frame(has_arrow: bool) -> None:
        nonlocal dropped
        for line in frame:
            is_context = line.startswith("    ") and not line.lstrip().startswith(("E ", ">"))
            if has_arrow and is_context and not keep_context:
                dropped += 1
            else:
                kept.append(line)
        frame.clear()

    source_indent = "    "  # how a machinery frame's source lines start: deeper than the frame's own line
    for line in body:
        machinery = _MACHINERY_FRAME.match(line)
        if machinery:
            in_machinery = True
            source_indent = (machinery["gutter"] or "") + "    "
            dropped += 1
            continue
        if in_machinery:
            if line.startswith(source_indent) and not line[len(source_indent):].startswith("E "):
                dropped += 1
                continue
            in_machinery = False
        # Carets and the ``_ _ _`` frame separators are decoration: they go
        # without a count, like the blank-line runs the sanitiser collapses.
        if _CARET_ONLY.match(line):
            continue
        if _FRAME_SEPARATOR.match(line):
            close_frame(False)
            continue
        if line.startswith(">"):
            close_frame(True)
            kept.append(line)
            continue
        frame.append(line)
    close_frame(False)
    return kept, dropped


class _Detail:
    """One ``____ name ____`` failure or error block, shown or hidden once every block has been read."""

    def __init__(self, name: str, header: str) -> None:
        self.name = name
        self.header = header
        self.body: list[str] = []

    def test(self) -> str:
        """Return the test function the block belongs to: its name without the parametrisation."""
        return self.name.split("[", 1)[0]

    def location(self) -> str:
        """Return the block's last ``path:line: Error`` line: where the failure was raised, or ``""``.

        A block with no such line (``--tb=short``'s, and an error collecting a module: their
        tracebacks end in the ``E`` lines) is located by its innermost frame in the project's
        code (``src/libcat/schemas.py:8: in BookSchema``): without a location it was never new
        to the choice of blocks to show, and the one error that stopped a whole file's tests
        lost its place to the failures below it (batch 89b).
        """
        for line in reversed(self.body):
            if _RAISED_AT.match(line):
                return line.strip()
        return next((line.strip() for line in reversed(self.body) if _PROJECT_FRAME.match(line)), "")

    def messages(self) -> list[str]:
        """Return the block's messages: the first line of every run of ``E`` lines (or its exception line).

        A first line that only heads what follows (pydantic's ``1 validation error for Passenger``, a
        message ending in a colon) brings the next few lines of its run: the field and what is wrong
        with it (batch 57's reviewer quoted "Value error, a child passenger needs a birth_date").
        """
        found: list[str] = []
        previous_e = False
        heading = 0  # lines still to take after a heading first line
        for line in self.body:
            is_e = line.startswith("E ") or line == "E"
            if is_e and not previous_e:
                found.append(line)
                heading = _HEADING_FOLLOWERS if _HEADING_MESSAGE.search(line) else 0
            elif is_e and heading:
                found.append(line)
                heading -= 1
            previous_e = is_e
        if not found:
            found = [line for line in self.body if _EXCEPTION_LINE.match(line)]
        if not found:
            found = self._untraced_message()
        # pytest's own word on a RecursionError's traceback, printed under it: where the loop is
        found.extend(line for line in self.body if line.startswith("!!! Recursion detected"))
        return found

    def diff_clue(self, message: str) -> list[str]:
        """Return the first removed and added lines of the block's assertion diff (``E   - a``, ``E   + b``).

        Where two failures' messages are word for word the same (syrupy's ``assert [+ received] == [-
        snapshot]``, a long comparison pytest elides), the diff is what tells them apart; a line whose
        text ``message`` holds already (``assert 'V' == 'Y'`` over ``- Y`` and ``+ V``) tells nothing more.
        """
        found: dict[str, str] = {}
        for line in self.body:
            diff = _DIFF_LINE.match(line)
            text = diff["text"].strip() if diff else ""
            if diff and diff["sign"] not in found and text and text not in message:
                found[diff["sign"]] = line
                if len(found) == 2:
                    break
        if found:
            return [found[sign] for sign in "-+" if sign in found]
        # no diff under it (a comparison of dicts or sequences): its first values that differ
        return [line for line in self.body if _COMPARED_VALUES.match(line) and line[1:].strip() not in message][:2]

    def shapes(self) -> tuple[str, ...]:
        """Return the shapes of the block's messages: the first line of every run of ``E`` lines."""
        found: list[str] = []
        previous_e = False
        for line in self.body:
            is_e = line.startswith("E ") or line == "E"
            if is_e and not previous_e:
                found.append(message_shape(line[1:]))
            previous_e = is_e
        if not found:
            found = [message_shape(line) for line in self.body if _EXCEPTION_LINE.match(line)]
        if not found:
            found = [message_shape(line) for line in self._untraced_message()]
        return tuple(found)

    def _untraced_message(self) -> list[str]:
        """Return the first line of a block that is all message: ``pytest.fail(..., pytrace=False)``'s.

        A fixture that fails that way (a test-data check: "SHA256SUMS out of date: 3 file(s) do not
        match") prints no frame, no ``E`` line and no location; its first line is what tells one such
        block from another (batch 85b: two errors of one check, four of another, and the budget went
        to the first two).
        """
        if any(line.startswith(">") or _RAISED_AT.match(line) or _PROJECT_FRAME.match(line) for line in self.body):
            return []
        return next(([line] for line in self.body if line.strip()), [])


class _SummaryFold:
    """Fold runs of short-summary lines of one parametrised test failing with one message shape."""

    def __init__(self, out: list[str | Placeholder | _Detail]) -> None:
        self.out = out
        self.key: tuple[str, str] | None = None
        self.shape = ""
        self.ids: list[str] = []
        self.folded: list[str] = []

    def feed(self, line: str) -> None:
        """Keep ``line`` or fold it into the current run."""
        match = _SUMMARY_ITEM.match(line)
        if match is None:
            self.close()
            self.out.append(line)
            return
        key = (match["status"], match["test"])
        shape = message_shape(match["message"] or "")
        shape = shape.removesuffix("...")
        if match["message"] is not None and key == self.key and _same_message(shape, self.shape):
            self.ids.append(match["id"])
            self.folded.append(line)
            return
        self.close()
        self.out.append(line)
        # a line without a message is all name: it never starts a run
        self.key, self.shape = (key, shape) if match["message"] is not None else (None, "")

    def close(self) -> None:
        """Write the marker for the run folded so far."""
        if len(self.ids) < _FOLD_AT_LEAST:
            self.out.extend(self.folded)  # a marker would cost as much as the lines
        elif self.key is not None:
            # the run shows its first line and its last, where a reader looks for the end of a list;
            # the marker between them names every failing test it stands for
            status, test = self.key
            between = self.ids[:-1]
            ids = ", ".join(f"[{test_id}]" for test_id in between)
            what = "failed" if status == "FAILED" else status
            self.out.append(f"... ({len(between)} more {what} alike: {test}{ids}) ...")
            self.out.append(self.folded[-1])
        self.key, self.shape, self.ids, self.folded = None, "", [], []


def _same_message(shape: str, reference: str) -> bool:
    """Return whether two message shapes are one, allowing for pytest cutting each at the terminal width."""
    if shape == reference:
        return True
    shorter, longer = sorted((shape, reference), key=len)
    return len(shorter) >= 16 and longer.startswith(shorter)


def _fold_coverage(rows: list[str]) -> list[str]:
    """Fold a long coverage table's fully covered rows into one counted marker; keep every other row."""
    full = [row for row in rows if _COVERAGE_FULL_ROW.match(row)]
    if len(rows) <= _COVERAGE_ROWS_KEPT or not full:
        return rows
    kept = [row for row in rows if not _COVERAGE_FULL_ROW.match(row)]
    return [*kept, omitted_marker(len(full), "file", "with 100% coverage")]


#: a warning in pytest's warnings summary: "  /path/to/x.py:4: DeprecationWarning: legacy_fare() is deprecated"
_WARNING_LINE = _regex.compile(r"^\s+(?P<location>\S+:\d+): (?P<warning>\w+: .*)$")
#: the warnings summary's entries that say the same warning fold when this many say it from different places
_WARNING_ENTRIES_FOLD_FROM = 6


#: what varies in one line's warning from call to call: a quoted value, a number
_WARNING_VALUE = _regex.compile(r"'[^']*'|\"[^\"]*\"|(?<![\w.])\d+(?:[.:/-]\d+)*(?![\w.])")
#: at most this many characters of the values of a fold of one line's warning are listed
_WARNING_VALUES_SHOWN = 1_500


def _fold_warnings(lines: list[str]) -> list[str]:
    """Fold the warnings summary's entries that give one warning many times: the first two and the last stay.

    pytest prints one entry per place a warning came from (the tests, then the
    warning at its location, then the code): a deprecated call made from 300
    test files is 300 entries saying the same thing.  The others are named by
    their locations on one line, so every call site is still listed.  And one
    line of code warning about each value it meets (``AmbiguousDateWarning:
    ambiguous date '12/1/2021'``, 200 times with 200 dates) is one warning too:
    the entries that differ only in their quoted values and numbers, from the
    same location, fold the same way, their values listed in the marker.
    """
    entries: list[list[str]] = []
    for line in lines:
        if not line.strip():
            if entries and entries[-1]:
                entries.append([])
            continue
        if not entries:
            entries.append([])
        entries[-1].append(line)
    entries = [entry for entry in entries if entry]
    warnings = [[found for line in entry if (found := _WARNING_LINE.match(line))] for entry in entries]
    # an entry's key is every warning it gives: two run together (no blank line between) are no one warning's
    exact = ["\0".join(found["warning"] for found in said) or None for said in warnings]
    # and, when too few say it word for word, where each comes from and what it says but for its values
    valued = ["\0".join(f"{found['location']} {_WARNING_VALUE.sub('_', found['warning'])}" for found in said) or None
              for said in warnings]
    exact_counts = _counts(exact)
    keys = [key if key is not None and exact_counts[key] >= _WARNING_ENTRIES_FOLD_FROM else None for key in exact]
    valued_counts = _counts([other if key is None else None for key, other in zip(keys, valued)])
    keys = [key if key is not None else (f"\1{other}" if other is not None and valued_counts[other] >= _WARNING_ENTRIES_FOLD_FROM else None)
            for key, other in zip(keys, valued)]
    if not any(keys):
        return lines
    seen: dict[str, int] = {}
    last = {key: index for index, key in enumerate(keys) if key is not None}
    folded: dict[str, list[str]] = {}
    out: list[str] = []
    for index, (entry, key) in enumerate(zip(entries, keys)):
        if key is not None:
            seen[key] = seen.get(key, 0) + 1
            if 2 < seen[key] and index != last[key]:
                if key.startswith("\1"):  # what varies: its values
                    folded.setdefault(key, []).append(", ".join(_values_of(found["warning"]) for found in warnings[index]))
                else:
                    folded.setdefault(key, []).extend(found["location"] for found in warnings[index])
                continue
            if index == last[key] and folded.get(key):
                category = warnings[index][0]["warning"].split(":", 1)[0]
                if key.startswith("\1"):
                    out.extend(_folded_values_lines(folded[key], category))
                else:
                    out.extend(_folded_warnings_lines(folded[key], category))
                out.append("")
        out.extend(entry)
        out.append("")
    return out


def _values_of(warning: str) -> str:
    """What varies in ``warning``: its one value, or its values in parentheses."""
    values = _WARNING_VALUE.findall(warning)
    return values[0] if len(values) == 1 else "(" + ", ".join(values) + ")"


def _counts(keys: list[str | None]) -> dict[str, int]:
    """How many times each key other than None is in ``keys``."""
    counts: dict[str, int] = {}
    for key in keys:
        if key is not None:
            counts[key] = counts.get(key, 0) + 1
    return counts


def _folded_marker(count: int, category: str, what: str, listed: list[str], after: str = "") -> list[str]:
    """The marker of ``count`` folded entries of one ``category``: ``what`` they were, then ``listed``
    (lines of places or of values), the later lines indented under the first."""
    lines = [f"    {line}" for line in listed]
    lines[0] = f"... ({plural(count, 'more entry', 'more entries')} of this {category} omitted, {what}: {listed[0]}"
    lines[-1] += f"{after}) ..."
    return lines


def _folded_warnings_lines(locations: list[str], category: str) -> list[str]:
    """Name the entries folded away: how many, which warning, and every place it came from."""
    common, lines = listed_places(locations)
    return _folded_marker(len(locations), category, f"from {common}" if common else "from", lines)


def _folded_values_lines(values: list[str], category: str) -> list[str]:
    """Name the entries of one line's warning folded away: how many, and the values each gave (as many as fit)."""
    shown: list[str] = []
    length = 0
    for value in values:
        length += len(value) + 2
        if length > _WARNING_VALUES_SHOWN and shown:  # (the first is listed whatever its length)
            break
        shown.append(value)
    rest = f" and {len(values) - len(shown)} more" if len(shown) < len(values) else ""
    return _folded_marker(len(values), category, "the same line with other values",
                          [", ".join(chunk) for chunk in per_line(shown)], rest)


def _cut_inside_passes(lines: list[str]) -> bool:
    """Whether output cut above its first "==== ... ====" line (``| tail``) starts in ``-rP``'s PASSES.

    A pass has a block only for what it printed, so every block there opens on a "Captured" line and
    none holds a traceback; a failure's or an error's block opens on its code or its message.
    """
    first_section = next((index for index, line in enumerate(lines) if _SECTION.match(line)), len(lines))
    headers = [index for index in range(first_section) if _FAILURE_HEADER.match(lines[index])]
    return (
        bool(headers)
        and all(index + 1 < first_section and _CAPTURED.match(lines[index + 1]) for index in headers)
        and not any(_FAILURE_EVIDENCE.match(line) for line in lines[:first_section])
    )


def summarise_pytest(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep failure and error sections (without code context), the short summary, coverage and the final line."""
    report = Report()
    if any(_COLLECTED.match(line) for line in lines) and not any(
        (found := _SECTION.match(line)) and found["title"] in ("FAILURES", "ERRORS") for line in lines
    ):
        report.lines = lines  # ``--collect-only`` ran nothing: the list of tests is the answer
        return report
    out: list[str | Placeholder | _Detail] = []
    section = ""
    detail: _Detail | None = None
    loose: list[str] = []  # detail lines without a "____ name ____" header (--tb=line)
    header_dropped = 0
    docs_dropped = 0
    passes_dropped = 0
    rerun_id: str | None = None  # the test of the last RERUN line (pytest-rerunfailures)
    few = few_results(lines, _VERBOSE, _XDIST_VERBOSE, _LIVE_RESULT)
    # the rows of marks of a run of a few tests stay as -v's result lines do: they are its results, and
    # cost less than the marker that would stand for them (batch 83b's reviewer quoted "......"); read at
    # the first row of passes, as output with no rows (-v) needs no count
    few_marks: bool | None = None
    live_dropped = 0
    nothing_selected: bool | None = None  # read at the first header line that would go
    if any(line.startswith("INTERNALERROR>") for line in lines):
        report.failures += 1  # pytest crashed: its traceback is the failure (not lines to rescue)
        lines = _cut_pytests_own_frames(lines)
    if not few and any(_LIVE_LOG.match(line) for line in lines):
        lines, passed, live_dropped = _drop_passing_live_logs(lines)
        report.omit_passed(passed)
    # under xdist -v each test is announced ("tests/x.py::test_y") when a worker takes it, and its
    # result comes on a line of its own; an announcement with no result (a worker that crashed,
    # a run cut short) is the clue and stays
    xdist_done = {found["id"] for line in lines if line.startswith("[gw") and (found := _XDIST_VERBOSE.match(line))}
    announced_dropped = 0
    fold = _SummaryFold(out)
    coverage_rows: list[str] = []
    warning_lines: list[str] = []  # the warnings summary's
    finished = False  # whether pytest printed its final counts line
    green = False  # whether those counts are of passes (and skips) only
    # the first and the last passing result dropped, with where in ``out`` they stood and how many
    # passed and skipped tests each counts: a run that never finished keeps them (see the end)
    passes_ends: list[tuple[int, str, int, int]] = []
    # the progress rows that name a test file, passing ones dropped (``tests/test_x.py .... [ 40%]``)
    file_rows: list[tuple[int, str, int, int]] = []

    def omit_pass(line: str, passed: int = 1, skipped: int = 0) -> None:
        report.omit_passed(passed)
        report.omit_skipped(skipped)
        entry = (len(out), line, passed, skipped)
        note_end(passes_ends, entry)

    def flush() -> None:
        nonlocal detail, loose
        if loose:
            out.extend(cut_trace(loose, trace_limit * max(max_failures, 1), lambda line: bool(_SIGNAL.search(line))))
        if detail is not None:
            out.append(detail)
        detail, loose = None, []

    def flush_coverage() -> None:
        out.extend(_fold_coverage(coverage_rows))
        coverage_rows.clear()

    def enter(new_section: str) -> None:
        nonlocal section
        flush()
        fold.close()
        flush_coverage()
        if warning_lines:
            out.extend(_fold_warnings(warning_lines))
            warning_lines.clear()
        section = new_section

    before_a_section: list[bool] | None = None  # read once, at the first ruler after the failures
    last_row: int | None = None  # the last progress row of a run whose rows show no failure, read once (below)
    for index, line in enumerate(lines):
        section_match = _SECTION.match(line)
        if section_match or _FINAL.match(line):
            if _FINAL.match(line):
                enter("end")
                finished = True
                green = not _TROUBLE_COUNTS.search(line)
                # its counts, for failures no block or result line showed (``--tb=line``, ``--tb=no``)
                report.failures = max(report.failures, sum(int(n) for n in _FAILED_COUNT.findall(line)))
                out.append(line)
                continue
            if section_match is None:  # unreachable: the final line was handled above
                continue
            enter(section_match["title"])
            if section in ("test session starts", "PASSES"):
                continue
            out.append(line)
            continue
        if _COVERAGE_HEADER.match(line):
            enter("coverage")
            out.append(line)
            continue
        if section in ("test session starts", "") and _HEADER_LINE.match(line):
            if _HEADER_KEPT.match(line):
                out.append(line)  # which Python and pytest ran, and where: what a version or config clash needs
                continue
            if nothing_selected is None:
                nothing_selected = any(_NOTHING_SELECTED.search(later) for later in lines)
            if nothing_selected:
                # a run that selected no test: where pytest looked (``testpaths: tests``) and what it loaded
                # are what to mend (batch 92b's reviewer of a -k matching nothing quoted testpaths)
                out.append(line)
                continue
            header_dropped += 1
            continue
        if _DOCS_LINK.match(line):
            docs_dropped += 1
            continue
        if section == "PASSES":
            passes_dropped += 1  # captured output of passing tests (-rP / -rA)
            continue
        if section == "" and _FAILURE_HEADER.match(line):
            # output cut above its "= FAILURES =" (or "= PASSES =") line: the blocks read as usual (asked
            # once, at the first block: only a failure's block has a traceback)
            enter("PASSES" if _cut_inside_passes(lines) else "FAILURES")
            if section == "PASSES":
                passes_dropped += 1
                continue
        if section in _DETAIL_SECTIONS and _PLUGIN_REPORT.match(line):  # (a coverage heading entered its section above)
            if before_a_section is None:
                before_a_section = _lines_before_a_section(lines)
            if before_a_section[index]:
                enter("plugin report")  # kept as printed, up to the next section
                out.append(line)
                continue
        if section in _DETAIL_SECTIONS:
            header = _FAILURE_HEADER.match(line)
            if header:
                flush()
                detail = _Detail(header["name"], line)
                report.failures += 1
                continue
            if detail is not None:
                detail.body.append(line)
            else:
                loose.append(line)
            continue
        if section == "coverage":
            if _COVERAGE_ROW.match(line):
                coverage_rows.append(line)
                continue
            flush_coverage()
            out.append(line)
            continue
        if section == "warnings summary":
            warning_lines.append(line)
            continue
        if section == "short test summary info":
            # ``-rA`` lists every pass here ("PASSED tests/x.py::test_y"): asked for, so they stay
            # (blind reviewers quoted one in 4 of 10 such runs); -v's result lines of passes still go
            fold.feed(line)
            continue
        if section in ("test session starts", ""):
            if _PROGRESS.match(line):
                marks = _PERCENT.sub("", line).split()[-1]
                if "F" in marks or "E" in marks:
                    # "tests/test_x.py ..F": which file failed; under -q, where in the run (a reader
                    # quotes the row back: batch 21's "FFFFFFFFFFFF")
                    report.failures += marks.count("F") + marks.count("E")
                    out.append(line)
                    continue
                if few_marks is None:
                    few_marks = _few_marks(lines)
                if last_row is None:
                    last_row = _last_green_row(lines)
                if few_marks or (index == last_row and line.endswith("[100%]")):
                    # a green run's row at [100%] says it got to its end; blind reviewers quoted it in
                    # 12 green runs (batches 81b to 113), and it costs a line (a failing run keeps the
                    # rows with its failures)
                    out.append(line)
                    continue
                skipped = sum(marks.count(ch) for ch in "sxX")
                if line[:1] not in ".FEsxXR":
                    file_rows.append((len(out), line, marks.count("."), skipped))  # the row naming its file
                if "." in marks:
                    omit_pass(line, marks.count("."), skipped)
                else:
                    report.omit_skipped(skipped)
                continue
            if xdist_done:
                if line in xdist_done and not few:
                    announced_dropped += 1
                    continue
                found = _XDIST_VERBOSE.match(line)
                if found:
                    if found["status"] == "PASSED" and found["id"] != rerun_id and not few:
                        omit_pass(line)
                        continue
                    rerun_id = found["id"] if found["status"] == "RERUN" else None
                    out.append(line)
                    continue
            verbose = _VERBOSE.match(line)
            if verbose:
                status = verbose["status"]
                if status == "PASSED" and verbose["id"] != rerun_id and not few:
                    omit_pass(line)
                    continue
                # failures, errors, skips, xfails: rare and telling; a pass after reruns is a flaky test
                rerun_id = verbose["id"] if status == "RERUN" else None
                out.append(line)
                continue
        out.append(line)
    enter("end")
    if green and not all(_VERBOSE.match(line) for _, line, _, _ in passes_ends):
        # a green run's dots say nothing its counts do not, but the row that names each file says
        # which ran (batch 57b's reviewer quoted each): those stay, of a run of a few files
        passes_ends = file_rows if len(file_rows) <= _FILE_ROWS_SHOWN else []
    if not finished or green:
        # killed, timed out, crashed or cut (``| head``): the first and the last passing result say
        # where the run started and how far it got (blind reviewers of batch 25 quoted both); and
        # of a green -v run, where it started and ended: the evidence a reviewer quotes (batches
        # 55, 41 and 21 picked them)
        for position, line, passed, skipped in reversed(passes_ends):
            out.insert(position, line)
            report.passed_omitted -= passed
            report.skipped_omitted -= skipped
    report.lines = tidy(_summary_without_messages_shown_above(_render(out, max_failures, trace_limit)))
    if header_dropped:
        report.also_omitted.append(plural(header_dropped, "line") + " of session header")
    if docs_dropped:
        report.also_omitted.append(plural(docs_dropped, "docs link"))
    if passes_dropped:
        report.also_omitted.append(plural(passes_dropped, "line") + " of passing tests' output")
    if live_dropped:
        report.also_omitted.append(plural(live_dropped, "line") + " of passing tests' live logs")
    if announced_dropped:
        report.also_omitted.append(plural(announced_dropped, "line") + " announcing a test a worker took")
    return report


def _drop_passing_live_logs(lines: list[str]) -> tuple[list[str], int, int]:
    """Drop each passing test's block under ``--log-cli-level``: its id, its live log sections, its PASSED.

    A block runs from a test's id standing alone to the next one (or a ``====`` section);
    a block with any other result (or none: the run stopped in it) stays whole, its log
    lines the context of the failure.  So does a passing test's block that logged a record
    at ERROR or above, or a traceback: the code under test caught something and went on.
    Returns the lines left, the passes and the lines dropped.
    """
    def id_alone(line: str) -> bool:
        return _ID_ALONE.match(line) is not None and _VERBOSE.match(line) is None

    kept: list[str] = []
    passed = dropped = 0
    index = 0
    while index < len(lines):
        if not id_alone(lines[index]):
            kept.append(lines[index])
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not (id_alone(lines[end]) or _SECTION.match(lines[end])):
            end += 1
        block = lines[index + 1 : end]
        statuses = [found["status"] for row in block if (found := _LIVE_RESULT.match(row))]
        if statuses == ["PASSED"] and not any(_LIVE_TROUBLE.search(row) for row in block):
            passed += 1
            dropped += end - index - 1
        else:
            kept.extend(lines[index:end])
        index = end
    return kept, passed, dropped


#: a green run keeps the progress rows naming its files when there are at most this many
_FILE_ROWS_SHOWN = 20
#: the one failure of a run keeps up to this many lines of source context (a deep traceback's go)
_LONE_FAILURE_CONTEXT = 15

#: a word of an assertion message that may name one thing: holding a digit (``M-0417``, ``90033``,
#: ``order_17``), four characters or more
_NAMING_WORD = _regex.compile(r"[\w.-]*\d[\w.-]*")
#: a message's word names one thing when at most this many other lines of the block hold it
_NAMED_LINES = 3


def _lines_the_messages_name(lines: list[str]) -> set[str]:
    """Return the captured output lines of a failure's block holding a word its ``E`` lines name, and few others do.

    ``assert ['M-0417: 90033 m3'] == []`` over 240 lines of captured stdout: the one line about
    meter M-0417 is why the test printed them (batch 108b).  A word on every line (the date of each
    read) names nothing, nor does the test's source, which the message quotes anyway.
    """
    captured = next((at for at, line in enumerate(lines) if _CAPTURED.match(line)), len(lines))
    words = {word for line in lines[:captured] if line.startswith("E ")
             for word in _NAMING_WORD.findall(line) if len(word) >= 4}
    if not words:
        return set()
    holding: dict[str, list[str]] = {}
    for line in lines[captured:]:
        for word in words:
            if word in line:
                holding.setdefault(word, []).append(line)
    return {line for found in holding.values() if len(found) <= _NAMED_LINES for line in found}


def _render(out: list[str | Placeholder | _Detail], max_failures: int, trace_limit: int) -> list[str]:
    """Show the failure blocks chosen for variety, each without code context; cut the others.

    A block not chosen still shows its messages and its location (followed by
    the test's name) when that message shape at that location has not been
    shown yet (a different bug, or the same assertion failing elsewhere); the
    rest are named in one marker.
    """
    details = [item for item in out if isinstance(item, _Detail)]
    shown: dict[int, list[str]] = {}
    budgeted: list[int] = []
    for index, detail in enumerate(details):
        kept, dropped = _frame_without_context(detail.body)
        context_marker = omitted_marker(dropped, "line", "of source context") if dropped else ""
        # the one failure of a run (`pytest -x`, a single test) keeps its code: the test's own lines
        # above the failing one say what it set up (blind reviewers of batches 54 and 55 quoted them)
        alone = len(details) == 1 and dropped <= _LONE_FAILURE_CONTEXT
        if dropped and (alone or _text_bytes(detail.body) - _text_bytes(kept) <= len(context_marker)):
            # a line or two of context costs less than the marker that would replace it
            kept, dropped = _frame_without_context(detail.body, keep_context=True)
            context_marker = omitted_marker(dropped, "line", "of source context") if dropped else ""
        while kept and not kept[-1].strip():
            kept.pop()
        # a frame of the project's own code keeps its source line through the cut: the call that led there;
        # so do the project's frames of a traceback or a thread dump the test printed (pytest-timeout's
        # stacks of each thread: where the deadlock is, which batch 57's reviewer quoted)
        python_frames = {line for line in kept if _PROJECT_PYTHON_FRAME.match(line)}
        calls = {kept[at + 1] for at, line in enumerate(kept[:-1]) if line in python_frames or _PROJECT_FRAME.match(line)}

        named = _lines_the_messages_name(kept) if len(kept) > trace_limit else set()

        def signal(line: str) -> bool:
            return bool(_SIGNAL.search(line)) or line in calls or line in python_frames or line in named

        if sum(map(signal, kept)) >= trace_limit:
            # more messages than the cut can keep: what both sides of a comparison share goes first
            equal = _equal_parts(kept)
            shown[index] = cut_trace(kept, trace_limit, lambda line: signal(line) and line not in equal)
        else:
            shown[index] = cut_trace(kept, trace_limit, signal)
        if dropped:
            shown[index].append(context_marker)
        if len(shown[index]) > _FREE_BLOCK_LINES:
            budgeted.append(index)
    locations = [detail.location() for detail in details]
    picked = choose_varied(
        [
            (details[index].test(), details[index].shapes(), locations[index], _file_of(locations[index]))
            for index in budgeted
        ],
        max_failures,
    )
    chosen = {budgeted[pick] for pick in picked} | (set(shown) - set(budgeted))
    seen = {(details[index].shapes(), locations[index]) for index in chosen}
    hidden: list[str] = []
    hidden_lines = 0
    brief_count = 0
    repeated_briefs = 0
    repeats: dict[tuple[str, tuple[tuple[str, ...], str]], int] = {}  # per test function, shapes and location
    shown_messages = {line for index in chosen for line in shown[index]}
    rendered: list[str | Placeholder] = []
    marker = Placeholder()
    for index, item in _details_in(out):
        if not isinstance(item, _Detail):
            rendered.append(item)
            continue
        if index in chosen:
            rendered.append(item.header)
            rendered.extend(shown[index])
            continue
        key = (item.shapes(), locations[index])
        messages = item.messages()
        repeat = key in seen
        of_test = (item.test(), key)
        # the same message word for word (syrupy's "assert [+ received] == [- snapshot]"): the first lines
        # of its diff are what differs (batch 83b's reviewer quoted "E         + db { # primary")
        # (or shortened past telling apart: "assert {'actual_kg':...rthline', ...} == {...}", batch 88b)
        elided = bool(messages) and bool(_ELIDED_ASSERTION.search(messages[0]))
        clue = item.diff_clue(messages[0]) if elided or repeat and messages and messages[0] in shown_messages else []
        if shown_messages.issuperset(clue):
            clue = []
        if (repeat and messages and repeated_briefs < _REPEATED_BRIEFS and (clue or messages[0] not in shown_messages)
                and repeats.get(of_test, 0) < _REPEATED_BRIEFS_EACH):
            # the same assertion failing alike with other values (a parametrised test): its values may
            # be the clue (a blind reviewer of batch 42 quoted "assert Decimal('0.12') == Decimal('0.13')"
            # of one case among four), so its first message stays, with the location naming the test
            repeated_briefs += 1
            repeats[of_test] = repeats.get(of_test, 0) + 1
            messages = [messages[0], *clue]
            repeat = False
        elif not repeat and elided:
            messages = [messages[0], *clue, *messages[1:]]
        if not repeat and (messages or locations[index]):
            # the messages, then the location naming the test: two or three lines, not a block
            seen.add(key)
            shown_messages.update(messages)
            if marker not in rendered:
                rendered.append(marker)
            rendered.extend(messages)
            rendered.append(f"{locations[index]} — {item.name}" if locations[index] else f"— {item.name}")
            brief_count += 1
            hidden_lines += len(item.body) + 1 - len(messages) - 1
            continue
        hidden.append(item.name)
        hidden_lines += len(item.body) + 1
        if marker not in rendered:
            rendered.append(marker)
    if hidden or brief_count:
        text = (
            f"{plural(len(hidden) + brief_count, 'more failure')} not shown in detail "
            f"({plural(hidden_lines, 'line')} omitted)"
        )
        if hidden:
            text += f": {fold_names(hidden)}"
        if brief_count:
            text += f"; {brief_count} of them below as messages and location"
        marker.text = f"... ({text}) ..."
    return resolve(rendered)


#: how many failures repeating a shown one's message shape at its location keep their first message,
#: in all and for each test function's (sixty cases of one parametrised test say little more than three)
_REPEATED_BRIEFS = 20
_REPEATED_BRIEFS_EACH = 3


#: a heading of pytest's explanation of a comparison ("E         Common items:"), with its indentation
_EXPLANATION_HEADING = _regex.compile(
    r"^(?P<indent>E\s+)(?P<name>Common items|Full diff|Differing items|Differing attributes|Matching attributes"
    r"|Left contains|Right contains|Omitting \d+ identical|Drill down|Skipping \d+ identical)\b"
)


def _equal_parts(lines: list[str]) -> set[str]:
    """Return the lines of a comparison's explanation that show what is the same on both sides.

    Under ``-vv`` pytest prints every item two dicts share ("Common items:") and the unchanged
    lines of its full diff; all of them are ``E`` lines, so a comparison too long for the cut kept
    the first fifty of those and dropped the items that differ and the diff's ``-`` and ``+`` lines
    (batch 88b's reviewer quoted "E         -         '0-0.5 kg': 16.69,"). There, they go first.
    """
    equal: set[str] = set()
    section, indent = "", ""
    for line in lines:
        heading = _EXPLANATION_HEADING.match(line)
        if heading:
            section, indent = heading["name"], heading["indent"]
        elif not line.startswith(indent) or not line[len(indent):].strip():
            section = ""  # the explanation's blank line, or past it
        elif section == "Common items" or section == "Full diff" and line.startswith(indent + "  "):
            equal.add(line)
    return equal


#: a frame of pytest's report of its own crash:
#: ``INTERNALERROR>   File ".../_pytest/main.py", line 283, in wrap_session``
_INTERNAL_FRAME = _regex.compile(r'^INTERNALERROR>(?P<indent> +)File "(?P<path>[^"]+)", line \d+, in ')
#: pytest's own modules and pluggy's, which call every hook
_PYTESTS_OWN = _regex.compile(r"/(?:_pytest|pluggy)/")


def _cut_pytests_own_frames(lines: list[str]) -> list[str]:
    """Cut the frames of pytest and pluggy from an ``INTERNALERROR>`` traceback, counted where they were.

    A plugin or a conftest hook that raises crashes pytest itself: forty frames of hook calls through
    ``_pytest`` and ``pluggy``, each with its source line and carets, and the one or two frames of the
    plugin that raised (batch 89b: ``pytest_freezegun.py", line 17, in get_closest_marker``). Those stay,
    with the exception, and so does the innermost frame wherever it is (pytest raising on its own).
    """
    frames = [at for at, line in enumerate(lines) if _INTERNAL_FRAME.match(line)]
    if not frames:
        return lines
    out: list[str] = []
    cut = 0
    at = 0
    while at < len(lines):
        frame = _INTERNAL_FRAME.match(lines[at])
        if frame is None or not _PYTESTS_OWN.search(frame["path"]) or at == frames[-1]:
            if cut:
                out.append(omitted_marker(cut, "line", "of pytest's and pluggy's own frames"))
                cut = 0
            out.append(lines[at])
            at += 1
            continue
        end = at + 1  # the frame's source line and carets, indented deeper under the prefix
        while (end < len(lines) and lines[end].startswith("INTERNALERROR>") and not _INTERNAL_FRAME.match(lines[end])
               and indent_of(lines[end][len("INTERNALERROR>"):]) > len(frame["indent"])):
            end += 1
        cut += end - at
        at = end
    if cut:
        out.append(omitted_marker(cut, "line", "of pytest's and pluggy's own frames"))
    return out


#: a line of the short test summary naming a test: ``FAILED tests/x.py::test_y - message``
_SUMMARY_LINE = _regex.compile(r"^(?:FAILED|ERROR|XFAIL|XPASS|PASSED|SKIPPED) ")


def _summary_without_messages_shown_above(lines: list[str]) -> list[str]:
    """Cut the lines of the short summary's messages that the failures above already show.

    Under ``-vv`` (pytest 8) each summary line goes on with its message whole, line after line: a
    comparison's every common item and its full diff, again (batch 88b: 410 of a run's 686 kept lines).
    A line goes when an ``E`` line above says the same, or when it is one of the sides' common
    parts; what the failures above lost to their cut stays here, and each run cut leaves a marker.
    """
    header = next((at for at, line in enumerate(lines) if (found := _SECTION.match(line))
                   and found["title"] == "short test summary info"), None)
    if header is None:
        return lines
    shown = {line[1:].strip() for line in lines[:header] if line.startswith("E ") or line == "E"}
    out = lines[: header + 1]
    group: list[str] = []

    def flush() -> None:
        equal = _equal_parts(["E" + line for line in group])
        going = [bool(line.strip()) and (line.strip() in shown or "E" + line in equal) for line in group]
        # a blank line goes with the lines around it: when those on both sides go (or the one side there is)
        before: list[bool | None] = []
        last: bool | None = None
        for line, goes in zip(group, going):
            before.append(last)
            last = goes if line.strip() else last
        last = None
        for at in range(len(group) - 1, -1, -1):
            if group[at].strip():
                last = going[at]
            else:
                sides = [side for side in (before[at], last) if side is not None]
                going[at] = bool(sides) and all(sides)
        run: list[str] = []
        for line, goes in zip([*group, ""], [*going, False]):
            if goes:
                run.append(line)
                continue
            marker = omitted_marker(len(run), "line", "of the message shown above") if run else ""
            out.extend([marker] if run and len(marker) < sum(len(cut) + 1 for cut in run) else run)
            run = []
            out.append(line)
        out.pop()  # the sentinel
        group.clear()

    for line in lines[header + 1 :]:
        if _SUMMARY_LINE.match(line) or _SECTION.match(line) or _FINAL.match(line) or line[:1].strip():
            flush()
            out.append(line)
        else:
            group.append(line)
    flush()
    return out


def _details_in(out: list[str | Placeholder | _Detail]) -> list[tuple[int, str | Placeholder | _Detail]]:
    """Number the failure blocks of ``out`` in order; other items get -1."""
    numbered: list[tuple[int, str | Placeholder | _Detail]] = []
    count = 0
    for item in out:
        if isinstance(item, _Detail):
            numbered.append((count, item))
            count += 1
        else:
            numbered.append((-1, item))
    return numbered


def _file_of(location: str) -> str:
    """Return the file of a ``path:line: Error`` location, or ``""``."""
    match = _RAISED_AT.match(location)
    return match["file"] if match else ""
