"""ZR401–ZR402: inline `[[tests]]` examples, run against the whole rule set.

An example passes or fails against everything that will be loaded at run
time — the built-ins (unless the file opts out) and every other checked file
— not against its own file alone: a test that passes only in isolation is the
bug this check exists for.  A failure names the rule that really decided, or
the filters that really ran, with a diff for filter output.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import Diagnostic
from ..ruleset import InlineExample
from .context import LintContext


@dataclass(frozen=True)
class Verdict:
    """What the rule set decides for one call, and which rule decided it."""

    decision: str
    rule: str | None
    source: str | None


def decide(graph: Any, tool: str, input_or_args: str | Mapping[str, Any]) -> Verdict:
    """Decide one call: ``policy.decide`` when the engine has it, else the first permission match."""
    policy_decide: Callable[..., Any] | None
    try:
        from ..policy import decide as policy_decide
    except ImportError:
        policy_decide = None
    if policy_decide is not None:
        result = policy_decide(graph, tool, input_or_args)
        rule = getattr(result, "rule", None)
        rule_id = getattr(rule, "id", rule)
        source = getattr(result, "source", None)
        return Verdict(str(result.decision), None if rule_id is None else str(rule_id), None if source is None else str(source))
    found = graph.first_match(tool, input_or_args)
    if found is None:
        return Verdict("ask", None, None)
    return Verdict(found.effect, found.id, str(found.span))


def inline_tests(ctx: LintContext) -> Iterator[Diagnostic]:
    """Run every decision and filter example of the checked files and report the failures."""
    for test in ctx.ruleset.tests:
        if test.span.file not in ctx.checked:
            continue
        if test.get("expect") is not None:
            yield from _decision_example(ctx, test)
        else:
            yield from _filter_example(ctx, test)


def _label(test: InlineExample, index: int) -> str:
    name = test.get("name")
    return f"test `{name}`" if name else f"test #{index + 1}"


def _where(ctx: LintContext, test: InlineExample) -> tuple[Any, tuple[Any, ...], str]:
    found = ctx.test_location(test)
    if found is None:
        return None, (), "test"
    src, path = found
    return src, path, _label(test, int(path[-1]))


def _emit(ctx: LintContext, test: InlineExample, key: tuple[Any, ...], code: str, message: str, hint: str | None = None) -> Diagnostic:
    src, path, _ = _where(ctx, test)
    if src is None:
        s = test.span
        return Diagnostic(s.file, s.line, s.col, "error", code, message, s.end_line, s.end_col, None, hint)
    target = path + key if (path + key) in src.spans else path
    return ctx.at(src, target, code, message, hint=hint, rule=test.get("name"))


def _decision_example(ctx: LintContext, test: InlineExample) -> Iterator[Diagnostic]:
    tool = str(test.get("tool"))
    payload = test.get("input") if test.get("input") is not None else test.get("args")
    expected = str(test.get("expect"))
    verdict = decide(ctx.graph, tool, payload)
    if verdict.decision == expected:
        return
    _, _, label = _where(ctx, test)
    shown = payload if isinstance(payload, str) else _json(payload)
    if verdict.rule:
        by = f"decided by `{verdict.rule}`" + (f" ({verdict.source})" if verdict.source else "")
    else:
        by = "no rule decides it, so the default applies"
    message = f"{label} expects `{expected}` for {tool} `{shown}`, but the rule set says `{verdict.decision}`: {by}"
    alone = _alone(ctx, test)
    hint = None
    if alone is not None:
        solo = decide(alone, tool, payload)
        if solo.decision == expected:
            message += f"; against its own file alone it passes (`{solo.rule or 'default'}`)"
            hint = "a rule loaded earlier decides first: narrow it, or make this file's rule come first"
    yield _emit(ctx, test, ("expect",), "ZR401", message, hint)


def _alone(ctx: LintContext, test: InlineExample) -> Any:
    """Compile the rules of the test's own file alone (None when that is the whole set)."""
    from ..compiler import compile_rules

    own = tuple(r for r in ctx.ruleset.rules if r.span.file == test.span.file)
    if len(own) == len(ctx.ruleset.rules):
        return None
    return compile_rules(replace(ctx.ruleset, rules=own))


def _json(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def run_filter_example(graph: Any, test: InlineExample) -> Any:
    """Filter the example's output as the output of its command."""
    return graph.filter(str(test.get("command")), str(test.get("output") or ""), test.get("exit_code"))


def _filter_example(ctx: LintContext, test: InlineExample) -> Iterator[Diagnostic]:
    result = run_filter_example(ctx.graph, test)
    failures = list(_filter_failures(test, result))
    if not failures:
        return
    _, _, label = _where(ctx, test)
    applied = f"filters applied: {', '.join(result.rules)}" if result.rules else f"no filter matched `{test.get('command')}`"
    isolated = ""
    alone = _alone(ctx, test)
    if alone is not None and not list(_filter_failures(test, run_filter_example(alone, test))):
        ran = run_filter_example(alone, test).rules
        isolated = f"; against its own file alone it passes ({', '.join(ran) or 'no filter'})"
    for key, message, hint in failures:
        head, _, diff = message.partition("\n")
        text = f"{label}: {head} ({applied}){isolated}" + (f"\n{diff}" if diff else "")
        if isolated and hint is None:
            hint = "a filter loaded earlier changes the output first: narrow its match, or disable it for this command"
        yield _emit(ctx, test, key, "ZR402", text, hint)


def _filter_failures(test: InlineExample, result: Any) -> Iterator[tuple[tuple[Any, ...], str, str | None]]:
    """Yield (key, message, hint) for every expectation ``result`` does not meet."""
    for k, needle in enumerate(test.get("expect_contains") or ()):
        if needle not in result.output:
            hint = "the example's `output` does not contain it either" if needle not in str(test.get("output") or "") else None
            yield ("expect_contains", k), f"the filtered output lacks `{needle}`", hint
    for k, needle in enumerate(test.get("expect_not_contains") or ()):
        if needle in result.output:
            yield ("expect_not_contains", k), f"the filtered output still contains `{needle}`", None
    expected_output = test.get("expect_output")
    if expected_output is not None and expected_output.rstrip("\n") != result.output.rstrip("\n"):
        diff = "\n".join(difflib.unified_diff(expected_output.rstrip("\n").splitlines(), result.output.rstrip("\n").splitlines(),
                                              "expected", "actual", lineterm="", n=1))
        yield ("expect_output",), f"the filtered output differs from `expect_output`\n{diff}", None
    confidence = test.get("expect_confidence")
    if confidence is not None and confidence.lower() != result.confidence.label.lower():
        yield ("expect_confidence",), f"confidence is `{result.confidence.label}`, expected `{confidence}`", None
