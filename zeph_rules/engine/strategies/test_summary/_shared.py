"""Pieces every test-runner parser uses: the report it builds and the failure budget."""

from __future__ import annotations

from .... import _regex
from .._common import cut_block, omitted_marker, plural

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Sequence
    from typing import Any, TypeVar

    Line = TypeVar("Line", str, "Placeholder | str")

#: a ``path/to/file.ext:LINE`` location anywhere in a line
LOCATION = _regex.compile(r"[\w./\\-]+\.\w+:\d+")

#: In a run of up to this many tests, passing results stay: they are the answer, and cost little
#: (a re-run of one file's eleven tests after a fix: batch 43's reviewer asked to see the two that
#: had failed now pass; at 8 they went).
FEW_RESULTS = 12


def few_results(lines: list[str], *results: re.Pattern[str]) -> bool:
    """Return whether at most ``FEW_RESULTS`` lines are test results (lines some of ``results`` match)."""
    count = 0
    for line in lines:
        if any(result.match(line) for result in results):
            count += 1
            if count > FEW_RESULTS:
                return False
    return True


class Report:
    """The lines a parser keeps, and what it learnt while choosing them.

    A plain class: this runs in every ``filter`` process, where importing
    ``dataclasses`` costs more than the parsing.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.failures = 0
        self.passed_omitted = 0
        self.skipped_omitted = 0
        self.other_omitted = 0
        #: further dropped material for the head marker, e.g. ``"5 lines of session header"``
        self.also_omitted: list[str] = []
        #: set when the parser met something it did not expect (the report stays conservative)
        self.unsure = False

    def omit_passed(self, count: int = 1) -> None:
        """Count dropped passing-test lines."""
        self.passed_omitted += count

    def omit_skipped(self, count: int = 1) -> None:
        """Count dropped skipped / ignored / expected-failure test lines."""
        self.skipped_omitted += count

    def finish(self) -> list[str]:
        """Return the lines, headed by one marker counting everything dropped wholesale."""
        parts = []
        if self.passed_omitted:
            parts.append(plural(self.passed_omitted, "passing test"))
        if self.skipped_omitted:
            parts.append(plural(self.skipped_omitted, "skipped test"))
        parts += self.also_omitted
        if not parts:
            return self.lines
        listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
        return [f"... ({listed} omitted) ...", *self.lines]


class FailureBudget:
    """Admit the first ``limit`` failure details; name the rest in one marker."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.shown = 0
        self.hidden: list[str] = []
        self.hidden_lines = 0

    def admit(self, name: str) -> bool:
        """Return whether the details of failure ``name`` should be shown."""
        if self.shown < self.limit:
            self.shown += 1
            return True
        self.hide(name)
        return False

    def hide(self, name: str) -> None:
        """Name failure ``name`` in the marker: its details are not shown (not chosen, or past the budget)."""
        self.hidden.append(name)

    def marker(self) -> str | None:
        """Return the marker naming the failures whose details were cut, if any."""
        if not self.hidden:
            return None
        names = ", ".join(self.hidden)
        return (
            f"... ({plural(len(self.hidden), 'more failure')} not shown in detail "
            f"({plural(self.hidden_lines, 'line')} omitted): {names}) ..."
        )


def cut_trace(lines: list[str], limit: int, is_signal: Callable[[str], bool] | None = None) -> list[str]:
    """Cut one failure's details to ``limit`` lines, keeping messages and locations."""
    return cut_block(lines, limit, is_signal or looks_important)


_IMPORTANT = _regex.compile(
    r"panicked at|assert|Error|error|FAIL|Expected|Received|expected|actual|\bleft\b|\bright\b|^E\s|^>\s"
)


def note_end(ends: list[Any], entry: Any) -> None:
    """Remember ``entry`` in ``ends`` as the first one seen, or else as the last (replacing the last).

    What a run's first and last passes are noted by, where they are kept: a green run's, one cut short.
    """
    if ends:
        ends[1:] = [entry]
    else:
        ends.append(entry)


def keep_noted_passes(
    out: list[Line], ends: Sequence[tuple[int, str]], report: Report, marks: set[int] | None = None
) -> set[int]:
    """Put back the passes ``note_end`` noted, each where it stood in ``out``, no more counted as omitted.

    ``ends`` are in the order of ``out`` (ties in the order they go in), put back from the last place
    back so each insertion leaves the places before it as they were.  Returns ``marks`` (places in
    ``out`` before) moved to where their lines now stand: each moves one on for every pass put back
    at or before it, counted in one pass however many targets never finished.
    """
    for position, line in reversed(ends):
        out.insert(position, line)
        report.passed_omitted -= 1
    if not marks:
        return set()
    # both in order, walked together (not bisect: the warm filter path imports no such module)
    moved: set[int] = set()
    before = 0
    for mark in sorted(marks):
        while before < len(ends) and ends[before][0] <= mark:
            before += 1
        moved.add(mark + before)
    return moved


def looks_important(line: str) -> bool:
    """Return whether a detail line carries a message or a location worth keeping past a cut."""
    return bool(_IMPORTANT.search(line)) or bool(LOCATION.search(line))


__all__ = [
    "FEW_RESULTS", "LOCATION", "FailureBudget", "Report", "choose_varied", "cut_trace", "few_results",
    "fold_marked_runs", "fold_names",
    "keep_noted_passes", "looks_important", "message_shape", "note_end", "omitted_marker",
]


def fold_marked_runs(out: list[Line], marked: set[int]) -> list[Line]:
    """Fold the runs of alike lines among the lines of ``out`` at ``marked`` to their ends, counted.

    ``marked`` says which lines are what tests printed (go's -v logs of passing
    tests, cargo's --nocapture output); each stretch of them folds on its own.
    """
    # imported here: only output with such lines pays for the truncate module's regexes
    from ..truncate import fold_similar

    folded: list[Line] = []
    start = 0
    while start < len(out):
        end = start + 1
        if start in marked and type(out[start]) is str:
            while end in marked and type(out[end]) is str:
                end += 1
            # the marked lines are what the tests printed, text; a placeholder (a failure's block, a
            # marker) is never one, even should a mark go stale
            printed = [line for line in out[start:end] if isinstance(line, str)]
            folded.extend(line for line, _ in fold_similar(printed))
        else:
            folded.append(out[start])
        start = end
    return folded


def tidy(lines: list[str]) -> list[str]:
    """Drop leading and trailing blank lines and squeeze blank runs left behind by cuts."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


class Placeholder:
    """A slot in an output list, filled with a marker once the whole input has been read."""

    def __init__(self) -> None:
        self.text: str | None = None


def resolve(lines: list[str | Placeholder]) -> list[str]:
    """Replace placeholders by their marker text; drop the ones left empty."""
    resolved: list[str] = []
    for item in lines:
        if isinstance(item, str):
            resolved.append(item)
        elif item.text:
            resolved.append(item.text)
    return resolved


_DIGITS = _regex.compile(r"\d+")


def message_shape(text: str) -> str:
    """Return ``text`` stripped, with every digit run blanked to ``#``.

    Two failures whose messages differ only in numbers (the parameters of one
    parametrised test) share a shape; a different error does not.
    """
    return _DIGITS.sub("#", text.strip())


def choose_varied(
    failures: Sequence[tuple[str, tuple[str, ...]] | tuple[str, tuple[str, ...], str, str]], limit: int
) -> set[int]:
    """Return the indices of up to ``limit`` failures to show in detail, chosen for variety.

    Each failure is ``(test, shapes)`` or ``(test, shapes, location, file)``:
    the test function it belongs to (one name for all parametrisations), the
    shapes of its messages, and where it failed (``path:line``) and in which
    file.  Picked, in order, until ``limit`` is reached: the failures in a file
    not seen yet, then those failing at a location not seen yet, then those new
    on both test and message, then those with a message not seen yet, then
    those of a test not seen yet, then the rest, taking turns among the tests:
    each test's last failure first (where a parametrised run ended), then its
    earliest.  So one parametrised test failing 160 times cannot crowd out the
    other tests' errors, every broken place gets a detail block before a second
    look at one, and a second test's second failure comes before a first test's
    seventh (batch 23 asked for ``round_half_up(2.5)`` after ``round_half_up(0.5)``,
    and for the last of fourteen ``clamp`` parameters).
    """
    chosen: set[int] = set()
    seen: tuple[set[object], ...] = (set(), set(), set(), set())
    keyed = [(test, shape, *rest) if rest else (test, shape, "", "") for test, shape, *rest in failures]
    # the keys (by position in ``keyed``) a failure must bring anew in each pass;
    # an empty location or file is never new
    passes: tuple[tuple[int, ...], ...] = ((3,), (2,), (0, 1), (1,), (0,))
    for wanted in passes:
        for index, keys in enumerate(keyed):
            if len(chosen) >= limit:
                return chosen
            if index in chosen or any(keys[k] in seen[k] or keys[k] == "" for k in wanted):
                continue
            chosen.add(index)
            for k, key in enumerate(keys):
                seen[k].add(key)
    turns: dict[object, list[int]] = {}
    for index, keys in enumerate(keyed):
        if index not in chosen:
            turns.setdefault(keys[0], []).append(index)
    queues = [[rest[-1], *rest[:-1]] for rest in turns.values()]
    while len(chosen) < limit and queues:
        for queue in queues:
            if len(chosen) < limit:
                chosen.add(queue.pop(0))
        queues = [queue for queue in queues if queue]
    return chosen


_PARAMETRISED = _regex.compile(r"^(?P<test>[^\[\s]+)\[(?P<id>.*)\]$")


def fold_names(names: Sequence[str]) -> str:
    """Join failure names, folding the parametrisations of one test to ``N × test[first … last]``."""
    groups: dict[str, list[str]] = {}
    order: list[str] = []
    for name in names:
        match = _PARAMETRISED.match(name)
        key = match["test"] if match else "\0" + name
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(match["id"] if match else name)
    parts = []
    for key in order:
        ids = groups[key]
        if key.startswith("\0"):
            parts.extend(ids)
        elif len(ids) <= 2:
            parts.extend(f"{key}[{one}]" for one in ids)
        else:
            parts.append(f"{len(ids)} × {key}[{ids[0]} … {ids[-1]}]")
    return ", ".join(parts)
