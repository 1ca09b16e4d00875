"""Pure-Python twin of the head/tail truncation hot path.

Lines are found with ``str.find`` / ``str.rfind`` from both ends, so the cost
depends on ``head + tail``, not on the size of the text (only ``count_lines``
walks the whole string, and ``str.count`` does that in C).  A line is a run of
characters ended by ``\\n``; a final run without ``\\n`` is a line too.
"""

from __future__ import annotations


def _check(text: object, head: int, tail: int) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if head < 0:
        raise ValueError("head must be >= 0")
    if tail < 0:
        raise ValueError("tail must be >= 0")


def count_lines(text: str) -> int:
    """Return the number of lines in ``text`` (a trailing newline ends the last line)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if not text:
        return 0
    newlines = text.count("\n")
    return newlines if text.endswith("\n") else newlines + 1


def head_tail_split(text: str, head: int, tail: int) -> tuple[int, int, int]:
    """Return ``(head_end, tail_start, omitted_lines)`` for keeping ``head`` and ``tail`` lines."""
    _check(text, head, tail)
    size = len(text)
    total = count_lines(text)
    if total <= head + tail:
        return size, size, 0

    head_end = 0
    for _ in range(head):
        newline = text.find("\n", head_end)
        # total > head guarantees a newline here: at least one more line follows
        head_end = newline + 1

    # The last line may lack its newline; start the backwards scan before it.
    tail_start = size
    scan_end = size - 1 if text.endswith("\n") else size
    for _ in range(tail):
        newline = text.rfind("\n", 0, scan_end)
        tail_start = newline + 1
        scan_end = newline
    return head_end, tail_start, total - head - tail
