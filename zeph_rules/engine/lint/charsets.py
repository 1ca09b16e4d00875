"""Sets of characters as sorted, disjoint, inclusive code-point ranges.

Both the glob automata and the regex shape analysis reason about "which
characters can this part consume"; a handful of range operations is all
they need, and ranges keep ``[^/]`` or ``\\S`` finite.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

MAX_CODE_POINT = 0x10FFFF

Ranges = tuple[tuple[int, int], ...]

EMPTY: Ranges = ()
ALL: Ranges = ((0, MAX_CODE_POINT),)


def normalise(pairs: Iterable[tuple[int, int]]) -> Ranges:
    """Sort and merge overlapping or touching ranges."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(p for p in pairs if p[0] <= p[1]):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def of_chars(chars: Iterable[str]) -> Ranges:
    return normalise((ord(c), ord(c)) for c in chars)


def union(*sets: Ranges) -> Ranges:
    return normalise(pair for ranges in sets for pair in ranges)


def complement(ranges: Ranges) -> Ranges:
    out: list[tuple[int, int]] = []
    start = 0
    for lo, hi in ranges:
        if lo > start:
            out.append((start, lo - 1))
        start = hi + 1
    if start <= MAX_CODE_POINT:
        out.append((start, MAX_CODE_POINT))
    return tuple(out)


def intersect(a: Ranges, b: Ranges) -> Ranges:
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def subset(a: Ranges, b: Ranges) -> bool:
    """Return whether every character of ``a`` is in ``b``."""
    return intersect(a, complement(b)) == EMPTY


def contains(ranges: Ranges, code: int) -> bool:
    index = bisect.bisect_right(ranges, (code, MAX_CODE_POINT + 1)) - 1
    return index >= 0 and ranges[index][0] <= code <= ranges[index][1]


# Unicode white space (what `\s` matches in `re`); kept out of the `\w`
# approximation so `\w` and `\s` stay disjoint, as they really are.
SPACE: Ranges = normalise([(9, 13), (28, 32), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
                           (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000)])
DIGIT: Ranges = ((48, 57),)
# `\w` over-approximated: ASCII word characters plus every non-ASCII non-space.
WORD: Ranges = union(((48, 57), (65, 90), (95, 95), (97, 122)), intersect(((0x80, MAX_CODE_POINT),), complement(SPACE)))


def with_case_variants(ranges: Ranges) -> Ranges:
    """Add the other-case forms of the ASCII letters in ``ranges`` (for ``(?i)``)."""
    extra: list[tuple[int, int]] = []
    for lo, hi in ranges:
        for a, b, shift in ((65, 90, 32), (97, 122, -32)):
            l2, h2 = max(lo, a), min(hi, b)
            if l2 <= h2:
                extra.append((l2 + shift, h2 + shift))
    return union(ranges, tuple(extra))


_NICE = "xabcdefghijklmnopqrstuvwyz0123456789 -_./:=@+,"


def pick(ranges: Ranges) -> str:
    """Return a readable member of a non-empty set."""
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return chr(ranges[0][0])
    for c in _NICE:
        if contains(ranges, ord(c)):
            return c
    for lo, hi in ranges:
        if hi >= 0x21 and lo <= 0x7E:
            return chr(max(lo, 0x21))
    lo = ranges[0][0]
    return chr(lo if not 0xD800 <= lo <= 0xDFFF else 0xE000)


def partition(sets: Iterable[Ranges]) -> list[str]:
    """Return one representative character per class of the coarsest partition.

    Two characters in the same class belong to exactly the same input sets,
    so an automaton over the representatives decides what one over every
    character would.  Representatives are readable when possible (witnesses
    are shown to users).
    """
    points = {0, MAX_CODE_POINT + 1}
    for ranges in sets:
        for lo, hi in ranges:
            points.add(lo)
            points.add(hi + 1)
    bounds = sorted(points)
    reps: list[str] = []
    for lo, end in zip(bounds, bounds[1:]):
        hi = end - 1
        pick = next((c for c in _NICE if lo <= ord(c) <= hi), None)
        if pick is None:
            printable = max(lo, 0x21)
            pick = chr(printable) if printable <= min(hi, 0x7E) else chr(lo if not 0xD800 <= lo <= 0xDFFF else min(hi, 0xE000))
        reps.append(pick)
    return reps
