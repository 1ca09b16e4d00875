"""RSpec: ``--format documentation``'s tree of examples; the progress format and the reports as they are.

In the documentation format each example is a leaf of its groups' outline: a
passing one is a bare description, a failing one ends in ``(FAILED - 3)``, a
pending one in ``(PENDING: reason)``.  Passing leaves go, counted, and so does
a group left with nothing under it; the failing and pending examples stay under
their groups.  The ``Pending:`` and ``Failures:`` reports, the counts line and
the ``Failed examples:`` list (``rspec ./spec/x_spec.rb:12 # ...``) stay whole.
"""

from __future__ import annotations

from .... import _regex
from .._common import indent_of, plural
from ._shared import FEW_RESULTS, Report, tidy

#: ``1063 examples, 6 failures, 2 pending`` (``1 example, 0 failures``, ``, 1 error occurred outside of examples``)
_COUNTS = _regex.compile(r"^\d+ examples?, (?P<failures>\d+) failures?\b")
#: where the reports start: every line from here on stays
_REPORT = _regex.compile(r"^(?:Pending: |Failures:$|Finished in |Failed examples:$|An error occurred )")
_MARKED = _regex.compile(r"\((?:FAILED - \d+|PENDING: .*)\)$")
#: what only a report prints (``  1) Tasks::List sorts ...``, ``Failure/Error:``, ``# ./spec/x_spec.rb:12``): above the
#: counts line without a report's heading, the output was cut (``| tail``), and nothing there is an outline
_REPORT_BODY = _regex.compile(r"^\s+(?:\d+\) \S|Failure/Error: |# \./\S+:\d+)")


def looks_like_rspec(lines: list[str]) -> bool:
    """Return whether the output comes from RSpec (its counts line)."""
    return any(_COUNTS.match(line) for line in lines)


def summarise_rspec(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Drop the passing examples of the documentation outline, and the groups left empty; keep the rest."""
    report = Report()
    report.failures = sum(int(found["failures"]) for line in lines if (found := _COUNTS.match(line)))
    end = next((index for index, line in enumerate(lines) if _REPORT.match(line)), len(lines))
    outline = lines[:end]
    if any(_REPORT_BODY.match(line) for line in outline):
        report.lines = lines  # a report cut above its heading: it all stays
        return report
    indents = [indent_of(line) if line.strip() else -1 for line in outline]
    # a line is a group when the next non-blank line is indented deeper, else an example (a leaf)
    group = [False] * len(outline)
    deeper_than = -1  # the indent of the next non-blank line, walking up from the end
    for index in range(len(outline) - 1, -1, -1):
        if indents[index] < 0:
            continue
        group[index] = deeper_than > indents[index]
        deeper_than = indents[index]
    examples = [index for index, depth in enumerate(indents) if depth > 0 and not group[index]]
    if len(examples) <= FEW_RESULTS:
        report.lines = lines  # a few examples are the answer, and cost little
        return report
    keep = [True] * len(outline)
    open_groups: list[int] = []
    for index, depth in enumerate(indents):
        if depth < 0:
            continue
        while open_groups and indents[open_groups[-1]] >= depth:
            open_groups.pop()
        if group[index]:
            keep[index] = False  # until an example under it stays
            open_groups.append(index)
        elif depth > 0 and _MARKED.search(outline[index]) is None:
            keep[index] = False
            report.omit_passed()
        else:  # a failing or pending example (or a line at the margin that is none): its groups stay
            for parent in reversed(open_groups):
                if keep[parent]:
                    break
                keep[parent] = True
    headings = sum(1 for index in range(len(outline)) if group[index] and not keep[index])
    if headings:
        report.also_omitted.append(plural(headings, "group heading") + " with only passing examples")
    report.lines = tidy([line for index, line in enumerate(outline) if keep[index]] + lines[end:])
    return report
