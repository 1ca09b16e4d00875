"""The Lark front end: text -> parse tree -> IR, with friendly error messages."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from importlib import resources
from typing import Any

import lark
from lark import Lark, Token, Transformer, v_args

from ..engine.errors import did_you_mean
from ..engine.ir import (
    ALL_OPS,
    ARGS_PREFIX,
    FIELD_TYPES,
    ORDER_OPS,
    And,
    Compare,
    Expr,
    Not,
    Or,
    Regex,
    field_type,
)

REGEX_FLAGS = frozenset("imsx")

_TOKEN_NAMES = {
    "OP": "an operator (==, !=, ^=, $=, ~, ~i, =~, <, <=, >, >=)",
    "_AND": "`and`",
    "_OR": "`or`",
    "_NOT": "`not`",
    "_IN": "`in`",
    "NAME": "a field name",
    "STRING": "a string",
    "REGEX": "a /regex/",
    "SIGNED_NUMBER": "a number",
    "TRUE": "`true`",
    "FALSE": "`false`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "LSQB": "`[`",
    "RSQB": "`]`",
    "COMMA": "`,`",
    "DOT": "`.`",
    "$END": "the end of the expression",
}

# Mistakes people carry over from other languages, and what they meant.
_COMMON_MISTAKES = {
    "=": "`==`",
    "&&": "`and`",
    "&": "`and`",
    "||": "`or`",
    "|": "`or`",
    "!": "`not` (or `!=`)",
    "=^": "`^=`",
    "=$": "`$=`",
    "~=": "`=~`",
    "contains": '`~ "*text*"`',
    "matches": "`=~`",
    "startswith": "`^=`",
    "endswith": "`$=`",
    "AND": "`and`",
    "OR": "`or`",
    "NOT": "`not`",
    "True": "`true`",
    "False": "`false`",
}


class DslSyntaxError(Exception):
    """A DSL expression is invalid; ``offset`` is a character index into it."""

    def __init__(self, message: str, offset: int, length: int = 1, hint: str | None = None, code: str = "ZR100") -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.length = max(1, length)
        self.hint = hint
        self.code = code


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("dsl.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1), m.group(1)), body)


@v_args(meta=True)
class _ToIR(Transformer[Token, Expr]):
    """Build frozen IR nodes; methods are named after grammar rules."""

    def or_(self, meta: Any, items: list[Expr]) -> Expr:
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_(self, meta: Any, items: list[Expr]) -> Expr:
        return items[0] if len(items) == 1 else And(tuple(items))

    def not_(self, meta: Any, items: list[Expr]) -> Expr:
        return Not(items[0])

    def field(self, meta: Any, items: list[Token]) -> Token:
        name = ".".join(str(t) for t in items)
        return Token("FIELD", name, start_pos=items[0].start_pos, end_pos=items[-1].end_pos)

    def string(self, meta: Any, items: list[Token]) -> Any:
        return ("lit", _unescape(str(items[0])[1:-1]), items[0])

    def regex(self, meta: Any, items: list[Token]) -> Any:
        text = str(items[0])
        end = text.rfind("/")
        flags = text[end + 1 :]
        bad = sorted(set(flags) - REGEX_FLAGS)
        if bad:
            raise DslSyntaxError(f"unknown regex flag `{bad[0]}`", (items[0].start_pos or 0) + end + 1, len(flags), "flags are i, m, s and x")
        return ("lit", Regex(text[1:end].replace("\\/", "/"), "".join(sorted(set(flags)))), items[0])

    def number(self, meta: Any, items: list[Token]) -> Any:
        text = str(items[0])
        value: int | float = float(text) if any(c in text for c in ".eE") else int(text)
        return ("lit", value, items[0])

    def true(self, meta: Any, items: list[Token]) -> Any:
        return ("lit", True, items[0])

    def false(self, meta: Any, items: list[Token]) -> Any:
        return ("lit", False, items[0])

    def literal_list(self, meta: Any, items: list[Any]) -> Any:
        values = tuple(item[1] for item in items if item is not None)
        return ("lit", values, None)

    def compare(self, meta: Any, items: list[Any]) -> Expr:
        field, op, (_, value, token) = items
        return _check_compare(field, str(op), value, op, token)

    def member(self, meta: Any, items: list[Any]) -> Expr:
        field, (_, values, _) = items
        _check_field(field)
        return Compare(str(field), "in", values)

    def truthy(self, meta: Any, items: list[Any]) -> Expr:
        _check_field(items[0])
        return Compare(str(items[0]), "truthy", None)


def _check_field(token: Token) -> str:
    name = str(token)
    kind = field_type(name)
    if kind is None:
        candidates = list(FIELD_TYPES) + [ARGS_PREFIX + "NAME"]
        hint = did_you_mean(name, candidates)
        if name.startswith("arg.") or name.startswith("argument"):
            hint = f"did you mean `{ARGS_PREFIX}{name.split('.', 1)[-1]}`?"
        raise DslSyntaxError(
            f"unknown field `{name}`", token.start_pos or 0, len(name), hint or f"fields are {', '.join(FIELD_TYPES)}, args.NAME", "ZR101"
        )
    return kind


def _check_compare(field: Token, op: str, value: Any, op_token: Token, value_token: Token | None) -> Compare:
    kind = _check_field(field)
    at = (value_token.start_pos if value_token is not None else op_token.start_pos) or 0
    width = len(str(value_token)) if value_token is not None else 1
    if op in ORDER_OPS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise DslSyntaxError(f"`{op}` compares numbers, but the value is {_kind_of(value)}", at, width, code="ZR102")
        if kind in ("string", "path"):
            raise DslSyntaxError(f"`{op}` compares numbers, but `{field}` is a {kind}", op_token.start_pos or 0, len(op), code="ZR102")
    elif op == "=~":
        if not isinstance(value, (Regex, str)):
            raise DslSyntaxError(f"`=~` needs a /regex/ or a string, not {_kind_of(value)}", at, width, code="ZR102")
        if isinstance(value, str):
            value = Regex(value)
        _check_regex(value, at, width)
    elif op in ("^=", "$=", "~", "~i"):
        if not isinstance(value, str):
            hint = "use `=~` for a regex" if isinstance(value, Regex) else None
            raise DslSyntaxError(f"`{op}` needs a string, not {_kind_of(value)}", at, width, hint, code="ZR102")
        if kind == "number":
            raise DslSyntaxError(f"`{op}` works on text, but `{field}` is a number", op_token.start_pos or 0, len(op), code="ZR102")
    elif op in ("==", "!=") and isinstance(value, Regex):
        raise DslSyntaxError(f"`{op}` compares values; use `=~` to match a regex", op_token.start_pos or 0, len(op), code="ZR102")
    assert op in ALL_OPS
    return Compare(str(field), op, value)


def _check_regex(value: Regex, at: int, width: int) -> None:
    from ..engine.patterns import MAX_PATTERN_CHARS, RegexProblem, compile_regex

    if len(value.source) > MAX_PATTERN_CHARS:
        raise DslSyntaxError(
            f"regex is {len(value.source)} characters; patterns are limited to {MAX_PATTERN_CHARS}", at, width, code="ZR031"
        )
    try:
        compile_regex(value.source, value.flags)
    except RegexProblem as exc:
        raise DslSyntaxError(f"invalid regex: {exc.message}", at + 1 + (exc.offset or 0), 1, code="ZR030") from None


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, Regex):
        return "a regex"
    if isinstance(value, tuple):
        return "a list"
    return "a string"


def parse_expression(text: str) -> Expr:
    """Parse one DSL condition into an IR expression.

    Raises ``DslSyntaxError`` with the offset of the problem inside ``text``.
    """
    if not text.strip():
        raise DslSyntaxError("empty condition", 0, 1, "write a condition such as `command ^= \"cargo test\"`")
    try:
        tree = _parser().parse(text)
        return _ToIR().transform(tree)
    except lark.exceptions.VisitError as exc:
        if isinstance(exc.orig_exc, DslSyntaxError):
            raise exc.orig_exc from None
        raise
    except lark.exceptions.UnexpectedCharacters as exc:
        rest = text[exc.pos_in_stream :]
        word = re.match(r"[A-Za-z_]+|[=&|!^$~<>]+|.", rest)
        found = word.group() if word else rest[:1]
        raise DslSyntaxError(
            f"unexpected `{found}`", exc.pos_in_stream or 0, len(found), _mistake_hint(found) or _expected(exc.allowed)
        ) from None
    except lark.exceptions.UnexpectedToken as exc:
        token = exc.token
        if token.type == "$END":
            raise DslSyntaxError("the expression ends too early", len(text), 1, _expected(exc.expected)) from None
        found = str(token)
        hint = _mistake_hint(found)
        if hint is None and token.type == "NAME" and "OP" in exc.expected:
            hint = _operator_word_hint(found) or _expected(exc.expected)
        raise DslSyntaxError(f"unexpected `{found}`", token.start_pos or 0, len(found), hint or _expected(exc.expected)) from None


def _mistake_hint(found: str) -> str | None:
    meant = _COMMON_MISTAKES.get(found)
    return f"did you mean {meant}?" if meant else None


def _operator_word_hint(word: str) -> str | None:
    import difflib

    words = {"and": "and", "or": "or", "not": "not", "in": "in"}
    match = difflib.get_close_matches(word.lower(), list(words), n=1, cutoff=0.6)
    return f"did you mean `{match[0]}`?" if match else None


def _expected(expected: Iterable[str]) -> str:
    names = sorted({_TOKEN_NAMES.get(name, name) for name in expected if not str(name).startswith("__")})
    if not names:
        return ""
    return "expected " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1])
