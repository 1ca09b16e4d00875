"""ZR501–ZR503: tool dependency gates that can never open.

`requires` hides a tool until its prerequisites have run.  A cycle, a
prerequisite nobody has heard of (usually a typo) or a prerequisite that is
itself always denied leaves the gated tool hidden for good.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import WARNING, Diagnostic, did_you_mean
from ..ir import AUTHORIZATION, PERMISSION, POLICY, And, Compare, Rule
from ..source import PathKey, SourceFile
from .automata import GlobProblem, Unsupported, glob_nfa, included
from .context import LintContext
from .logic import implies, strip_spans, unsatisfiable

#: Tool names agents commonly expose; a gate may name them without defining them here.
COMMON_TOOLS = frozenset({
    "bash", "shell", "sh", "exec", "terminal", "read", "write", "edit", "multiedit", "glob", "grep", "ls",
    "web_fetch", "webfetch", "web_search", "websearch", "fetch", "search", "notebookedit", "notebook_edit",
    "notebook_read", "task", "todo_write", "todowrite", "file_read", "file_write", "view", "create", "delete",
    "list_directory", "find", "diff", "patch", "apply_patch", "browser", "python", "memory", "think",
})

Edge = tuple[SourceFile, PathKey, str, str]  # where, gated tool, prerequisite


def dependency_gates(ctx: LintContext) -> Iterator[Diagnostic]:
    """Report requires-cycles, unknown tools in gates and prerequisites that are always denied."""
    edges: list[Edge] = []
    prefers: list[Edge] = []
    gated: set[str] = set()
    for src in ctx.sources:
        rules = _dig(src.data, ("tools", "dependencies", "rules"))
        if not isinstance(rules, dict):
            continue
        for tool, entry in rules.items():
            gated.add(tool.lower())
            if not isinstance(entry, dict):
                continue
            for key, sink in (("requires", edges), ("prefers", prefers)):
                for k, name in enumerate(entry.get(key) or []):
                    if isinstance(name, str):
                        sink.append((src, ("tools", "dependencies", "rules", tool, key, k), tool.lower(), name))
    if not edges and not prefers:
        return
    known = _known_tools(ctx) | gated
    for src, path, tool, name in edges + prefers:
        if src.path in ctx.checked and name.lower() not in known:
            hint = did_you_mean(name, known)
            yield ctx.at(src, path, "ZR502", f"`{tool}` names unknown tool `{name}`",
                         hint=hint or "define it (e.g. in [tools.permissions]) or check the spelling",
                         severity="error" if hint else WARNING)
    yield from _cycles(ctx, edges)
    for src, path, tool, name in edges:
        if src.path not in ctx.checked:
            continue
        denial = _always_denied(ctx, name)
        if denial is not None:
            yield ctx.at(src, path, "ZR503", f"`{tool}` requires `{name}`, but every `{name}` call is denied ({denial}), so `{tool}` can never be shown",
                         hint=f"allow `{name}` or drop the requirement")


def _dig(data: Any, path: PathKey) -> Any:
    for part in path:
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


def _known_tools(ctx: LintContext) -> set[str]:
    from ..desugar import FILE_TOOLS

    known = set(COMMON_TOOLS) | set(FILE_TOOLS)
    for rule in ctx.ruleset.rules:
        if rule.kind == PERMISSION:
            known.add(str(dict(rule.payload).get("tool", "")).lower())
    for src in ctx.sources:
        for section in ("policy", "authorization"):
            for entry in _dig(src.data, ("tools", section, "rules")) or []:
                if isinstance(entry, dict) and isinstance(entry.get("tool"), str):
                    known.add(entry["tool"].lower())
        for entry in src.data.get("tests") or [] if isinstance(src.data.get("tests"), list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("tool"), str):
                known.add(entry["tool"].lower())
    return known


def _cycles(ctx: LintContext, edges: list[Edge]) -> Iterator[Diagnostic]:
    graph: dict[str, list[Edge]] = {}
    for edge in edges:
        graph.setdefault(edge[2], []).append(edge)
    reported: set[frozenset[str]] = set()
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[Edge] = []

    def visit(tool: str) -> Iterator[Diagnostic]:
        state[tool] = 1
        for edge in graph.get(tool, []):
            target = edge[3].lower()
            stack.append(edge)
            if state.get(target) == 1:
                cycle = stack[next(i for i, e in enumerate(stack) if e[2] == target):]
                members = frozenset(e[2] for e in cycle)
                closing = next((e for e in reversed(cycle) if e[0].path in ctx.checked), None)
                if members not in reported and closing is not None:
                    reported.add(members)
                    loop = " -> ".join([e[2] for e in cycle] + [target])
                    src, path = closing[0], closing[1]
                    yield ctx.at(src, path, "ZR501", f"`requires` cycle: {loop}; none of these tools can ever be shown",
                                 hint="break the cycle: one of them must not require the others")
            elif state.get(target) is None:
                yield from visit(target)
            stack.pop()
        state[tool] = 2

    for tool in list(graph):
        if tool not in state:
            yield from visit(tool)


def _always_denied(ctx: LintContext, tool: str) -> str | None:
    """Describe why every call of ``tool`` is denied, or None when some call may pass."""
    rules = [r for r in ctx.ruleset.rules if r.enabled and r.group == f"{PERMISSION}:{tool.lower()}"]
    if rules and all(r.effect == "deny" for r in rules):
        return f"all its permission rules deny, the first at {_where(rules[0])}"
    for rule in rules:
        if _matches_everything(rule):
            if rule.effect == "deny":
                return f"`{rule.id}` (`{dict(rule.payload).get('pattern')}`) denies everything, {_where(rule)}"
            break
    call = Compare("tool", "==", tool)
    chain = sorted((r for r in ctx.ruleset.rules if r.enabled and r.kind in (POLICY, AUTHORIZATION)),
                   key=lambda r: (r.kind != POLICY, r.order))
    for rule in chain:
        condition = strip_spans(rule.condition)
        if unsatisfiable(And((call, condition))):
            continue  # never applies to this tool
        if implies(call, condition) and rule.effect == "deny":
            return f"`{rule.id}` denies every call, {_where(rule)}"
        break
    return None


def _matches_everything(rule: Rule) -> bool:
    try:
        nfa = glob_nfa(str(dict(rule.payload).get("pattern", "")), False, True)
        everything = glob_nfa("*", False, True)
    except (GlobProblem, Unsupported):
        return False
    return included(everything, [nfa]).included is True


def _where(rule: Rule) -> str:
    return f"{rule.span.file}:{rule.span.line}"
