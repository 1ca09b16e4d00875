"""Pure-Python candidate lookup for one indexed field: the readable reference for ``_decide_c``.

A *probe* is the plain-value form of one ``FieldIndex`` (built once per graph,
at first use, by ``engine.graph``)::

    (exact, exact_fold, trie, trie_fold, literals, literals_fold, prefilter_fold)

``exact`` / ``exact_fold`` map a value (casefolded for ``_fold``) to rule
orders; ``trie`` / ``trie_fold`` are radix tries (see ``radix_trie``): a node
is a dict ``{first char: (label, ends, child)}`` where ``label`` is the whole
edge text (starting with that char), ``ends`` the orders of the prefixes ending
after it (or ``None``) and ``child`` the next node (or ``None``), so a walk does
one dict lookup per branching point rather than per character; ``literals`` /
``literals_fold`` are the arrays of a ``LiteralTable`` and the rule orders
per literal id, ``(class_of, delta, out_start, out_ids, n_classes, rules)``, or
``None``; ``prefilter_fold`` is the ``str.translate`` map applied after
``casefold`` for the case-insensitive literal table (non-ASCII text only: for
ASCII text the table's class map already folds case).  Empty tables are ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PROBE_SIZE = 7


def _check(probe: object, value: object, out: object) -> None:
    if not isinstance(probe, tuple) or len(probe) != PROBE_SIZE:
        raise TypeError("probe must be a tuple of 7 tables")
    if not isinstance(value, str):
        raise TypeError("value must be str")
    if not isinstance(out, set):
        raise TypeError("out must be a set")


def radix_trie(node: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the radix form of a ``{char: node, "": orders}`` trie (``None`` when empty).

    Chains of nodes with one child and no orders become one edge label.  The
    root's own orders (an empty prefix) are dropped: a walk never reports them.
    """
    out: dict[str, Any] = {}
    for ch, child in node.items():
        if ch == "":
            continue
        label = ch
        while len(child) == 1 and "" not in child:
            ((next_ch, child),) = child.items()
            label += next_ch
        out[ch] = (label, child.get("") or None, radix_trie(child))
    return out or None


def _walk(trie: Any, value: str, out: set[int]) -> None:
    node = trie
    i = 0
    n = len(value)
    while i < n:
        entry = node.get(value[i])
        if entry is None:
            return
        label, ends, node = entry
        if not value.startswith(label, i):
            return
        i += len(label)
        if ends:
            out.update(ends)
        if node is None:
            return


def _scan(literals: tuple[Any, ...], data: bytes, out: set[int]) -> None:
    if not isinstance(literals, tuple) or len(literals) != 6:
        raise TypeError("literals must be (class_of, delta, out_start, out_ids, n_classes, rules)")
    class_of, delta, out_start, out_ids, n_classes, rules = literals
    state = 0
    for byte in data:
        state = delta[state * n_classes + class_of[byte]]
        begin = out_start[state]
        end = out_start[state + 1]
        while begin < end:
            out.update(rules[out_ids[begin]])
            begin += 1


def collect_candidates(probe: tuple[Any, ...], value: str, out: set[int]) -> None:
    """Add to ``out`` the orders of every rule whose index key ``value`` satisfies."""
    _check(probe, value, out)
    exact, exact_fold, trie, trie_fold, literals, literals_fold, prefilter_fold = probe
    if exact is not None:
        hits = exact.get(value)
        if hits:
            out.update(hits)
    if exact_fold is not None or trie_fold is not None:
        casefolded = value.casefold()  # the semantics of `~i`
        if exact_fold is not None:
            hits = exact_fold.get(casefolded)
            if hits:
                out.update(hits)
        if trie_fold is not None:
            _walk(trie_fold, casefolded, out)
    if trie is not None:
        _walk(trie, value, out)
    if literals is not None:
        _scan(literals, value.encode("utf-8", "surrogatepass"), out)
    if literals_fold is not None:
        # regex case-folding also equates a few non-ASCII letters with ASCII ones
        folded = value if value.isascii() else value.casefold().translate(prefilter_fold)
        _scan(literals_fold, folded.encode("utf-8", "surrogatepass"), out)


# ---------------------------------------------------------------- a whole group: candidates, then tests in order

#: Clause kinds: what a clause ``(attr, kind, arg, fallback)`` checks on a ``str`` attribute value
#: (``_FOLD`` kinds compare the casefolded value with an already casefolded ``arg``).
GLOB, GLOB_FOLD, EQ, EQ_FOLD, NE, PREFIX, SUFFIX, IN, TRUTHY, ANY, CALL, PREFIX_FOLD, SUFFIX_FOLD, CONTAINS, CONTAINS_FOLD = range(15)
KINDS = 15
GROUP_SIZE = 3
CLAUSE_SIZE = 4


def _check_group(group: object) -> None:
    if not isinstance(group, tuple) or len(group) != GROUP_SIZE:
        raise TypeError("group must be a tuple (always, fields, tests)")


def candidate_orders(group: tuple[Any, ...], subject: Any) -> list[int]:
    """Return the orders of the rules of ``group`` that might match ``subject``, ascending.

    ``group`` is ``(always, fields, tests)``: the orders checked for every
    subject, ``(attr, probe)`` per indexed field (``attr`` names the subject's
    attribute, or is ``(guard, derive)`` for a derived field: ``derive(subject)``
    when the attribute ``guard`` is truthy), and rule
    order -> test (see ``holds_test``).
    """
    _check_group(group)
    always, fields, _tests = group
    found: set[int] = set(always)
    for entry in fields:
        if type(entry) is not tuple or len(entry) != 2:
            raise TypeError("a field is (attr, probe)")
        attr, probe = entry
        if type(attr) is str:
            value = getattr(subject, attr)
        else:  # (guard, derive): a derived value, worked out only when the guard attribute is truthy
            if type(attr) is not tuple or len(attr) != 2:
                raise TypeError("a field's attr is a name or (guard, derive)")
            guard, derive = attr
            value = derive(subject) if getattr(subject, guard) else None
        if isinstance(value, str):
            collect_candidates(probe, value, found)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, str):
                    collect_candidates(probe, item, found)
    return sorted(found)


def holds_test(test: tuple[Any, ...], subject: Any) -> bool:
    """Return whether every clause of ``test`` holds for ``subject``.

    A clause is a function of the subject, or ``(attr, kind, arg, fallback)``:
    a check of kind ``kind`` against ``arg`` when the attribute is a ``str``,
    else ``fallback(subject)``.
    """
    if not isinstance(test, tuple):
        raise TypeError("test must be a tuple of clauses")
    for clause in test:
        if type(clause) is not tuple:
            if not clause(subject):
                return False
            continue
        if len(clause) != CLAUSE_SIZE:
            raise TypeError("a clause is (attr, kind, arg, fallback)")
        attr, kind, arg, fallback = clause
        value = getattr(subject, attr)
        if type(value) is not str:
            if not fallback(subject):
                return False
            continue
        if type(kind) is not int or not 0 <= kind < KINDS:
            raise ValueError(f"unknown clause kind {kind!r}")
        if kind == GLOB:
            ok = arg(value) is not None
        elif kind == GLOB_FOLD:
            ok = arg(value.casefold()) is not None
        elif kind == EQ:
            ok = value == arg
        elif kind == EQ_FOLD:
            ok = value.casefold() == arg
        elif kind == NE:
            ok = value != arg
        elif kind == PREFIX:
            ok = value.startswith(arg)
        elif kind == SUFFIX:
            ok = value.endswith(arg)
        elif kind == IN:
            ok = value in arg
        elif kind == TRUTHY:
            ok = value != "" and value != "0" and value != "false"
        elif kind == ANY:
            ok = True
        elif kind == CALL:
            ok = bool(arg(value))
        elif kind == PREFIX_FOLD:
            ok = value.casefold().startswith(arg)
        elif kind == SUFFIX_FOLD:
            ok = value.casefold().endswith(arg)
        elif kind == CONTAINS:
            ok = arg in value
        else:  # CONTAINS_FOLD
            ok = arg in value.casefold()
        if not ok:
            return False
    return True


def first_match(group: tuple[Any, ...], subject: Any) -> tuple[int, list[int]]:
    """Return the order of the first rule of ``group`` that holds (-1: none) and the candidate orders tried before it."""
    tests = group[2] if isinstance(group, tuple) and len(group) == GROUP_SIZE else None
    tried: list[int] = []
    for order in candidate_orders(group, subject):
        if holds_test(tests[order], subject):  # type: ignore[index]
            return order, tried
        tried.append(order)
    return -1, tried


def all_matches(group: tuple[Any, ...], subject: Any) -> list[int]:
    """Return the orders of every rule of ``group`` that holds, ascending."""
    tests = group[2] if isinstance(group, tuple) and len(group) == GROUP_SIZE else None
    return [order for order in candidate_orders(group, subject) if holds_test(tests[order], subject)]  # type: ignore[index]


# ---------------------------------------------------------------- a call: a tool's permission list, then the policy lists


def decide_lists(permissions: tuple[Any, ...] | None, ranks: Any, items: tuple[Any, ...], policies: tuple[Any, ...],
                 subject: Any) -> tuple[int, list[tuple[int, list[int]]], list[tuple[int, list[int]]]]:
    """Run the permission list over each item, then (unless it denied) the policy lists over ``subject``.

    ``permissions`` is a group (see ``candidate_orders``) or ``None`` (the tool
    has no list: every item gets no rule); ``ranks`` maps the order of each of
    its rules to 0 (allow), 1 (ask) or 2 (deny); ``items`` are the subjects the
    list sees (the segments of a command line, or the call itself), empty when
    no permissions are configured; ``policies`` are the groups tried in turn on
    ``subject`` until one has a matching rule (empty when policy is off).

    Returns ``(worst, found, policy)``: ``found`` is ``(order, tried)`` per item
    looked at (``first_match``'s answer; looking stops after the first deny),
    ``worst`` the index in ``found`` of the most restrictive answer (the earliest
    among equals; no rule counts as ask) or -1 when ``found`` is empty, and
    ``policy`` is ``(order, tried)`` per policy group looked at; it is empty when
    the permission list denied.
    """
    if not isinstance(items, tuple) or not isinstance(policies, tuple):
        raise TypeError("items and policies must be tuples")
    found: list[tuple[int, list[int]]] = []
    worst = -1
    worst_rank = -1
    for item in items:
        tried: list[int]
        if permissions is None:
            order, tried = -1, []
            rank = 1
        else:
            order, tried = first_match(permissions, item)
            rank = 1 if order < 0 else ranks[order]
        found.append((order, tried))
        if rank > worst_rank:
            worst, worst_rank = len(found) - 1, rank
            if rank >= 2:
                return worst, found, []
    policy: list[tuple[int, list[int]]] = []
    for group in policies:
        order, tried = first_match(group, subject)
        policy.append((order, tried))
        if order >= 0:
            break
    return worst, found, policy


# ---------------------------------------------------------------- a call's answer alone: the per-call hot path

PLAN_SIZE = 6


def _first_order(group: tuple[Any, ...], subject: Any) -> Any:
    """Return the order of the first rule of ``group`` that holds for ``subject``, or ``None``."""
    tests = group[2] if isinstance(group, tuple) and len(group) == GROUP_SIZE else None
    for order in candidate_orders(group, subject):
        if holds_test(tests[order], subject):  # type: ignore[index]
            return order
    return None


def _rank(entry: object) -> int:
    if type(entry) is not tuple or len(entry) != 2:
        raise TypeError("a verdict entry is (rank, verdict)")
    rank = entry[0]
    if type(rank) is not int or not 0 <= rank <= 2:
        raise ValueError("a verdict entry's rank is 0, 1 or 2")
    return rank


def decide_call(plan: tuple[Any, ...], items: tuple[Any, ...], subject: Any) -> Any:
    """Return the verdict of a call that only permissions and policy can have an opinion on.

    The answer ``decide_lists`` leads to, without what was tried: nothing is
    kept for the explanation, which is worked out again when it is read.

    ``plan`` is ``(permissions, verdicts, no_rule, policies, policy_default,
    default)``, plain values built once per tool: ``permissions`` is the tool's
    permission group (see ``candidate_orders``) or ``None``; ``verdicts`` maps
    the order of each of its rules to an entry ``(rank, verdict)``, rank 0
    (allow), 1 (ask) or 2 (deny); ``no_rule`` is the entry of an item no rule
    matches; ``policies`` are ``(group, verdicts)`` pairs tried in turn on
    ``subject`` until one has a matching rule; ``policy_default`` is the entry
    when none has (or ``None``: no opinion); ``default`` is returned when
    nothing had an opinion.  ``items`` are the subjects the permission list
    sees (empty when no permissions are configured).

    The most restrictive entry wins, the earliest among equals (permissions
    before policy); a deny from the permission list ends the call at once.
    Returns that entry's verdict.
    """
    if not isinstance(plan, tuple) or len(plan) != PLAN_SIZE:
        raise TypeError("plan must be a tuple (permissions, verdicts, no_rule, policies, policy_default, default)")
    if not isinstance(items, tuple):
        raise TypeError("items must be a tuple")
    permissions, verdicts, no_rule, policies, policy_default, default = plan
    if not isinstance(policies, tuple):
        raise TypeError("policies must be a tuple of (group, verdicts)")
    best = None
    best_rank = -1
    for item in items:
        entry = no_rule
        if permissions is not None:
            order = _first_order(permissions, item)
            if order is not None:
                entry = verdicts[order]
        rank = _rank(entry)
        if rank > best_rank:
            best, best_rank = entry, rank
            if rank == 2:
                return entry[1]
    entry = policy_default
    for pair in policies:
        if type(pair) is not tuple or len(pair) != 2:
            raise TypeError("a policy is (group, verdicts)")
        group, table = pair
        order = _first_order(group, subject)
        if order is not None:
            entry = table[order]
            break
    if entry is not None and _rank(entry) > best_rank:
        best = entry
    return default if best is None else best[1]
