"""ctest and GoogleTest: ctest's result lines (plain, ``--output-on-failure``, ``-V``) and gtest's own output.

A passing test says so in one line each way (ctest's ``Passed``, gtest's
``[ RUN ]`` followed at once by ``[ OK ]``); those go, counted.  Under ``ctest
-V`` every line a test printed carries its number (``14: [ RUN ] ...``): a
passing test's lines go with its result.  What stays: each failure with its
output, a ``[ RUN ]`` with no verdict (the test that crashed or hung), gtest's
totals and failed-tests list, ctest's percentage line and failed-tests list,
and every line this parser does not know.
"""

from __future__ import annotations

from .... import _regex
from .._common import plural
from ._shared import FEW_RESULTS, Report, tidy

#: ``  4/151 Test   #4: Trim.TabsAndNewlines ......***Failed    0.00 sec`` (``Passed``, ``***Exception: SegFault``)
_CTEST_RESULT = _regex.compile(r"^\s*\d+/\d+ Test\s+#(?P<number>\d+): (?P<name>\S.*?) \.*\s*(?P<verdict>Passed|\*\*\*.+?|Not Run.*?)\s+[\d.]+ sec$")
_CTEST_TOTALS = _regex.compile(r"^\d+% tests passed, \d+ tests? failed out of \d+$")
#: what ``ctest -V`` prints before each test's command, and before the tests
_CTEST_BOOKKEEPING = _regex.compile(
    r"^(?:test \d+|\s+Start\s+\d+: .*|UpdateCTestConfiguration  from :.*|Internal ctest changing into directory: .*"
    r"|Constructing a list of tests|Done constructing a list of tests|Updating test list for fixtures"
    r"|Added \d+ tests to meet fixture requirements|Checking test dependency graph(?:\.\.\.| end))$"
)
#: ``ctest -V`` puts the test's number before each line the test printed
_NUMBERED = _regex.compile(r"^(?P<number>\d+):(?: |$)")
_RUN = _regex.compile(r"^\[ RUN      \] (?P<name>\S.*)$")
_OK = _regex.compile(r"^\[       OK \] (?P<name>\S.*?) \(\d+ ms\)$")
#: gtest's framing: each suite's opening and closing line, the environment's set-up and tear-down
_FRAME = _regex.compile(r"^\[----------\] (?:\d+ tests? from \S.*|Global test environment (?:set-up|tear-down)\.?)$")
_GTEST_MAIN = _regex.compile(r"^Running main\(\) from \S+gtest_main\.cc$")
#: gtest's verdict on a failing test (``[  FAILED  ] Trim.Tabs (0 ms)``; the list at the end has no time)
_GTEST_FAILED = _regex.compile(r"^\[  FAILED  \] \S.* \(\d+ ms\)$")


def looks_like_ctest(lines: list[str]) -> bool:
    """Return whether the output comes from ctest or a GoogleTest binary."""
    for line in lines:
        if _CTEST_RESULT.match(line) or _CTEST_TOTALS.match(line) or _RUN.match(_unnumbered(line)):
            return True
    return False


def summarise_ctest(lines: list[str], max_failures: int, trace_limit: int) -> Report:
    """Drop passing tests (ctest's results, ``-V``'s per-test lines, gtest's RUN/OK pairs); keep the rest."""
    report = Report()
    results = [found for line in lines if (found := _CTEST_RESULT.match(line))]
    runs = sum(1 for line in lines if _RUN.match(_unnumbered(line)))  # gtest's, run directly
    report.failures = sum(1 for found in results if found["verdict"] != "Passed") or sum(
        1 for line in lines if _GTEST_FAILED.match(_unnumbered(line)))
    if len(results) <= FEW_RESULTS and runs <= FEW_RESULTS:
        report.lines = lines  # a few results are the answer, and cost little
        return report
    passed = {found["number"] for found in results if found["verdict"] == "Passed"}
    out: list[str] = []
    passing_output = framing = 0
    for line in lines:
        numbered = _NUMBERED.match(line)
        if numbered and numbered["number"] in passed:
            passing_output += 1  # a line of a passing test's own output under ctest -V
            continue
        bare = line[numbered.end():] if numbered else line
        result = _CTEST_RESULT.match(line)
        if result and result["verdict"] == "Passed":
            report.omit_passed()
            continue
        if _CTEST_BOOKKEEPING.match(line) or _FRAME.match(bare) or _GTEST_MAIN.match(bare):
            framing += 1
            continue
        ok = _OK.match(bare)
        if ok:
            previous = _RUN.match(_unnumbered(out[-1])) if out else None
            if previous is not None and previous["name"] == ok["name"]:
                out.pop()  # its RUN line, right above: a test that printed nothing and passed
                report.omit_passed()
                continue
        out.append(line)
    if passing_output:
        report.also_omitted.append(plural(passing_output, "line") + " of passing tests' output")
    if framing:
        report.also_omitted.append(plural(framing, "line") + " of ctest's and gtest's framing")
    report.lines = tidy(out)
    return report


def _unnumbered(line: str) -> str:
    numbered = _NUMBERED.match(line)
    return line[numbered.end():] if numbered else line
