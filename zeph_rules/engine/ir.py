"""The one intermediate representation every kind of rule compiles to.

Conditions are small frozen expression trees; a ``Rule`` pairs a condition with
an effect and keeps the source span it came from.  Nothing here imports lark or
pydantic, so compiled graphs (which hold IR nodes for residual checks and for
``explain``) unpickle on the warm path without loading the front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from .span import Span

#: Fields a condition may test, with the type of value each holds.  ``input`` is
#: what permission globs see (the command for shell tools, the path for file
#: tools); ``args`` is every argument value, one per line.
FIELD_TYPES: dict[str, str] = {
    "tool": "string",
    "command": "string",
    "command.full": "string",
    "command.program": "string",
    "path": "path",
    "trust": "string",
    "phase": "string",
    "caller": "string",
    "exit_code": "number",
    "output": "string",
    "input": "string",
    "args": "string",
}
#: ``args.NAME`` reads one argument of the tool call.
ARGS_PREFIX = "args."

STRING_OPS = frozenset({"^=", "$=", "~", "~i", "=~"})
ORDER_OPS = frozenset({"<", "<=", ">", ">="})
EQUALITY_OPS = frozenset({"==", "!="})
ALL_OPS = STRING_OPS | ORDER_OPS | EQUALITY_OPS


def field_type(name: str) -> str | None:
    """Return the value type of a field name, or None when it is unknown."""
    if name.startswith(ARGS_PREFIX) and len(name) > len(ARGS_PREFIX):
        return "any"
    return FIELD_TYPES.get(name)


@dataclass(frozen=True, slots=True)
class Regex:
    """A regex literal ``/source/flags``."""

    source: str
    flags: str = ""

    def __str__(self) -> str:
        return f"/{self.source}/{self.flags}"


Literal = Union[str, int, float, bool, Regex, tuple["Literal", ...]]


@dataclass(frozen=True, slots=True)
class Const:
    value: bool


@dataclass(frozen=True, slots=True)
class Compare:
    """``field OP value``; ``op`` is one of ALL_OPS, ``in`` or ``truthy``."""

    field: str
    op: str
    value: Literal | None
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class Not:
    item: Expr


@dataclass(frozen=True, slots=True)
class And:
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple[Expr, ...]


Expr = Union[Const, Compare, Not, And, Or]

TRUE = Const(True)
FALSE = Const(False)

# Rule kinds: the first-match lists and the filter list.
FILTER = "filter"
PERMISSION = "permission"
POLICY = "policy"
AUTHORIZATION = "authorization"


@dataclass(frozen=True, slots=True)
class Rule:
    """One compiled rule: where it came from, when it applies, what it does.

    ``order`` is the global position used for first-match; ``group`` names the
    ordered list the rule belongs to (``permission:bash``, ``policy``,
    ``filter``); ``effect`` is allow/ask/deny for decision rules and the strategy
    name for filters; ``payload`` holds the rest (strategy parameters, ...).
    """

    id: str
    kind: str
    group: str
    order: int
    condition: Expr
    effect: str
    span: Span
    payload: tuple[tuple[str, Any], ...] = ()
    enabled: bool = True
    source_text: str = ""


def render(expr: Expr) -> str:
    """Render an expression back to DSL text (for explain, traces and messages)."""
    if isinstance(expr, Const):
        return "true" if expr.value else "false"
    if isinstance(expr, Compare):
        if expr.op == "truthy":
            return expr.field
        return f"{expr.field} {expr.op} {_render_literal(expr.value)}"
    if isinstance(expr, Not):
        return f"not {_wrap(expr.item)}"
    joiner = " and " if isinstance(expr, And) else " or "
    return joiner.join(_wrap(item) for item in expr.items)


def _wrap(expr: Expr) -> str:
    text = render(expr)
    return f"({text})" if isinstance(expr, (And, Or)) else text


def _render_literal(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_render_literal(v) for v in value) + "]"
    return str(value)
