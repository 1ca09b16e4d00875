"""pytest: default, ``-q``, ``-v``/``-vv``, every ``--tb`` style, collection and fixture errors."""

from __future__ import annotations

import re

from .._common import omitted_marker, plural
from ._shared import FailureBudget, Placeholder, Report, cut_trace, resolve, tidy

_SECTION = re.compile(r"^={3,} (?P<title>.+?) ={3,}$")
_FINAL = re.compile(
    r"^(?:=+ )?(?:\d+ (?:(?:subtests? )?(?:passed|failed|skipped|xfailed|xpassed)|errors?|warnings?|deselected|rerun)(?:, )?)+"
    r"(?: in [\d.]+s(?: \([\d:]+\))?)?(?: =+)?$|^=+ no tests ran in [\d.]+s =+$|^no tests ran in [\d.]+s$"
)
_HEADER_LINE = re.compile(
    r"^(?:platform |cachedir: |rootdir: |configfile: |plugins: |benchmark: |hypothesis profile |"
    r"Using --randomly-seed|testpaths: |collecting \.\.\. |collected \d+ items?|metadata: |django: |asyncio: |"
    r"Test order randomisation|sensitiveurl: |timeout: |xdist-|created: \d+/\d+ workers|\d+ workers \[)"
)
# "tests/test_x.py ..F.s   [ 40%]" (default) and "..F.s   [ 40%]" (-q)
_PROGRESS = re.compile(r"^(?:\S+\.py )?[.FEsxXR]+\s*(?:\[\s*\d+%\])?$")
# "tests/test_x.py::test_y PASSED   [ 40%]" (-v)
_VERBOSE = re.compile(
    r"^(?P<id>\S+::\S.*?) (?P<status>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN)\b.*?(?:\s+\[\s*\d+%\])?$"
)
_DOCS_LINK = re.compile(r"^-- Docs: https://docs\.pytest\.org/\S+$")
_PERCENT = re.compile(r"\s*\[\s*\d+%\]$")
_FAILURE_HEADER = re.compile(r"^_{3,} (?P<name>.+?) _{3,}$")
_FRAME_SEPARATOR = re.compile(r"^(?:_ ){5,}_?$")
_CARET_ONLY = re.compile(r"^\s*[\^~]+\s*$")
_LOCATION_LINE = re.compile(r"^\S+:\d+: ")
_SIGNAL = re.compile(r"^E\s|^>\s|^\S+:\d+: |^\[XPASS|Error|^\s*\+\s+where|Captured")

_DETAIL_SECTIONS = ("FAILURES", "ERRORS")

# A frame of the import machinery, of pytest itself (collection errors walk
# through a dozen of them) or of a frozen standard module: ``path:line: in
# function`` and its indented source line, or ``???`` where the source is
# frozen.  The user's frame that called into them stays, with every E line.
_MACHINERY_FRAME = re.compile(
    r"^(?:\S*/site-packages/(?:_pytest|pluggy)/\S+|<frozen [\w.]+>"
    r"|\S*/lib/python[\d.]+/importlib/__init__\.py):\d+: in \w+$"
)


def looks_like_pytest(lines: list[str]) -> bool:
    """Return whether the output comes from pytest."""
    for line in lines:
        section = _SECTION.match(line)
        if section and (section["title"] in ("test session starts", "short test summary info", "FAILURES", "ERRORS")):
            return True
        if _FINAL.match(line) and " in " in line:
            return True
    return False


def _frame_without_context(body: list[str]) -> tuple[list[str], int]:
    """Drop the source lines pytest prints above each ``>`` line; return the rest and how many went.

    Those lines are the test's own code leading up to the failing line; the
    failing line itself (``>``), the ``E`` lines and locations stay.  Frames of
    the import machinery and of pytest itself go whole.
    """
    kept: list[str] = []
    frame: list[str] = []
    dropped = 0
    in_machinery = False

    def close_frame(has_arrow: bool) -> None:
        nonlocal dropped
        for line in frame:
            is_context = line.startswith("    ") and not line.lstrip().startswith(("E ", ">"))
            if has_arrow and is_context:
                dropped += 1
            else:
                kept.append(line)
        frame.clear()

    for line in body:
        if _MACHINERY_FRAME.match(line):
            in_machinery = True
            dropped += 1
            continue
        if in_machinery:
            if line.startswith("    ") and not line.startswith("    E "):
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


def summarise_pytest(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep failure and error sections (without code context), the short summary and the final line."""
    report = Report()
    out: list[str | Placeholder] = []
    budget = FailureBudget(max_failures)
    hidden_marker = Placeholder()
    section = ""
    failure_name: str | None = None
    failure_header = ""
    body: list[str] = []
    header_dropped = 0
    docs_dropped = 0

    def flush() -> None:
        nonlocal failure_name, body
        if failure_name is None and not body:
            return
        if failure_name is None:
            # Detail lines without a "____ name ____" header (--tb=line): keep them, bounded.
            out.extend(cut_trace(body, trace_limit * max(max_failures, 1), lambda line: bool(_SIGNAL.search(line))))
        elif budget.admit(failure_name):
            kept, dropped = _frame_without_context(body)
            while kept and not kept[-1].strip():
                kept.pop()
            out.append(failure_header)
            out.extend(cut_trace(kept, trace_limit, lambda line: bool(_SIGNAL.search(line))))
            if dropped:
                out.append(omitted_marker(dropped, "line", "of source context"))
        else:
            budget.hidden_lines += len(body) + 1
            if hidden_marker not in out:
                out.append(hidden_marker)
        failure_name, body = None, []

    for line in lines:
        section_match = _SECTION.match(line)
        if section_match or _FINAL.match(line):
            flush()
            if _FINAL.match(line):
                out.append(line)
                section = "end"
                continue
            if section_match is None:  # unreachable: the final line was handled above
                continue
            section = section_match["title"]
            if section == "test session starts":
                continue
            out.append(line)
            continue
        if section in ("test session starts", "") and _HEADER_LINE.match(line):
            header_dropped += 1
            continue
        if _DOCS_LINK.match(line):
            docs_dropped += 1
            continue
        if section in _DETAIL_SECTIONS:
            header = _FAILURE_HEADER.match(line)
            if header:
                flush()
                failure_name, failure_header = header["name"], line
                report.failures += 1
                continue
            body.append(line)
            continue
        if section in ("test session starts", ""):
            if _PROGRESS.match(line):
                marks = _PERCENT.sub("", line).split()[-1]
                report.omit_passed(marks.count("."))
                report.omit_skipped(sum(marks.count(ch) for ch in "sxX"))
                if "F" in marks or "E" in marks:
                    report.failures += marks.count("F") + marks.count("E")
                continue
            verbose = _VERBOSE.match(line)
            if verbose:
                status = verbose["status"]
                if status == "PASSED":
                    report.omit_passed()
                    continue
                out.append(line)  # failures, errors, skips, xfails: rare and telling
                continue
        out.append(line)
    flush()
    hidden_marker.text = budget.marker()
    if header_dropped:
        report.also_omitted.append(plural(header_dropped, "line") + " of session header")
    if docs_dropped:
        report.also_omitted.append(plural(docs_dropped, "docs link"))
    report.lines = tidy(resolve(out))
    return report
