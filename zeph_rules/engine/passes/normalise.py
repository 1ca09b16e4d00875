"""Normalise conditions: flatten nested and/or, remove double negation,
push ``not`` into invertible comparisons, and turn wildcard-free globs into
equality so the index pass can use a dict for them."""

from __future__ import annotations

from dataclasses import replace

from ..ir import And, Compare, Const, Expr, Not, Or
from .program import Program

_INVERSE = {"==": "!=", "!=": "=="}
_WILDCARDS = frozenset("*?[\\")


def normalise_expr(expr: Expr) -> Expr:
    if isinstance(expr, (And, Or)):
        kind = type(expr)
        items: list[Expr] = []
        for item in (normalise_expr(i) for i in expr.items):
            items.extend(item.items if isinstance(item, kind) else (item,))
        return kind(tuple(items)) if len(items) != 1 else items[0]
    if isinstance(expr, Not):
        inner = normalise_expr(expr.item)
        if isinstance(inner, Not):
            return inner.item
        if isinstance(inner, Const):
            return Const(not inner.value)
        if isinstance(inner, Compare) and inner.op in _INVERSE and not isinstance(inner.value, tuple):
            # `not f == x` and `f != x` agree only when the field is present;
            # keep the Not so a missing field stays true under `not`.
            return Not(inner)
        return Not(inner)
    if isinstance(expr, Compare) and expr.op == "~" and isinstance(expr.value, str) and not (_WILDCARDS & set(expr.value)):
        return replace(expr, op="==")
    return expr


def normalise(program: Program) -> Program:
    """Normalise every rule's condition."""
    return program.with_rules(tuple(replace(r, condition=normalise_expr(r.condition)) for r in program.rules))
