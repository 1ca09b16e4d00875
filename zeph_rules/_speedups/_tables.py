"""Build the plain-value tables that the hot paths in ``_speedups`` consume.

Building happens once per compiled rule set (cold path), so it is written once,
in Python, and shared by both twins: the compiled and the pure search read the
very same table, which is what makes them comparable in the differential tests.
"""

from __future__ import annotations

from array import array
from collections import deque
from typing import NamedTuple, Sequence

#: Refuse to build tables larger than this many transitions (int32 each).
MAX_TRANSITIONS = 32 * 1024 * 1024


class LiteralTable(NamedTuple):
    """A deterministic Aho–Corasick automaton over bytes, as plain arrays.

    ``delta[state * n_classes + class_of[byte]]`` is the next state; the ids of
    the literals that end in ``state`` are ``out_ids[out_start[state]:out_start[state + 1]]``
    (failure-link outputs already merged in).  ``lengths[id]`` is the byte length
    of literal ``id`` so callers can recover where a hit starts.
    """

    n_literals: int
    n_states: int
    n_classes: int
    class_of: bytes
    delta: array  # array('i')
    out_start: array  # array('i')
    out_ids: array  # array('i')
    lengths: array  # array('i')
    ignore_case: bool


def build_literal_table(literals: Sequence[bytes], ignore_case: bool = False) -> LiteralTable:
    """Compile ``literals`` into one automaton; literal ids are their indexes.

    With ``ignore_case`` ASCII letters are folded in the class map, so the search
    is case-insensitive for ASCII without touching the input.
    """
    for literal in literals:
        if not isinstance(literal, bytes):
            raise TypeError("literals must be bytes")
        if not literal:
            raise ValueError("literals must not be empty")
    folded = [lit.lower() for lit in literals] if ignore_case else list(literals)

    # Byte classes: every byte that occurs in no literal shares class 0.
    used = sorted({b for lit in folded for b in lit})
    class_list = [0] * 256
    for index, byte in enumerate(used, start=1):
        class_list[byte] = index
    if ignore_case:
        for upper in range(ord("A"), ord("Z") + 1):
            class_list[upper] = class_list[upper + 32]
    n_classes = len(used) + 1

    # Trie of the literals.
    goto: list[dict[int, int]] = [{}]
    outputs: list[list[int]] = [[]]
    for literal_id, literal in enumerate(folded):
        state = 0
        for byte in literal:
            cls = class_list[byte]
            nxt = goto[state].get(cls)
            if nxt is None:
                nxt = len(goto)
                goto[state][cls] = nxt
                goto.append({})
                outputs.append([])
            state = nxt
        outputs[state].append(literal_id)

    n_states = len(goto)
    if n_states * n_classes > MAX_TRANSITIONS:
        raise ValueError(f"literal table too large ({n_states} states x {n_classes} classes)")

    # Breadth-first: failure links and the dense transition function.
    delta = array("i", bytes(4 * n_states * n_classes))
    fail = [0] * n_states
    queue: deque[int] = deque()
    for cls, nxt in goto[0].items():
        delta[cls] = nxt
        queue.append(nxt)
    while queue:
        state = queue.popleft()
        outputs[state].extend(x for x in outputs[fail[state]] if x not in outputs[state])
        base = state * n_classes
        fail_base = fail[state] * n_classes
        children = goto[state]
        for cls in range(n_classes):
            nxt = children.get(cls)
            if nxt is None:
                delta[base + cls] = delta[fail_base + cls]
            else:
                fail[nxt] = delta[fail_base + cls] if state else 0
                delta[base + cls] = nxt
                queue.append(nxt)

    out_start = array("i", [0])
    out_ids = array("i")
    for state_outputs in outputs:
        out_ids.extend(sorted(state_outputs))
        out_start.append(len(out_ids))
    return LiteralTable(
        n_literals=len(folded),
        n_states=n_states,
        n_classes=n_classes,
        class_of=bytes(class_list),
        delta=delta,
        out_start=out_start,
        out_ids=out_ids,
        lengths=array("i", [len(lit) for lit in folded]),
        ignore_case=ignore_case,
    )
