"""Choose, for each rule, the index keys the matcher graph looks it up by.

A key is a *necessary* condition: if the rule matches, one of its keys holds.
From ``a and b`` the most selective key of either side is enough; ``a or b``
needs a key for every branch; ``not`` and comparisons we cannot index give no
key, and the rule is then checked for every query (correct, just slower).
"""

from __future__ import annotations

from dataclasses import replace

from ..ir import And, Compare, Expr, Or, Regex
from ..patterns import glob_literals, glob_prefix, regex_literal_alternatives
from .program import IndexKey, Program

#: Literals shorter than this select too much to be worth indexing alone.
MIN_LITERAL = 2

Keys = tuple[IndexKey, ...]


def _score(keys: Keys) -> float:
    """Higher is more selective; a set of alternatives is as weak as its weakest."""
    weights = {"exact": 1000.0, "prefix": 10.0, "literal": 8.0}
    return min(weights[k.kind] + len(k.value) for k in keys) - 0.01 * len(keys)


def _ascii_literals(values: list[str]) -> list[str] | None:
    return values if all(v.isascii() for v in values) else None


def keys_for(expr: Expr) -> Keys | None:
    """Return index keys for ``expr``, or None when it cannot be indexed."""
    if isinstance(expr, Compare):
        return _compare_keys(expr)
    if isinstance(expr, And):
        options = [k for k in (keys_for(item) for item in expr.items) if k]
        return max(options, key=_score) if options else None
    if isinstance(expr, Or):
        collected: list[IndexKey] = []
        for item in expr.items:
            keys = keys_for(item)
            if not keys:
                return None
            collected.extend(keys)
        return tuple(dict.fromkeys(collected))
    return None


def _compare_keys(test: Compare) -> Keys | None:
    field, op, value = test.field, test.op, test.value
    if field in ("exit_code", "output") or field.startswith("args."):
        return None
    if field == "path" or field == "args":
        # multi-valued or derived fields: only literal containment is safe
        if op in ("~", "~i") and isinstance(value, str):
            fold = op == "~i"
            lits = [v for v in glob_literals(value) if len(v) >= MIN_LITERAL]
            if fold:
                lits = [v.casefold() for v in lits if v.isascii()]
            return (IndexKey(field, "literal", max(lits, key=len), fold),) if lits else None
        if op == "=~" and isinstance(value, Regex):
            return _regex_keys(field, value)
        return None
    if op == "==" and isinstance(value, str):
        return (IndexKey(field, "exact", value, False),)
    if op == "in" and isinstance(value, tuple) and value:
        exact = [v for v in value if isinstance(v, str)]
        if len(exact) == len(value):
            return tuple(IndexKey(field, "exact", v, False) for v in exact)
    if op == "^=" and isinstance(value, str) and value:
        return (IndexKey(field, "prefix", value, False),)
    if op in ("~", "~i") and isinstance(value, str):
        fold = op == "~i"
        if fold and not any(c in value for c in "*?[\\"):
            return (IndexKey(field, "exact", value.casefold(), True),)
        prefix = glob_prefix(value)
        literals = [v for v in glob_literals(value) if len(v) >= MIN_LITERAL]
        if fold:
            prefix = prefix.casefold() if prefix.isascii() else ""
            literals = [v.casefold() for v in literals if v.isascii()]
        candidates: list[Keys] = []
        if prefix:
            candidates.append((IndexKey(field, "prefix", prefix, fold),))
        if literals:
            candidates.append((IndexKey(field, "literal", max(literals, key=len), fold),))
        return max(candidates, key=_score) if candidates else None
    if op == "=~" and isinstance(value, Regex):
        return _regex_keys(field, value)
    return None


def _regex_keys(field: str, value: Regex) -> Keys | None:
    found = regex_literal_alternatives(value.source, value.flags)
    if found is None:
        return None
    literals, fold = found
    if fold:
        literals = [v.casefold() for v in literals if v.isascii()] if _ascii_literals(literals) else []
    if not literals or any(len(v.encode()) < MIN_LITERAL for v in literals):
        return None
    return tuple(IndexKey(field, "literal", v, fold) for v in literals)


def options_for(expr: Expr) -> list[Keys]:
    """Return every way to index ``expr``: one key set per indexable conjunct (or the whole)."""
    items = expr.items if isinstance(expr, And) else (expr,)
    return [k for k in (keys_for(item) for item in items) if k]


#: A group this small is cheap to scan; its rules keep their own best key.
MIN_GROUP = 8


def index(program: Program) -> Program:
    """Record the index keys of every rule (rules without keys get none).

    Each rule alone prefers its most selective-looking key; but in a group where
    ``tool == "bash" and command ^= "git x"`` is the shape of every rule, the
    exact tool name is shared by all of them and selects nothing.  So, in a group
    of at least ``MIN_GROUP`` rules, a rule whose conjuncts offer several keys
    takes the one the fewest rules of its group share (ties: the most selective).
    """
    options: dict[int, list[Keys]] = {}
    by_group: dict[str, list[int]] = {}
    for rule in program.rules:
        options[rule.order] = options_for(rule.condition) if isinstance(rule.condition, And) else []
        by_group.setdefault(rule.group, []).append(rule.order)
    keys: dict[int, Keys] = {}
    for orders in by_group.values():
        counts: dict[IndexKey, int] = {}
        if len(orders) >= MIN_GROUP:
            for order in orders:
                for found in options[order]:
                    for key in found:
                        counts[key] = counts.get(key, 0) + 1
        for order in orders:
            found_options = options[order]
            if counts and len(found_options) > 1:
                keys[order] = min(found_options, key=lambda ks: (max(counts[k] for k in ks), len(ks), -_score(ks)))
    for rule in program.rules:
        if rule.order in keys:
            continue
        rule_keys = keys_for(rule.condition)
        if rule_keys:
            keys[rule.order] = rule_keys
    return replace(program, keys=keys)
