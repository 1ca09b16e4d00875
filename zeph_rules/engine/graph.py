"""The matcher graph: compiled rules as plain tables, queried per tool call.

Lookup cost depends on the length of the command, not on the number of rules:
each indexed field has a dict of exact values, a prefix trie and one
Aho–Corasick automaton of required literals (case-sensitive and casefolded).
They yield candidate rules; the candidates (plus the few rules that could not
be indexed) are then checked in rule order with the same ``holds`` the naive
evaluator uses, so first-match semantics are exact.

This module must stay importable without lark, pydantic or tomlkit: a pickled
graph is what the warm path loads.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .. import _speedups
from .._speedups import _decide_py as D  # the clause kinds (shared by both twins)
from .commands import parse_command
from .evaluate import _FIELD_ATTRS, MISSING, Subject, compare, holds
from .ir import FILTER, PERMISSION, And, Compare, Const, Expr, Not, Or, Regex, Rule
from .patterns import _PREFILTER_FOLD, compiled_glob, regex_search

_TRIE_END = ""  # key under which a trie node stores the rule orders ending there


class _Derived:
    """Tables derived from the frozen fields at first use; never pickled (rebuilt on demand)."""

    _DERIVED: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for name in self._DERIVED:
            state.pop(name, None)
        return state


@dataclass(frozen=True)
class FieldIndex(_Derived):
    """Lookup tables for one field of one rule group."""

    _DERIVED = ("probe",)

    field: str
    exact: Mapping[str, tuple[int, ...]]
    exact_fold: Mapping[str, tuple[int, ...]]
    trie: Mapping[str, Any]
    trie_fold: Mapping[str, Any]
    literals: Any  # LiteralTable | None
    literal_rules: tuple[tuple[int, ...], ...]
    literals_fold: Any
    literal_rules_fold: tuple[tuple[int, ...], ...]

    def candidates(self, value: str, out: set[int]) -> None:
        """Add the orders of the rules whose key ``value`` satisfies to ``out``."""
        _speedups.collect_candidates(self.probe, value, out)

    @cached_property
    def probe(self) -> tuple[Any, ...]:
        """The plain-value tables ``_speedups.collect_candidates`` reads (see ``_decide_py``)."""
        return (
            self.exact or None, self.exact_fold or None, D.radix_trie(self.trie), D.radix_trie(self.trie_fold),
            _literal_probe(self.literals, self.literal_rules),
            _literal_probe(self.literals_fold, self.literal_rules_fold),
            _PREFILTER_FOLD,
        )


def _literal_probe(table: Any, rules: tuple[tuple[int, ...], ...]) -> tuple[Any, ...] | None:
    if table is None:
        return None
    return table.class_of, table.delta, table.out_start, table.out_ids, table.n_classes, rules


@dataclass(frozen=True)
class GroupIndex(_Derived):
    """One ordered rule list (a tool's permissions, the policy, the filters)."""

    name: str
    rules: tuple[Rule, ...]  # in order
    by_order: Mapping[int, Rule]
    fields: tuple[FieldIndex, ...]
    always: tuple[int, ...]  # orders of rules that could not be indexed

    _DERIVED = ("matcher",)

    @cached_property
    def matcher(self) -> tuple[Any, ...]:
        """The plain-value form ``_speedups.first_match`` reads: (always, fields, tests); see ``_decide_py``."""
        fields: list[tuple[str | tuple[str, Callable[[Subject], Any]], tuple[Any, ...]]] = []
        for index in self.fields:
            attr = _FIELD_ATTRS.get(index.field)
            if attr is None or attr == "args":  # derived from ``args``: worked out only when there are args
                fields.append((("args", functools.partial(_field_value, index.field)), index.probe))
            else:
                fields.append((attr, index.probe))
        return self.always, tuple(fields), _LazyTests({rule.order: rule.condition for rule in self.rules})

    def candidate_orders(self, subject: Subject) -> list[int]:
        """Return the orders of the rules that might match ``subject``, ascending."""
        return _speedups.candidate_orders(self.matcher, subject)

    def candidates(self, subject: Subject) -> list[Rule]:
        """Return the rules that might match ``subject``, in rule order."""
        by_order = self.by_order
        return [by_order[order] for order in self.candidate_orders(subject)]

    def first_match_orders(self, subject: Subject) -> tuple[int, list[int]]:
        """Return the order of the first matching rule (-1: none) and the candidate orders tried before it."""
        return _speedups.first_match(self.matcher, subject)

    def first_match_tried(self, subject: Subject) -> tuple[Rule | None, list[Rule]]:
        """Return the first rule that matches ``subject`` and the candidates tried before it."""
        order, tried = _speedups.first_match(self.matcher, subject)
        by_order = self.by_order
        return (by_order[order] if order >= 0 else None), [by_order[o] for o in tried]

    def first_match(self, subject: Subject) -> Rule | None:
        order, _tried = _speedups.first_match(self.matcher, subject)
        return self.by_order[order] if order >= 0 else None

    def all_matches(self, subject: Subject) -> list[Rule]:
        by_order = self.by_order
        return [by_order[order] for order in _speedups.all_matches(self.matcher, subject)]


class _LazyTests(dict):  # type: ignore[type-arg]
    """Rule order -> encoded checks, built the first time a rule is a candidate.

    Encoding compiles globs and regexes; doing it for every rule up front cost
    a warm CLI call 0.2 s at 1,000 rules, while one call needs only the few
    candidates the indexes return.
    """

    def __init__(self, conditions: dict[int, Expr]) -> None:
        super().__init__()
        self._conditions = conditions

    def __missing__(self, order: int) -> tuple[Any, ...]:
        encoded = self[order] = encode_test(self._conditions[order])
        return encoded


def _field_value(name: str, subject: Subject) -> Any:
    return subject.get(name)


# -------------------------------------------------------------------- conditions as functions


def compile_test(expr: Expr) -> Callable[[Subject], Any]:
    """Return a function of the subject that answers exactly what ``holds(expr, subject)`` does.

    Comparisons of a plain string field with a string literal (the shapes rule
    files are made of) become a direct test on the attribute with the glob
    compiled once; every other shape, and any value that is not a ``str``,
    goes through ``compare`` / ``holds``, the single definition of meaning.
    """
    if isinstance(expr, Compare):
        return _compile_compare(expr)
    if isinstance(expr, (And, Or)):
        parts = tuple(compile_test(item) for item in expr.items)
        if isinstance(expr, And):
            if len(parts) == 2:
                first, second = parts
                return lambda subject: first(subject) and second(subject)
            return lambda subject: all(part(subject) for part in parts)
        return lambda subject: any(part(subject) for part in parts)
    if isinstance(expr, Not):
        inner = compile_test(expr.item)
        return lambda subject: not inner(subject)
    if isinstance(expr, Const):
        value = expr.value
        return lambda subject: value
    return lambda subject: holds(expr, subject)  # raises the TypeError ``holds`` raises


_PLAIN_ATTRS = frozenset({"tool", "command", "command_full", "program", "input", "trust", "phase", "caller"})
_GLOB_SYNTAX = frozenset("*?[\\")
#: (leading `*`, trailing `*`, `~i`) -> the clause kind of a glob that is one literal between stars
_AFFIX_KINDS = {(False, True, False): D.PREFIX, (True, False, False): D.SUFFIX, (True, True, False): D.CONTAINS,
                (False, True, True): D.PREFIX_FOLD, (True, False, True): D.SUFFIX_FOLD, (True, True, True): D.CONTAINS_FOLD}


def encode_test(expr: Expr) -> tuple[Any, ...]:
    """Return the clauses ``_speedups.holds_test`` checks for ``expr`` (all must hold, in order).

    A top-level ``and`` gives one clause per item; a comparison of a plain
    string field with a string literal becomes data (attribute, kind, literal or
    compiled glob, and the ``compare`` to fall back on for a value that is not a
    ``str``); anything else is a function of the subject from ``compile_test``.
    """
    items = expr.items if isinstance(expr, And) else (expr,)
    return tuple(_clause(item) for item in items)


def _clause(expr: Expr) -> Any:
    if not isinstance(expr, Compare) or _FIELD_ATTRS.get(expr.field) not in _PLAIN_ATTRS:
        return compile_test(expr)
    name, op, literal = expr.field, expr.op, expr.value
    attr = _FIELD_ATTRS[name]
    kind: int | None = None
    arg: Any = None
    if op in ("~", "~i") and isinstance(literal, str):
        if not _GLOB_SYNTAX.intersection(literal):
            kind, arg = (D.EQ_FOLD, literal.casefold()) if op == "~i" else (D.EQ, literal)
        elif literal and not literal.strip("*"):
            kind = D.ANY  # `*` matches any text, newlines included
        elif not _GLOB_SYNTAX.intersection(core := literal.strip("*")):
            # `core*`, `*core`, `*core*`: a string test, exact on a plain field, where `*` is any text;
            # `~i` casefolds glob and value, character by character, so the core is casefolded alone
            kind = _AFFIX_KINDS[literal[0] == "*", literal[-1] == "*", op == "~i"]
            arg = core.casefold() if op == "~i" else core
        else:
            try:
                arg = compiled_glob(literal, False, op == "~i").match
            except Exception:  # noqa: BLE001 - a bad glob raises when evaluated, as with ``holds``
                return compile_test(expr)
            kind = D.GLOB_FOLD if op == "~i" else D.GLOB
    elif op in ("==", "!=", "^=", "$=") and isinstance(literal, str):
        kind, arg = {"==": D.EQ, "!=": D.NE, "^=": D.PREFIX, "$=": D.SUFFIX}[op], literal
    elif op == "in" and isinstance(literal, tuple) and all(type(item) is str for item in literal):
        kind, arg = D.IN, frozenset(literal)
    elif op == "truthy":
        kind = D.TRUTHY
    elif op == "=~" and isinstance(literal, Regex):
        kind, arg = D.CALL, functools.partial(regex_search, literal.source, literal.flags)
    if kind is None:
        return compile_test(expr)
    return (attr, kind, arg, functools.partial(_generic, expr, name))


def _generic(test: Compare, name: str, subject: Subject) -> bool:
    return compare(test, subject.get(name))


def _compile_compare(test: Compare) -> Callable[[Subject], Any]:
    name, op, literal = test.field, test.op, test.value
    attr = _FIELD_ATTRS.get(name)

    def generic(subject: Subject) -> bool:
        return compare(test, subject.get(name))

    if attr not in _PLAIN_ATTRS:
        return generic
    fast: Callable[[str], bool] | None = None
    if op in ("~", "~i") and isinstance(literal, str):
        try:
            match = compiled_glob(literal, False, op == "~i").match
        except Exception:  # noqa: BLE001 - a bad glob raises when evaluated, as with ``holds``
            return generic
        if op == "~i":
            fast = lambda value: match(value.casefold()) is not None
        else:
            fast = lambda value: match(value) is not None
    elif op == "==" and isinstance(literal, str):
        fast = literal.__eq__
    elif op == "!=" and isinstance(literal, str):
        fast = literal.__ne__
    elif op == "^=" and isinstance(literal, str):
        fast = lambda value: value.startswith(literal)
    elif op == "$=" and isinstance(literal, str):
        fast = lambda value: value.endswith(literal)
    elif op == "in" and isinstance(literal, tuple) and all(type(item) is str for item in literal):
        fast = frozenset(literal).__contains__
    elif op == "truthy":
        fast = lambda value: value != "" and value != "0" and value != "false"
    elif op == "=~" and isinstance(literal, Regex):
        source, flags = literal.source, literal.flags
        fast = lambda value: regex_search(source, flags, value)
    if fast is None:
        return generic
    test_value = fast

    def plain(subject: Subject) -> bool:
        value = getattr(subject, attr)
        if type(value) is str:
            return test_value(value)
        return compare(test, MISSING if value is None else value)

    return plain


@dataclass(frozen=True)
class MatcherGraph:
    """All rules of a rule set, compiled; a picklable, immutable value."""

    groups: Mapping[str, GroupIndex]
    settings: tuple[tuple[str, Any], ...] = ()
    tests: tuple[Any, ...] = ()
    dropped: tuple[tuple[Rule, str], ...] = ()
    files: tuple[str, ...] = ()
    fingerprint: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    # ---------------------------------------------------------------- queries

    def matching_filters(self, command: str, exit_code: int | None = None) -> list[Rule]:
        """Return every enabled filter rule whose match holds, in file order."""
        group = self.groups.get(FILTER)
        if group is None:
            return []
        return group.all_matches(filter_subject(command, exit_code))

    def first_match(self, tool: str, input_or_args: str | Mapping[str, Any], group: str | None = None,
                    **context: Any) -> Rule | None:
        """Return the first rule of a first-match list that matches the call.

        ``group`` defaults to the tool's permission list; ``"policy"`` and
        ``"authorization"`` select those lists.
        """
        name = group or f"{PERMISSION}:{tool.lower()}"
        rules = self.groups.get(name)
        if rules is None:
            return None
        return rules.first_match(call_subject(tool, input_or_args, **context))

    def filter(self, command: str, output: str, exit_code: int | None = None, metrics: Any = None) -> Any:
        """Filter the output of ``command``; returns a frozen ``FilterResult``."""
        from .pipeline import run_filters

        return run_filters(self, command, output, exit_code, metrics)

    def rules(self, group: str | None = None) -> tuple[Rule, ...]:
        """Return the compiled rules of one group, or of every group, in order."""
        if group is not None:
            found = self.groups.get(group)
            return found.rules if found else ()
        return tuple(sorted((r for g in self.groups.values() for r in g.rules), key=lambda r: r.order))

    def setting(self, key: str, default: Any = None) -> Any:
        return dict(self.settings).get(key, default)


# -------------------------------------------------------------------- subjects

_PATH_ARGS = ("path", "file_path", "filepath", "file", "filename", "notebook_path", "target", "dir", "directory")
_COMMAND_ARGS = ("command", "cmd", "script")


def filter_subject(command: str, exit_code: int | None = None, output: str | None = None) -> Subject:
    """Build the subject a filter rule is matched against (the command's target, wrappers looked through)."""
    parsed = parse_command(command)
    target = parsed.filter_target
    return Subject(
        tool="bash",
        command=target.filter_text if target is not None else parsed.source.strip(),
        command_full=command,
        program=target.program if target is not None else None,
        input=command,
        exit_code=exit_code,
        output=output,
    )


def call_subject(tool: str, input_or_args: str | Mapping[str, Any], **context: Any) -> Subject:
    """Build the subject for a tool call given its input text or its arguments."""
    if isinstance(input_or_args, str):
        args: Mapping[str, Any] = {}
        text = input_or_args
        command = input_or_args if tool.lower() in ("bash", "shell", "sh", "exec", "terminal") else None
        paths: tuple[str, ...] | None = None if command is not None else (input_or_args,)
    else:
        args = dict(input_or_args)
        command = next((args[k] for k in _COMMAND_ARGS if isinstance(args.get(k), str)), None)
        found = tuple(args[k] for k in _PATH_ARGS if isinstance(args.get(k), str))
        paths = found or None
        text = command if command is not None else (found[0] if found else _json(args))
    program = None
    command_target = command
    if command is not None:
        parsed = parse_command(command)
        target = parsed.target
        program = target.program if target is not None else None
        command_target = parsed.target_text
    return Subject(
        tool=tool,
        command=command_target,
        command_full=command,
        program=program,
        input=text,
        path=paths,
        args=args,
        trust=context.get("trust"),
        phase=context.get("phase"),
        caller=context.get("caller"),
    )


def _json(value: Any) -> str:
    import json

    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


# -------------------------------------------------------------------- naive reference


class NaiveEvaluator:
    """The reference: loop over the rules in order, evaluating every condition."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self.rules = tuple(sorted((r for r in rules if r.enabled), key=lambda r: r.order))
        groups: dict[str, list[Rule]] = {}
        for rule in self.rules:
            groups.setdefault(rule.group, []).append(rule)
        self.groups = groups

    def _group(self, name: str) -> list[Rule]:
        return self.groups.get(name, [])

    def matching_filters(self, command: str, exit_code: int | None = None) -> list[Rule]:
        subject = filter_subject(command, exit_code)
        return [r for r in self._group(FILTER) if holds(r.condition, subject)]

    def first_match(self, tool: str, input_or_args: str | Mapping[str, Any], group: str | None = None,
                    **context: Any) -> Rule | None:
        subject = call_subject(tool, input_or_args, **context)
        for rule in self._group(group or f"{PERMISSION}:{tool.lower()}"):
            if holds(rule.condition, subject):
                return rule
        return None
