"""Pure-Python candidate-window search: the readable reference for ``_scan_c``.

The scanner's prefilter.  Every occurrence of every keyword (case-folded when
the index says so) is a hit; hits are taken in (start, keyword id) order.  Each
hit opens, for every pattern owning the keyword, a window where a match could
lie: the pattern's reach in bytes around the hit, clipped by its line reach
(0: the hit's own line, 1: the lines before and after too, 2: no clipping).
Overlapping windows of one pattern are merged, except for anchored patterns,
whose windows start at the hit itself.  Only these spans are decoded
and verified by the caller.
"""

from __future__ import annotations

from ._tables import BigramIndex

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from typing import Any


def _check(index: object, data: object, literal_patterns: object, radius: object, line_reach: object,
           anchored: object, follow: object) -> None:
    if not isinstance(index, BigramIndex):
        raise TypeError("index must be a BigramIndex")
    if not isinstance(data, bytes):
        raise TypeError("data must be bytes")
    if not isinstance(literal_patterns, tuple) or len(literal_patterns) != len(index.literals):
        raise ValueError("literal_patterns must be a tuple with one entry per literal")
    if (not isinstance(radius, tuple) or not isinstance(line_reach, tuple) or not isinstance(anchored, tuple)
            or not len(radius) == len(line_reach) == len(anchored)):
        raise ValueError("radius, line_reach and anchored must be tuples of the same length")
    for owners in literal_patterns:
        for pattern in owners:
            if not 0 <= pattern < len(radius):
                raise ValueError("pattern index out of range")
    if (not isinstance(follow, tuple) or len(follow) != len(literal_patterns)
            or any(not isinstance(rules, tuple) or len(rules) != len(owners) for rules, owners in zip(follow, literal_patterns))):
        raise ValueError("follow must mirror literal_patterns: one rule per literal and owning pattern")
    for rules in follow:
        for rule in rules:
            if rule is not None and not (isinstance(rule, tuple) and len(rule) == 3 and isinstance(rule[0], int)
                                         and rule[0] >= 0 and isinstance(rule[2], bytes) and len(rule[2]) == 256):
                raise ValueError("a follow rule is (distance >= 0, stop at newline, 256-byte table) or None")


def _check_marked(index: BigramIndex, marked: object) -> None:
    if not isinstance(marked, tuple) or (marked and len(marked) != len(index.literals)):
        raise ValueError("marked must be empty or a tuple with one entry per literal")


def _follows(data: bytes, hit_end: int, rule: tuple[int, bool, bytes] | None) -> bool:
    """Whether the bytes after the hit satisfy the rule.

    Within ``distance`` bytes, table value 1 passes, 0 rejects and any other
    value moves on; a newline rejects when ``stop_at_newline`` (and is not 1).
    """
    if rule is None:
        return True
    distance, stop_at_newline, table = rule
    for byte in data[hit_end : hit_end + distance]:
        value = table[byte]
        if value == 1:
            return True
        if value == 0 or (stop_at_newline and byte == 10):
            return False
    return False


def _line_start_within(data: bytes, low: int, position: int) -> int:
    """Start of the line holding ``position``, or ``low`` if that line starts before it."""
    if position <= low:
        return low
    return max(low, data.rfind(b"\n", low, position) + 1)


def _line_end_within(data: bytes, position: int, high: int) -> int:
    """End of the line holding ``position``, or ``high`` if that line ends after it."""
    if position >= high:
        return high
    found = data.find(b"\n", position, high)
    return high if found == -1 else found


#: More overlapping anchored hits of one pattern than this become one search window.
CLUSTER = 16


def candidate_windows(
    index: BigramIndex,
    data: bytes,
    literal_patterns: tuple[tuple[int, ...], ...],
    radius: tuple[int, ...],
    line_reach: tuple[int, ...],
    anchored: tuple[bool, ...],
    follow: tuple[tuple[tuple[int, bool, bytes] | None, ...], ...],
) -> list[tuple[int, int, int, bool]]:
    """Return sorted ``(pattern, start, end, at_hit)`` byte windows.

    Windows of one pattern that overlap are merged.  For an anchored pattern
    (every match starts at or just before a keyword) each hit is its own window
    with ``at_hit`` true, so the caller tries matches there only; a run of more
    than ``CLUSTER`` overlapping hits becomes one ordinary window instead, which
    keeps hostile input (``key=key=key=...``) linear.  ``follow[literal][j]``
    is the rule for ``literal_patterns[literal][j]``: when set, the hit opens
    no window for that pattern unless a byte of the rule's table occurs within
    its distance after the keyword (the pattern's next mandatory item).
    """
    _check(index, data, literal_patterns, radius, line_reach, anchored, follow)
    return _search(index, data, literal_patterns, radius, line_reach, anchored, follow, ())[0]


def windows_and_marked_lines(
    index: BigramIndex,
    data: bytes,
    literal_patterns: tuple[tuple[int, ...], ...],
    radius: tuple[int, ...],
    line_reach: tuple[int, ...],
    anchored: tuple[bool, ...],
    follow: tuple[tuple[tuple[int, bool, bytes] | None, ...], ...],
    marked: tuple[bool, ...],
) -> tuple[list[tuple[int, int, int, bool]], list[int]]:
    """Return ``candidate_windows(...)`` and the sorted starts of the lines holding a *marked* literal.

    ``marked[literal]`` says whether a hit of that literal marks its line (the
    line, split on ``\n``, where the hit starts); a marked literal need not
    own a pattern.  The same pass serves both, so a caller that needs to know
    which lines hold some words (the pipeline's security-signal lines) gets
    it from the scan it runs anyway.
    """
    _check(index, data, literal_patterns, radius, line_reach, anchored, follow)
    _check_marked(index, marked)
    return _search(index, data, literal_patterns, radius, line_reach, anchored, follow, marked)


def _search(
    index: BigramIndex,
    data: bytes,
    literal_patterns: tuple[tuple[int, ...], ...],
    radius: tuple[int, ...],
    line_reach: tuple[int, ...],
    anchored: tuple[bool, ...],
    follow: tuple[tuple[tuple[int, bool, bytes] | None, ...], ...],
    marked: tuple[bool, ...],
) -> tuple[list[tuple[int, int, int, bool]], list[int]]:
    hay = data.translate(index.fold)
    hits: list[tuple[int, int]] = []
    for literal_id, literal in enumerate(index.literals):
        position = hay.find(literal)
        while position != -1:
            hits.append((position, literal_id))
            position = hay.find(literal, position + 1)
    hits.sort()
    n = len(data)
    out: list[tuple[int, int, int, bool]] = []
    merged: dict[int, list[int]] = {}  # pattern -> [low, high] of the open window
    clusters: dict[int, list[Any]] = {}  # pattern -> [low, high, count, pending hits]: a mutable record

    def flush_cluster(pattern: int) -> None:
        low, high, count, pending = clusters.pop(pattern)
        if count > CLUSTER:
            out.append((pattern, low, high, False))
        else:
            out.extend((pattern, hit, end, True) for hit, end in pending)

    for hit_start, literal_id in hits:
        hit_end = hit_start + len(index.literals[literal_id])
        for pattern, rule in zip(literal_patterns[literal_id], follow[literal_id]):
            if not _follows(data, hit_end, rule):
                continue
            low = max(0, hit_end - radius[pattern])
            high = min(n, hit_start + radius[pattern])
            reach = line_reach[pattern]
            if reach < 2:
                # line bounds are only searched inside [low, high)
                first = _line_start_within(data, low, hit_start)
                end = _line_end_within(data, hit_end, high)
                if reach == 1:
                    if first > low:
                        first = _line_start_within(data, low, first - 1)
                    if end < high:
                        end = _line_end_within(data, end + 1, high)
                low, high = first, end
            if anchored[pattern]:
                cluster = clusters.get(pattern)
                if cluster is not None and hit_start <= cluster[1]:
                    cluster[1] = max(cluster[1], high)
                    cluster[2] += 1
                    if cluster[2] <= CLUSTER:
                        cluster[3].append((hit_start, high))
                    continue
                if cluster is not None:
                    flush_cluster(pattern)
                clusters[pattern] = [hit_start, high, 1, [(hit_start, high)]]
                continue
            window = merged.get(pattern)
            if window is not None and low <= window[1]:
                window[0] = min(window[0], low)
                window[1] = max(window[1], high)
                continue
            if window is not None:
                out.append((pattern, window[0], window[1], False))
            merged[pattern] = [low, high]
    for pattern in list(clusters):
        flush_cluster(pattern)
    out.extend((pattern, low, high, False) for pattern, (low, high) in merged.items())
    lines = {data.rfind(b"\n", 0, start) + 1 for start, literal_id in hits if marked and marked[literal_id]}
    return sorted(set(out)), sorted(lines)
