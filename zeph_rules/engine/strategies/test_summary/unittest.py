"""python -m unittest (plain and ``-v``)."""

from __future__ import annotations

import re

from .._common import omitted_marker
from ._shared import FailureBudget, Report, cut_trace, tidy

_RAN = re.compile(r"^Ran \d+ tests? in [\d.]+s$")
_VERDICT = re.compile(r"^(?:OK|FAILED)(?: \(.*\))?$")
_FAILURE_HEADER = re.compile(r"^(?P<kind>FAIL|ERROR|UNEXPECTED SUCCESS): (?P<name>\S+)(?: \((?P<where>[^)]*)\))?")
_VERBOSE = re.compile(r"^(?P<name>\S+) \([\w.]+\)(?:\n.*)? \.\.\. (?P<status>ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$")
_PROGRESS = re.compile(r"^[.FEsxu]+$")
_SEPARATOR = re.compile(r"^(?:=+|-+)$")
_SIGNAL = re.compile(r'^\s*File "|Error|Exception|assert|^[-+?] |^\w+(?:\.\w+)*: ')


def looks_like_unittest(lines: list[str]) -> bool:
    """Return whether the output comes from unittest."""
    return any(_RAN.match(line) for line in lines) and not any(line.startswith("===") and " in " in line for line in lines[-3:])


def summarise_unittest(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Keep each FAIL/ERROR with its traceback (cut), drop passing ``-v`` lines and separators."""
    report = Report()
    budget = FailureBudget(max_failures)
    out: list[str] = []
    body: list[str] = []
    header: str | None = None
    separators = 0

    def flush() -> None:
        nonlocal header, body
        if header is not None:
            while body and not body[-1].strip():
                body.pop()
            out.append(header)
            out.extend(cut_trace(body, trace_limit, lambda line: bool(_SIGNAL.search(line))))
            out.append("")
        header, body = None, []

    hiding = False
    for line in lines:
        failure = _FAILURE_HEADER.match(line)
        if failure:
            flush()
            report.failures += 1
            hiding = not budget.admit(failure["name"])
            if not hiding:
                header = line
            else:
                budget.hidden_lines += 1
            continue
        if _SEPARATOR.match(line) and len(line) >= 20:
            separators += 1
            continue
        if _RAN.match(line):
            flush()
            hiding = False
            out.append(line)
            continue
        if hiding:
            budget.hidden_lines += 1
            continue
        if header is not None:
            body.append(line)
            continue
        verbose = _VERBOSE.match(line)
        if verbose:
            status = verbose["status"]
            if status == "ok":
                report.omit_passed()
                continue
            out.append(line)  # failures, errors, skips and expected failures: rare and telling
            continue
        if _PROGRESS.match(line) and not _VERDICT.match(line):
            report.omit_passed(line.count("."))
            report.omit_skipped(line.count("s") + line.count("x"))
            continue
        out.append(line)
    flush()
    marker = budget.marker()
    if marker:
        ran_at = next((i for i, line in enumerate(out) if _RAN.match(line)), len(out))
        out.insert(ran_at, marker)
    if separators:
        out.append(omitted_marker(separators, "separator line"))
    report.lines = tidy(out)
    return report
