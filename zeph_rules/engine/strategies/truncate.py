"""``truncate``: shorten long output, keeping its first and last lines.

Long output is usually long because it repeats itself: a directory of
``img_0001.jpg`` ... ``img_0260.jpg``, a thousand ``Compiling`` lines.  So a
long output first has every family of eight or more *similar* lines (equal
once numbers, hex ids, month names and column padding are blanked) folded to
its first and last three under a counted marker; if it is still longer than
``max_lines``, the head and the tail are kept, and with them, within the same
budget again, the landmarks between: section headers (``src/api:`` of
``ls -R``), the top level of an indented tree, lines unlike any other.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ... import _speedups
from ._common import (
    Confidence,
    StrategyResult,
    guarded,
    int_param,
    join_lines,
    omitted_marker,
    split_lines,
)

#: runs shorter than this are left alone; longer ones keep RUN_HEAD + RUN_TAIL lines
_MIN_RUN = 8
_RUN_HEAD = 3
_RUN_TAIL = 3

_NUMBERISH = re.compile(r"[0-9A-Fa-f]*[0-9][0-9A-Fa-f]*")
_MONTH = re.compile(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")
_SPACES = re.compile(r"\s+")
_HEADER = re.compile(r"^\S[^:]*:$")
_TREE_PREFIX = re.compile(r"^(?:[│|]\s{2,3}|\s{4}|[├└`]──\s?|[├└]── |\|-- |`-- )*")


def _shape(line: str) -> str:
    """Return what makes ``line`` different from its siblings: numbers, ids, dates and padding blanked."""
    shape = _MONTH.sub("M", _NUMBERISH.sub("0", line))
    return _SPACES.sub(" ", shape.replace("└", "├").replace("`--", "|--")).strip()


def _fold_similar(lines: list[str]) -> list[tuple[str, int]]:
    """Fold each family of similar lines to its first and last few members, with a counted marker.

    Return ``(line, how many input lines it stands for)`` pairs.

    A family is every line of one shape (usually consecutive: the files of one
    directory, one progress step repeated).  The marker stands where the first
    folded member was.
    """
    shapes = [_shape(line) for line in lines]
    members: dict[str, list[int]] = {}
    for index, shape in enumerate(shapes):
        if shape:
            members.setdefault(shape, []).append(index)
    dropped: set[int] = set()
    markers: dict[int, int] = {}
    for indices in members.values():
        if len(indices) >= _MIN_RUN:
            middle = indices[_RUN_HEAD : len(indices) - _RUN_TAIL]
            dropped.update(middle)
            markers[middle[0]] = len(middle)
    out: list[tuple[str, int]] = []
    for index, line in enumerate(lines):
        if index in markers:
            out.append((omitted_marker(markers[index], "similar line"), markers[index]))
        if index not in dropped:
            out.append((line, 1))
    return out


def _depth(line: str) -> int:
    """Return how deep ``line`` sits in an indented structure (tree branches or leading spaces)."""
    prefix = _TREE_PREFIX.match(line)
    width = prefix.end() if prefix else 0
    return width + (len(line) - width - len(line[width:].lstrip(" \t")))


def _head_tail(weighted: list[tuple[str, int]], head: int, tail: int) -> list[str]:
    """Keep ``head`` + ``tail`` lines, and, within the same budget again, the landmarks between them.

    Landmarks are, in this order: section headers (``src/api:`` in ``ls -R``),
    the least indented lines of an indented structure (the top of a ``tree``),
    and lines unlike any other (``__init__.py`` among ``mod_1.py`` ... ``mod_9.py``).
    Each kind is kept only when all of it fits in what is left of the budget.
    """
    lines = [line for line, _ in weighted]
    if head + tail >= len(lines):
        return lines
    middle = range(head, len(lines) - tail)
    keep = set(range(head)) | set(range(len(lines) - tail, len(lines)))
    budget = head + tail
    depths = {index: _depth(lines[index]) for index in middle}
    shallowest = min(depths.values(), default=0)
    shape_count: dict[str, int] = {}
    for line in lines:
        shape = _shape(line)
        shape_count[shape] = shape_count.get(shape, 0) + 1
    kinds = (
        [index for index in middle if _HEADER.match(lines[index])],
        [index for index in middle if depths[index] == shallowest and lines[index].strip()]
        if shallowest < max(depths.values(), default=0) else [],
        [index for index in middle if lines[index].strip() and shape_count[_shape(lines[index])] == 1
         and weighted[index][1] == 1],
    )
    for kind in kinds:
        fresh = [index for index in kind if index not in keep]
        if fresh and len(fresh) <= budget:
            keep.update(fresh)
            budget -= len(fresh)
    out: list[str] = []
    gap = 0
    for index, (line, weight) in enumerate(weighted):
        if index in keep:
            if gap:
                out.append(omitted_marker(gap))
                gap = 0
            out.append(line)
        else:
            gap += weight
    if gap:
        out.append(omitted_marker(gap))
    return out


def _truncate(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    max_lines = int_param(params, "max_lines", 200)
    head = int_param(params, "head", 20)
    tail = int_param(params, "tail", 20)
    if _speedups.count_lines(text) <= max_lines:
        return StrategyResult(text, Confidence.FULL)
    lines, ends_with_newline = split_lines(text)
    weighted = _fold_similar(lines)
    folded = _head_tail(weighted, head, tail) if len(weighted) > max_lines else [line for line, _ in weighted]
    if len(folded) == len(lines):
        return StrategyResult(text, Confidence.FULL)
    return StrategyResult(join_lines(folded, ends_with_newline), Confidence.PARTIAL)


truncate = guarded(_truncate)
