# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled line normalisation and grouping; the twin of ``_dedup_py`` (same names, results, errors).

Each matcher of the pure scanner is ported one-to-one and reads the str's own
buffer as 1-, 2- or 4-byte code points (one specialisation per PEP 393 kind).
The scan records the replaced spans, then the key is written once into a str
of exactly the right size and kind.  The month names and the unit suffixes are
read from the pure twin at import, so the two cannot drift apart.
"""

from cpython.pyport cimport PY_SSIZE_T_MAX
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_KIND, PyUnicode_New
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from ._dedup_py import _MONTHS, _UNITS


cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030C0000
    #define zeph_unicode_ready(o) PyUnicode_READY(o)
    #else
    #define zeph_unicode_ready(o) 0
    #endif
    """
    int zeph_unicode_ready(object) except -1

cdef extern from "Python.h":
    ctypedef unsigned char Py_UCS1
    ctypedef unsigned short Py_UCS2
    # lookups in the Unicode database; they need no interpreter state
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch) noexcept nogil
    bint Py_UNICODE_ISALPHA(Py_UCS4 ch) noexcept nogil


ctypedef fused uchar:
    Py_UCS1
    Py_UCS2
    Py_UCS4


# ASCII classes, so the common case needs no Unicode database lookup
cdef enum:
    C_DIGIT = 1
    C_HEX = 2
    C_WORD = 4
    C_START = 8  # a hex digit or a month's first letter: may start any token
    C_UPPER = 16  # a capital: may start a code (P0000002), whatever else it starts

cdef unsigned char CLASS[128]

cdef void _init_classes():
    cdef int c
    for c in range(128):
        CLASS[c] = 0
    for c in range(ord("0"), ord("9") + 1):
        CLASS[c] |= C_DIGIT | C_HEX | C_WORD | C_START
    for c in range(ord("a"), ord("z") + 1):
        CLASS[c] |= C_WORD
        CLASS[c - 32] |= C_WORD
    for c in range(ord("a"), ord("f") + 1):
        CLASS[c] |= C_HEX | C_START
        CLASS[c - 32] |= C_HEX | C_START
    CLASS[ord("_")] |= C_WORD
    for ch in "JFMASOND":
        CLASS[ord(ch)] |= C_START
    for c in range(ord("A"), ord("Z") + 1):
        CLASS[c] |= C_UPPER

_init_classes()


cdef inline bint _is_digit(Py_UCS4 ch) noexcept nogil:
    return ch < 128 and (CLASS[ch] & C_DIGIT) != 0


cdef inline bint _is_hex(Py_UCS4 ch) noexcept nogil:
    return ch < 128 and (CLASS[ch] & C_HEX) != 0


cdef inline bint _is_word(Py_UCS4 ch) noexcept nogil:
    if ch < 128:
        return (CLASS[ch] & C_WORD) != 0
    return Py_UNICODE_ISALNUM(ch)


# Month names and unit suffixes, copied from the pure twin.
cdef enum:
    MAX_WORDS = 64
    MAX_WORD_LEN = 4
cdef Py_UCS4 MONTH_CHARS[MAX_WORDS][MAX_WORD_LEN]
cdef int N_MONTHS = 0
cdef Py_UCS4 UNIT_CHARS[MAX_WORDS][MAX_WORD_LEN]
cdef int UNIT_LEN[MAX_WORDS]
cdef int N_UNITS = 0


cdef int _load_words(object words, Py_UCS4 chars[MAX_WORDS][MAX_WORD_LEN], int *lengths) except -1:
    cdef int count = 0, j
    for word in sorted(words):
        if count >= MAX_WORDS or not 0 < len(word) <= MAX_WORD_LEN:
            raise ImportError("_dedup_py word lists exceed the compiled limits; rebuild _dedup_c")
        for j in range(len(word)):
            chars[count][j] = ord(word[j])
        if lengths != NULL:
            lengths[count] = len(word)
        elif len(word) != 3:
            raise ImportError("_dedup_py month names must have three letters")
        count += 1
    return count

N_MONTHS = _load_words(_MONTHS, MONTH_CHARS, NULL)
N_UNITS = _load_words(_UNITS, UNIT_CHARS, UNIT_LEN)


cdef inline Py_ssize_t _digits(const uchar *s, Py_ssize_t n, Py_ssize_t start) noexcept nogil:
    cdef Py_ssize_t end = start
    while end < n and _is_digit(s[end]):
        end += 1
    return end


cdef Py_ssize_t _match_time(const uchar *s, Py_ssize_t n, Py_ssize_t pos, bint need_seconds) noexcept nogil:
    cdef Py_ssize_t end = _digits(s, n, pos), minute_end, second_end, zone_end
    cdef bint has_seconds = False
    if not 1 <= end - pos <= 2 or end >= n or s[end] != c':':
        return -1
    minute_end = _digits(s, n, end + 1)
    if minute_end - end - 1 != 2:
        return -1
    end = minute_end
    if end < n and s[end] == c':':
        second_end = _digits(s, n, end + 1)
        if second_end - end - 1 == 2:
            end = second_end
            has_seconds = True
            if end + 1 < n and (s[end] == c'.' or s[end] == c',') and _is_digit(s[end + 1]):
                end = _digits(s, n, end + 1)
    if need_seconds and not has_seconds:
        return -1
    if end < n and s[end] == c'Z':
        end += 1
    elif end + 2 < n and (s[end] == c'+' or s[end] == c'-') and _is_digit(s[end + 1]) and _is_digit(s[end + 2]):
        zone_end = end + 3
        if zone_end < n and s[zone_end] == c':' and _digits(s, n, zone_end + 1) - zone_end - 1 == 2:
            zone_end += 3
        elif _digits(s, n, zone_end) - zone_end == 2:
            zone_end += 2
        end = zone_end
    return end


cdef Py_ssize_t _match_date(const uchar *s, Py_ssize_t n, Py_ssize_t pos) noexcept nogil:
    cdef Py_ssize_t end, time_end
    cdef Py_UCS4 sep
    if _digits(s, n, pos) - pos != 4 or pos + 10 > n:
        return -1
    sep = s[pos + 4]
    if (sep != c'-' and sep != c'/') or s[pos + 7] != sep:
        return -1
    if _digits(s, n, pos + 5) != pos + 7 or _digits(s, n, pos + 8) != pos + 10:
        return -1
    end = pos + 10
    if end + 1 < n and (s[end] == c'T' or s[end] == c' ') and _is_digit(s[end + 1]):
        time_end = _match_time(s, n, end + 1, False)
        if time_end != -1:
            end = time_end
    return end


cdef Py_ssize_t _match_syslog(const uchar *s, Py_ssize_t n, Py_ssize_t pos) noexcept nogil:
    cdef int m
    cdef Py_ssize_t i, day_end
    if pos + 3 > n:
        return -1
    for m in range(N_MONTHS):
        if s[pos] == MONTH_CHARS[m][0] and s[pos + 1] == MONTH_CHARS[m][1] and s[pos + 2] == MONTH_CHARS[m][2]:
            break
    else:
        return -1
    i = pos + 3
    if i >= n or s[i] != c' ':
        return -1
    while i < n and s[i] == c' ':
        i += 1
    day_end = _digits(s, n, i)
    if not 1 <= day_end - i <= 2 or day_end >= n or s[day_end] != c' ':
        return -1
    return _match_time(s, n, day_end + 1, True)


cdef Py_ssize_t _match_uuid(const uchar *s, Py_ssize_t n, Py_ssize_t pos) noexcept nogil:
    cdef Py_ssize_t end = pos
    cdef int group, j
    cdef int lengths[5]
    lengths[:] = [8, 4, 4, 4, 12]
    for group in range(5):
        if group:
            if end >= n or s[end] != c'-':
                return -1
            end += 1
        for j in range(lengths[group]):
            if end >= n or not _is_hex(s[end]):
                return -1
            end += 1
    return end


cdef Py_ssize_t _match_ipv4(const uchar *s, Py_ssize_t n, Py_ssize_t pos) noexcept nogil:
    cdef Py_ssize_t end = pos, octet_end
    cdef int octet
    for octet in range(4):
        if octet:
            if end >= n or s[end] != c'.':
                return -1
            end += 1
        octet_end = _digits(s, n, end)
        if not 1 <= octet_end - end <= 3:
            return -1
        end = octet_end
    if end + 1 < n and s[end] == c':' and _is_digit(s[end + 1]):
        end = _digits(s, n, end + 1)
    return end


cdef Py_ssize_t _match_hex(const uchar *s, Py_ssize_t n, Py_ssize_t pos) noexcept nogil:
    cdef Py_ssize_t start = pos, end
    cdef bint has_digit = False, has_letter = False
    if pos + 2 <= n and s[pos] == c'0' and (s[pos + 1] == c'x' or s[pos + 1] == c'X'):
        start = pos + 2
    end = start
    while end < n and _is_hex(s[end]):
        if _is_digit(s[end]):
            has_digit = True
        else:
            has_letter = True
        end += 1
    if start != pos and end - start >= 1:
        return end  # an explicit 0x prefix is always an id
    # Digits only is a number (<N>); letters only is a word such as "deadbeef" or "accepted".
    if end - start >= 8 and has_digit and has_letter:
        return end
    return -1


cdef inline Py_ssize_t _match_code(const uchar *s, Py_ssize_t n, Py_ssize_t pos) noexcept nogil:
    """The end of a record's id or code, one to three capital letters then 4+ digits (``P0000002``), or -1."""
    cdef Py_ssize_t end = pos, digits_end
    while end < n and end - pos < 3 and s[end] < 128 and (CLASS[s[end]] & C_UPPER):
        end += 1
    if end == pos:
        return -1
    digits_end = _digits(s, n, end)
    return digits_end if digits_end - end >= 4 else -1


cdef inline bint _is_unit(const uchar *s, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    cdef Py_ssize_t length = end - start
    cdef int u, j
    if length > MAX_WORD_LEN:
        return False
    for u in range(N_UNITS):
        if UNIT_LEN[u] == length:
            for j in range(length):
                if s[start + j] != UNIT_CHARS[u][j]:
                    break
            else:
                return True
    return False


cdef Py_ssize_t _match_number(const uchar *s, Py_ssize_t n, Py_ssize_t pos) noexcept nogil:
    cdef Py_ssize_t end = _digits(s, n, pos), unit_end
    cdef Py_UCS4 ch
    if end == pos:
        return -1
    if end + 1 < n and s[end] == c'.' and _is_digit(s[end + 1]):
        end = _digits(s, n, end + 1)
    unit_end = end
    while unit_end < n:
        ch = s[unit_end]
        if not (Py_UNICODE_ISALPHA(ch) or ch == c'%' or ch == 0xB5):  # 0xB5: the micro sign of "µs"
            break
        unit_end += 1
    if unit_end > end and _is_unit(s, end, unit_end):
        return unit_end
    return end


# Placeholders by code; the order of the matchers below is the pure twin's.
cdef enum:
    P_TS = 0
    P_UUID = 1
    P_IP = 2
    P_HEX = 3
    P_N = 4
    P_ID = 5
cdef const char *PLACEHOLDER[6]
PLACEHOLDER[:] = [b"<TS>", b"<UUID>", b"<IP>", b"<HEX>", b"<N>", b"<ID>"]
cdef Py_ssize_t PLACEHOLDER_LEN[6]
PLACEHOLDER_LEN[:] = [4, 6, 4, 5, 3, 4]

cdef enum:
    STACK_SPANS = 32

ctypedef struct Spans:
    Py_ssize_t *items  # (start, end, placeholder) triples
    Py_ssize_t count
    Py_ssize_t capacity
    Py_ssize_t stack[3 * STACK_SPANS]


cdef inline int _push(Spans *spans, Py_ssize_t start, Py_ssize_t end, Py_ssize_t code) noexcept nogil:
    cdef Py_ssize_t *grown
    if spans.count == spans.capacity:
        grown = <Py_ssize_t *> malloc(6 * spans.capacity * sizeof(Py_ssize_t))
        if grown == NULL:
            return -1
        memcpy(grown, spans.items, 3 * spans.count * sizeof(Py_ssize_t))
        if spans.items != spans.stack:
            free(spans.items)
        spans.items = grown
        spans.capacity *= 2
    spans.items[3 * spans.count] = start
    spans.items[3 * spans.count + 1] = end
    spans.items[3 * spans.count + 2] = code
    spans.count += 1
    return 0


cdef inline bint _ends_token(const uchar *s, Py_ssize_t n, Py_ssize_t end) noexcept nogil:
    """Whether a match ending at ``end`` (-1: none) stands alone: no letter, digit or ``_`` glued after it."""
    return end != -1 and (end >= n or not _is_word(s[end]))


cdef inline Py_ssize_t _token(const uchar *s, Py_ssize_t n, Py_ssize_t i, int *code) noexcept nogil:
    """Return the end of the token to replace at ``i`` (a token's start) and set its placeholder; -1: none.

    The matchers are tried in order, the first whose match stands alone wins.
    """
    cdef Py_ssize_t end
    cdef Py_UCS4 ch = s[i]
    code[0] = -1
    if not (CLASS[ch] & C_START):
        # a capital that starts no date, month, hex id or number ("GET", "INFO", "P0000002"): only a code
        end = _match_code(s, n, i)
        if _ends_token(s, n, end):
            code[0] = P_ID
            return end
        return -1
    end = _match_date(s, n, i)
    if _ends_token(s, n, end):
        code[0] = P_TS
        return end
    end = _match_syslog(s, n, i)
    if _ends_token(s, n, end):
        code[0] = P_TS
        return end
    end = _match_uuid(s, n, i)
    if _ends_token(s, n, end):
        code[0] = P_UUID
        return end
    end = _match_ipv4(s, n, i)
    if _ends_token(s, n, end):
        code[0] = P_IP
        return end
    end = _match_time(s, n, i, True)
    if _ends_token(s, n, end):
        code[0] = P_TS
        return end
    end = _match_hex(s, n, i)
    if _ends_token(s, n, end):
        code[0] = P_HEX
        return end
    if CLASS[ch] & C_UPPER:
        end = _match_code(s, n, i)
        if _ends_token(s, n, end):
            code[0] = P_ID
            return end
    end = _match_number(s, n, i)
    if _ends_token(s, n, end):
        code[0] = P_N
        return end
    return -1


cdef Py_ssize_t _scan(const uchar *s, Py_ssize_t n, Spans *spans, Py_UCS4 *maxchar) noexcept nogil:
    """Record the spans to replace; return the key's length (-1: out of memory).

    ``maxchar`` becomes the largest code point kept verbatim, so the key gets
    the narrowest kind, as ``str.join`` would give it.
    """
    cdef Py_ssize_t i = 0, end, out_len = n
    cdef Py_UCS4 ch, top = 0
    cdef int code
    while i < n:
        ch = s[i]
        if ch < 128 and (CLASS[ch] & (C_START | C_UPPER)) and (i == 0 or not _is_word(s[i - 1])):
            end = _token(s, n, i, &code)
            if code != -1:
                if _push(spans, i, end, code) < 0:
                    return -1
                out_len += PLACEHOLDER_LEN[code] - (end - i)
                i = end
                continue
        if ch > top:
            top = ch
        i += 1
    maxchar[0] = top
    return out_len


cdef str _normalize(object line):
    if not isinstance(line, str):
        raise TypeError(f"line must be str, not {type(line).__name__}")
    zeph_unicode_ready(line)
    cdef int kind = PyUnicode_KIND(line), out_kind
    cdef void *data = PyUnicode_DATA(line)
    cdef Py_ssize_t n = len(<str> line), out_len, k, start, end, copied, pos, j, length
    cdef Py_UCS4 maxchar = 0
    cdef Spans spans
    cdef str key
    cdef char *out
    cdef const char *text
    spans.items = spans.stack
    spans.count = 0
    spans.capacity = STACK_SPANS
    try:
        if kind == 1:
            out_len = _scan(<const Py_UCS1 *> data, n, &spans, &maxchar)
        elif kind == 2:
            out_len = _scan(<const Py_UCS2 *> data, n, &spans, &maxchar)
        else:
            out_len = _scan(<const Py_UCS4 *> data, n, &spans, &maxchar)
        if out_len < 0:
            raise MemoryError()
        if spans.count == 0:
            # nothing to replace: the line is its own key (an exact str, as from "".join)
            return line if type(line) is str else line[0:]
        key = PyUnicode_New(out_len, maxchar)
        out_kind = PyUnicode_KIND(key)
        out = <char *> PyUnicode_DATA(key)
        text = <const char *> data
        pos = 0
        copied = 0
        for k in range(spans.count + 1):
            if k < spans.count:
                start = spans.items[3 * k]
                end = spans.items[3 * k + 1]
            else:
                start = end = n
            length = start - copied
            if out_kind == kind:
                memcpy(out + pos * kind, text + copied * kind, length * kind)
            else:
                # only a 1-byte line whose non-ASCII characters were all replaced narrows
                for j in range(length):
                    (<Py_UCS1 *> out)[pos + j] = (<const Py_UCS1 *> text)[copied + j]
            pos += length
            if k < spans.count:
                _write_ascii(out, out_kind, pos, PLACEHOLDER[spans.items[3 * k + 2]], PLACEHOLDER_LEN[spans.items[3 * k + 2]])
                pos += PLACEHOLDER_LEN[spans.items[3 * k + 2]]
            copied = end
        return key
    finally:
        if spans.items != spans.stack:
            free(spans.items)


cdef inline void _write_ascii(char *out, int kind, Py_ssize_t pos, const char *chars, Py_ssize_t length) noexcept nogil:
    cdef Py_ssize_t j
    if kind == 1:
        memcpy(out + pos, chars, length)
    elif kind == 2:
        for j in range(length):
            (<Py_UCS2 *> out)[pos + j] = chars[j]
    else:
        for j in range(length):
            (<Py_UCS4 *> out)[pos + j] = chars[j]


def normalize_line(line):
    """Return ``line`` with timestamps, ids, addresses and numbers replaced by placeholders."""
    return _normalize(line)


def dedup_lines(lines, max_unique):
    """Group ``lines`` by normalised key: ``(first index, count)`` per group, in first-seen order."""
    if max_unique < 0:
        raise ValueError("max_unique must be >= 0")
    # An int limit is compared in C; anything else (a float, say) the way the pure twin does.
    cdef bint int_limit = isinstance(max_unique, int)
    cdef Py_ssize_t limit = 0
    if int_limit:
        limit = max_unique if max_unique <= PY_SSIZE_T_MAX else PY_SSIZE_T_MAX
    cdef dict slot_of_key = {}
    cdef Py_ssize_t *groups = NULL  # (first index, count) pairs
    cdef Py_ssize_t *grown
    cdef Py_ssize_t n_groups = 0, capacity = 0, index = 0, slot, remembered = 0
    cdef str key
    cdef object found
    cdef list result
    try:
        for line in lines:
            key = _normalize(line)
            found = slot_of_key.get(key)
            if found is not None:
                slot = found
                groups[2 * slot + 1] += 1
                index += 1
                continue
            if (remembered < limit) if int_limit else (remembered < max_unique):
                slot_of_key[key] = n_groups
                remembered += 1
            # Past the limit a new key is not remembered, so it stays a group of its own.
            if n_groups == capacity:
                capacity = 2 * capacity if capacity else 64
                grown = <Py_ssize_t *> realloc(groups, 2 * capacity * sizeof(Py_ssize_t))
                if grown == NULL:
                    raise MemoryError()
                groups = grown
            groups[2 * n_groups] = index
            groups[2 * n_groups + 1] = 1
            n_groups += 1
            index += 1
        result = [None] * n_groups
        for slot in range(n_groups):
            result[slot] = (groups[2 * slot], groups[2 * slot + 1])
        return result
    finally:
        free(groups)
