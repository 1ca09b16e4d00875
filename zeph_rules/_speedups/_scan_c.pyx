# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled candidate-window search; the twin of ``_scan_py`` (same names, results, errors).

The hot loop reads eight bytes at a time and looks up the hashed three-byte
prefix of six positions in one 64 KB table; only a group with a hit looks at its
positions one by one, and only flagged positions compare keywords.  The whole search runs without
the GIL (windows are collected in a C array and become tuples at the end), so
the ``filter`` command scans in a thread while the filters run.
"""

from libc.stdlib cimport malloc, free, realloc
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memchr
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_FORMAT, PyBUF_C_CONTIGUOUS

# validation is cold and must raise exactly what the pure twin raises: share it
from ._scan_py import _check, _check_marked


cdef extern from "string.h":
    void *memrchr(const void *s, int c, size_t n) nogil


cdef inline Py_ssize_t _line_start_within(const unsigned char* buf, Py_ssize_t low, Py_ssize_t position) noexcept nogil:
    """Start of the line holding ``position``, or ``low`` if that line starts before it."""
    cdef const unsigned char* found
    if position <= low:
        return low
    found = <const unsigned char*> memrchr(buf + low, 10, position - low)
    return (found - buf) + 1 if found != NULL else low


cdef inline Py_ssize_t _line_end_within(const unsigned char* buf, Py_ssize_t position, Py_ssize_t high) noexcept nogil:
    """End of the line holding ``position``, or ``high`` if that line ends after it."""
    cdef const unsigned char* found
    if position >= high:
        return high
    found = <const unsigned char*> memchr(buf + position, 10, high - position)
    return (found - buf) if found != NULL else high


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* Eight input bytes as a little-endian number, from any address. */
    static inline uint64_t zeph_load_le64(const unsigned char *p) {
        uint64_t v;
        memcpy(&v, p, 8);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v);
    #endif
        return v;
    }
    /* _tables.CASE_BIT in every byte of a word */
    #define ZEPH_CASE_BITS UINT64_C(0x2020202020202020)
    """
    uint64_t zeph_load_le64(const unsigned char* p) noexcept nogil
    const uint64_t CASE_BITS "ZEPH_CASE_BITS"


cdef inline uint32_t _hash16(uint32_t value) noexcept nogil:
    return (value * <uint32_t> 2654435761u) >> 16


cdef inline unsigned char _prefix_flag(const unsigned char* prefilter, uint64_t word, int position) noexcept nogil:
    """The prefilter's verdict on the three bytes at ``position`` (0-5) of a case-bitted word."""
    return prefilter[_hash16(<uint32_t> (word >> (8 * position)) & 0xFFFFFF)]


#: Positions tested per block, a multiple of the six a word holds: the flags of
#: one block fit in L1/L2, never a buffer the size of the input.
DEF BLOCK = 4098


cdef Py_ssize_t _flagged_positions(const unsigned char* buf, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
                                   const unsigned char* prefilter, Py_ssize_t* out) noexcept nogil:
    """Write every position in [start, stop) whose three-byte prefix may start a literal; return the count.

    An eight-byte word holds the prefixes of six positions: their six lookups are
    independent and OR-ed, so text without a hit costs a few instructions a byte
    (about 7 with the rest of the search, against 44 for the three bit tables
    before) and no unpredictable branch.  Positions too near the end for a whole
    word are looked up one by one, and the last two (no three-byte prefix) are
    always written: the exact comparison decides.
    """
    cdef Py_ssize_t i = start, count = 0
    cdef Py_ssize_t words_stop = stop if stop < n - 7 else n - 7  # a word at i reads bytes i .. i + 7
    cdef uint64_t word
    cdef int k
    while i + 6 <= words_stop:
        word = zeph_load_le64(buf + i) | CASE_BITS
        if (_prefix_flag(prefilter, word, 0) | _prefix_flag(prefilter, word, 1) | _prefix_flag(prefilter, word, 2)
                | _prefix_flag(prefilter, word, 3) | _prefix_flag(prefilter, word, 4)
                | _prefix_flag(prefilter, word, 5)):
            for k in range(6):
                out[count] = i + k
                count += _prefix_flag(prefilter, word, k)
        i += 6
    while i < stop and i < n - 2:
        word = (<uint64_t> buf[i] | (<uint64_t> buf[i + 1] << 8) | (<uint64_t> buf[i + 2] << 16)) | CASE_BITS
        out[count] = i
        count += _prefix_flag(prefilter, word, 0)
        i += 1
    while i < stop and i < n - 1:
        out[count] = i
        count += 1
        i += 1
    return count


#: More overlapping anchored hits of one pattern than this become one search window.
DEF CLUSTER = 16


cdef inline bint _follows(const unsigned char* buf, Py_ssize_t n, Py_ssize_t hit_end, Py_ssize_t distance,
                          char stop_at_newline, const unsigned char* table) noexcept nogil:
    cdef Py_ssize_t j, end = hit_end + distance
    if distance < 0:
        return True
    if end > n:
        end = n
    cdef unsigned char value
    for j in range(hit_end, end):
        value = table[buf[j]]
        if value == 1:
            return True
        if value == 0 or (stop_at_newline and buf[j] == 10):
            return False
    return False


cdef struct Window:
    Py_ssize_t pattern
    Py_ssize_t low
    Py_ssize_t high
    bint at_hit


cdef struct Windows:
    Window* items
    Py_ssize_t count
    Py_ssize_t capacity
    bint failed  # an allocation failed: the caller raises MemoryError


cdef inline void _add(Windows* out, Py_ssize_t pattern, Py_ssize_t low, Py_ssize_t high, bint at_hit) noexcept nogil:
    cdef Window* grown
    cdef Py_ssize_t capacity
    if out.count == out.capacity:
        capacity = out.capacity * 2 if out.capacity else 64
        grown = <Window*> realloc(out.items, capacity * sizeof(Window))
        if grown == NULL:
            out.failed = True
            return
        out.items = grown
        out.capacity = capacity
    out.items[out.count].pattern = pattern
    out.items[out.count].low = low
    out.items[out.count].high = high
    out.items[out.count].at_hit = at_hit
    out.count += 1


def candidate_windows(index, data, literal_patterns, radius, line_reach, anchored, follow):
    """Return sorted ``(pattern, start, end, at_hit)`` byte windows (see ``_scan_py``)."""
    _check(index, data, literal_patterns, radius, line_reach, anchored, follow)
    return _search(index, data, literal_patterns, radius, line_reach, anchored, follow, ())[0]


def windows_and_marked_lines(index, data, literal_patterns, radius, line_reach, anchored, follow, marked):
    """Return the windows and the sorted starts of the lines holding a marked literal (see ``_scan_py``)."""
    _check(index, data, literal_patterns, radius, line_reach, anchored, follow)
    _check_marked(index, marked)
    return _search(index, data, literal_patterns, radius, line_reach, anchored, follow, marked)


cdef int _acquire(table, Py_buffer* view, char code, Py_ssize_t itemsize, Py_ssize_t min_items) except -1:
    """Take a contiguous buffer of ``code`` items (an array, or a memoryview cast from a cached plan).

    The buffer protocol, not a typed memoryview: Cython's memoryview support
    imports ``collections.abc`` when the module loads, 3 ms of every ``filter`` run.
    """
    PyObject_GetBuffer(table, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
    cdef const char* fmt = view.format
    if (view.itemsize != itemsize or fmt == NULL or view.len // itemsize < min_items
            or not ((fmt[0] == code and fmt[1] == 0) or (fmt[0] == b'@' and fmt[1] == code and fmt[2] == 0))):
        PyBuffer_Release(view)
        raise ValueError(f"a bucket table must hold at least {min_items} items of type {chr(code)!r}")
    return 0


cdef tuple _search(index, data, literal_patterns, radius, line_reach, anchored, follow, tuple marked):
    cdef Py_buffer of_view, start_view, ids_view
    _acquire(index.bucket_of, &of_view, b'H', 2, 65536)
    try:
        _acquire(index.bucket_start, &start_view, b'i', 4, 2)
        try:
            _acquire(index.bucket_ids, &ids_view, b'i', 4, 0)
            try:
                return _search_tables(index, data, literal_patterns, radius, line_reach, anchored, follow, marked,
                                      <const unsigned short*> of_view.buf, <const int*> start_view.buf,
                                      <const int*> ids_view.buf)
            finally:
                PyBuffer_Release(&ids_view)
        finally:
            PyBuffer_Release(&start_view)
    finally:
        PyBuffer_Release(&of_view)


cdef tuple _search_tables(index, data, literal_patterns, radius, line_reach, anchored, follow, tuple marked,
                          const unsigned short* bucket_of, const int* bucket_start, const int* bucket_ids):
    cdef const unsigned char* buf = data
    cdef Py_ssize_t n = len(data)
    cdef bytes fold_bytes = index.fold
    cdef bytes prefilter_bytes = index.prefilter
    cdef const unsigned char* fold = fold_bytes
    cdef const unsigned char* prefilter = prefilter_bytes
    cdef int n_literals = len(index.literals)
    cdef int n_patterns = len(radius)
    cdef Py_ssize_t i, j, c, q, n_flagged, hit_end, low, high, first, end, length
    cdef int bucket, k, m, literal, pattern, reach
    cdef bint equal
    # lines holding a marked literal: their starts (ascending, once each) and the last newline known
    cdef Windows lines
    cdef Py_ssize_t line_floor = 0, line_start
    cdef const unsigned char* newline
    cdef char* marks = NULL
    lines.items = NULL
    lines.count = lines.capacity = 0
    lines.failed = False

    total = sum(len(t) for t in literal_patterns)
    cdef int* lp_start = <int*> malloc((n_literals + 1) * sizeof(int))
    cdef int* lp_ids = <int*> malloc((total + 1) * sizeof(int))
    cdef int* lit_len = <int*> malloc((n_literals + 1) * sizeof(int))
    cdef const unsigned char** lit_ptr = <const unsigned char**> malloc((n_literals + 1) * sizeof(void*))
    cdef Py_ssize_t* rad = <Py_ssize_t*> malloc((n_patterns + 1) * sizeof(Py_ssize_t))
    cdef int* reaches = <int*> malloc((n_patterns + 1) * sizeof(int))
    cdef char* anchors = <char*> malloc(n_patterns + 1)
    # open merged window per pattern (-1: none)
    cdef Py_ssize_t* win_low = <Py_ssize_t*> malloc((n_patterns + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* win_high = <Py_ssize_t*> malloc((n_patterns + 1) * sizeof(Py_ssize_t))
    # open anchored cluster per pattern (count 0: none) and its first CLUSTER hits
    cdef Py_ssize_t* cl_low = <Py_ssize_t*> malloc((n_patterns + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* cl_high = <Py_ssize_t*> malloc((n_patterns + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* cl_count = <Py_ssize_t*> malloc((n_patterns + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* cl_hits = <Py_ssize_t*> malloc((n_patterns + 1) * CLUSTER * 2 * sizeof(Py_ssize_t))
    cdef Py_ssize_t* flagged = <Py_ssize_t*> malloc(BLOCK * sizeof(Py_ssize_t))
    cdef Py_ssize_t block
    # follow rules, aligned with lp_ids (one per literal and owning pattern)
    cdef Py_ssize_t* f_distance = <Py_ssize_t*> malloc((total + 1) * sizeof(Py_ssize_t))
    cdef char* f_stop = <char*> malloc(total + 1)
    cdef const unsigned char** f_table = <const unsigned char**> malloc((total + 1) * sizeof(void*))
    if not (lp_start and lp_ids and lit_len and lit_ptr and rad and reaches and anchors and win_low and win_high
            and cl_low and cl_high and cl_count and cl_hits and flagged and f_distance and f_stop and f_table):
        free(lp_start); free(lp_ids); free(lit_len); free(lit_ptr); free(rad); free(reaches); free(anchors)
        free(win_low); free(win_high); free(cl_low); free(cl_high); free(cl_count); free(cl_hits); free(flagged)
        free(f_distance); free(f_stop); free(f_table)
        raise MemoryError()
    if marked and any(marked):
        marks = <char*> malloc(n_literals + 1)
        if marks == NULL:
            free(lp_start); free(lp_ids); free(lit_len); free(lit_ptr); free(rad); free(reaches); free(anchors)
            free(win_low); free(win_high); free(cl_low); free(cl_high); free(cl_count); free(cl_hits); free(flagged)
            free(f_distance); free(f_stop); free(f_table)
            raise MemoryError()
        for literal in range(n_literals):
            marks[literal] = 1 if marked[literal] else 0
    literals = index.literals  # keeps the literal bytes alive while we hold pointers
    cdef Windows out
    out.items = NULL
    out.count = out.capacity = 0
    out.failed = False
    try:
        k = 0
        for literal in range(n_literals):
            lp_start[literal] = k
            lit_len[literal] = len(literals[literal])
            lit_ptr[literal] = <const unsigned char*> (<bytes> literals[literal])
            for pattern, rule in zip(literal_patterns[literal], follow[literal]):
                lp_ids[k] = pattern
                if rule is None:
                    f_distance[k] = -1
                    f_stop[k] = 0
                    f_table[k] = NULL
                else:
                    f_distance[k] = rule[0]
                    f_stop[k] = 1 if rule[1] else 0
                    f_table[k] = <const unsigned char*> (<bytes> rule[2])
                k += 1
        lp_start[n_literals] = k
        for pattern in range(n_patterns):
            rad[pattern] = radius[pattern]
            reaches[pattern] = line_reach[pattern]
            anchors[pattern] = 1 if anchored[pattern] else 0
            win_low[pattern] = -1
            cl_count[pattern] = 0
        with nogil:
            for block in range(0, n, BLOCK):
                n_flagged = _flagged_positions(buf, n, block, block + BLOCK if n - block > BLOCK else n, prefilter,
                                               flagged)
                for c in range(n_flagged):
                    i = flagged[c]
                    bucket = bucket_of[(fold[buf[i]] << 8) | fold[buf[i + 1]]]
                    if bucket == 0:
                        continue
                    for m in range(bucket_start[bucket], bucket_start[bucket + 1]):
                        literal = bucket_ids[m]
                        length = lit_len[literal]
                        if i + length > n:
                            continue
                        equal = True
                        for j in range(2, length):
                            if fold[buf[i + j]] != lit_ptr[literal][j]:
                                equal = False
                                break
                        if not equal:
                            continue
                        hit_end = i + length
                        if marks != NULL and marks[literal] and i >= line_floor:
                            # hits come in position order: look back to the last line start found, no further
                            newline = <const unsigned char*> memrchr(buf + line_floor, 10, i - line_floor)
                            line_start = (newline - buf) + 1 if newline != NULL else line_floor
                            if lines.count == 0 or lines.items[lines.count - 1].low != line_start:
                                _add(&lines, -1, line_start, line_start, False)
                            # the rest of this line can only give the same start
                            newline = <const unsigned char*> memchr(buf + i, 10, n - i)
                            line_floor = (newline - buf) + 1 if newline != NULL else n + 1
                        for k in range(lp_start[literal], lp_start[literal + 1]):
                            pattern = lp_ids[k]
                            if f_distance[k] >= 0 and not _follows(buf, n, hit_end, f_distance[k], f_stop[k], f_table[k]):
                                continue
                            low = hit_end - rad[pattern]
                            if low < 0:
                                low = 0
                            high = i + rad[pattern]
                            if high > n:
                                high = n
                            reach = reaches[pattern]
                            if reach < 2:
                                # line bounds are only searched inside [low, high): a hit
                                # on a 10 MB line costs its radius, not the line
                                first = _line_start_within(buf, low, i)
                                end = _line_end_within(buf, hit_end, high)
                                if reach == 1:
                                    if first > low:
                                        first = _line_start_within(buf, low, first - 1)
                                    if end < high:
                                        end = _line_end_within(buf, end + 1, high)
                                low = first
                                high = end
                            if anchors[pattern]:
                                if cl_count[pattern] and i <= cl_high[pattern]:
                                    if high > cl_high[pattern]:
                                        cl_high[pattern] = high
                                    cl_count[pattern] += 1
                                    if cl_count[pattern] <= CLUSTER:
                                        q = (pattern * CLUSTER + cl_count[pattern] - 1) * 2
                                        cl_hits[q] = i
                                        cl_hits[q + 1] = high
                                    continue
                                if cl_count[pattern]:
                                    _flush_cluster(&out, pattern, cl_low, cl_high, cl_count, cl_hits)
                                cl_low[pattern] = i
                                cl_high[pattern] = high
                                cl_count[pattern] = 1
                                q = pattern * CLUSTER * 2
                                cl_hits[q] = i
                                cl_hits[q + 1] = high
                                continue
                            if win_low[pattern] >= 0 and low <= win_high[pattern]:
                                if low < win_low[pattern]:
                                    win_low[pattern] = low
                                if high > win_high[pattern]:
                                    win_high[pattern] = high
                                continue
                            if win_low[pattern] >= 0:
                                _add(&out, pattern, win_low[pattern], win_high[pattern], False)
                            win_low[pattern] = low
                            win_high[pattern] = high
            for pattern in range(n_patterns):
                if cl_count[pattern]:
                    _flush_cluster(&out, pattern, cl_low, cl_high, cl_count, cl_hits)
            for pattern in range(n_patterns):
                if win_low[pattern] >= 0:
                    _add(&out, pattern, win_low[pattern], win_high[pattern], False)
        if out.failed or lines.failed:
            raise MemoryError()
        found = {(out.items[q].pattern, out.items[q].low, out.items[q].high, bool(out.items[q].at_hit))
                 for q in range(out.count)}
        starts = [lines.items[q].low for q in range(lines.count)]
    finally:
        free(lp_start); free(lp_ids); free(lit_len); free(lit_ptr); free(rad); free(reaches); free(anchors)
        free(win_low); free(win_high); free(cl_low); free(cl_high); free(cl_count); free(cl_hits); free(flagged)
        free(f_distance); free(f_stop); free(f_table); free(out.items); free(lines.items); free(marks)
    return sorted(found), starts


cdef void _flush_cluster(Windows* out, int pattern, Py_ssize_t* cl_low, Py_ssize_t* cl_high, Py_ssize_t* cl_count,
                         Py_ssize_t* cl_hits) noexcept nogil:
    cdef Py_ssize_t h, q
    if cl_count[pattern] > CLUSTER:
        _add(out, pattern, cl_low[pattern], cl_high[pattern], False)
    else:
        for h in range(cl_count[pattern]):
            q = (pattern * CLUSTER + h) * 2
            _add(out, pattern, cl_hits[q], cl_hits[q + 1], True)
    cl_count[pattern] = 0
