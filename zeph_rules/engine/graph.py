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

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .. import _speedups
from .commands import parse_command
from .evaluate import Subject, holds
from .ir import FILTER, PERMISSION, Rule
from .patterns import fold_for_prefilter

_TRIE_END = ""  # key under which a trie node stores the rule orders ending there


@dataclass(frozen=True)
class FieldIndex:
    """Lookup tables for one field of one rule group."""

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
        hits = self.exact.get(value)
        if hits:
            out.update(hits)
        if self.exact_fold or self.trie_fold:
            casefolded = value.casefold()  # the semantics of `~i`
            hits = self.exact_fold.get(casefolded)
            if hits:
                out.update(hits)
            if self.trie_fold:
                _walk_trie(self.trie_fold, casefolded, out)
        if self.trie:
            _walk_trie(self.trie, value, out)
        if self.literals is not None:
            for literal_id in _speedups.find_literals(self.literals, value.encode("utf-8", "surrogatepass")):
                out.update(self.literal_rules[literal_id])
        if self.literals_fold is not None:
            # regex case-folding also equates a few non-ASCII letters with ASCII ones
            folded = fold_for_prefilter(value).encode("utf-8", "surrogatepass")
            for literal_id in _speedups.find_literals(self.literals_fold, folded):
                out.update(self.literal_rules_fold[literal_id])


def _walk_trie(trie: Mapping[str, Any], value: str, out: set[int]) -> None:
    node = trie
    for ch in value:
        node = node.get(ch)  # type: ignore[assignment]
        if node is None:
            return
        ends = node.get(_TRIE_END)
        if ends:
            out.update(ends)


@dataclass(frozen=True)
class GroupIndex:
    """One ordered rule list (a tool's permissions, the policy, the filters)."""

    name: str
    rules: tuple[Rule, ...]  # in order
    by_order: Mapping[int, Rule]
    fields: tuple[FieldIndex, ...]
    always: tuple[int, ...]  # orders of rules that could not be indexed

    def candidates(self, subject: Subject) -> list[Rule]:
        """Return the rules that might match ``subject``, in rule order."""
        found: set[int] = set(self.always)
        for index in self.fields:
            value = subject.get(index.field)
            if isinstance(value, str):
                index.candidates(value, found)
            elif isinstance(value, tuple):
                for item in value:
                    if isinstance(item, str):
                        index.candidates(item, found)
        by_order = self.by_order
        return [by_order[order] for order in sorted(found)]

    def first_match(self, subject: Subject) -> Rule | None:
        for rule in self.candidates(subject):
            if holds(rule.condition, subject):
                return rule
        return None

    def all_matches(self, subject: Subject) -> list[Rule]:
        return [rule for rule in self.candidates(subject) if holds(rule.condition, subject)]


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
    """Build the subject a filter rule is matched against (the command's target)."""
    parsed = parse_command(command)
    target = parsed.target
    return Subject(
        tool="bash",
        command=parsed.target_text,
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
