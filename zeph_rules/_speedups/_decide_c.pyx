# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled candidate lookup for one indexed field; the twin of ``_decide_py`` (same names, results, errors).

ASCII text (the common case) is read in place: no ``encode`` and no case
folding for the case-insensitive literal table, whose class map folds ASCII.
"""

cimport cython
from cpython cimport array
from cpython.object cimport PyObject
from cpython.set cimport PySet_Add


cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index)
    object PyUnicode_FromOrdinal(int)
    char* PyBytes_AS_STRING(object)
    Py_ssize_t PyUnicode_Tailmatch(object, object, Py_ssize_t, Py_ssize_t, int) except -1
    PyObject* PyDict_GetItemWithError(object, object) except? NULL
    Py_ssize_t PY_SSIZE_T_MAX
    Py_ssize_t PyBytes_GET_SIZE(object)

PROBE_SIZE = 7


cdef inline int _check(object probe, object value, object out) except -1:
    if not isinstance(probe, tuple) or len(probe) != PROBE_SIZE:
        raise TypeError("probe must be a tuple of 7 tables")
    if not isinstance(value, str):
        raise TypeError("value must be str")
    if not isinstance(out, set):
        raise TypeError("out must be a set")
    return 0


cdef inline int _update(set out, object hits) except -1:
    if type(hits) is tuple:
        for item in <tuple>hits:
            PySet_Add(out, item)
    else:
        out.update(hits)
    return 0


cdef int _walk(object trie, object value, set out) except -1:
    # a radix trie (see ``_decide_py.radix_trie``): one dict lookup per branching point
    cdef Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(value)
    cdef int kind = PyUnicode_KIND(value)
    cdef void* data = PyUnicode_DATA(value)
    cdef PyObject* found
    cdef object node = trie
    cdef object entry
    while i < n:
        ch = PyUnicode_FromOrdinal(PyUnicode_READ(kind, data, i))
        if type(node) is dict:
            found = PyDict_GetItemWithError(node, ch)
            if found is NULL:
                return 0
            entry = <object>found
        else:
            entry = node.get(ch)
            if entry is None:
                return 0
        label, ends, node = entry
        if not PyUnicode_Tailmatch(value, label, i, PY_SSIZE_T_MAX, -1):
            return 0
        i += len(label)
        if ends:
            _update(out, ends)
        if node is None:
            return 0
    return 0


cdef int _scan_bytes(object literals, const unsigned char* data, Py_ssize_t n, set out) except -1:
    if not isinstance(literals, tuple) or len(<tuple>literals) != 6:
        raise TypeError("literals must be (class_of, delta, out_start, out_ids, n_classes, rules)")
    class_obj, delta_obj, start_obj, ids_obj, n_obj, rules_obj = <tuple>literals
    cdef bytes class_b = class_obj
    cdef array.array delta_a = delta_obj
    cdef array.array start_a = start_obj
    cdef array.array ids_a = ids_obj
    cdef int* delta = delta_a.data.as_ints
    cdef int* out_start = start_a.data.as_ints
    cdef int* out_ids = ids_a.data.as_ints
    cdef const unsigned char* class_of = <const unsigned char*>PyBytes_AS_STRING(class_b)
    cdef int n_classes = n_obj
    cdef int state = 0, begin, end
    cdef Py_ssize_t i
    for i in range(n):
        state = delta[state * n_classes + class_of[data[i]]]
        begin = out_start[state]
        end = out_start[state + 1]
        while begin < end:
            with cython.boundscheck(True), cython.wraparound(True):
                _update(out, rules_obj[out_ids[begin]])
            begin += 1
    return 0


cdef int _scan(object literals, object value, set out) except -1:
    cdef bytes encoded
    if PyUnicode_IS_ASCII(value):
        return _scan_bytes(literals, <const unsigned char*>PyUnicode_DATA(value), PyUnicode_GET_LENGTH(value), out)
    encoded = value.encode("utf-8", "surrogatepass")
    return _scan_bytes(literals, <const unsigned char*>PyBytes_AS_STRING(encoded), PyBytes_GET_SIZE(encoded), out)


def collect_candidates(probe, value, out):
    """Add to ``out`` the orders of every rule whose index key ``value`` satisfies."""
    _check(probe, value, out)
    _collect(probe, value, out)


cdef int _collect(tuple probe, object value, set out) except -1:
    exact, exact_fold, trie, trie_fold, literals, literals_fold, prefilter_fold = probe
    cdef object text = value
    cdef set found = out
    if exact is not None:
        hits = exact.get(text)
        if hits:
            _update(found, hits)
    if exact_fold is not None or trie_fold is not None:
        casefolded = text.casefold()  # the semantics of `~i`
        if exact_fold is not None:
            hits = exact_fold.get(casefolded)
            if hits:
                _update(found, hits)
        if trie_fold is not None:
            _walk(trie_fold, casefolded, found)
    if trie is not None:
        _walk(trie, text, found)
    if literals is not None:
        _scan(literals, text, found)
    if literals_fold is not None:
        # regex case-folding also equates a few non-ASCII letters with ASCII ones
        _scan(literals_fold, text if PyUnicode_IS_ASCII(text) else text.casefold().translate(prefilter_fold), found)
    return 0


# ---------------------------------------------------------------- a whole group: candidates, then tests in order

DEF K_GLOB = 0
DEF K_GLOB_FOLD = 1
DEF K_EQ = 2
DEF K_EQ_FOLD = 3
DEF K_NE = 4
DEF K_PREFIX = 5
DEF K_SUFFIX = 6
DEF K_IN = 7
DEF K_TRUTHY = 8
DEF K_ANY = 9
DEF K_CALL = 10

GLOB, GLOB_FOLD, EQ, EQ_FOLD, NE, PREFIX, SUFFIX, IN, TRUTHY, ANY, CALL = range(11)
GROUP_SIZE = 3
CLAUSE_SIZE = 4


cdef inline int _check_group(object group) except -1:
    if not isinstance(group, tuple) or len(group) != GROUP_SIZE:
        raise TypeError("group must be a tuple (always, fields, tests)")
    return 0


cdef list _candidate_orders(tuple group, object subject):
    always, fields, _tests = group
    cdef set found = set(always)
    for entry in fields:
        if type(entry) is not tuple or len(<tuple>entry) != 2:
            raise TypeError("a field is (attr, probe)")
        attr, probe = <tuple>entry
        if type(attr) is str:
            value = getattr(subject, attr)
        else:  # (guard, derive)
            if type(attr) is not tuple or len(attr) != 2:
                raise TypeError("a field's attr is a name or (guard, derive)")
            guard, derive = attr
            value = derive(subject) if getattr(subject, guard) else None
        if isinstance(value, str):
            _check(probe, value, found)
            _collect(probe, value, found)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, str):
                    _check(probe, item, found)
                    _collect(probe, item, found)
    cdef list out = list(found)
    out.sort()
    return out


def candidate_orders(group, subject):
    """Return the orders of the rules of ``group`` that might match ``subject``, ascending."""
    _check_group(group)
    return _candidate_orders(group, subject)


cdef bint _holds(object test, object subject) except -1:
    if not isinstance(test, tuple):
        raise TypeError("test must be a tuple of clauses")
    cdef long kind
    cdef bint ok
    for clause in <tuple>test:
        if type(clause) is not tuple:
            if not clause(subject):
                return False
            continue
        if len(<tuple>clause) != CLAUSE_SIZE:
            raise TypeError("a clause is (attr, kind, arg, fallback)")
        attr, kind_obj, arg, fallback = <tuple>clause
        value = getattr(subject, attr)
        if type(value) is not str:
            if not fallback(subject):
                return False
            continue
        kind = kind_obj if type(kind_obj) is int and -1 < kind_obj < 11 else -1
        if kind == K_GLOB:
            ok = arg(value) is not None
        elif kind == K_GLOB_FOLD:
            ok = arg(value.casefold()) is not None
        elif kind == K_EQ:
            ok = value == arg
        elif kind == K_EQ_FOLD:
            ok = value.casefold() == arg
        elif kind == K_NE:
            ok = value != arg
        elif kind == K_PREFIX:
            ok = value.startswith(arg)
        elif kind == K_SUFFIX:
            ok = value.endswith(arg)
        elif kind == K_IN:
            ok = value in arg
        elif kind == K_TRUTHY:
            ok = value != "" and value != "0" and value != "false"
        elif kind == K_ANY:
            ok = True
        elif kind == K_CALL:
            ok = bool(arg(value))
        else:
            raise ValueError(f"unknown clause kind {kind_obj!r}")
        if not ok:
            return False
    return True


def holds_test(test, subject):
    """Return whether every clause of ``test`` holds for ``subject``."""
    return _holds(test, subject)


cdef tuple _first_match(object group, object subject):
    _check_group(group)
    tests = (<tuple>group)[2]
    cdef list tried = []
    for order in _candidate_orders(group, subject):
        if _holds(tests[order], subject):
            return order, tried
        tried.append(order)
    return -1, tried


def first_match(group, subject):
    """Return the order of the first rule of ``group`` that holds (-1: none) and the candidate orders tried before it."""
    return _first_match(group, subject)


def all_matches(group, subject):
    """Return the orders of every rule of ``group`` that holds, ascending."""
    _check_group(group)
    tests = (<tuple>group)[2]
    return [order for order in _candidate_orders(group, subject) if _holds(tests[order], subject)]


# ---------------------------------------------------------------- a call: a tool's permission list, then the policy lists


def decide_lists(permissions, ranks, items, policies, subject):
    """Run the permission list over each item, then (unless it denied) the policy lists over ``subject``."""
    if not isinstance(items, tuple) or not isinstance(policies, tuple):
        raise TypeError("items and policies must be tuples")
    cdef list found = []
    cdef list policy = []
    cdef Py_ssize_t worst = -1
    cdef tuple answer
    worst_rank = -1
    for item in <tuple>items:
        if permissions is None:
            answer = (-1, [])
            rank = 1
        else:
            answer = _first_match(permissions, item)
            order = answer[0]
            rank = 1 if order < 0 else ranks[order]
        found.append(answer)
        if rank > worst_rank:
            worst = len(found) - 1
            worst_rank = rank
            if rank >= 2:
                return worst, found, []
    for group in <tuple>policies:
        answer = _first_match(group, subject)
        policy.append(answer)
        if answer[0] >= 0:
            break
    return worst, found, policy
