# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled head/tail truncation; the twin of ``_truncate_py`` (same names, results, errors).

It reads the str's own buffer (1, 2 or 4 bytes per character, PEP 393), so every
offset is a character offset with no decoding and no copy.  Newlines are counted
16 bytes at a time with SSE2 on x86-64 (a portable loop elsewhere); the head and
the tail are found with ``memchr`` / ``memrchr`` from each end, so after the one
counting pass the cost depends on ``head + tail``, not on the size of the text.
"""

from cpython.number cimport PyNumber_Index as _as_index  # operator.index, without importing operator

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ
from libc.string cimport memchr


cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030C0000
    #define zeph_unicode_ready(o) PyUnicode_READY(o)
    #else
    #define zeph_unicode_ready(o) 0
    #endif

    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    #include <string.h>

    /* Count the '\\n' bytes in s[0:n]. */
    static Py_ssize_t zeph_count_nl1(const void *data, Py_ssize_t n) {
        const Py_UCS1 *s = (const Py_UCS1 *)data;
        Py_ssize_t i = 0, count = 0;
    #if defined(__SSE2__)
        const __m128i nl = _mm_set1_epi8('\\n'), zero = _mm_setzero_si128();
        while (n - i >= 16) {
            /* a byte lane counts down by one per match; drain it before it wraps (255 rounds) */
            __m128i acc = zero;
            Py_ssize_t rounds = (n - i) / 16;
            if (rounds > 255) rounds = 255;
            for (Py_ssize_t r = 0; r < rounds; r++, i += 16)
                acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + i)), nl));
            __m128i sums = _mm_sad_epu8(acc, zero);
            count += _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
        }
    #endif
        for (; i < n; i++) count += s[i] == '\\n';
        return count;
    }

    static Py_ssize_t zeph_count_nl2(const void *data, Py_ssize_t n) {
        const Py_UCS2 *s = (const Py_UCS2 *)data;
        Py_ssize_t count = 0;
        for (Py_ssize_t i = 0; i < n; i++) count += s[i] == '\\n';
        return count;
    }

    static Py_ssize_t zeph_count_nl4(const void *data, Py_ssize_t n) {
        const Py_UCS4 *s = (const Py_UCS4 *)data;
        Py_ssize_t count = 0;
        for (Py_ssize_t i = 0; i < n; i++) count += s[i] == '\\n';
        return count;
    }

    /* Offset of the first '\\n' in [start, n), or -1. */
    static Py_ssize_t zeph_find_nl(int kind, const void *data, Py_ssize_t start, Py_ssize_t n) {
        Py_ssize_t i;
        if (kind == PyUnicode_1BYTE_KIND) {
            const Py_UCS1 *s = (const Py_UCS1 *)data;
            const Py_UCS1 *hit = (const Py_UCS1 *)memchr(s + start, '\\n', (size_t)(n - start));
            return hit ? hit - s : -1;
        }
        for (i = start; i < n; i++)
            if (PyUnicode_READ(kind, data, i) == '\\n') return i;
        return -1;
    }

    /* Offset of the last '\\n' in [0, end), or -1. */
    static Py_ssize_t zeph_rfind_nl(int kind, const void *data, Py_ssize_t end) {
        Py_ssize_t i;
    #if defined(__GLIBC__)
        if (kind == PyUnicode_1BYTE_KIND) {
            const Py_UCS1 *s = (const Py_UCS1 *)data;
            const Py_UCS1 *hit = (const Py_UCS1 *)memrchr(s, '\\n', (size_t)end);
            return hit ? hit - s : -1;
        }
    #endif
        for (i = end - 1; i >= 0; i--)
            if (PyUnicode_READ(kind, data, i) == '\\n') return i;
        return -1;
    }
    """
    int zeph_unicode_ready(object) except -1
    Py_ssize_t zeph_count_nl1(const void *data, Py_ssize_t n) noexcept nogil
    Py_ssize_t zeph_count_nl2(const void *data, Py_ssize_t n) noexcept nogil
    Py_ssize_t zeph_count_nl4(const void *data, Py_ssize_t n) noexcept nogil
    Py_ssize_t zeph_find_nl(int kind, const void *data, Py_ssize_t start, Py_ssize_t n) noexcept nogil
    Py_ssize_t zeph_rfind_nl(int kind, const void *data, Py_ssize_t end) noexcept nogil


cdef inline _check_text(object text):
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    zeph_unicode_ready(text)


cdef Py_ssize_t _count_lines(int kind, const void *data, Py_ssize_t n) noexcept:
    cdef Py_ssize_t newlines
    if n == 0:
        return 0
    if kind == 1:
        newlines = zeph_count_nl1(data, n)
    elif kind == 2:
        newlines = zeph_count_nl2(data, n)
    else:
        newlines = zeph_count_nl4(data, n)
    # a final run without '\n' is a line too
    return newlines if PyUnicode_READ(kind, data, n - 1) == u"\n" else newlines + 1


def count_lines(text):
    """Return the number of lines in ``text`` (a trailing newline ends the last line)."""
    _check_text(text)
    return _count_lines(PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text))


def head_tail_split(text, head, tail):
    """Return ``(head_end, tail_start, omitted_lines)`` for keeping ``head`` and ``tail`` lines."""
    _check_text(text)
    # head and tail stay Python objects until they are known to be < total, so
    # huge ints and odd types behave (and fail) exactly as in the pure twin
    if head < 0:
        raise ValueError("head must be >= 0")
    if tail < 0:
        raise ValueError("tail must be >= 0")
    cdef int kind = PyUnicode_KIND(text)
    cdef const void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t size = PyUnicode_GET_LENGTH(text)
    cdef Py_ssize_t total = _count_lines(kind, data, size)
    if total <= head + tail:
        return size, size, 0

    cdef Py_ssize_t n_head = _as_index(head)  # < total: fits
    cdef Py_ssize_t head_end = 0, i
    for i in range(n_head):
        # total > head guarantees a newline here: at least one more line follows
        head_end = zeph_find_nl(kind, data, head_end, size) + 1

    cdef Py_ssize_t n_tail = _as_index(tail)
    cdef Py_ssize_t tail_start = size, newline
    # the last line may lack its newline; start the backwards scan before it
    cdef Py_ssize_t scan_end = size - 1 if PyUnicode_READ(kind, data, size - 1) == u"\n" else size
    for i in range(n_tail):
        newline = zeph_rfind_nl(kind, data, scan_end)
        tail_start = newline + 1
        scan_end = newline
    return head_end, tail_start, total - n_head - n_tail
