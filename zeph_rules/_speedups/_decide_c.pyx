# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled candidate lookup and first-match; the twin of ``_decide_py`` (same names, results, errors).

ASCII text (the common case) is read in place: no ``encode`` and no case
folding for the case-insensitive literal table, whose class map folds ASCII.

Candidate orders are gathered into a small C array (a *sink*), sorted and
deduplicated there, instead of a ``set`` and a sorted ``list``; when they do not
fit (too many, or an order that is not a small ``int``) the lookup is done
again the pure twin's way, so results and errors never depend on the shortcut.
A value is casefolded once per call however many tables and clauses fold it.
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
    bint PyDict_Check(object)
    Py_ssize_t PY_SSIZE_T_MAX
    Py_ssize_t PyBytes_GET_SIZE(object)
    Py_ssize_t PyLong_AsSsize_t(object)  # no ``except``: an order out of range spills, it does not raise
    object PyLong_FromSsize_t(Py_ssize_t)
    PyObject* PyErr_Occurred()
    void PyErr_Clear()
    ctypedef struct PyTypeObject
    PyTypeObject* Py_TYPE(object)
    PyObject* _PyType_Lookup(PyTypeObject*, object)
    object PyUnicode_New(Py_ssize_t, Py_UCS4)
    unsigned char* PyUnicode_1BYTE_DATA(object)
    Py_ssize_t PyTuple_GET_SIZE(object)

PROBE_SIZE = 7

DEF SINK_CAP = 64


cdef struct Sink:
    # where candidate orders go: a set (``out``), or, when ``out`` is NULL, the C array below
    PyObject* out
    bint spill  # array mode only: an order did not fit; the caller starts again with a set
    Py_ssize_t n
    Py_ssize_t orders[SINK_CAP]


cdef class _Fold:
    """The last value casefolded and its casefold (strong references: the identity stays valid)."""
    cdef object source
    cdef object folded


cdef _Fold _FOLD = _Fold()
cdef set _A_SET = set()  # what ``_check`` is shown when the orders go to a C array
cdef object _R0 = 0, _R1 = 1, _R2 = 2  # small ints are shared: an int rank 0, 1 or 2 is one of these


cdef inline void _forget_fold():
    # called as every entry point starts: a casefold is reused within one call, never across calls
    _FOLD.source = None
    _FOLD.folded = None


cdef object _casefold(object value):
    """``value.casefold()`` (``value`` is a ``str``), computed once per call."""
    if value is _FOLD.source:
        return _FOLD.folded
    folded = _ascii_lower(value) if type(value) is str and PyUnicode_IS_ASCII(value) else value.casefold()
    _FOLD.source = value
    _FOLD.folded = folded
    return folded


cdef object _ascii_lower(object value):
    # the casefold of ASCII text maps A-Z to a-z and nothing else; text without capitals is its own casefold
    cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(value)
    cdef const unsigned char* data = <const unsigned char*>PyUnicode_DATA(value)
    cdef unsigned char* out
    cdef unsigned char ch
    for i in range(n):
        if 65 <= data[i] <= 90:
            break
    else:
        return value
    folded = PyUnicode_New(n, 127)
    out = PyUnicode_1BYTE_DATA(folded)
    for i in range(n):
        ch = data[i]
        out[i] = ch + 32 if 65 <= ch <= 90 else ch
    return folded


cdef inline int _check(object probe, object value, object out) except -1:
    if not isinstance(probe, tuple) or PyTuple_GET_SIZE(probe) != 7:
        raise TypeError("probe must be a tuple of 7 tables")
    if not isinstance(value, str):
        raise TypeError("value must be str")
    if not isinstance(out, set):
        raise TypeError("out must be a set")
    return 0


cdef int _update(Sink* sink, object hits) except -1:
    """Add ``hits`` (rule orders) to the sink; 1 when the array spilled (stop and start again with a set)."""
    cdef Py_ssize_t value
    if sink.out != NULL:
        if type(hits) is tuple:
            for item in <tuple>hits:
                PySet_Add(<object>sink.out, item)
        else:
            (<set>sink.out).update(hits)
        return 0
    if type(hits) is not tuple:
        sink.spill = True
        return 1
    for item in <tuple>hits:
        if type(item) is not int or sink.n == SINK_CAP:
            sink.spill = True
            return 1
        value = PyLong_AsSsize_t(item)
        if value == -1 and PyErr_Occurred() is not NULL:  # out of range
            PyErr_Clear()
            sink.spill = True
            return 1
        sink.orders[sink.n] = value
        sink.n += 1
    return 0


cdef int _walk(object trie, object value, Sink* sink) except -1:
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
        i += PyUnicode_GET_LENGTH(label)  # a str: ``PyUnicode_Tailmatch`` accepted it
        if ends:
            if _update(sink, ends):
                return 1
        if node is None:
            return 0
    return 0


cdef int _scan_bytes(object literals, const unsigned char* data, Py_ssize_t n, Sink* sink) except -1:
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
                if _update(sink, rules_obj[out_ids[begin]]):
                    return 1
            begin += 1
    return 0


cdef int _scan(object literals, object value, Sink* sink) except -1:
    cdef bytes encoded
    if PyUnicode_IS_ASCII(value):
        return _scan_bytes(literals, <const unsigned char*>PyUnicode_DATA(value), PyUnicode_GET_LENGTH(value), sink)
    encoded = value.encode("utf-8", "surrogatepass")
    return _scan_bytes(literals, <const unsigned char*>PyBytes_AS_STRING(encoded), PyBytes_GET_SIZE(encoded), sink)


cdef inline object _get(object table, object key):
    # ``table.get(key)``, without the method call for a plain dict
    cdef PyObject* found
    if type(table) is dict:
        found = PyDict_GetItemWithError(table, key)
        return None if found is NULL else <object>found
    return table.get(key)


def collect_candidates(probe, value, out):
    """Add to ``out`` the orders of every rule whose index key ``value`` satisfies."""
    _forget_fold()
    _check(probe, value, out)
    cdef Sink sink
    sink.out = <PyObject*>out
    sink.spill = False
    sink.n = 0
    _collect(probe, value, &sink)


cdef int _collect(tuple probe, object value, Sink* sink) except -1:
    """Add the candidates of one value; 1 when the sink spilled (the rest is left undone)."""
    exact, exact_fold, trie, trie_fold, literals, literals_fold, prefilter_fold = probe
    cdef object text = value
    if exact is not None:
        hits = _get(exact, text)
        if hits:
            if _update(sink, hits):
                return 1
    if exact_fold is not None or trie_fold is not None:
        casefolded = _casefold(text)  # the semantics of `~i`
        if exact_fold is not None:
            hits = _get(exact_fold, casefolded)
            if hits:
                if _update(sink, hits):
                    return 1
        if trie_fold is not None:
            if _walk(trie_fold, casefolded, sink):
                return 1
    if trie is not None:
        if _walk(trie, text, sink):
            return 1
    if literals is not None:
        if _scan(literals, text, sink):
            return 1
    if literals_fold is not None:
        # regex case-folding also equates a few non-ASCII letters with ASCII ones
        if _scan(literals_fold, text if PyUnicode_IS_ASCII(text) else _casefold(text).translate(prefilter_fold), sink):
            return 1
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
DEF K_PREFIX_FOLD = 11
DEF K_SUFFIX_FOLD = 12
DEF K_CONTAINS = 13
DEF K_CONTAINS_FOLD = 14
DEF N_KINDS = 15

GLOB, GLOB_FOLD, EQ, EQ_FOLD, NE, PREFIX, SUFFIX, IN, TRUTHY, ANY, CALL, PREFIX_FOLD, SUFFIX_FOLD, CONTAINS, CONTAINS_FOLD = range(15)
KINDS = 15
GROUP_SIZE = 3
CLAUSE_SIZE = 4


cdef inline int _check_group(object group) except -1:
    if not isinstance(group, tuple) or PyTuple_GET_SIZE(group) != 3:
        raise TypeError("group must be a tuple (always, fields, tests)")
    return 0


cdef int _gather(tuple group, object subject, Sink* sink) except -1:
    """Collect the candidates of ``group`` for ``subject`` into the sink; 1 when it spilled."""
    always, fields, _tests = group
    if sink.out == NULL:
        if _update(sink, always):
            return 1
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
            if sink.out == NULL:
                _check(probe, value, _A_SET)
            else:
                _check(probe, value, <object>sink.out)
            if _collect(probe, value, sink):
                return 1
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, str):
                    if sink.out == NULL:
                        _check(probe, item, _A_SET)
                    else:
                        _check(probe, item, <object>sink.out)
                    if _collect(probe, item, sink):
                        return 1
    return 0


cdef inline Py_ssize_t _sort_unique(Sink* sink):
    """Sort the sink's orders in place (insertion sort: there are few) and drop repeats; return how many remain."""
    cdef Py_ssize_t i, j, n = sink.n, kept
    cdef Py_ssize_t value
    cdef Py_ssize_t* orders = sink.orders
    for i in range(1, n):
        value = orders[i]
        j = i - 1
        while j >= 0 and orders[j] > value:
            orders[j + 1] = orders[j]
            j -= 1
        orders[j + 1] = value
    if n == 0:
        return 0
    kept = 1
    for i in range(1, n):
        if orders[i] != orders[kept - 1]:
            orders[kept] = orders[i]
            kept += 1
    return kept


cdef list _candidate_orders(tuple group, object subject):
    cdef Sink sink
    cdef Py_ssize_t i, n
    sink.out = NULL
    sink.spill = False
    sink.n = 0
    if not _gather(group, subject, &sink):
        n = _sort_unique(&sink)
        return [PyLong_FromSsize_t(sink.orders[i]) for i in range(n)]
    return _candidate_orders_set(group, subject)


cdef list _candidate_orders_set(tuple group, object subject):
    # the pure twin's way: a set of whatever the tables hold, sorted
    cdef set found = set(group[0])
    cdef Sink sink
    sink.out = <PyObject*>found
    sink.spill = False
    sink.n = 0
    _gather(group, subject, &sink)
    cdef list out = list(found)
    out.sort()
    return out


def candidate_orders(group, subject):
    """Return the orders of the rules of ``group`` that might match ``subject``, ascending."""
    _forget_fold()
    _check_group(group)
    return _candidate_orders(group, subject)


cdef inline bint _starts(object value, object arg) except -1:
    if type(arg) is str:
        return PyUnicode_Tailmatch(value, arg, 0, PY_SSIZE_T_MAX, -1)
    return value.startswith(arg)


cdef inline bint _ends(object value, object arg) except -1:
    if type(arg) is str:
        return PyUnicode_Tailmatch(value, arg, 0, PY_SSIZE_T_MAX, 1)
    return value.endswith(arg)


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
        if len(<tuple>clause) != 4:  # CLAUSE_SIZE
            raise TypeError("a clause is (attr, kind, arg, fallback)")
        attr, kind_obj, arg, fallback = <tuple>clause
        value = getattr(subject, attr)
        if type(value) is not str:
            if not fallback(subject):
                return False
            continue
        kind = kind_obj if type(kind_obj) is int and -1 < kind_obj < N_KINDS else -1
        if kind == K_GLOB:
            ok = arg(value) is not None
        elif kind == K_GLOB_FOLD:
            ok = arg(_casefold(value)) is not None
        elif kind == K_EQ:
            ok = value == arg
        elif kind == K_EQ_FOLD:
            ok = _casefold(value) == arg
        elif kind == K_NE:
            ok = value != arg
        elif kind == K_PREFIX:
            ok = _starts(value, arg)
        elif kind == K_SUFFIX:
            ok = _ends(value, arg)
        elif kind == K_IN:
            ok = value in arg
        elif kind == K_TRUTHY:
            ok = value != "" and value != "0" and value != "false"
        elif kind == K_ANY:
            ok = True
        elif kind == K_CALL:
            ok = bool(arg(value))
        elif kind == K_PREFIX_FOLD:
            ok = _starts(_casefold(value), arg)
        elif kind == K_SUFFIX_FOLD:
            ok = _ends(_casefold(value), arg)
        elif kind == K_CONTAINS:
            ok = arg in value
        elif kind == K_CONTAINS_FOLD:
            ok = arg in _casefold(value)
        else:
            raise ValueError(f"unknown clause kind {kind_obj!r}")
        if not ok:
            return False
    return True


def holds_test(test, subject):
    """Return whether every clause of ``test`` holds for ``subject``."""
    _forget_fold()
    return _holds(test, subject)


cdef object _DICT_GETITEM = dict.__dict__["__getitem__"]


cdef inline object _test_of(object tests, object order):
    # ``tests[order]``; a dict (or a subclass that keeps dict's ``__getitem__``, such as one with ``__missing__``)
    # is read directly, and a key it lacks goes through ``[]`` so that ``__missing__`` runs
    cdef PyObject* found
    if type(tests) is dict or (PyDict_Check(tests) and _PyType_Lookup(Py_TYPE(tests), "__getitem__") == <PyObject*>_DICT_GETITEM):
        found = PyDict_GetItemWithError(tests, order)
        if found is not NULL:
            return <object>found
    return tests[order]


cdef tuple _first_match(object group, object subject):
    _check_group(group)
    tests = (<tuple>group)[2]
    cdef list tried = []
    for order in _candidate_orders(group, subject):
        if _holds(_test_of(tests, order), subject):
            return order, tried
        tried.append(order)
    return -1, tried


def first_match(group, subject):
    """Return the order of the first rule of ``group`` that holds (-1: none) and the candidate orders tried before it."""
    _forget_fold()
    return _first_match(group, subject)


def all_matches(group, subject):
    """Return the orders of every rule of ``group`` that holds, ascending."""
    _forget_fold()
    _check_group(group)
    tests = (<tuple>group)[2]
    return [order for order in _candidate_orders(group, subject) if _holds(_test_of(tests, order), subject)]


# ---------------------------------------------------------------- a call: a tool's permission list, then the policy lists


def decide_lists(permissions, ranks, items, policies, subject):
    """Run the permission list over each item, then (unless it denied) the policy lists over ``subject``."""
    _forget_fold()
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


# ---------------------------------------------------------------- a call's answer alone: the per-call hot path

PLAN_SIZE = 6


cdef object _first_order(object group, object subject):
    """The order of the first rule of ``group`` that holds for ``subject``, or ``None``; nothing else is kept."""
    cdef Sink sink
    cdef Py_ssize_t i, n
    _check_group(group)
    tests = (<tuple>group)[2]
    sink.out = NULL
    sink.spill = False
    sink.n = 0
    if _gather(group, subject, &sink):
        for order in _candidate_orders_set(group, subject):
            if _holds(_test_of(tests, order), subject):
                return order
        return None
    n = _sort_unique(&sink)
    for i in range(n):
        order = PyLong_FromSsize_t(sink.orders[i])
        if _holds(_test_of(tests, order), subject):
            return order
    return None


cdef int _rank(object entry) except -1:
    if type(entry) is not tuple or len(<tuple>entry) != 2:
        raise TypeError("a verdict entry is (rank, verdict)")
    rank = (<tuple>entry)[0]
    if type(rank) is not int or not (rank is _R0 or rank is _R1 or rank is _R2):
        raise ValueError("a verdict entry's rank is 0, 1 or 2")
    return 0 if rank is _R0 else (1 if rank is _R1 else 2)


def decide_call(plan, items, subject):
    """Return the verdict of a call that only permissions and policy can have an opinion on (see ``_decide_py``)."""
    _forget_fold()
    if not isinstance(plan, tuple) or len(<tuple>plan) != 6:  # PLAN_SIZE
        raise TypeError("plan must be a tuple (permissions, verdicts, no_rule, policies, policy_default, default)")
    if not isinstance(items, tuple):
        raise TypeError("items must be a tuple")
    permissions, verdicts, no_rule, policies, policy_default, default = <tuple>plan
    if not isinstance(policies, tuple):
        raise TypeError("policies must be a tuple of (group, verdicts)")
    cdef object best = None
    cdef int best_rank = -1, rank
    for item in <tuple>items:
        entry = no_rule
        if permissions is not None:
            order = _first_order(permissions, item)
            if order is not None:
                entry = verdicts[order]
        rank = _rank(entry)
        if rank > best_rank:
            best = entry
            best_rank = rank
            if rank == 2:
                return (<tuple>entry)[1]
    entry = policy_default
    for pair in <tuple>policies:
        if type(pair) is not tuple or len(<tuple>pair) != 2:
            raise TypeError("a policy is (group, verdicts)")
        group, table = <tuple>pair
        order = _first_order(group, subject)
        if order is not None:
            entry = table[order]
            break
    if entry is not None and _rank(entry) > best_rank:
        best = entry
    return default if best is None else (<tuple>best)[1]
