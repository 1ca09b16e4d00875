"""A prefix on every line (a timestamp, a job's tag): found on the first lines, taken off, put back.

``timestamps`` and ``streams`` set such a prefix aside for the rules, which read
a tool's lines from their start, and give each line the rules keep its own
prefix again.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterable

#: how many lines a look at an output's start reads, and the longest a line is taken to be there
SAMPLE = 400
_SAMPLE_WIDTH = 160


def first_lines(text: str) -> list[str]:
    """Return the non-blank lines among the first ``SAMPLE`` of ``text``, without splitting the rest of it.

    Output may be megabytes: most of it carries no prefix, and its start says so.
    """
    return [line for line in text[: SAMPLE * _SAMPLE_WIDTH].split("\n")[:SAMPLE] if line.strip()]


def take_off(lines: list[str], prefix: re.Pattern[str]) -> tuple[list[str], list[str], list[re.Match[str] | None]]:
    """Return each line's prefix ("" for none), each line without it and the match it was found by."""
    prefixes: list[str] = []
    bare: list[str] = []
    found: list[re.Match[str] | None] = []
    for line in lines:
        match = prefix.match(line)
        found.append(match)
        prefixes.append(match.group() if match else "")
        bare.append(line[match.end():] if match else line)
    return prefixes, bare, found


def restore(pairs: Iterable[tuple[str, str]], kept: list[str], unmatched: Callable[[str], str]) -> list[str]:
    """Put back on each line of ``kept`` the prefix that a line equal to it had in ``pairs`` (prefix, line).

    Equal lines take their prefixes in order; a line no pair has (a marker a
    rule wrote) is ``unmatched(line)``.
    """
    from collections import deque

    queues: dict[str, deque[str]] = {}
    for prefix, line in pairs:
        queues.setdefault(line, deque()).append(prefix)
    out = []
    for line in kept:
        queue = queues.get(line)
        out.append(queue.popleft() + line if queue else unmatched(line))
    return out
