"""Sound reasoning over IR conditions: implication, contradiction, examples.

Every answer here is a proof or a "don't know": ``implies`` returns True only
when every subject satisfying the first condition satisfies the second, and
``unsatisfiable`` only when no subject can satisfy the condition.  A linter
that cries wolf gets switched off, so when in doubt these say False.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..evaluate import Subject, holds
from ..ir import FALSE, TRUE, And, Compare, Const, Expr, Not, Or, Regex
from ..patterns import glob_match, regex_search
from .automata import GlobProblem, Unsupported, glob_nfa, included, intersects, shortest

#: Fields that may carry several values at once (a test holds when any value does).
MULTI_VALUED = frozenset({"path"})
_ORDER = ("<", "<=", ">", ">=")


def strip_spans(expr: Expr) -> Expr:
    """Return ``expr`` without source spans, so equal conditions compare equal."""
    if isinstance(expr, Compare):
        return replace(expr, span=None) if expr.span is not None else expr
    if isinstance(expr, And):
        return And(tuple(strip_spans(e) for e in expr.items))
    if isinstance(expr, Or):
        return Or(tuple(strip_spans(e) for e in expr.items))
    if isinstance(expr, Not):
        return Not(strip_spans(expr.item))
    return expr


# ------------------------------------------------------------------ implication


def implies(a: Expr, b: Expr) -> bool:
    """Return True when ``a`` provably implies ``b`` (False means "not proven")."""
    if b == TRUE or a == FALSE or a == b:
        return True
    if isinstance(a, Or):
        return all(implies(x, b) for x in a.items)
    if isinstance(b, And):
        return all(implies(a, y) for y in b.items)
    if isinstance(a, And) and any(implies(x, b) for x in a.items):
        return True
    if isinstance(b, Or):
        return any(implies(a, y) for y in b.items)
    if isinstance(a, Compare) and isinstance(b, Compare):
        return _atom_implies(a, b)
    return False


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\\])", r"\\\1", text)


def _as_glob(test: Compare) -> tuple[str, bool] | None:
    """Return (glob, fold) describing the strings ``test`` accepts, when it is a string test."""
    value, path = test.value, test.field == "path"
    any_text = "**" if path else "*"
    if not _is_str(value):
        return None
    assert isinstance(value, str)
    if test.op == "==":
        return _glob_escape(value), False
    if test.op == "^=":
        return _glob_escape(value) + any_text, False
    if test.op == "$=":
        return any_text + _glob_escape(value), False
    if test.op in ("~", "~i"):
        return value, test.op == "~i"
    return None


def _glob_included(a: tuple[str, bool], b: tuple[str, bool], path: bool) -> bool:
    if a[1] and not b[1]:
        return False  # a case-insensitive language is not inside a case-sensitive one, in general
    try:
        # folding `a` when `b` folds: if s matches a, casefold(s) matches casefold(a)
        nfa_a = glob_nfa(a[0], path, b[1])
        nfa_b = glob_nfa(b[0], path, b[1])
    except (GlobProblem, Unsupported):
        return False
    return included(nfa_a, [nfa_b]).included is True


def _interval(op: str, value: float) -> tuple[float, bool, float, bool]:
    inf = float("inf")
    return {
        "<": (-inf, False, value, False), "<=": (-inf, False, value, True),
        ">": (value, False, inf, False), ">=": (value, True, inf, False),
        "==": (value, True, value, True),
    }[op]


def _interval_inside(a: tuple[float, bool, float, bool], b: tuple[float, bool, float, bool]) -> bool:
    lo_ok = a[0] > b[0] or (a[0] == b[0] and (b[1] or not a[1]))
    hi_ok = a[2] < b[2] or (a[2] == b[2] and (b[3] or not a[3]))
    return lo_ok and hi_ok


def _interval_empty(a: tuple[float, bool, float, bool], b: tuple[float, bool, float, bool]) -> bool:
    lo = max((a[0], not a[1]), (b[0], not b[1]))
    hi = min((a[2], a[3]), (b[2], b[3]))
    return lo[0] > hi[0] or (lo[0] == hi[0] and (lo[1] or not hi[1]))


def _atom_implies(a: Compare, b: Compare) -> bool:
    if a.field != b.field:
        return False
    if (a.op, a.value) == (b.op, b.value):
        return True
    multi = a.field in MULTI_VALUED
    av, bv = a.value, b.value
    if a.op == "in" and isinstance(av, tuple) and av:
        return all(_atom_implies(Compare(a.field, "==", v), b) for v in av)
    if b.op == "in" and isinstance(bv, tuple):
        return a.op == "==" and any(av == v and type(av) is type(v) for v in bv)
    if b.op == "!=":
        return not multi and a.op == "==" and _is_str(av) and _is_str(bv) and av != bv
    if b.op in _ORDER or (b.op == "==" and _number(bv) is not None):
        na, nb = _number(av), _number(bv)
        if na is None or nb is None or a.op not in (*_ORDER, "=="):
            return False
        return _interval_inside(_interval(a.op, na), _interval(b.op, nb))
    if b.op == "=~":
        return a.op == "==" and _is_str(av) and isinstance(bv, Regex) and regex_search(bv.source, bv.flags, av)  # type: ignore[arg-type]
    if b.op == "==":
        return a.op == "==" and av == bv
    if b.op in ("^=", "$=", "~", "~i"):
        ga, gb = _as_glob(a), _as_glob(b)
        if ga is None or gb is None:
            return False
        if a.op == "==" and _is_str(av):
            assert isinstance(gb[0], str)
            try:
                return glob_match(gb[0], av, path=a.field == "path", fold=gb[1])  # type: ignore[arg-type]
            except re.error:
                return False
        return _glob_included(ga, gb, a.field == "path")
    return False


# ------------------------------------------------------------------ contradiction


def unsatisfiable(expr: Expr) -> bool:
    """Return True when no subject can satisfy ``expr`` (proven)."""
    if isinstance(expr, Const):
        return not expr.value
    if isinstance(expr, Or):
        return all(unsatisfiable(item) for item in expr.items)
    if isinstance(expr, And):
        atoms = [strip_spans(item) for item in expr.items]
        if any(unsatisfiable(item) for item in atoms):
            return True
        compares = [a for a in atoms if isinstance(a, Compare)]
        return any(_contradict(x, y) for i, x in enumerate(compares) for y in compares[i + 1 :])
    if isinstance(expr, Compare):
        return _empty_atom(expr)
    if isinstance(expr, Not):
        inner = expr.item
        return isinstance(inner, Const) and inner.value
    return False


def _empty_atom(test: Compare) -> bool:
    if test.op == "in" and test.value == ():
        return True
    if test.op in ("~", "~i") and _is_str(test.value):
        try:
            return shortest(glob_nfa(test.value, test.field == "path", test.op == "~i")) is None  # type: ignore[arg-type]
        except (GlobProblem, Unsupported):
            return False
    return False


def _contradict(x: Compare, y: Compare) -> bool:
    """Return True when ``x and y`` cannot both hold (same single-valued field)."""
    if x.field != y.field or x.field in MULTI_VALUED:
        return False
    for a, b in ((x, y), (y, x)):
        if a.op == "==" and _is_str(a.value):
            value = a.value
            assert isinstance(value, str)
            if b.op == "truthy":
                continue
            if b.field not in _ATTR:
                return False
            fields: dict[str, Any] = {_ATTR[b.field]: value}  # one of the subject's text fields
            try:
                return not holds(b, Subject(**fields))
            except re.error:
                return False
        if a.op == "in" and isinstance(a.value, tuple) and a.value and all(_is_str(v) for v in a.value):
            return all(_contradict(Compare(a.field, "==", v), b) for v in a.value)
    if x.op == "^=" and y.op == "^=" and isinstance(x.value, str) and isinstance(y.value, str):
        return not (x.value.startswith(y.value) or y.value.startswith(x.value))
    if x.op == "$=" and y.op == "$=" and isinstance(x.value, str) and isinstance(y.value, str):
        return not (x.value.endswith(y.value) or y.value.endswith(x.value))
    if x.op in (*_ORDER, "==") and y.op in (*_ORDER, "=="):
        nx, ny = _number(x.value), _number(y.value)
        if nx is not None and ny is not None:
            return _interval_empty(_interval(x.op, nx), _interval(y.op, ny))
    gx, gy = _as_glob(x), _as_glob(y)
    if gx is not None and gy is not None and gx[1] == gy[1] and x.op != "==" and y.op != "==":
        try:
            return not intersects(glob_nfa(gx[0], False, gx[1]), glob_nfa(gy[0], False, gy[1]))
        except (GlobProblem, Unsupported):
            return False
    return False


# Single-valued DSL fields and the Subject attribute holding each.
_ATTR = {"tool": "tool", "command": "command", "command.full": "command_full", "command.program": "program",
         "trust": "trust", "phase": "phase", "caller": "caller", "input": "input", "output": "output"}


# ------------------------------------------------------------------ examples


def example_subject(expr: Expr) -> tuple[Subject, str] | None:
    """Build a subject satisfying ``expr`` and a short description of it, or None."""
    atoms = list(expr.items) if isinstance(expr, And) else [expr]
    values: dict[str, Any] = {}
    for atom in atoms:
        if not isinstance(atom, Compare):
            return None
        value = _example_value(atom)
        if value is None or atom.field in values:
            return None
        values[atom.field] = value
    kwargs: dict[str, Any] = {}
    args: dict[str, Any] = {}
    for name, value in values.items():
        if name == "path":
            kwargs["path"] = (value,)
        elif name == "exit_code":
            kwargs["exit_code"] = value
        elif name.startswith("args."):
            args[name[5:]] = value
        elif name in _ATTR:
            kwargs[_ATTR[name]] = value
        else:
            return None
    subject = Subject(args=args, **kwargs)
    try:
        if not holds(expr, subject):
            return None
    except re.error:
        return None
    described = ", ".join(f"{name}={value!r}" if not isinstance(value, str) else f'{name}="{value}"' for name, value in values.items())
    return subject, described


def _example_value(test: Compare) -> Any:
    value = test.value
    if test.op in ("==", "^=", "$=") and (_is_str(value) or _number(value) is not None):
        return value
    if test.op == "in" and isinstance(value, tuple) and value:
        return value[0]
    if test.op in ("~", "~i") and _is_str(value):
        try:
            return shortest(glob_nfa(value, test.field == "path", False))  # type: ignore[arg-type]
        except (GlobProblem, Unsupported):
            return None
    if test.op in _ORDER and _number(value) is not None:
        number = _number(value)
        assert number is not None
        step = {"<": -1, "<=": 0, ">": 1, ">=": 0}[test.op]
        return int(number) + step if number == int(number) else number
    return None
