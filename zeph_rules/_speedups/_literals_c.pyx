# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled multi-literal search; the twin of ``_literals_py`` (same names, results, errors)."""

# validation is cold and must raise exactly what the pure twin raises: share it
from ._literals_py import _check


def find_literals(table, data):
    """Return the sorted ids of the literals that occur anywhere in ``data``."""
    _check(table, data)
    cdef const int[:] delta = table.delta
    cdef const int[:] out_start = table.out_start
    cdef const int[:] out_ids = table.out_ids
    cdef const unsigned char[:] class_of = table.class_of
    cdef const unsigned char[:] view = data
    cdef Py_ssize_t n = len(data), i, k
    cdef int n_classes = table.n_classes
    cdef int state = 0
    found = set()
    for i in range(n):
        state = delta[state * n_classes + class_of[view[i]]]
        if out_start[state] != out_start[state + 1]:
            for k in range(out_start[state], out_start[state + 1]):
                found.add(out_ids[k])
    return tuple(sorted(found))


def find_literal_hits(table, data):
    """Return every ``(start, literal_id)`` occurrence, ordered by end offset then id."""
    _check(table, data)
    cdef const int[:] delta = table.delta
    cdef const int[:] out_start = table.out_start
    cdef const int[:] out_ids = table.out_ids
    cdef const int[:] lengths = table.lengths
    cdef const unsigned char[:] class_of = table.class_of
    cdef const unsigned char[:] view = data
    cdef Py_ssize_t n = len(data), i, k
    cdef int n_classes = table.n_classes
    cdef int state = 0
    cdef int literal_id
    hits = []
    for i in range(n):
        state = delta[state * n_classes + class_of[view[i]]]
        if out_start[state] != out_start[state + 1]:
            for k in range(out_start[state], out_start[state + 1]):
                literal_id = out_ids[k]
                hits.append((i + 1 - lengths[literal_id], literal_id))
    return hits
