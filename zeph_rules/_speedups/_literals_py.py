"""Pure-Python multi-literal search: the readable reference for ``_literals_c``."""

from __future__ import annotations

from ._tables import LiteralTable


def _check(table: object, data: object) -> None:
    if not isinstance(table, LiteralTable):
        raise TypeError("table must be a LiteralTable")
    if not isinstance(data, bytes):
        raise TypeError("data must be bytes")


def find_literals(table: LiteralTable, data: bytes) -> tuple[int, ...]:
    """Return the sorted ids of the literals that occur anywhere in ``data``."""
    _check(table, data)
    delta, class_of, n_classes = table.delta, table.class_of, table.n_classes
    out_start, out_ids = table.out_start, table.out_ids
    found: set[int] = set()
    state = 0
    for byte in data:
        state = delta[state * n_classes + class_of[byte]]
        begin = out_start[state]
        end = out_start[state + 1]
        if begin != end:
            found.update(out_ids[begin:end])
    return tuple(sorted(found))


def find_literal_hits(table: LiteralTable, data: bytes) -> list[tuple[int, int]]:
    """Return every ``(start, literal_id)`` occurrence, ordered by end offset then id."""
    _check(table, data)
    delta, class_of, n_classes = table.delta, table.class_of, table.n_classes
    out_start, out_ids, lengths = table.out_start, table.out_ids, table.lengths
    hits: list[tuple[int, int]] = []
    state = 0
    for offset, byte in enumerate(data):
        state = delta[state * n_classes + class_of[byte]]
        for index in range(out_start[state], out_start[state + 1]):
            literal_id = out_ids[index]
            hits.append((offset + 1 - lengths[literal_id], literal_id))
    return hits
