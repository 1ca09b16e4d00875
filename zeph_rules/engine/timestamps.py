"""A timestamp on every line (``cargo test | ts``, a CI log, ``docker logs -t``), set aside and put back.

The rules read a tool's lines from their start: ``2026-11-26T21:53:02.538870Z
test result: FAILED. ...`` is no libtest line, and the summariser falls back.
When nearly every line opens with a timestamp, ``split`` takes it off each
line; the pipeline runs the rules on the bare lines and ``reattach`` gives each
line the rules kept its own timestamp again (a line kept twice, its stamps in
order).  Markers and lines a rule wrote get none.
"""

from __future__ import annotations

from .. import _regex
from .prefixes import first_lines, restore, take_off

#: ISO 8601 (``2026-11-26T21:53:02.538870Z``, ``2026-11-26 21:53:02,538``), syslog's and ``ts``'s default
#: (``Nov 26 21:53:03``) and a bare clock (``ts -s``'s ``00:00:01``), alone or in brackets, then a space
_STAMP = (
    r"(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"
    r"|\d\d:\d\d:\d\d(?:[.,]\d+)?)"
)
_PREFIX = _regex.compile(rf"^(?:\[{_STAMP}\]|{_STAMP})(?: |$)")
#: at least this many lines, and this share of the non-blank ones, must open with a timestamp
MIN_LINES = 5
MIN_SHARE = 0.95


def split(text: str) -> tuple[list[str], str] | None:
    """Return each line's timestamp prefix ("" for none) and the text without them, or None.

    None unless at least ``MIN_SHARE`` of the non-blank lines (and ``MIN_LINES``) open with one.
    """
    # most output carries no stamps: its first lines say so before a regex runs over megabytes
    head = first_lines(text)
    if sum(1 for line in head if _PREFIX.match(line)) < MIN_SHARE * len(head):
        return None
    lines = text.split("\n")
    prefixes, bare, found = take_off(lines, _PREFIX)
    stamped = sum(1 for match in found if match)
    if stamped < MIN_LINES or stamped < MIN_SHARE * sum(1 for line in lines if line.strip()):
        return None
    return prefixes, "\n".join(bare)


def reattach(prefixes: list[str], bare: str, kept: str) -> str:
    """Give each line of ``kept`` (the rules' output of ``bare``) the timestamp its line had."""
    pairs = [(prefix, line) for prefix, line in zip(prefixes, bare.split("\n")) if prefix and line.strip()]
    return "\n".join(restore(pairs, kept.split("\n"), lambda line: line))
