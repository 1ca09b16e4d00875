"""Fold constants and drop duplicate operands (``a and true`` -> ``a``)."""

from __future__ import annotations

from dataclasses import replace

from ..ir import FALSE, TRUE, And, Const, Expr, Not, Or
from .program import Program


def simplify_expr(expr: Expr) -> Expr:
    if isinstance(expr, And):
        items: list[Expr] = []
        for item in (simplify_expr(i) for i in expr.items):
            if item == FALSE:
                return FALSE
            if item != TRUE and item not in items:
                items.append(item)
        return TRUE if not items else items[0] if len(items) == 1 else And(tuple(items))
    if isinstance(expr, Or):
        items = []
        for item in (simplify_expr(i) for i in expr.items):
            if item == TRUE:
                return TRUE
            if item != FALSE and item not in items:
                items.append(item)
        return FALSE if not items else items[0] if len(items) == 1 else Or(tuple(items))
    if isinstance(expr, Not):
        inner = simplify_expr(expr.item)
        return Const(not inner.value) if isinstance(inner, Const) else Not(inner)
    return expr


def simplify(program: Program) -> Program:
    """Simplify every rule's condition."""
    return program.with_rules(tuple(replace(r, condition=simplify_expr(r.condition)) for r in program.rules))
