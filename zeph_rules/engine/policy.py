"""The policy engine: one decision per tool call, naming the rule that decided.

Stages run in a fixed order: shell blocklist, scoped constraints, permissions,
policy then authorization, file sandbox, blocked sequences, session quota.
The first stage that says ``deny`` ends the evaluation; otherwise ``ask``
from any stage wins over ``allow``; when no stage has an opinion the answer
is ``ask``.

Everything derived from a graph once (the blocklist with its shell config, the
per-group lookups, the sandbox globs, a ready verdict per rule) is kept in a
``PolicyEngine`` cached per graph; the analysis of a command line (parse,
normalisation, blocklist) is memoised per line, because it depends on the text
alone.  Rule evaluation is done for every call.

Most calls can only be decided by permissions and policy (no blocklist finding,
no constraints, sandbox, sequences or quota in play): for those one call into
``_speedups.decide_call`` looks up the candidates, evaluates them and combines
the two stages, keeping nothing but the answer.  The decision's sentences are
written when first read, by running the same lists again through
``_speedups.decide_lists``, which keeps the candidates each list tried.
"""

from __future__ import annotations

import functools
import posixpath
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .. import _speedups
from .blocklist import BLOCKLIST, Blocklist, BlocklistResult, Hit
from .evaluate import Subject, holds
from .graph import GroupIndex, MatcherGraph, call_subject
from .ir import AUTHORIZATION, PERMISSION, POLICY, Compare, Rule, render
from .patterns import glob_match
from .sandbox import Sandbox, read_paths
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


def _none() -> None:
    return None


#: The fields of a ``Decision`` that ``decide`` leaves to be worked out when first read.
_LAZY = frozenset({"source", "reason", "trace", "why_not"})


@dataclass(frozen=True)
class Decision:
    """The answer for one tool call: allow / ask / deny, and why.

    ``decide`` fills ``decision``, ``stage`` and ``rule`` and keeps what the
    other fields are made of (the rules tried, the subject); ``source``,
    ``reason``, ``trace`` and ``why_not`` are built when first read, so a caller
    that only wants the answer does not pay for the sentences.  Reading,
    comparing, printing and pickling a decision look the same either way.
    """

    decision: str
    stage: str
    rule: str | None
    source: str | None
    reason: str
    # factories, not plain defaults: a class attribute would hide a lazy value from ``__getattr__``
    trace: tuple[TraceEntry, ...] = field(default_factory=tuple)
    why_not: str | None = field(default_factory=_none)

    def __getattr__(self, name: str) -> Any:
        # only reached for a field missing from the instance: a lazily built decision
        explain = self.__dict__.get("_explain")
        if explain is None or name not in _LAZY:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        values = explain[0](*explain[1:])
        self.__dict__.update(values)
        self.__dict__.pop("_explain", None)
        return values[name]

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in ("decision", "stage", "rule", "source", "reason", "trace", "why_not")}

    @property
    def quota_blocked(self) -> bool:
        return self.stage == "quota"

    def as_json(self) -> dict[str, Any]:
        """Return the stable JSON form (keys: decision, stage, rule, source, reason, trace, why_not)."""
        return {
            "decision": self.decision, "stage": self.stage, "rule": self.rule, "source": self.source,
            "reason": self.reason, "trace": [t.as_json() for t in self.trace], "why_not": self.why_not,
        }


_new_decision = object.__new__


#: One stage's answer: ``(effect, stage, rule id, explain)``, where ``explain`` is
#: ``(function, *args)`` returning (source, reason, why_not).  A plain tuple: one is made per stage per call.
_Verdict = tuple[str, str, str | None, tuple[Any, ...]]


def _given(source: str | None, reason: str, why_not: str | None = None) -> tuple[str | None, str, str | None]:
    return source, reason, why_not


#: What ``decide_call`` answers for an item no permission rule matches, and for a call nothing has an opinion on.
_NO_RULE = (1, ("ask", "permissions", None))
_NO_OPINION = ("ask", "default", None)

#: What ``decide`` knows of a call before any rule is evaluated (see ``PolicyEngine._line``).
_Line = tuple[Any, ...]


def _entries(group: GroupIndex, stage: str) -> dict[int, tuple[int, tuple[str, str, str]]]:
    """Rule order -> ``(rank, (effect, stage, rule id))`` for every rule of a list: what ``decide_call`` answers."""
    return {rule.order: (_RANK[rule.effect], (rule.effect, stage, rule.id)) for rule in group.rules}


def _eager(effect: str, stage: str, rule: str | None, source: str | None, reason: str, why_not: str | None = None) -> _Verdict:
    """A verdict whose sentences are already written (the rare stages)."""
    return (effect, stage, rule, (_given, source, reason, why_not))


# ------------------------------------------------------------------ the engine of one graph


class PolicyEngine:
    """Everything ``decide`` derives from a graph once."""

    def __init__(self, graph: MatcherGraph, reference: bool = False) -> None:
        # A proxy: engine_for keeps engines by graph, and a strong reference from
        # the engine would keep every graph a process ever loaded alive.
        self.graph = weakref.proxy(graph)
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
        # the index pass already keys policy rules by what tells them apart (not the shared tool name)
        self.policy = graph.groups.get(POLICY)
        self.authorization = graph.groups.get(AUTHORIZATION)
        self._policy_on = self.policy_configured and self.policy_enabled
        self._policy_groups = tuple((stage, group) for stage, group in ((POLICY, self.policy), (AUTHORIZATION, self.authorization))
                                    if group is not None)
        self._default_verdict = None if self.default_effect is None else _eager(
            self.default_effect, POLICY, "policy.default_effect", None,
            f"No policy or authorization rule matches this call, so default_effect = {self.default_effect} applies.")
        # casefolded tool name -> its permission list and that list's matcher tables
        self._permission_groups: dict[str, tuple[GroupIndex | None, Any]] = {}
        # casefolded tool name -> its decision plan (see ``_tool_plan``)
        self._tools: dict[str, tuple[Any, ...]] = {}
        self._indexed = not reference
        # a call takes the fast path when no stage but the blocklist, permissions and policy can apply to it
        self._fast = not reference and self.constraints is None
        self._sandbox_active = self.sandbox.active
        self._policy_plan: tuple[Any, ...] | None = None  # the policy lists for ``decide_call``, built with the first tool plan

    # -------------------------------------------------------------- decide

    def decide(self, tool: str, input_or_args: str | Mapping[str, Any], session: Session | None = None,
               cwd: str | None = None, **context: Any) -> Decision:
        """Return the decision for one call (see the module docstring for the order).

        Only the answer is computed here; the sentences (reason, trace, why-not)
        are written from what is kept when the decision's fields are first read.
        """
        if type(input_or_args) is str and not context:
            line = self._plan(tool, input_or_args)  # memoised per (tool, text)
        else:
            line = self._analyse(tool, input_or_args, context)
        fast = line[5]
        if fast is not None and (session is None or (self.max_calls is None and (self.sequences is None or not session.history))):
            # the common case: only permissions and policy can have an opinion; one compiled call answers both
            decision = _new_decision(Decision)
            fields = decision.__dict__
            fields["decision"], fields["stage"], fields["rule"] = _speedups.decide_call(*fast)
            fields["_explain"] = (_explain_fast, self, tool, line)
            return decision
        key, subject, segments, checked, hit, _fast, reads = line
        log: list[tuple[Any, ...]] = []  # (function, *args) -> trace entries, in order
        verdicts: list[_Verdict] = []

        # 1. shell blocklist
        if checked is not None:
            log.append((_blocklist_trace, checked))
            if hit is not None:
                verdict = (hit.effect, BLOCKLIST, hit.rule_id, (_blocklist_explain, hit))
                if hit.effect == "deny":
                    return _decision(verdict, log)
                verdicts.append(verdict)

        # 2. scoped constraints
        if self.constraints is not None:
            verdict_or_none = self._constraints(tool, subject, segments, cwd, log)
            if verdict_or_none is not None:
                return _decision(verdict_or_none, log)

        # 3. permissions, 4. policy, then authorization
        if self._indexed:
            permission, verdict_or_none = self._lists(key, subject, segments, log)
            if permission is not None:
                if permission[0] == "deny":
                    return _decision(permission, log)
                verdicts.append(permission)
            if verdict_or_none is not None:
                if verdict_or_none[0] == "deny":
                    return _decision(verdict_or_none, log)
                verdicts.append(verdict_or_none)
        else:
            if self.permissions_configured:
                verdict = self._permissions(key, subject, segments, log)
                if verdict[0] == "deny":
                    return _decision(verdict, log)
                verdicts.append(verdict)
            if self._policy_on:
                verdict_or_none = self._policy(subject, log)
                if verdict_or_none is not None:
                    if verdict_or_none[0] == "deny":
                        return _decision(verdict_or_none, log)
                    verdicts.append(verdict_or_none)

        # 5. file sandbox: the call's own paths, then the files its commands read
        paths = subject.path if subject.path and (key in FILE_TOOLS or not isinstance(input_or_args, str)) else ()
        if self.sandbox.active and (paths or reads):
            refused, notes = self.sandbox.check(paths, cwd)
            if refused is None and reads:
                refused, more = self.sandbox.check_reads(reads, cwd)
                notes += more
            entries = [TraceEntry("sandbox", None, None, False, None, note) for note in notes]
            log.append((_listed, entries))
            if refused is not None:
                entries.append(TraceEntry("sandbox", refused.rule, refused.source, True, "deny", refused.reason))
                return _decision(_eager("deny", "sandbox", refused.rule, refused.source,
                                        f"The file sandbox ({refused.rule}) denies this path: {refused.reason}."), log)

        # 6. blocked sequences
        if self.sequences is not None and session is not None and session.history:
            verdict_or_none = self._sequences(subject, segments, session, log)
            if verdict_or_none is not None:
                if verdict_or_none[0] == "deny":
                    return _decision(verdict_or_none, log)
                verdicts.append(verdict_or_none)

        # 7. session quota
        if self.max_calls is not None and session is not None:
            over = session.calls >= self.max_calls
            note = f"{session.calls} of {self.max_calls} calls used"
            log.append((_listed, [TraceEntry("quota", "quota_blocked", self.max_calls_source, over, "deny" if over else None, note)]))
            if over:
                return _decision(_eager("deny", "quota", "quota_blocked", self.max_calls_source,
                                        f"The session quota (max_tool_calls_per_session = {self.max_calls}) is used up: {note}."), log)

        if not verdicts:
            return _decision(_eager("ask", "default", None, None, f"No rule decides calls to `{tool}`, so the default is ask."), log)
        chosen = verdicts[0]  # the most restrictive; the earliest stage among equals
        for verdict in verdicts:
            if _RANK[verdict[0]] > _RANK[chosen[0]]:
                chosen = verdict
        return _decision(chosen, log)

    def _tool_plan(self, key: str) -> tuple[Any, ...]:
        """What ``decide`` needs per tool, worked out once.

        ``(permission group, its tables, rule ranks, policy tables, call plan)``;
        the call plan is what ``_speedups.decide_call`` reads: the same tables
        with an entry ``(rank, (effect, stage, rule id))`` per rule.
        """
        group = self.graph.groups.get(f"{PERMISSION}:{key}")
        if self._policy_plan is None:  # shared by every tool
            self._policy_plan = tuple((g.matcher, _entries(g, stage)) for stage, g in self._policy_groups) if self._policy_on else ()
        policy_default = None
        if self._policy_on and self._default_verdict is not None:
            policy_default = (_RANK[self._default_verdict[0]], self._default_verdict[:3])
        matcher = None if group is None else group.matcher
        call = (matcher, {} if group is None else _entries(group, "permissions"), _NO_RULE, self._policy_plan, policy_default, _NO_OPINION)
        ranks = {} if group is None else {rule.order: _RANK[rule.effect] for rule in group.rules}
        plan = (group, matcher, ranks, tuple(policy_matcher for policy_matcher, _entries_ in self._policy_plan), call)
        if len(self._tools) < 4096:
            self._tools[key] = plan
        return plan

    def _lists(self, key: str, subject: Subject, segments: tuple[Subject, ...], log: list[tuple[Any, ...]]
               ) -> tuple[_Verdict | None, _Verdict | None]:
        """The permission and policy verdicts (each ``None`` when that stage has no opinion), logging what was tried."""
        group, matcher, ranks, policies, _call = self._tools.get(key) or self._tool_plan(key)
        worst, found, policy = _speedups.decide_lists(matcher, ranks, (segments or (subject,)) if self.permissions_configured else (),
                                                      policies, subject)
        permission: _Verdict | None = None
        items = segments or (subject,)
        for index, (order, tried) in enumerate(found):
            item = items[index]
            rule = group.by_order[order] if order >= 0 else None
            log.append((_permission_trace, key, item, rule, group, tried))
            if index == worst:
                permission = (rule.effect if rule is not None else "ask", "permissions", rule.id if rule is not None else None,
                              (_permission_explain, key, item, rule, group, tried))
        if permission is not None and permission[0] == "deny":
            return permission, None
        if not self._policy_on:
            return permission, None
        for (stage, group_p), (order, tried) in zip(self._policy_groups, policy):
            rule = group_p.by_order[order] if order >= 0 else None
            log.append((_policy_trace, stage, rule, group_p, tried))
            if rule is not None:
                return permission, (rule.effect, stage, rule.id, (_policy_explain, stage, rule, group_p, tried, subject))
        if self._default_verdict is not None:
            log.append((_listed, [TraceEntry(POLICY, "policy.default_effect", None, True, self.default_effect, "no policy or authorization rule matched")]))
        return permission, self._default_verdict

    def _plan_uncached(self, tool: str, text: str) -> _Line:
        """What a call's text alone determines: its subject, its segments, the blocklist's findings."""
        key = tool.casefold()
        subject = _subject(tool, text, {})
        checked = self.blocklist.check(text) if key in SHELL_TOOLS else None
        return self._line(key, subject, checked, True)

    def _analyse(self, tool: str, input_or_args: str | Mapping[str, Any], context: Mapping[str, Any]) -> _Line:
        """The same as ``_plan`` for calls with arguments or context (not memoised)."""
        key = tool.casefold()
        subject = _subject(tool, input_or_args, context)
        command = subject.command_full if (key in SHELL_TOOLS or not isinstance(input_or_args, str)) else None
        checked = self.blocklist.check(command) if command is not None else None
        return self._line(key, subject, checked, isinstance(input_or_args, str))

    def _line(self, key: str, subject: Subject, checked: BlocklistResult | None, text: bool) -> _Line:
        """``(key, subject, segments, blocklist result, blocklist hit, fast, reads)``.

        ``reads`` are the ``(program, path)`` of the files the line's commands
        read (see ``sandbox.read_paths``), when a sandbox is configured.
        ``fast`` is ``(call plan, items, subject)``, the arguments of
        ``_speedups.decide_call``, when only permissions and policy can have an
        opinion on the call (unless its session has a quota or history), else ``None``.
        """
        segments = _segment_subjects(subject.tool or key, subject, checked)
        hit = checked.first if checked is not None else None
        reads = read_paths(checked.analysis.segments) if self._sandbox_active and checked is not None else ()
        fast = None
        if (self._fast and hit is None and not reads
                and not (self._sandbox_active and subject.path and (key in FILE_TOOLS or not text))):
            call = (self._tools.get(key) or self._tool_plan(key))[4]
            fast = (call, (segments or (subject,)) if self.permissions_configured else (), subject)
        return key, subject, segments, checked, hit, fast, reads

    # -------------------------------------------------------------- stages

    def _constraints(self, tool: str, subject: Subject, segments: Sequence[Subject], cwd: str | None,
                     log: list[tuple[Any, ...]]) -> _Verdict | None:
        assert self.constraints is not None
        trace: list[TraceEntry] = []
        log.append((_listed, trace))
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
                return _eager("deny", "constraints", rule.id, str(rule.span), f"The constraint {rule.id} denies this call: {note}.")
        return None

    def _permissions(self, key: str, subject: Subject, segments: Sequence[Subject], log: list[tuple[Any, ...]]) -> _Verdict:
        found = self._permission_groups.get(key)
        if found is None:
            group = self.graph.groups.get(f"{PERMISSION}:{key}")
            found = (group, None if group is None else group.matcher)
            if len(self._permission_groups) < 4096:
                self._permission_groups[key] = found
        group, matcher = found
        first_match = self.first_match
        worst: _Verdict | None = None
        for item in segments or (subject,):
            if matcher is None or first_match is not _first_match:
                rule, tried = first_match(group, item)
            else:  # the hot path, without the call through ``_first_match``
                order, tried = _speedups.first_match(matcher, item)
                rule = group.by_order[order] if order >= 0 else None  # type: ignore[union-attr]
            log.append((_permission_trace, key, item, rule, group, tried))
            if rule is None:
                verdict: _Verdict = ("ask", "permissions", None, (_permission_explain, key, item, rule, group, tried))
            else:
                verdict = (rule.effect, "permissions", rule.id, (_permission_explain, key, item, rule, group, tried))
            if worst is None or _RANK[verdict[0]] > _RANK[worst[0]]:
                worst = verdict
                if verdict[0] == "deny":
                    break  # the most restrictive answer is known
        assert worst is not None
        return worst

    def _policy(self, subject: Subject, log: list[tuple[Any, ...]]) -> _Verdict | None:
        first_match = self.first_match
        tried: Sequence[int]
        for stage, group in self._policy_groups:
            if first_match is _first_match:  # the hot path, without the call through ``_first_match``
                order, tried = _speedups.first_match(group.matcher, subject)
                rule = group.by_order[order] if order >= 0 else None
            else:
                rule, tried = first_match(group, subject)
            log.append((_policy_trace, stage, rule, group, tried))
            if rule is not None:
                return (rule.effect, stage, rule.id, (_policy_explain, stage, rule, group, tried, subject))
        if self._default_verdict is not None:
            log.append((_listed, [TraceEntry(POLICY, "policy.default_effect", None, True, self.default_effect, "no policy or authorization rule matched")]))
        return self._default_verdict

    def _sequences(self, subject: Subject, segments: Sequence[Subject], session: Session, log: list[tuple[Any, ...]]) -> _Verdict | None:
        assert self.sequences is not None
        trace: list[TraceEntry] = []
        log.append((_listed, trace))
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
                return _eager(rule.effect, "sequence", rule.id, str(rule.span),
                              f"The blocked sequence {rule.id} {_effect_phrase(rule.effect)} this call: {reason}.")
        return None


_UNKNOWN: Any = object()


# ------------------------------------------------------------------ the sentences, written when read


def _decision(verdict: _Verdict, log: list[tuple[Any, ...]]) -> Decision:
    """Build a decision whose source, reason, trace and why-not are written on first access."""
    decision = _new_decision(Decision)
    fields = decision.__dict__
    fields["decision"], fields["stage"], fields["rule"], explain = verdict
    fields["_explain"] = (_explain_decision, explain, log)
    return decision


def _explain_fast(engine: PolicyEngine, tool: str, line: _Line) -> dict[str, Any]:
    """Write the sentences of a fast-path decision: the lists are run again, keeping what the full path keeps."""
    key, subject, segments, checked, _hit, _fast, _reads = line
    log: list[tuple[Any, ...]] = []
    if checked is not None:
        log.append((_blocklist_trace, checked))
    permission, verdict_or_none = engine._lists(key, subject, segments, log)
    verdicts = [v for v in (permission, verdict_or_none) if v is not None]
    if not verdicts:
        return _explain_decision(_eager("ask", "default", None, None, f"No rule decides calls to `{tool}`, so the default is ask.")[3], log)
    chosen = verdicts[0]
    for verdict in verdicts:
        if _RANK[verdict[0]] > _RANK[chosen[0]]:
            chosen = verdict
    return _explain_decision(chosen[3], log)


def _explain_decision(explain: tuple[Any, ...], log: list[tuple[Any, ...]]) -> dict[str, Any]:
    source, reason, why_not = explain[0](*explain[1:])
    trace = tuple(entry for step in log for entry in step[0](*step[1:]))
    return {"source": source, "reason": reason, "trace": trace, "why_not": why_not}


def _listed(entries: list[TraceEntry]) -> list[TraceEntry]:
    return entries


def _blocklist_trace(checked: BlocklistResult) -> list[TraceEntry]:
    return [TraceEntry(BLOCKLIST, rule_id, source, matched, "deny" if matched else None, note)
            for rule_id, source, matched, note in checked.considered]


def _blocklist_explain(hit: Hit) -> tuple[str | None, str, str | None]:
    return hit.source, f"The blocklist rule {hit.rule_id} {_effect_phrase(hit.effect)} this command: it {hit.reason}.", None


def _tried(group: GroupIndex | None, tried: Sequence[int]) -> list[Rule]:
    """The rules behind the candidate orders a first-match tried."""
    return [group.by_order[order] for order in tried] if group is not None else []


def _permission_trace(key: str, item: Subject, rule: Rule | None, group: GroupIndex | None, tried: Sequence[int]) -> list[TraceEntry]:
    entries = [TraceEntry("permissions", failed.id, str(failed.span), False, None, f"`{item.input}` does not match {_rendered(failed)}")
               for failed in _tried(group, tried)]
    if rule is None:
        entries.append(TraceEntry("permissions", None, None, False, "ask", f"no rule matches `{item.input}`; default ask"))
    else:
        entries.append(TraceEntry("permissions", rule.id, str(rule.span), True, rule.effect, f"`{item.input}` matches {_pattern(rule)}"))
    return entries


def _permission_explain(key: str, item: Subject, rule: Rule | None, group: GroupIndex | None, tried: Sequence[int]
                        ) -> tuple[str | None, str, str | None]:
    tried_rules = _tried(group, tried)
    if rule is None:
        return None, f"No permission rule for `{key}` matches `{item.input}`, so the default is ask.", _why_not(tried_rules, item)
    return (str(rule.span), f"The permission rule {rule.id} ({_pattern(rule)}) {_effect_phrase(rule.effect)} `{item.input}`.",
            _why_not(tried_rules, item))


def _policy_trace(stage: str, rule: Rule | None, group: GroupIndex | None, tried: Sequence[int]) -> list[TraceEntry]:
    entries = [TraceEntry(stage, failed.id, str(failed.span), False, None, f"{_rendered(failed)} is false for this call")
               for failed in _tried(group, tried)]
    if rule is not None:
        entries.append(TraceEntry(stage, rule.id, str(rule.span), True, rule.effect, f"{_rendered(rule)} holds"))
    return entries


def _policy_explain(stage: str, rule: Rule, group: GroupIndex | None, tried: Sequence[int], subject: Subject
                    ) -> tuple[str | None, str, str | None]:
    reason = dict(rule.payload).get("reason")
    because = f": {reason}" if reason else f" because {_rendered(rule)} holds"
    return str(rule.span), f"The {stage} rule {rule.id} {_effect_phrase(rule.effect)} this call{because}.", _why_not(_tried(group, tried), subject)


# ------------------------------------------------------------------ helpers


def _first_match(group: GroupIndex | None, subject: Subject) -> tuple[Rule | None, Sequence[int]]:
    """First matching rule of a group and the orders of the candidates tried before it."""
    if group is None:
        return None, ()
    order, tried = _speedups.first_match(group.matcher, subject)
    return (group.by_order[order] if order >= 0 else None), tried


def _first_match_naive(group: GroupIndex | None, subject: Subject) -> tuple[Rule | None, Sequence[int]]:
    """The reference: every rule of the group in order (what ``NaiveEvaluator`` does)."""
    if group is None:
        return None, ()
    tried: list[int] = []
    for rule in group.rules:
        if holds(rule.condition, subject):
            return rule, tried
        tried.append(rule.order)
    return None, tried


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
