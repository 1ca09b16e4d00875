"""The policy engine: one decision per tool call, naming the rule that decided.

Stages run in a fixed order: shell blocklist, scoped constraints, permissions,
policy then authorization, file sandbox, blocked sequences, session quota.
The first stage that says ``deny`` ends the evaluation; otherwise ``ask``
from any stage wins over ``allow``; when no stage has an opinion the answer
is ``ask``.

Everything derived from a graph once (the blocklist with its shell config, the
per-group lookups, the sandbox globs) is kept in a ``PolicyEngine`` cached per
graph; the analysis of a command line (parse, normalisation, blocklist) is
memoised per line, because it depends on the text alone.  Rule evaluation is
done for every call.
"""

from __future__ import annotations

import functools
import posixpath
import weakref
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from .blocklist import BLOCKLIST, Blocklist, BlocklistResult
from .evaluate import Subject, holds
from .graph import GroupIndex, MatcherGraph, call_subject
from .ir import AUTHORIZATION, PERMISSION, POLICY, Compare, Rule, render
from .patterns import glob_match
from .sandbox import Sandbox
from .session import Session

CONSTRAINT = "constraint"
SEQUENCE = "sequence"
SHELL_TOOLS = frozenset({"bash", "shell", "sh", "exec", "terminal", "zsh", "run_shell_command", "execute_command"})
#: Tools whose input is a path (kept in step with ``desugar.FILE_TOOLS``).
FILE_TOOLS = frozenset({"read", "write", "edit", "multiedit", "glob", "grep", "ls", "notebookedit", "notebook_edit", "file_read",
                        "file_write", "view", "create", "delete", "read_file", "write_file", "edit_file", "list_files"})
_RANK = {"allow": 0, "ask": 1, "deny": 2}


class TraceEntry(NamedTuple):
    """One rule (or check) the engine considered, and what came of it."""

    stage: str
    rule: str | None
    source: str | None
    matched: bool
    effect: str | None
    note: str

    def as_json(self) -> dict[str, Any]:
        return self._asdict()


@dataclass(frozen=True)
class Decision:
    """The answer for one tool call: allow / ask / deny, and why."""

    decision: str
    stage: str
    rule: str | None
    source: str | None
    reason: str
    trace: tuple[TraceEntry, ...] = ()
    why_not: str | None = None

    @property
    def quota_blocked(self) -> bool:
        return self.stage == "quota"

    def as_json(self) -> dict[str, Any]:
        """Return the stable JSON form (keys: decision, stage, rule, source, reason, trace, why_not)."""
        return {
            "decision": self.decision, "stage": self.stage, "rule": self.rule, "source": self.source,
            "reason": self.reason, "trace": [t.as_json() for t in self.trace], "why_not": self.why_not,
        }


class _Verdict(NamedTuple):
    effect: str
    stage: str
    rule: str | None
    source: str | None
    reason: str
    why_not: str | None = None


# ------------------------------------------------------------------ the engine of one graph


class PolicyEngine:
    """Everything ``decide`` derives from a graph once."""

    def __init__(self, graph: MatcherGraph, reference: bool = False) -> None:
        self.graph = graph
        # the reference engine scans every rule in order (the naive evaluator) instead of the indexes
        self.first_match = _first_match_naive if reference else _first_match
        settings = dict(graph.settings)
        self.settings = settings
        block_group = graph.groups.get(BLOCKLIST)
        rules = block_group.rules if block_group else ()
        if not any(r.span.file.endswith("blocklist.toml") and r.span.file.startswith("<builtin>") for r in rules):
            # nothing switches the blocklist off: a graph built without the built-ins still gets it
            block_group, rules, settings_for_blocklist = _with_builtin_blocklist(rules, settings)
        else:
            settings_for_blocklist = settings
        self.blocklist = Blocklist(rules, settings_for_blocklist, block_group)
        self.permissions_configured = any(name.startswith(PERMISSION + ":") for name in graph.groups)
        self.policy_enabled = settings.get("policy.enabled", True) is not False
        self.policy_configured = "policy.default_effect" in settings or POLICY in graph.groups or AUTHORIZATION in graph.groups
        self.default_effect = settings.get("policy.default_effect")
        self.sandbox = Sandbox(tuple(settings.get("file.deny_read.sources", ())) or tuple((g, "") for g in settings.get("file.deny_read", ())),
                               tuple(settings.get("file.allow_read.sources", ())) or tuple((g, "") for g in settings.get("file.allow_read", ())))
        self.max_calls = settings.get("constraints.max_tool_calls_per_session")
        self.max_calls_source = settings.get("constraints.max_tool_calls_per_session.source")
        self.constraints = graph.groups.get(CONSTRAINT)
        self.sequences = graph.groups.get(SEQUENCE)
        self._plan = functools.lru_cache(maxsize=4096)(self._plan_uncached)
        self.policy = _reindex(graph.groups.get(POLICY))
        self.authorization = _reindex(graph.groups.get(AUTHORIZATION))

    # -------------------------------------------------------------- decide

    def decide(self, tool: str, input_or_args: str | Mapping[str, Any], session: Session | None = None,
               cwd: str | None = None, **context: Any) -> Decision:
        """Return the decision for one call (see the module docstring for the order)."""
        trace: list[TraceEntry] = []
        key = tool.casefold()
        if isinstance(input_or_args, str) and not context:
            subject, segments, checked = self._plan(tool, input_or_args)  # memoised per (tool, text)
        else:
            subject = _subject(tool, input_or_args, context)
            command = subject.command_full if (key in SHELL_TOOLS or not isinstance(input_or_args, str)) else None
            checked = self.blocklist.check(command) if command is not None else None
            segments = _segment_subjects(tool, subject, checked)
        verdicts: list[_Verdict] = []

        # 1. shell blocklist
        if checked is not None:
            for rule_id, source, matched, note in checked.considered:
                trace.append(TraceEntry(BLOCKLIST, rule_id, source, matched, "deny" if matched else None, note))
            hit = checked.first
            if hit is not None:
                verdict = _Verdict(hit.effect, BLOCKLIST, hit.rule_id, hit.source,
                                   f"The blocklist rule {hit.rule_id} {_effect_phrase(hit.effect)} this command: it {hit.reason}.")
                if hit.effect == "deny":
                    return _finish(verdict, trace)
                verdicts.append(verdict)

        # 2. scoped constraints
        if self.constraints is not None:
            verdict = self._constraints(tool, subject, segments, cwd, trace)
            if verdict is not None:
                return _finish(verdict, trace)

        # 3. permissions
        if self.permissions_configured:
            verdict = self._permissions(key, subject, segments, trace)
            if verdict.effect == "deny":
                return _finish(verdict, trace)
            verdicts.append(verdict)

        # 4. policy, then authorization
        if self.policy_configured and self.policy_enabled:
            verdict_or_none = self._policy(subject, trace)
            if verdict_or_none is not None:
                if verdict_or_none.effect == "deny":
                    return _finish(verdict_or_none, trace)
                verdicts.append(verdict_or_none)

        # 5. file sandbox
        if self.sandbox.active and subject.path and (key in FILE_TOOLS or not isinstance(input_or_args, str)):
            refused, notes = self.sandbox.check(subject.path, cwd)
            for note in notes:
                trace.append(TraceEntry("sandbox", None, None, False, None, note))
            if refused is not None:
                trace.append(TraceEntry("sandbox", refused.rule, refused.source, True, "deny", refused.reason))
                return _finish(_Verdict("deny", "sandbox", refused.rule, refused.source,
                                        f"The file sandbox ({refused.rule}) denies this path: {refused.reason}."), trace)

        # 6. blocked sequences
        if self.sequences is not None and session is not None and session.history:
            verdict_or_none = self._sequences(subject, segments, session, trace)
            if verdict_or_none is not None:
                if verdict_or_none.effect == "deny":
                    return _finish(verdict_or_none, trace)
                verdicts.append(verdict_or_none)

        # 7. session quota
        if self.max_calls is not None and session is not None:
            over = session.calls >= self.max_calls
            note = f"{session.calls} of {self.max_calls} calls used"
            trace.append(TraceEntry("quota", "quota_blocked", self.max_calls_source, over, "deny" if over else None, note))
            if over:
                return _finish(_Verdict("deny", "quota", "quota_blocked", self.max_calls_source,
                                        f"The session quota (max_tool_calls_per_session = {self.max_calls}) is used up: {note}."), trace)

        if not verdicts:
            return _finish(_Verdict("ask", "default", None, None, f"No rule decides calls to `{tool}`, so the default is ask."), trace)
        worst = max(verdicts, key=lambda v: _RANK[v.effect])
        chosen = next(v for v in verdicts if v.effect == worst.effect)
        return _finish(chosen, trace)

    def _plan_uncached(self, tool: str, text: str) -> tuple[Subject, tuple[Subject, ...], BlocklistResult | None]:
        """What a call's text alone determines: its subject, its segments, the blocklist's findings."""
        subject = _subject(tool, text, {})
        checked = self.blocklist.check(text) if tool.casefold() in SHELL_TOOLS else None
        return subject, _segment_subjects(tool, subject, checked), checked

    # -------------------------------------------------------------- stages

    def _constraints(self, tool: str, subject: Subject, segments: Sequence[Subject], cwd: str | None,
                     trace: list[TraceEntry]) -> _Verdict | None:
        assert self.constraints is not None
        for rule in self.constraints.rules:
            payload = dict(rule.payload)
            check = payload.get("check")
            if check == "deny_pattern":
                hit = next((s for s in (subject, *segments) if holds(rule.condition, s)), None)
                matched = hit is not None
                note = f"`{hit.input}` matches deny pattern `{payload['pattern']}`" if hit else f"no part of the input matches `{payload['pattern']}`"
            elif check == "allowed_paths":
                if not holds(rule.condition, subject):
                    continue
                outside = [p for p in subject.path or () if not any(glob_match(g, _lexical(p, cwd), path=True) for g in payload["globs"])]
                matched = bool(outside)
                note = f"`{outside[0]}` is outside the allowed paths" if outside else "every path is inside the allowed paths"
            else:
                matched = holds(rule.condition, subject)
                note = (f"`{tool}` is a denied tool" if check == "denied_tool" else f"`{tool}` is not among the allowed tools") if matched else f"does not apply to `{tool}`"
            trace.append(TraceEntry("constraints", rule.id, str(rule.span), matched, "deny" if matched else None, note))
            if matched:
                return _Verdict("deny", "constraints", rule.id, str(rule.span), f"The constraint {rule.id} denies this call: {note}.")
        return None

    def _permissions(self, key: str, subject: Subject, segments: Sequence[Subject], trace: list[TraceEntry]) -> _Verdict:
        group = self.graph.groups.get(f"{PERMISSION}:{key}")
        inputs = segments if segments else (subject,)
        worst: _Verdict | None = None
        for item in inputs:
            rule, tried = self.first_match(group, item)
            for failed in tried:
                trace.append(TraceEntry("permissions", failed.id, str(failed.span), False, None, f"`{item.input}` does not match {_rendered(failed)}"))
            if rule is None:
                verdict = _Verdict("ask", "permissions", None, None,
                                   f"No permission rule for `{key}` matches `{item.input}`, so the default is ask.",
                                   _why_not(tried, item))
                trace.append(TraceEntry("permissions", None, None, False, "ask", f"no rule matches `{item.input}`; default ask"))
            else:
                verdict = _Verdict(rule.effect, "permissions", rule.id, str(rule.span),
                                   f"The permission rule {rule.id} ({_pattern(rule)}) {_effect_phrase(rule.effect)} `{item.input}`.",
                                   _why_not(tried, item))
                trace.append(TraceEntry("permissions", rule.id, str(rule.span), True, rule.effect, f"`{item.input}` matches {_pattern(rule)}"))
            if worst is None or _RANK[verdict.effect] > _RANK[worst.effect]:
                worst = verdict
                if verdict.effect == "deny":
                    break  # the most restrictive answer is known
        assert worst is not None
        return worst

    def _policy(self, subject: Subject, trace: list[TraceEntry]) -> _Verdict | None:
        for stage, group in ((POLICY, self.policy), (AUTHORIZATION, self.authorization)):
            if group is None:
                continue
            rule, tried = self.first_match(group, subject)
            for failed in tried:
                trace.append(TraceEntry(stage, failed.id, str(failed.span), False, None, f"{_rendered(failed)} is false for this call"))
            if rule is not None:
                reason = dict(rule.payload).get("reason")
                trace.append(TraceEntry(stage, rule.id, str(rule.span), True, rule.effect, f"{_rendered(rule)} holds"))
                because = f": {reason}" if reason else f" because {_rendered(rule)} holds"
                return _Verdict(rule.effect, stage, rule.id, str(rule.span),
                                f"The {stage} rule {rule.id} {_effect_phrase(rule.effect)} this call{because}.", _why_not(tried, subject))
        if self.default_effect is None:
            return None
        trace.append(TraceEntry(POLICY, "policy.default_effect", None, True, self.default_effect, "no policy or authorization rule matched"))
        return _Verdict(self.default_effect, POLICY, "policy.default_effect", None,
                        f"No policy or authorization rule matches this call, so default_effect = {self.default_effect} applies.")

    def _sequences(self, subject: Subject, segments: Sequence[Subject], session: Session, trace: list[TraceEntry]) -> _Verdict | None:
        assert self.sequences is not None
        for rule in self.sequences.rules:
            if not any(holds(rule.condition, s) for s in (subject, *segments)):
                continue
            steps = dict(rule.payload)["steps"]
            position = 0
            for tool, text in session.history:
                if position < len(steps) - 1 and _step_matches(steps[position], tool, text):
                    position += 1
            matched = position == len(steps) - 1
            chain = " then ".join(f"{t}({p})" for t, p in steps)
            note = f"the session already did the earlier steps of {chain}" if matched else f"only {position} of {len(steps) - 1} earlier steps of {chain} happened"
            trace.append(TraceEntry("sequence", rule.id, str(rule.span), matched, rule.effect if matched else None, note))
            if matched:
                reason = dict(rule.payload).get("reason") or note
                return _Verdict(rule.effect, "sequence", rule.id, str(rule.span),
                                f"The blocked sequence {rule.id} {_effect_phrase(rule.effect)} this call: {reason}.")
        return None


# ------------------------------------------------------------------ helpers


def _first_match(group: GroupIndex | None, subject: Subject) -> tuple[Rule | None, list[Rule]]:
    """First matching rule of a group and the candidates tried before it."""
    if group is None:
        return None, []
    tried: list[Rule] = []
    for rule in group.candidates(subject):
        if holds(rule.condition, subject):
            return rule, tried
        tried.append(rule)
    return None, tried


def _reindex(group: GroupIndex | None) -> GroupIndex | None:
    """Re-index a group choosing, per rule, the key the fewest rules share.

    The compiler picks each rule's most selective-looking key on its own, so in
    ``tool == "bash" and command ^= "git x"`` it takes the exact tool name, which
    every policy rule for bash shares; here the choice looks at the whole group.
    """
    if group is None or len(group.rules) < 8:
        return group
    from .compiler import _lower_group
    from .ir import And
    from .passes.index import keys_for

    options: dict[int, list[tuple[Any, ...]]] = {}
    counts: dict[Any, int] = {}
    for rule in group.rules:
        condition = rule.condition
        items = condition.items if isinstance(condition, And) else (condition,)
        found = [k for k in (keys_for(item) for item in items) if k]
        options[rule.order] = found
        for keys in found:
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
    chosen: dict[int, tuple[Any, ...]] = {}
    for order, found in options.items():
        if found:
            chosen[order] = min(found, key=lambda keys: (max(counts[k] for k in keys), len(keys)))
    return _lower_group(group.name, list(group.rules), chosen)


def _first_match_naive(group: GroupIndex | None, subject: Subject) -> tuple[Rule | None, list[Rule]]:
    """The reference: every rule of the group in order (what ``NaiveEvaluator`` does)."""
    if group is None:
        return None, []
    tried: list[Rule] = []
    for rule in group.rules:
        if holds(rule.condition, subject):
            return rule, [r for r in tried if _shares_index(r, group)]
        tried.append(rule)
    return None, [r for r in tried if _shares_index(r, group)]


def _shares_index(rule: Rule, group: GroupIndex) -> bool:
    return True


def _why_not(tried: list[Rule], subject: Subject) -> str | None:
    """Explain the nearest rule that was a candidate but did not match."""
    if not tried:
        return None
    best = max(tried, key=lambda r: _closeness(r, subject))
    return f"{best.id} ({best.span}) almost matched: {render(best.condition)} is false for `{subject.input}`"


def _closeness(rule: Rule, subject: Subject) -> int:
    condition = rule.condition
    if isinstance(condition, Compare) and isinstance(condition.value, str) and isinstance(subject.input, str):
        glob, text = condition.value.casefold(), subject.input.casefold()
        common = 0
        for a, b in zip(glob, text):
            if a != b:
                break
            common += 1
        return common
    return 0


def _pattern(rule: Rule) -> str:
    pattern = dict(rule.payload).get("pattern")
    return f"`{pattern}`" if pattern else _rendered(rule)


_RENDERED: dict[int, tuple[Rule, str]] = {}


def _rendered(rule: Rule) -> str:
    """The DSL text of a rule's condition (rendered once per rule, for traces)."""
    found = _RENDERED.get(id(rule))
    if found is not None and found[0] is rule:
        return found[1]
    if len(_RENDERED) > 65536:
        _RENDERED.clear()
    text = render(rule.condition)
    _RENDERED[id(rule)] = (rule, text)
    return text


def _effect_phrase(effect: str) -> str:
    return {"deny": "denies", "ask": "asks about", "allow": "allows"}[effect]


def _finish(verdict: _Verdict, trace: list[TraceEntry]) -> Decision:
    return Decision(verdict.effect, verdict.stage, verdict.rule, verdict.source, verdict.reason, tuple(trace), verdict.why_not)


def _lexical(path: str, cwd: str | None = None) -> str:
    """Normalise a path lexically (``a/../b`` -> ``b``), absolute against ``cwd`` when given."""
    if cwd and not path.startswith(("/", "~")):
        path = posixpath.join(cwd, path)
    normal = posixpath.normpath(path) if path else path
    return "/" + normal.lstrip("/") if normal.startswith("//") else normal


def _subject(tool: str, input_or_args: str | Mapping[str, Any], context: Mapping[str, Any]) -> Subject:
    subject = call_subject(tool, input_or_args, **context)
    if subject.path:
        from dataclasses import replace

        subject = replace(subject, path=tuple(_lexical(p) for p in subject.path))
    return subject


def _segment_subjects(tool: str, subject: Subject, checked: BlocklistResult | None) -> tuple[Subject, ...]:
    """One subject per command the line runs (what permissions match for a shell tool)."""
    if checked is None:
        return ()
    out = []
    seen: set[str] = set()
    for segment in checked.analysis.segments:
        text = segment.text
        if not text or text in seen:
            continue
        seen.add(text)
        out.append(Subject(tool=tool, command=text, command_full=subject.command_full, program=segment.program or None,
                           input=text, args=subject.args, trust=subject.trust, phase=subject.phase, caller=subject.caller))
    return tuple(out)


def _step_matches(step: tuple[str, str], tool: str, text: str) -> bool:
    step_tool, pattern = step
    return glob_match(step_tool, tool, fold=True) and glob_match(pattern, text, fold=True)


_ENGINES: dict[int, tuple[weakref.ref[MatcherGraph], PolicyEngine]] = {}


def _forget(key: int, _ref: object) -> None:
    engines = _ENGINES  # None while the interpreter shuts down
    if engines is not None:
        engines.pop(key, None)


def engine_for(graph: MatcherGraph) -> PolicyEngine:
    """Return the policy engine of a graph (built once per graph)."""
    found = _ENGINES.get(id(graph))
    if found is not None and found[0]() is graph:
        return found[1]
    engine = PolicyEngine(graph)
    key = id(graph)
    _ENGINES[key] = (weakref.ref(graph, functools.partial(_forget, key)), engine)
    return engine


def decide(graph: MatcherGraph, tool: str, input_or_args: str | Mapping[str, Any], session: Session | None = None,
           **context: Any) -> Decision:
    """Decide allow / ask / deny for one tool call against a compiled graph."""
    return engine_for(graph).decide(tool, input_or_args, session, **context)


def visible_tools(graph: MatcherGraph, tools: Iterable[Any]) -> list[Any]:
    """Return the tools the model should see: not denied by constraints, not denied by every permission rule."""
    engine = engine_for(graph)
    out = []
    for tool in tools:
        name = tool if isinstance(tool, str) else (tool.get("name") if isinstance(tool, Mapping) else getattr(tool, "name", None))
        if not isinstance(name, str):
            out.append(tool)
            continue
        group = graph.groups.get(f"{PERMISSION}:{name.casefold()}")
        if group is not None and group.rules and all(r.effect == "deny" for r in group.rules):
            continue
        if engine.constraints is not None and any(
            dict(r.payload).get("check") in ("denied_tool", "allowed_tools") and holds(r.condition, Subject(tool=name))
            for r in engine.constraints.rules
        ):
            continue
        out.append(tool)
    return out


def _with_builtin_blocklist(user_rules: tuple[Rule, ...], settings: Mapping[str, Any]) -> tuple[Any, tuple[Rule, ...], dict[str, Any]]:
    """Compile the built-in blocklist together with a graph's own entries."""
    from .compiler import compile_rules
    from .ruleset import RuleSet

    builtin_rules, builtin_settings = _builtin_blocklist()
    merged = dict(builtin_settings)
    for key, value in settings.items():
        if key.startswith("blocklist."):
            merged[key] = merged[key] + value if isinstance(value, list) and isinstance(merged.get(key), list) else value
    offset = max((r.order for r in builtin_rules), default=0)
    from dataclasses import replace

    rules = builtin_rules + tuple(replace(r, order=r.order + offset) for r in user_rules)
    graph = compile_rules(RuleSet(rules=rules))
    group = graph.groups.get(BLOCKLIST)
    return group, rules, merged


_BUILTIN: list[tuple[tuple[Rule, ...], dict[str, Any]]] = []


def _builtin_blocklist() -> tuple[tuple[Rule, ...], dict[str, Any]]:
    if not _BUILTIN:
        from .loader import BUILTIN_DIR, load

        graph = load([BUILTIN_DIR / "blocklist.toml"], builtin=False)
        group = graph.groups.get(BLOCKLIST)
        rules = tuple(group.rules) if group else ()
        from dataclasses import replace

        rules = tuple(replace(r, span=replace(r.span, file="<builtin>/blocklist.toml")) for r in rules)
        _BUILTIN.append((rules, dict(graph.settings)))
    return _BUILTIN[0]


__all__ = ["Decision", "PolicyEngine", "TraceEntry", "decide", "engine_for", "visible_tools"]
