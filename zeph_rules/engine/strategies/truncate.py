"""``truncate``: shorten long output, keeping its first and last lines.

Long output is usually long because it repeats itself: a directory of
``img_0001.jpg`` ... ``img_0260.jpg``, a thousand ``Compiling`` lines.  So a
long output first has every run of ten or more consecutive *similar* lines
(equal once numbers, hex ids, month names and column padding are blanked)
folded to its first and last three under a counted marker; if it is still longer than
``max_lines``, the head and the tail are kept, and with them the lines that
say something went wrong (errors, failures, panics: always, up to a cap) and,
within the same budget again, the landmarks between: section headers
(``src/api:`` of ``ls -R``), the top level of an indented tree, lines unlike
any other.  ``fold_from`` lets runs fold in output shorter than
``max_lines`` (a listing of 100 files of which 80 are ``img_NNNN.jpg``).
"""

from __future__ import annotations

from ... import _regex, _speedups
from ._common import (
    NUMBERISH,
    Confidence,
    StrategyResult,
    guarded,
    int_param,
    join_lines,
    line_indices,
    lines_with_words,
    matches_any,
    omitted_marker,
    split_lines,
    user_pattern,
)

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

#: runs shorter than this are left alone; longer ones keep RUN_HEAD + RUN_TAIL lines
_MIN_RUN = 10
_RUN_HEAD = 3
_RUN_TAIL = 3

_NUMBERISH = NUMBERISH
#: a word of digits and letters that starts with a digit ("12H", "3rd", "7f"): a number-like id, whatever
#: its letters (a name with digits, "EMU10K1.conf", "VX222.conf", is a name and stays apart)
_ALNUM_ID = _regex.compile(r"(?<![^\W_])\d[A-Za-z0-9]*(?![^\W_])")
#: a signed number, once its digits are blanked: "-4.24" and "4.87" in a column of amounts are one shape
_SIGNED = _regex.compile(r"(?<![\w.])[-+](?=0)")
_MONTH = _regex.compile(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")
_INLINE_SPACES = _regex.compile(r"[^\S\n]+")
_HEADER = _regex.compile(r"^\S[^:]*:$")
#: a line that reports a problem; the middle of a long output keeps these first
_SEVERE = (
    r"\b(?:error|errors|fatal|failed|failure|panic|panicked|exception|traceback|segmentation fault|killed)\b"
    r"|(?-i:[a-z](?:Error|Exception))(?=:|\s|$)"  # an exception's class: AssertionError, TypeError (not isError.js)
    r"|\*\*\* |\bERR!"
)
_TROUBLE = _regex.compile(_SEVERE + r"|\bwarning: ", _regex.IGNORECASE)
#: what comes first when there is more trouble than the cap: errors before warnings and kept patterns
_SEVERE_TROUBLE = _regex.compile(_SEVERE, _regex.IGNORECASE)
#: at most this many trouble lines are kept beyond the head + tail budget
_TROUBLE_CAP = 200
#: lines unlike any other are landmarks only while they are at most one in this many of the middle
_LANDMARK_SHARE = 4
_TREE_PREFIX = _regex.compile(r"^(?:[│|]\s{2,3}|\s{4}|[├└`]──\s?|[├└]── |\|-- |`-- )*")
#: a line of a ``tree`` drawing: its entry's branch, under its parents' bars
_TREE_BRANCH = _regex.compile(r"^(?:[│|]\s{2,3}|\s{4})*(?:[├└`]──|\|--)")


def _shapes(lines: list[str]) -> list[str]:
    """Return what makes each line different from its siblings: numbers, ids, dates and padding blanked.

    Each substitution runs once over the whole text: three regex calls per line
    cost seconds on a few hundred thousand lines, and none of the patterns
    crosses a newline (whitespace runs stop at newlines here).
    """
    if not lines:
        return []
    shaped = _SIGNED.sub("", _MONTH.sub("M", _NUMBERISH.sub("0", _ALNUM_ID.sub("0", "\n".join(lines)))))
    shaped = _INLINE_SPACES.sub(" ", shaped.replace("└", "├").replace("`--", "|--"))
    return [shape.strip() for shape in shaped.split("\n")]


#: a literal every alternative of ``_TROUBLE`` contains, case-folded
_TROUBLE_WORDS = ("error", "fatal", "fail", "panic", "exception", "traceback", "segmentation fault", "killed",
                  "*** ", "err!", "warning: ")


def _troubled(lines: list[str]) -> set[int]:
    """Return the indices of the lines that report trouble.

    A substring search over the whole case-folded text finds the few lines
    that can match; only those meet the regex (a case-insensitive alternation
    runs at a few MB/s over a whole output).
    """
    starts = lines_with_words("\n".join(lines), _TROUBLE_WORDS)
    return {index for index in line_indices(starts, lines) if _TROUBLE.search(lines[index])}


def fold_similar(lines: list[str]) -> list[tuple[str, int]]:
    """Fold each run of similar consecutive lines to its first and last few, with a counted marker.

    Return ``(line, how many input lines it stands for)`` pairs.

    A run is consecutive lines of one shape: the files of one directory, one
    progress step repeated.  Lines of the same shape elsewhere (``README.md``
    under another ``ls -R`` header) are another run: they say something else.
    Lines reporting trouble belong to no run.
    """
    # Trouble lines never fold: the id or count that differs may be the clue.
    troubled = _troubled(lines)
    shapes = ["" if index in troubled else shape for index, shape in enumerate(_shapes(lines))]
    out: list[tuple[str, int]] = []
    start = 0
    while start < len(lines):
        end = start + 1
        while end < len(lines) and shapes[end] and shapes[end] == shapes[start]:
            end += 1
        if shapes[start] and end - start >= _MIN_RUN:
            folded = end - start - _RUN_HEAD - _RUN_TAIL
            out.extend((line, 1) for line in lines[start : start + _RUN_HEAD])
            out.append((omitted_marker(folded, "similar line"), folded))
            out.extend((line, 1) for line in lines[end - _RUN_TAIL : end])
        else:
            out.extend((line, 1) for line in lines[start:end])
        start = end
    return out


def _depth(line: str) -> int:
    """Return how deep ``line`` sits in an indented structure (tree branches or leading spaces)."""
    prefix = _TREE_PREFIX.match(line)
    width = prefix.end() if prefix else 0
    return width + (len(line) - width - len(line[width:].lstrip(" \t")))


def _path_depth(line: str) -> int | None:
    """Return how many directories deep the path ending ``line`` is (``du``, ``find``), or None."""
    words = line.split()
    if not words or "/" not in words[-1]:
        return None
    return words[-1].rstrip("/").count("/")


#: a size leading a line: ``du``'s ``4.0K`` / ``1.2M`` (or ``-b`` byte counts), with the unit's multiplier
_SIZE = _regex.compile(r"^\s*(\d+(?:[.,]\d+)?)([KMGTPE]?)i?B?\s")
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50, "E": 1 << 60}


def _largest(lines: list[str], indices: range, count: int) -> list[int]:
    """Return the indices (of ``indices``) of the ``count`` lines with the largest leading size."""
    sized = []
    for index in indices:
        found = _SIZE.match(lines[index])
        if found:
            sized.append((float(found[1].replace(",", ".")) * _UNITS[found[2]], index))
    sized.sort(key=lambda pair: -pair[0])
    return [index for _, index in sized[:count]]


#: a location at the start of a diagnostic: ``src/net/net_13.c:11:23: error: ...``
_LOCATED = _regex.compile(r"^([^\s:]*[/.][^\s:]*):\d+[:,]")
#: how far above a trouble line the lines that introduce it are looked for
_INTRODUCTION_REACH = 5


def _introductions(lines: list[str], troubled: list[int], middle: range) -> set[int]:
    """Return the lines just above located trouble lines that name the same file.

    A compiler's error is introduced by the lines above it that name its file:
    ``src/net/net_13.c: In function 'f':`` and the command that compiled it
    (``cc ... -c src/net/net_13.c``), a line or two up in a parallel build.
    """
    found: set[int] = set()
    for index in troubled:
        located = _LOCATED.match(lines[index])
        if located is None:
            continue
        path = located[1]
        for above in range(index - 1, max(index - _INTRODUCTION_REACH, middle.start) - 1, -1):
            line = lines[above]
            # the command that names the file, or its `path: In function` line (not another diagnostic of it)
            if (path in line and not line.startswith(path + ":")) or line.startswith(path + ": "):
                found.add(above)
    return found


#: how many lines under a trouble line that ends in a colon are looked at for what it announces
_ANNOUNCED_REACH = 4


def _announced(lines: list[str], troubled: list[int]) -> set[int]:
    """Return the lines a trouble line ending in a colon announces: its next two non-blank lines.

    ``AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:``
    says what failed only with the line under it, ``-200 !== 0``.
    """
    found: set[int] = set()
    for index in troubled:
        if not lines[index].rstrip().endswith(":"):
            continue
        taken = 0
        for below in range(index + 1, min(index + 1 + _ANNOUNCED_REACH, len(lines))):
            if lines[below].strip():
                found.add(below)
                taken += 1
                if taken == 2:
                    break
    return found


def _head_tail(weighted: list[tuple[str, int]], head: int, tail: int, largest: int = 0,
               kept_patterns: list[Any] | None = None) -> list[str]:
    """Keep ``head`` + ``tail`` lines, and, within the same budget again, the landmarks between them.

    Lines reporting trouble (errors, failures, panics, and what ``kept_patterns``
    match) are kept first, outside the budget, up to ``_TROUBLE_CAP``, with the
    lines just above them that name their file; then, also outside it, the ``largest``
    lines with the largest leading size (``du -a`` is run to find what is big).  Landmarks are, in this order: section
    headers (``src/api:`` in ``ls -R``), the least indented lines of an indented
    structure (the top of a ``tree``), and lines unlike any other
    (``__init__.py`` among ``mod_1.py`` ... ``mod_9.py``) while they are few:
    in a ``find`` listing nearly every path is unlike the others.  In a
    listing of paths (``du -a``, ``find``) the shallowest paths, the top
    level, come before the lines unlike any other.  Each kind of
    landmark is kept only when all of it fits in what is left of the budget.
    """
    lines = [line for line, _ in weighted]
    if head + tail >= len(lines):
        return lines
    middle = range(head, len(lines) - tail)
    keep = set(range(head)) | set(range(len(lines) - tail, len(lines)))
    trouble = _troubled(lines)
    troubled = [
        index for index in middle
        if weighted[index][1] == 1 and (index in trouble or kept_patterns and matches_any(kept_patterns, lines[index]))
    ]
    if len(troubled) > _TROUBLE_CAP:
        # 500 warnings must not push the one error out: the severe go first, then the rest in order
        severe = [index for index in troubled if _SEVERE_TROUBLE.search(lines[index])][:_TROUBLE_CAP]
        taken = set(severe)
        troubled = sorted(severe + [index for index in troubled if index not in taken][: _TROUBLE_CAP - len(severe)])
    keep.update(troubled)
    # the tail's trouble is kept anyway; the lines above it that name its file may lie just before the tail
    tail_trouble = [index for index in range(len(lines) - tail, len(lines)) if index in trouble]
    keep.update(_introductions(lines, troubled + tail_trouble, middle))
    keep.update(_announced(lines, troubled))
    if largest:
        keep.update(_largest(lines, middle, largest))
    budget = head + tail
    depths = {index: _depth(lines[index]) for index in middle}
    branches = {index: depth for index, depth in depths.items() if _TREE_BRANCH.match(lines[index])}
    if branches:
        # a tree's structure is its branch lines: a line in the middle without one (`Killed`, an error
        # of the walk) is no top level, and must not hide the real one
        depths = branches
    shallowest = min(depths.values(), default=0)
    # a shape at another depth is another line of the structure: a manifest's `name: forecast-nightly`
    # under its metadata and again as its container's (batch 103b: the CronJob's name, counted as
    # a line alike to another, went with the middle of a render)
    shapes = [(len(line) - len(line.lstrip(" ")), shape) for line, shape in zip(lines, _shapes(lines))]
    shape_count: dict[tuple[int, str], int] = {}
    for shape in shapes:
        shape_count[shape] = shape_count.get(shape, 0) + 1
    path_depths = {index: depth for index in middle if (depth := _path_depth(lines[index])) is not None}
    top = min(path_depths.values(), default=0)
    headers = [index for index in middle if _HEADER.match(lines[index])]
    header_count: dict[str, int] = {}
    for index in headers:
        header_count[lines[index]] = header_count.get(lines[index], 0) + 1
    kinds = (
        # a header names its section once (`src/api:`); one repeated is a key (a manifest's `metadata:`)
        [index for index in headers if header_count[lines[index]] == 1],
        [index for index, depth in depths.items() if depth == shallowest and lines[index].strip()]
        if shallowest < max(depths.values(), default=0) else [],
        [index for index, depth in path_depths.items() if depth == top]
        if 2 * len(path_depths) >= len(middle) and top < max(path_depths.values(), default=0) else [],
        [index for index in middle if lines[index].strip() and shape_count[shapes[index]] == 1
         and weighted[index][1] == 1],
    )
    for number, kind in enumerate(kinds):
        fresh = [index for index in kind if index not in keep]
        if number == len(kinds) - 1 and _LANDMARK_SHARE * len(fresh) > len(middle):
            continue  # most lines are unlike any other (paths in `find`): none of them stands out
        if number == 2 and 2 * len(fresh) > len(middle):
            continue  # most paths are at the top: the top level is no landmark
        if fresh and len(fresh) <= budget:
            keep.update(fresh)
            budget -= len(fresh)
    out: list[str] = []
    gap: list[tuple[str, int]] = []  # the lines not kept since the last kept one, with their weights

    def close_gap() -> None:
        omitted = sum(weight for _, weight in gap)
        # a few short lines between kept ones stay: their marker would take a line as long to say they
        # went (a manifest's `- name: x` between an image and its ports, a compiler's two-line excerpt
        # `7 | {` and its caret); long ones (a compile command) still go
        if (all(weight == 1 for _, weight in gap)
                and sum(len(line) + 1 for line, _ in gap) <= 2 * len(omitted_marker(omitted))):
            out.extend(line for line, _ in gap)
        elif gap:
            out.append(omitted_marker(omitted))
        gap.clear()

    for index, entry in enumerate(weighted):
        if index in keep:
            close_gap()
            out.append(entry[0])
        else:
            gap.append(entry)
    close_gap()
    return out


def _truncate(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    max_lines = int_param(params, "max_lines", 200)
    head = int_param(params, "head", 20)
    tail = int_param(params, "tail", 20)
    fold_from = min(int_param(params, "fold_from", max_lines), max_lines)
    if _speedups.count_lines(text) <= fold_from:
        return StrategyResult(text, Confidence.FULL)
    lines, ends_with_newline = split_lines(text)
    weighted = fold_similar(lines)
    largest = int_param(params, "keep_largest", 0)
    kept_patterns = [user_pattern(source) for source in params.get("keep_patterns") or ()]
    folded = (_head_tail(weighted, head, tail, largest, kept_patterns) if len(weighted) > max_lines
              else [line for line, _ in weighted])
    if len(folded) == len(lines):
        return StrategyResult(text, Confidence.FULL)
    return StrategyResult(join_lines(folded, ends_with_newline), Confidence.PARTIAL)


truncate = guarded(_truncate)
