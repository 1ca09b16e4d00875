# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled line-run collapsing; the twin of ``_lines_py`` (same names, results, errors).

It reads the str's own buffer (1, 2 or 4 bytes per character, PEP 393), so
offsets are character offsets with no decoding and no copy.  Lines are found
with ``memchr`` in 1-byte strings; a member test is a prefix and a suffix
comparison.  Banned words are located once over the whole text with
``memmem`` (``str.find`` for wide strings), so a line needs no search of its own:
it is banned when one of those occurrences starts inside it.  Only lines that
are not in a run become ``str`` objects.
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ, PyUnicode_Substring
from libc.stdlib cimport free, malloc
from libc.string cimport memchr, memcmp, memset

# validation is cold and must raise exactly what the pure twin raises: share it
from ._lines_py import _check, _check_text, _check_words


cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030C0000
    #define zeph_unicode_ready(o) PyUnicode_READY(o)
    #else
    #define zeph_unicode_ready(o) 0
    #endif

    #include <string.h>
    #include <stdint.h>
    /* memmem where the C library has it (glibc, BSD, macOS), a memchr loop elsewhere */
    static const void *zeph_memmem(const void *hay, size_t n, const void *needle, size_t m) {
    #if defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
        return memmem(hay, n, needle, m);
    #else
        const char *h = (const char *)hay, *end = h + n, *w = (const char *)needle;
        if (m == 0) return hay;
        while ((size_t)(end - h) >= m) {
            const char *hit = (const char *)memchr(h, w[0], (size_t)(end - h) - m + 1);
            if (hit == NULL) return NULL;
            if (memcmp(hit, w, m) == 0) return hit;
            h = hit + 1;
        }
        return NULL;
    #endif
    }

    /* The first position in [i, n - 1) that may start a word: its first four bytes hash to a bit of
       `bits4` (words of four bytes or more) or its first two bytes set a bit of `bits2` (shorter
       words); -1 when there is none.  Branch-light, and both tables stay in L1. */
    static Py_ssize_t zeph_next_candidate(const unsigned char *d, Py_ssize_t i, Py_ssize_t n,
                                          const unsigned char *bits2, const unsigned char *bits4) {
        if (n >= 4 && i < n - 3) {
            uint32_t window = ((uint32_t)d[i] << 16) | ((uint32_t)d[i + 1] << 8) | d[i + 2];
            for (; i < n - 3; i++) {
                window = (window << 8) | d[i + 3];
                uint32_t h = (uint32_t)(window * 2654435761u) >> 16, b = window >> 16;
                if (((bits4[h >> 3] >> (h & 7)) | (bits2[b >> 3] >> (b & 7))) & 1) return i;
            }
        }
        for (; i + 1 < n; i++) {
            uint32_t b = ((uint32_t)d[i] << 8) | d[i + 1];
            if ((bits2[b >> 3] >> (b & 7)) & 1) return i;
        }
        return -1;
    }

    static const void *zeph_memrchr(const void *s, int c, size_t n) {
    #if defined(__GLIBC__)
        return memrchr(s, c, n);
    #else
        const unsigned char *p = (const unsigned char *)s + n;
        while (p != (const unsigned char *)s)
            if (*--p == (unsigned char)c) return p;
        return NULL;
    #endif
    }
    """
    int zeph_unicode_ready(object) except -1
    const void *zeph_memmem(const void *hay, size_t n, const void *needle, size_t m) noexcept
    const void *zeph_memrchr(const void *s, int c, size_t n) noexcept
    Py_ssize_t zeph_next_candidate(const unsigned char *d, Py_ssize_t i, Py_ssize_t n, const unsigned char *bits2,
                                   const unsigned char *bits4) noexcept


cdef inline Py_ssize_t _line_end(int kind, const void *data, Py_ssize_t start, Py_ssize_t n) noexcept:
    """Offset of the first newline in [start, n), or n."""
    cdef const char *hit
    cdef Py_ssize_t i
    if kind == 1:
        hit = <const char *> memchr(<const char *> data + start, 10, <size_t> (n - start))
        return hit - <const char *> data if hit != NULL else n
    for i in range(start, n):
        if PyUnicode_READ(kind, data, i) == 10:
            return i
    return n


cdef inline bint _same(int kind, const void *data, Py_ssize_t at,
                       int word_kind, const void *word, Py_ssize_t length) noexcept:
    cdef Py_ssize_t j
    if kind == 1 and word_kind == 1:
        # both one byte a character (the usual case): no per-character switch on the kinds
        return memcmp(<const char *> data + at, word, <size_t> length) == 0
    for j in range(length):
        if PyUnicode_READ(kind, data, at + j) != PyUnicode_READ(word_kind, word, j):
            return False
    return True


cdef int _find_words(const unsigned char *data, Py_ssize_t n, list words, set out) except -1:
    """Add to ``out`` the start of every occurrence of ``words`` (1-byte strs of two characters or more) in ``data[:n]``.

    One pass, Wu-Manber style: with ``m`` the shortest word's length, the two
    bytes ending each ``m``-byte window say how far the window may move before
    it can end on the first ``m`` bytes of a word; only windows that can are
    compared.  On text without those bigrams the window moves ``m - 1`` bytes
    at a time, so long words are found several times faster than by one
    ``memmem`` pass each (collapse_runs' three banned words: 2.8 -> 0.6 ms on
    a 100,000-line cargo test output).  Each step waits for the previous
    one's table lookup, so with short words (``m`` of 4 or less) testing every
    position, as ``_bigram_lines`` does, is as fast.
    """
    cdef Py_ssize_t count = len(words), w, j, m = 0, position, start
    cdef unsigned char *shift = <unsigned char *> malloc(65536)
    cdef const unsigned char **pointers = <const unsigned char **> malloc(count * sizeof(void *))
    cdef Py_ssize_t *lengths = <Py_ssize_t *> malloc(count * sizeof(Py_ssize_t))
    cdef unsigned int *keys = <unsigned int *> malloc(count * sizeof(unsigned int))
    cdef unsigned int key
    cdef const unsigned char *p
    if shift == NULL or pointers == NULL or lengths == NULL or keys == NULL:
        free(shift); free(pointers); free(lengths); free(keys)
        raise MemoryError()
    try:
        for w in range(count):
            pointers[w] = <const unsigned char *> PyUnicode_DATA(words[w])
            lengths[w] = PyUnicode_GET_LENGTH(words[w])
            if m == 0 or lengths[w] < m:
                m = lengths[w]
        # a shift never exceeds 255: longer words only use their first 256 bytes for it
        if m > 256:
            m = 256
        memset(shift, <int> (m - 1), 65536)
        for w in range(count):
            p = pointers[w]
            for j in range(1, m):
                key = (<unsigned int> p[j - 1] << 8) | p[j]
                if m - 1 - j < shift[key]:
                    shift[key] = <unsigned char> (m - 1 - j)
            keys[w] = (<unsigned int> p[m - 2] << 8) | p[m - 1]
        position = m - 1
        while position < n:
            key = (<unsigned int> data[position - 1] << 8) | data[position]
            if shift[key]:
                position += shift[key]
                continue
            start = position - m + 1
            for w in range(count):
                if (keys[w] == key and start + lengths[w] <= n
                        and memcmp(data + start, pointers[w], <size_t> lengths[w]) == 0):
                    out.add(start)
                    break
            position += 1
    finally:
        free(shift); free(pointers); free(lengths); free(keys)
    return 0


cdef list _banned_starts(text, tuple banned):
    """Sorted start offsets of every occurrence of every banned word that fits in a line."""
    cdef set starts = set()
    cdef int kind = PyUnicode_KIND(text)
    cdef const char *data = <const char *> PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), length
    cdef const char *hit
    cdef const char *needle
    cdef list paired = []
    for word in banned:
        if "\n" in word:
            continue  # a line never holds a newline, so it never holds this word
        zeph_unicode_ready(word)
        if kind == 1 and PyUnicode_KIND(word) == 1 and PyUnicode_GET_LENGTH(word) >= 2:
            paired.append(word)  # one pass for them all, below
            continue
        if kind == 1 and PyUnicode_KIND(word) == 1:
            # glibc's memmem beats str.find on long texts, short words most of all
            needle = <const char *> PyUnicode_DATA(word)
            length = PyUnicode_GET_LENGTH(word)
            hit = <const char *> zeph_memmem(data, <size_t> n, needle, <size_t> length)
            while hit != NULL:
                starts.add(hit - data)
                hit = <const char *> zeph_memmem(hit + 1, <size_t> (n - (hit + 1 - data)), needle, <size_t> length)
            continue
        at = str.find(text, word)
        while at != -1:
            starts.add(at)
            at = str.find(text, word, at + 1)
    if paired:
        _find_words(<const unsigned char *> data, n, paired, starts)
    return sorted(starts)


def collapse_runs(text, prefix, suffix, banned=()):
    """Return the lines of ``text`` with each run of two or more member lines as ``(start, end, count)``."""
    _check(text, prefix, suffix, banned)
    if "" in banned:
        return str.split(text, "\n")  # every line holds the empty word: no member at all
    zeph_unicode_ready(text)
    zeph_unicode_ready(prefix)
    zeph_unicode_ready(suffix)
    cdef int kind = PyUnicode_KIND(text), prefix_kind = PyUnicode_KIND(prefix), suffix_kind = PyUnicode_KIND(suffix)
    cdef const void *data = PyUnicode_DATA(text)
    cdef const void *prefix_data = PyUnicode_DATA(prefix)
    cdef const void *suffix_data = PyUnicode_DATA(suffix)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef Py_ssize_t prefix_len = PyUnicode_GET_LENGTH(prefix), suffix_len = PyUnicode_GET_LENGTH(suffix)
    cdef Py_ssize_t minimum = prefix_len + suffix_len + 1

    found = _banned_starts(text, banned)
    cdef Py_ssize_t n_banned = len(found), k
    cdef Py_ssize_t *starts = <Py_ssize_t *> malloc((n_banned + 1) * sizeof(Py_ssize_t))
    if starts == NULL:
        raise MemoryError()
    for k in range(n_banned):
        starts[k] = found[k]

    items = []
    cdef Py_ssize_t position = 0, end, next_banned = 0
    cdef Py_ssize_t run_start = 0, run_end = 0, run_count = 0
    cdef bint member
    try:
        while True:
            end = _line_end(kind, data, position, n)
            member = (end - position >= minimum
                      and _same(kind, data, position, prefix_kind, prefix_data, prefix_len)
                      and _same(kind, data, end - suffix_len, suffix_kind, suffix_data, suffix_len))
            if member and next_banned < n_banned:
                while next_banned < n_banned and starts[next_banned] < position:
                    next_banned += 1
                if next_banned < n_banned and starts[next_banned] < end:
                    member = False
            if member:
                if run_count == 0:
                    run_start = position
                run_count += 1
                run_end = end
            else:
                if run_count >= 2:
                    items.append((run_start, run_end, run_count))
                elif run_count == 1:
                    items.append(PyUnicode_Substring(text, run_start, run_end))
                run_count = 0
                items.append(PyUnicode_Substring(text, position, end))
            if end >= n:
                break
            position = end + 1
    finally:
        free(starts)
    if run_count >= 2:
        items.append((run_start, run_end, run_count))
    elif run_count == 1:
        items.append(PyUnicode_Substring(text, run_start, run_end))
    return items


cdef inline bint _blank_end(Py_UCS4 ch) noexcept:
    return ch == 32 or ch == 9 or ch == 12 or ch == 11  # space, tab, form feed, vertical tab


def line_end_flags(text):
    """Return whether some line of ``text`` ends in a space, tab, form feed or vertical tab, and whether four newlines come in a row."""
    _check_text(text)
    zeph_unicode_ready(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef const void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0
    cdef bint trailing = n > 0 and _blank_end(PyUnicode_READ(kind, data, n - 1))
    cdef bint blank_run = False
    while not (trailing and blank_run):
        i = _line_end(kind, data, i, n)
        if i >= n:
            break
        if i > 0 and _blank_end(PyUnicode_READ(kind, data, i - 1)):
            trailing = True
        if (i >= 3 and PyUnicode_READ(kind, data, i - 1) == 10 and PyUnicode_READ(kind, data, i - 2) == 10
                and PyUnicode_READ(kind, data, i - 3) == 10):
            blank_run = True
        i += 1
    return trailing, blank_run


def lines_containing(text, words):
    """Return the start offsets of the lines of ``text`` that contain one of ``words``, ascending."""
    _check_words(text, words)
    zeph_unicode_ready(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef const char *data = <const char *> PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), length
    cdef set starts = set()
    # 1-byte words of two or more characters in a 1-byte text: one pass for them all
    cdef list paired = []
    for word in words:
        zeph_unicode_ready(word)
        length = PyUnicode_GET_LENGTH(word)
        if kind == 1 and PyUnicode_KIND(word) == 1 and length >= 2:
            paired.append(word)
        elif kind == 1 and PyUnicode_KIND(word) == 1 and length == 1:
            _memmem_lines(data, n, <const char *> PyUnicode_DATA(word), 1, starts)
        else:
            found = str.find(text, word)
            while found != -1:
                starts.add(str.rfind(text, "\n", 0, found) + 1)
                newline = str.find(text, "\n", found)
                if newline == -1:
                    break
                found = str.find(text, word, newline + 1)
    if paired:
        _bigram_lines(<const unsigned char *> data, n, paired, starts)
    return sorted(starts)


cdef void _memmem_lines(const char *data, Py_ssize_t n, const char *needle, Py_ssize_t length, set starts) except *:
    """Add the start of every line holding ``needle`` to ``starts``."""
    cdef Py_ssize_t at = 0, floor = 0
    cdef const char *hit
    cdef const char *mark
    while n - at >= length:
        hit = <const char *> zeph_memmem(data + at, <size_t> (n - at), needle, <size_t> length)
        if hit == NULL:
            break
        # every newline before ``floor`` is known: look back no further
        mark = <const char *> zeph_memrchr(data + floor, 10, <size_t> (hit - data - floor))
        starts.add(mark - data + 1 if mark != NULL else floor)
        # the rest of this line can only add the same start
        mark = <const char *> memchr(hit, 10, <size_t> (n - (hit - data)))
        if mark == NULL:
            break
        at = floor = mark - data + 1


cdef inline unsigned int _hash16(unsigned int window) noexcept:
    return <unsigned int> ((<unsigned int> (window * <unsigned int> 2654435761u)) >> 16)


cdef void _bigram_lines(const unsigned char *data, Py_ssize_t n, list words, set starts) except *:
    """Add the start of every line holding one of ``words`` (1-byte, two characters or more) to ``starts``.

    One pass: a position is compared with the words only when its first bytes
    may begin one of them (see ``zeph_next_candidate``).
    """
    cdef unsigned char bits2[8192]
    cdef unsigned char bits4[8192]
    cdef Py_ssize_t n_words = len(words), w, i = 0, floor = 0
    cdef const unsigned char **pointers = <const unsigned char **> malloc(n_words * sizeof(void *))
    cdef Py_ssize_t *lengths = <Py_ssize_t *> malloc(n_words * sizeof(Py_ssize_t))
    cdef unsigned int *keys = <unsigned int *> malloc(n_words * sizeof(unsigned int))
    cdef unsigned int key2, key4 = 0
    cdef const unsigned char *mark
    cdef const unsigned char *p
    cdef bint matched
    if pointers == NULL or lengths == NULL or keys == NULL:
        free(pointers); free(lengths); free(keys)
        raise MemoryError()
    try:
        memset(bits2, 0, sizeof(bits2))
        memset(bits4, 0, sizeof(bits4))
        for w in range(n_words):
            p = pointers[w] = <const unsigned char *> PyUnicode_DATA(words[w])
            lengths[w] = PyUnicode_GET_LENGTH(words[w])
            if lengths[w] >= 4:
                keys[w] = _hash16((<unsigned int> p[0] << 24) | (<unsigned int> p[1] << 16) | (<unsigned int> p[2] << 8) | p[3])
                bits4[keys[w] >> 3] |= <unsigned char> (1 << (keys[w] & 7))
            else:
                keys[w] = (<unsigned int> p[0] << 8) | p[1]
                bits2[keys[w] >> 3] |= <unsigned char> (1 << (keys[w] & 7))
        while True:
            i = zeph_next_candidate(data, i, n, bits2, bits4)
            if i < 0:
                break
            key2 = (<unsigned int> data[i] << 8) | data[i + 1]
            if i + 4 <= n:
                key4 = _hash16((key2 << 16) | (<unsigned int> data[i + 2] << 8) | data[i + 3])
            matched = False
            for w in range(n_words):
                if (keys[w] == (key4 if lengths[w] >= 4 else key2) and i + lengths[w] <= n
                        and memcmp(data + i, pointers[w], <size_t> lengths[w]) == 0):
                    matched = True
                    break
            if not matched:
                i += 1
                continue
            mark = <const unsigned char *> zeph_memrchr(data + floor, 10, <size_t> (i - floor))
            starts.add(mark - data + 1 if mark != NULL else floor)
            # the rest of this line can only add the same start
            mark = <const unsigned char *> memchr(data + i, 10, <size_t> (n - i))
            if mark == NULL:
                break
            i = floor = mark - data + 1
    finally:
        free(pointers); free(lengths); free(keys)
