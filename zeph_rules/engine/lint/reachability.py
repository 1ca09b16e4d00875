"""ZR301–ZR303: rules that can never fire, in every first-match list.

Permissions (per tool, globs matched case-insensitively): rule *j* is dead
when every input it matches is matched by an earlier rule.  That is decided
exactly, counterexample-guided: start from the rule that decides j's shortest
input; while j's language is not inside the union of the rules collected so
far, the inclusion check yields a witness string, and the graph names the rule
that decides it — j itself (j is reachable, stop) or one more earlier rule to
add.  So only the rules that really matter ever enter an automaton, which
keeps a 10,000-rule list fast.

Policy and authorization (one chain, policy first): DSL conditions are
compared with the sound implication of ``logic``; a rule is reported only
when an earlier condition provably covers its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..errors import Diagnostic
from ..evaluate import Subject, holds
from ..ir import AUTHORIZATION, PERMISSION, POLICY, Rule, render
from .automata import NFA, GlobProblem, Unsupported, glob_nfa, included, shortest
from .context import LintContext
from .logic import example_subject, implies, strip_spans, unsatisfiable

if TYPE_CHECKING:  # pragma: no cover
    from ..graph import GroupIndex

#: Rules collected while refining one inclusion check before giving up (sound: no report).
MAX_COVER = 32


def unreachable_rules(ctx: LintContext) -> Iterator[Diagnostic]:
    """Report shadowed rules, rules that match nothing and globs that do not compile."""
    groups: dict[str, list[Rule]] = {}
    for rule in ctx.ruleset.rules:
        if rule.enabled:
            groups.setdefault(rule.group, []).append(rule)
    for name, rules in groups.items():
        if name.startswith(PERMISSION + ":"):
            yield from _permission_list(ctx, name, rules)
    chain = sorted((r for r in ctx.ruleset.rules if r.enabled and r.kind in (POLICY, AUTHORIZATION)),
                   key=lambda r: (r.kind != POLICY, r.order))
    yield from _condition_list(ctx, chain)
    for rule in ctx.ruleset.rules:
        if rule.enabled and not rule.kind.startswith(PERMISSION) and rule.kind not in (POLICY, AUTHORIZATION):
            if ctx.reported(rule) and unsatisfiable(rule.condition):
                yield _never(ctx, rule)


def _pattern(rule: Rule) -> str:
    return str(dict(rule.payload).get("pattern", ""))


def _at(rule: Rule, near: Rule) -> str:
    """Say where ``rule`` is, relative to ``near`` (same file: just the line)."""
    return f"line {rule.span.line}" if rule.span.file == near.span.file else f"{rule.span.file}:{rule.span.line}"


def _advice(rule: Rule, deciders: list[Rule]) -> str:
    effects = {d.effect for d in deciders}
    if effects == {rule.effect}:
        return f"the earlier rule{'s' if len(deciders) > 1 else ''} already {'say' if len(deciders) > 1 else 'says'} `{rule.effect}`: remove this one"
    first = deciders[0]
    return f"it says `{rule.effect}` but is decided first by `{first.id}`: move it above, or remove it"


# ------------------------------------------------------------------ permissions


def _permission_list(ctx: LintContext, group: str, rules: list[Rule]) -> Iterator[Diagnostic]:
    index = ctx.graph.groups.get(group)
    nfas: dict[int, NFA] = {}
    for rule in rules:
        pattern = _pattern(rule)
        try:
            nfa = glob_nfa(pattern, False, True)
        except GlobProblem as exc:
            if ctx.reported(rule):
                yield ctx.at_rule(rule, "ZR303", f"invalid glob `{pattern}`: {exc}", sub=("pattern",),
                                  hint="a `[...]` class needs ranges written low-high; escape a literal `[` as `\\[`")
            continue
        except Unsupported:
            continue
        nfas[rule.order] = nfa
        sample = shortest(nfa)
        if sample is None:
            if ctx.reported(rule):
                yield ctx.at_rule(rule, "ZR302", f"pattern `{pattern}` can match nothing, so `{rule.id}` never applies",
                                  sub=("pattern",), hint="fix the character class, or remove the rule")
            continue
        if not ctx.reported(rule) or index is None:
            continue
        found = _shadowed(index, rule, nfa, nfas, sample)
        if found is None:
            continue
        deciders, witness = found
        names = " and ".join(f"`{d.id}` (`{_pattern(d)}`, {_at(d, rule)})" for d in deciders)
        if len(deciders) == 1:
            message = f"`{rule.id}` (`{pattern}`) can never match: {names} decides every input it matches first, e.g. `{witness}`"
        else:
            message = (f"`{rule.id}` (`{pattern}`) can never match: {names} together decide every input it matches first; "
                       f"e.g. `{witness}` goes to `{_decider_of(deciders, witness)}`")
        yield ctx.at_rule(rule, "ZR301", message, sub=("pattern",), hint=_advice(rule, deciders))


def _first_earlier(index: GroupIndex, rule: Rule, text: str) -> Rule | None:
    """Return the first rule of the list, before ``rule``, that matches ``text``."""
    subject = Subject(input=text)
    for candidate in index.candidates(subject):
        if candidate.order >= rule.order:
            return None
        try:
            if holds(candidate.condition, subject):
                return candidate
        except re.error:  # a broken glob is reported on its own rule
            continue
    return None


def _shadowed(index: GroupIndex, rule: Rule, nfa: NFA, nfas: dict[int, NFA], sample: str) -> tuple[list[Rule], str] | None:
    """Return (the earlier rules covering ``rule``, an example input), or None when it is reachable."""
    decider = _first_earlier(index, rule, sample)
    deciders: list[Rule] = []
    while decider is not None and decider.order in nfas and len(deciders) < MAX_COVER:
        deciders.append(decider)
        answer = included(nfa, [nfas[d.order] for d in deciders])
        if answer.included is None:
            return None
        if answer.included:
            return _minimal(nfa, deciders, nfas), sample
        assert answer.witness is not None
        decider = _first_earlier(index, rule, answer.witness)
    return None


def _minimal(nfa: NFA, deciders: list[Rule], nfas: dict[int, NFA]) -> list[Rule]:
    """Drop covering rules that are not needed (greedy), keeping rule order."""
    needed = list(deciders)
    for rule in list(deciders):
        if len(needed) == 1:
            break
        rest = [d for d in needed if d is not rule]
        if included(nfa, [nfas[d.order] for d in rest]).included:
            needed = rest
    return sorted(needed, key=lambda r: r.order)


def _decider_of(deciders: list[Rule], text: str) -> str:
    subject = Subject(input=text)
    for rule in deciders:
        try:
            if holds(rule.condition, subject):
                return rule.id
        except re.error:
            continue
    return deciders[0].id


# ------------------------------------------------------------------ policy / authorization


def _condition_list(ctx: LintContext, chain: list[Rule]) -> Iterator[Diagnostic]:
    earlier: list[tuple[Rule, object]] = []
    for rule in chain:
        condition = strip_spans(rule.condition)
        if unsatisfiable(condition):
            if ctx.reported(rule):
                yield _never(ctx, rule)
            continue
        if ctx.reported(rule):
            for previous, previous_condition in earlier:
                if implies(condition, previous_condition):  # type: ignore[arg-type]
                    yield _shadowed_policy(ctx, rule, previous, condition)
                    break
        earlier.append((rule, condition))


def _shadowed_policy(ctx: LintContext, rule: Rule, previous: Rule, condition: object) -> Diagnostic:
    what = "has no condition" if previous.source_text == "" and render(previous.condition) == "true" else f"covers `{render(strip_spans(previous.condition))}`"
    message = f"`{rule.id}` can never match: earlier rule `{previous.id}` ({_at(previous, rule)}) {what}, which includes every call `{rule.id}` matches"
    example = example_subject(condition)  # type: ignore[arg-type]
    if example is not None and holds(previous.condition, example[0]):
        message += f"; e.g. {example[1]} is decided by `{previous.id}`"
    return ctx.at_rule(rule, "ZR301", message, sub=("when",), hint=_advice(rule, [previous]))


def _never(ctx: LintContext, rule: Rule) -> Diagnostic:
    sub = ("when",) if rule.kind in (POLICY, AUTHORIZATION) else ("match",)
    text = render(strip_spans(rule.condition))
    return ctx.at_rule(rule, "ZR302", f"the condition of `{rule.id}` can match nothing: `{text}`", sub=sub,
                       hint="the tests contradict each other; fix or remove the rule")
