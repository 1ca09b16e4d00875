"""Build the plain-value tables that the hot paths in ``_speedups`` consume.

Building happens once per compiled rule set (cold path), so it is written once,
in Python, and shared by both twins: the compiled and the pure search read the
very same table, which is what makes them comparable in the differential tests.
"""

from __future__ import annotations

from .._records import NamedTuple

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from array import array
    from collections.abc import Sequence

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
    delta: array[int]  # array('i')
    out_start: array[int]  # array('i')
    out_ids: array[int]  # array('i')
    lengths: array[int]  # array('i')
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

    # Breadth-first: failure links and the dense transition function.  array and deque are
    # imported here: importing array imports collections, 3 ms of every ``filter`` process.
    from array import array
    from collections import deque

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


#: Knuth's multiplicative hash constant; ``hash16`` must match ``_scan_c`` exactly.
_GOLDEN = 2654435761


def hash16(value: int) -> int:
    """Hash a 32-bit value to 16 bits (multiply mod 2**32, keep the high half)."""
    return ((value * _GOLDEN) & 0xFFFFFFFF) >> 16


#: Set in every byte of a word before it is hashed: ``b | 0x20`` is the same for
#: both cases of an ASCII letter, so the prefilter needs no per-byte fold table.
#: It also merges a few other pairs (``@`` and a backquote, ``\n`` and ``*``),
#: which only lets more positions through to the exact comparison.
CASE_BIT = 0x20


def prefilter_key(prefix: bytes) -> int:
    """The prefilter slot of a three-byte prefix: ``hash16`` of its bytes, each with
    ``CASE_BIT`` set, read as a little-endian number (as ``_scan_c`` reads them)."""
    return hash16(int.from_bytes(bytes(b | CASE_BIT for b in prefix), "little"))


class BigramIndex(NamedTuple):
    """Literals bucketed by their first two (folded) bytes, plus a prefilter.

    A position can start a literal only if its three-byte prefix sets its slot
    in ``prefilter`` (65,536 bytes, see ``prefilter_key``); a two-byte literal
    sets the slot of every byte that can follow it.  One hash and one load per
    position reject almost all text.  ``bucket_of[b0 << 8 | b1]`` is then a
    1-based bucket (0: none) whose literal ids are
    ``bucket_ids[bucket_start[k]:bucket_start[k + 1]]``.
    """

    literals: tuple[bytes, ...]  # folded when ignore_case
    fold: bytes  # 256-byte map applied to the input before comparing
    prefilter: bytes  # 65,536 bytes: 1 where a literal may start
    #: array('H'), 65536 entries; read back from the plan cache, a memoryview cast to 'H' (see Scanner.from_plain)
    bucket_of: array[int] | memoryview
    bucket_start: array[int] | memoryview  # array('i'), or a view cast to 'i'
    bucket_ids: array[int] | memoryview  # array('i'), or a view cast to 'i'
    ignore_case: bool


def build_bigram_index(literals: Sequence[bytes], ignore_case: bool = False) -> BigramIndex:
    """Index literals (each at least two bytes) by their first two bytes."""
    for literal in literals:
        if not isinstance(literal, bytes):
            raise TypeError("literals must be bytes")
        if len(literal) < 2:
            raise ValueError("literals must be at least two bytes long")
    fold = bytes(range(256)).lower() if ignore_case else bytes(range(256))
    folded = tuple(lit.translate(fold) for lit in literals)
    buckets: dict[int, list[int]] = {}
    for literal_id, literal in enumerate(folded):
        buckets.setdefault(literal[0] << 8 | literal[1], []).append(literal_id)
    prefilter = bytearray(65536)
    for literal in folded:
        # the case bit makes a folded and an unfolded prefix share a slot
        if len(literal) >= 3:
            prefilter[prefilter_key(literal[:3])] = 1
        else:
            for following in range(256):
                prefilter[prefilter_key(literal + bytes((following,)))] = 1
    from array import array  # here, not at the top: see build_literal_table

    bucket_of = array("H", bytes(2 * 65536))
    bucket_start = array("i", [0, 0])
    bucket_ids = array("i")
    if len(buckets) > 65534:
        raise ValueError("too many distinct literal prefixes")
    for number, (bigram, ids) in enumerate(sorted(buckets.items()), start=1):
        bucket_of[bigram] = number
        bucket_ids.extend(sorted(ids))
        bucket_start.append(len(bucket_ids))
    return BigramIndex(folded, fold, bytes(prefilter), bucket_of, bucket_start, bucket_ids, ignore_case)
