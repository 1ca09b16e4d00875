"""Evaluate IR conditions against one subject (a command, a tool call).

This is the single definition of what a condition means.  The naive evaluator
loops over rules calling ``holds``; the matcher graph narrows the candidates
first and then calls the same ``holds`` on them, so the two can only disagree
if candidate selection is wrong, which is what the property tests look for.

A field the subject does not have makes every test on it false (``not`` makes
it true).  A field with several values (``path`` when a call names several
paths) satisfies a test when any value does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .ir import And, Compare, Const, Expr, Literal, Not, Or, Regex
from .patterns import glob_match, regex_search

MISSING = object()


@dataclass(frozen=True)
class Subject:
    """What a condition is tested against; ``None`` means the field is absent."""

    tool: str | None = None
    command: str | None = None
    command_full: str | None = None
    program: str | None = None
    input: str | None = None
    path: tuple[str, ...] | None = None
    args: Mapping[str, Any] = field(default_factory=dict)
    trust: str | None = None
    phase: str | None = None
    caller: str | None = None
    exit_code: int | None = None
    output: str | None = None

    def get(self, name: str) -> Any:
        """Return the value of a DSL field, or ``MISSING``."""
        if name.startswith("args."):
            value = self.args.get(name[5:], MISSING)
            return MISSING if value is None else value
        attr = _FIELD_ATTRS.get(name)
        if attr is None:
            return MISSING
        if attr == "args":
            if not self.args:
                return MISSING
            return "\n".join(_as_text(v) for v in self.args.values())
        value = getattr(self, attr)
        return MISSING if value is None else value


_FIELD_ATTRS = {
    "tool": "tool",
    "command": "command",
    "command.full": "command_full",
    "command.program": "program",
    "input": "input",
    "path": "path",
    "args": "args",
    "trust": "trust",
    "phase": "phase",
    "caller": "caller",
    "exit_code": "exit_code",
    "output": "output",
}


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    import json

    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def holds(expr: Expr, subject: Subject) -> bool:
    """Return whether ``expr`` is true for ``subject``."""
    if isinstance(expr, Compare):
        return compare(expr, subject.get(expr.field))
    if isinstance(expr, And):
        return all(holds(item, subject) for item in expr.items)
    if isinstance(expr, Or):
        return any(holds(item, subject) for item in expr.items)
    if isinstance(expr, Not):
        return not holds(expr.item, subject)
    if isinstance(expr, Const):
        return expr.value
    raise TypeError(f"not an expression: {expr!r}")


def compare(test: Compare, value: Any) -> bool:
    """Evaluate one comparison against a field value (``MISSING`` is false)."""
    if value is MISSING:
        return False
    if isinstance(value, tuple):
        if test.op == "!=":
            return not any(_compare_one(test, "==", v) for v in value)
        return any(_compare_one(test, test.op, v) for v in value)
    return _compare_one(test, test.op, value)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def _equal(value: Any, literal: Literal | None) -> bool:
    if isinstance(literal, bool) or isinstance(value, bool):
        return value is literal or (isinstance(value, str) and value == ("true" if literal else "false"))
    if isinstance(literal, (int, float)):
        number = _number(value)
        return number is not None and number == float(literal)
    return _as_text(value) == literal


def _compare_one(test: Compare, op: str, value: Any) -> bool:
    literal = test.value
    if op == "truthy":
        return bool(value) and value != "0" and value != "false"
    if op == "==":
        return _equal(value, literal)
    if op == "!=":
        return not _equal(value, literal)
    if op == "in":
        return any(_equal(value, item) for item in literal or ())  # type: ignore[union-attr]
    if op in ("<", "<=", ">", ">="):
        number = _number(value)
        if number is None or not isinstance(literal, (int, float)):
            return False
        bound = float(literal)
        return {"<": number < bound, "<=": number <= bound, ">": number > bound, ">=": number >= bound}[op]
    text = _as_text(value)
    if op == "^=":
        return text.startswith(literal)  # type: ignore[arg-type]
    if op == "$=":
        return text.endswith(literal)  # type: ignore[arg-type]
    if op in ("~", "~i"):
        return glob_match(literal, text, path=test.field == "path", fold=op == "~i")  # type: ignore[arg-type]
    if op == "=~":
        regex = literal if isinstance(literal, Regex) else Regex(str(literal))
        return regex_search(regex.source, regex.flags, text)
    raise ValueError(f"unknown operator {op!r}")
