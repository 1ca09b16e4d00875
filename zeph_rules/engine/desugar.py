"""Validate loaded rule files and desugar every short form into the IR.

``match = { prefix = "make" }`` becomes ``command ^= "make"``; a permission
``{ pattern = "git *", action = "allow" }`` becomes ``input ~i "git *"`` with
effect ``allow``; policy fields (``tool``, ``when``, ``args_match``, ``paths``)
become one conjunction.  After this step the compiler, the linter and
``explain`` see only ``Rule`` objects.

Validation is per rule: a broken rule yields a diagnostic at its file position
and is skipped, and the rules around it still load.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from . import models
from .errors import ERROR, WARNING, Diagnostic, did_you_mean
from .ir import (
    AUTHORIZATION,
    FILTER,
    PERMISSION,
    POLICY,
    TRUE,
    And,
    Compare,
    Expr,
    Not,
    Or,
    Regex,
    Rule,
)
from .ruleset import InlineExample, RuleSet
from .source import PathKey, SourceFile
from .span import Span

#: Tools whose input is a path rather than a command (permission globs use the path).
FILE_TOOLS = frozenset({"read", "write", "edit", "multiedit", "glob", "grep", "ls", "notebookedit", "notebook_edit", "file_read", "file_write", "view", "create", "delete"})


class _Context:
    """Per-file state while desugaring: diagnostics and the global rule order."""

    def __init__(self, src: SourceFile, order_start: int) -> None:
        self.src = src
        self.order = order_start
        self.rules: list[Rule] = []
        self.diagnostics: list[Diagnostic] = []
        self.settings: dict[str, Any] = {}
        self.tests: list[InlineExample] = []
        #: the named regex lists of every loaded file (``[pattern_sets]``); None marks a set with errors
        self.pattern_sets: dict[str, tuple[str, ...] | None] = {}

    def error(self, path: PathKey, code: str, message: str, hint: str | None = None, key: bool = False,
              offset: int | None = None, length: int = 1, severity: str = ERROR, rule: str | None = None) -> None:
        if offset is not None and tuple(path) in self.src.strings:
            line, col = self.src.position_in_string(path, offset)
            end_line, end_col = line, col + length
        else:
            span = self.src.key_span_of(path) if key else self.src.span_of(path)
            line, col, end_line, end_col = span.line, span.col, span.end_line, span.end_col
        self.diagnostics.append(Diagnostic(self.src.path, line, col, severity, code, message, end_line, end_col, rule, hint))

    def next_order(self) -> int:
        self.order += 1
        return self.order


def desugar(sources: Sequence[SourceFile]) -> RuleSet:
    """Validate and desugar loaded files (in order) into one ``RuleSet``."""
    rules: list[Rule] = []
    diagnostics: list[Diagnostic] = []
    settings: dict[str, Any] = {}
    tests: list[InlineExample] = []
    order = 0
    contexts = [_Context(src, 0) for src in sources]
    # Pattern sets first, from every file: a rule may use a set defined in any loaded file, and a later
    # file's set replaces an earlier one of the same name (as a later filter rule replaces a built-in).
    pattern_sets: dict[str, tuple[str, ...] | None] = {}
    for ctx in contexts:
        pattern_sets.update(_pattern_sets(ctx))
    for ctx in contexts:
        src = ctx.src
        ctx.order = order
        ctx.pattern_sets = pattern_sets
        _desugar_file(ctx)
        order = ctx.order
        rules.extend(ctx.rules)
        diagnostics.extend(sorted([*src.diagnostics, *ctx.diagnostics], key=lambda d: (d.line, d.col, d.code)))
        for key, value in ctx.settings.items():
            if isinstance(value, list) and isinstance(settings.get(key), list):
                settings[key] = settings[key] + value
            else:
                settings[key] = value
        tests.extend(ctx.tests)
    rules = _override_by_name(rules)
    return RuleSet(
        rules=tuple(rules),
        settings=tuple(sorted(settings.items())),
        tests=tuple(tests),
        diagnostics=tuple(diagnostics),
        files=tuple(s.path for s in sources),
    )


def _override_by_name(rules: list[Rule]) -> list[Rule]:
    """A later filter rule with the same name replaces the earlier one, in its place.

    In its place in the order too: the graph runs matching rules by ``order``, and the later rule's
    own (after every built-in) would move it behind the built-ins that follow the one it replaces.
    """
    last: dict[str, Rule] = {}
    for rule in rules:
        if rule.kind == FILTER:
            last[rule.id] = rule
    out: list[Rule] = []
    seen: set[str] = set()
    for rule in rules:
        if rule.kind == FILTER:
            if rule.id in seen:
                continue
            seen.add(rule.id)
            replacing = last[rule.id]
            out.append(replacing if replacing is rule else dataclasses.replace(replacing, order=rule.order))
        else:
            out.append(rule)
    return out


def _desugar_file(ctx: _Context) -> None:
    data = ctx.src.data
    for key in data:
        if key not in models.TOP_LEVEL_KEYS:
            ctx.error((key,), "ZR020", f"unknown section `{key}`", did_you_mean(key, models.TOP_LEVEL_KEYS), key=True)
    if "rules" in data:
        _filter_rules(ctx, data["rules"])
    tools = data.get("tools")
    if tools is not None:
        if not isinstance(tools, dict):
            ctx.error(("tools",), "ZR021", "`tools` must be a table")
        else:
            _tools(ctx, tools)
    if "tests" in data:
        _inline_tests(ctx, data["tests"])


# ------------------------------------------------------------ validation helpers


def _validate(ctx: _Context, model: Any, value: Any, path: PathKey, rule: str | None = None,
              relocate: Callable[[PathKey], PathKey] | None = None) -> Any | None:
    """Validate ``value`` against ``model``; on failure report every problem and return None.

    ``relocate`` maps a location inside ``value`` back to the file when ``value`` is not what the file
    says word for word (pattern-set references expanded).
    """
    adapter = model if isinstance(model, TypeAdapter) else None
    try:
        if adapter is not None:
            return adapter.validate_python(value)
        return model.model_validate(value)
    except ValidationError as exc:
        root_model = model if adapter is None else None
        for loc, code, message, hint, key, offset in _translate(exc, value, root_model):
            ctx.error(path + (relocate(loc) if relocate else loc), code, message, hint, key=key, offset=offset, rule=rule)
        return None


def _translate(exc: ValidationError, data: Any, root_model: Any) -> list[tuple[PathKey, str, str, str | None, bool, int | None]]:
    """Turn pydantic errors into (path, code, message, hint, point-at-key, offset-in-string)."""
    problems = []
    seen: set[tuple[PathKey, str]] = set()
    errors = exc.errors(include_url=False)
    for err in errors:
        loc = _real_loc(err["loc"], data)
        node = _walk(data, loc)
        etype = err["type"]
        # Union branches that do not apply to the input's type are noise.
        if etype in ("string_type",) and isinstance(node, dict) and len(errors) > 1:
            continue
        if etype == "model_type" and isinstance(node, str) and len(errors) > 1:
            continue
        message = str(err["msg"]).removeprefix("Value error, ")
        hint = None
        key = False
        offset = None
        code = "ZR022"
        if etype == "extra_forbidden":
            name = str(loc[-1]) if loc else "?"
            fields = _fields_at(root_model, data, loc[:-1])
            message = f"unknown key `{name}`"
            hint = did_you_mean(name, fields) if fields else None
            code = "ZR020"
            key = True
        elif etype == "missing":
            name = str(err["loc"][-1])
            message = f"missing required key `{name}`"
            loc = loc[:-1] if loc and loc[-1] == name else loc
            code = "ZR023"
        elif etype == "union_tag_invalid":
            tag = err.get("ctx", {}).get("tag", "?")
            message = f"unknown strategy type `{tag}`"
            hint = did_you_mean(str(tag), models.STRATEGY_TYPES) or f"types are {', '.join(models.STRATEGY_TYPES)}"
            loc = loc + ("type",)
            code = "ZR024"
        elif etype == "union_tag_not_found":
            message = "strategy needs a `type`"
            hint = f"types are {', '.join(models.STRATEGY_TYPES)}"
            code = "ZR023"
        elif "invalid regex" in message:
            code = "ZR030"
            found = re.search(r"invalid regex at position (\d+)", message)
            if found and isinstance(node, str):
                offset = int(found.group(1))
        elif "limited to" in message or etype == "string_too_long":
            code = "ZR031"
            if etype == "string_too_long":
                limit = err.get("ctx", {}).get("max_length")
                message = f"pattern is {len(node) if isinstance(node, str) else '?'} characters; patterns are limited to {limit}"
        elif etype == "literal_error":
            expected = err.get("ctx", {}).get("expected", "")
            got = node if isinstance(node, str) else None
            options = re.findall(r"'([^']+)'", str(expected))
            message = f"expected {expected}" + (f", got `{got}`" if got is not None else "")
            hint = did_you_mean(got, options) if got is not None and options else None
            code = "ZR025"
        elif "exactly one of" in message or "exceeds max_lines" in message:
            code = "ZR026"
        if (loc, message) in seen:
            continue
        seen.add((loc, message))
        problems.append((loc, code, message, hint, key, offset))
    return problems


def _real_loc(loc: Sequence[Any], data: Any) -> PathKey:
    """Drop the parts of a pydantic location that name union branches, not data keys."""
    out: list[Any] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node or isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            out.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and not _looks_like_tag(part, node):
            out.append(part)  # a missing or extra key
            node = None
    return tuple(out)


def _looks_like_tag(part: str, node: dict[str, Any]) -> bool:
    return part in models.STRATEGY_TYPES or part in ("str", "MatchSpec") or part.startswith("function-") or part == node.get("type")


def _walk(data: Any, loc: PathKey) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _fields_at(model: Any, data: Any, loc: PathKey) -> list[str]:
    """Return the field names of the model that validates ``data`` at ``loc``."""
    current = model
    node = data
    for part in loc:
        if current is None:
            return []
        node = node[part] if isinstance(node, (dict, list)) else None
        current = _field_model(current, part, node)
    return list(current.model_fields) if isinstance(current, type) and issubclass(current, BaseModel) else []


def _field_model(model: Any, part: Any, node: Any) -> Any:
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return None
    info = model.model_fields.get(part)
    if info is None:
        return None
    return _pick_model(info.annotation, node)


def _pick_model(annotation: Any, node: Any) -> Any:
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            fields = arg.model_fields
            tag = fields.get("type")
            if tag is not None and isinstance(node, dict):
                allowed = typing.get_args(tag.annotation)
                if node.get("type") not in allowed:
                    continue
            return arg
        picked = _pick_model(arg, node)
        if picked is not None:
            return picked
    return None


# ------------------------------------------------------------ DSL


def parse_dsl(ctx: _Context, text: str, path: PathKey, rule: str | None) -> Expr | None:
    """Parse a DSL string at ``path``, reporting errors at the column inside the string."""
    from ..grammar import DslSyntaxError, parse_expression

    try:
        return parse_expression(text)
    except DslSyntaxError as exc:
        ctx.error(path, exc.code, exc.message, exc.hint, offset=exc.offset, length=exc.length, rule=rule)
        return None


def _attach_spans(expr: Expr, span: Span) -> Expr:
    """Give every comparison the span of the rule that holds it (for traces)."""
    if isinstance(expr, Compare):
        return Compare(expr.field, expr.op, expr.value, expr.span or span)
    if isinstance(expr, And):
        return And(tuple(_attach_spans(e, span) for e in expr.items))
    if isinstance(expr, Or):
        return Or(tuple(_attach_spans(e, span) for e in expr.items))
    from .ir import Not

    if isinstance(expr, Not):
        return Not(_attach_spans(expr.item, span))
    return expr


# ------------------------------------------------------------ [[rules]]


def _filter_rules(ctx: _Context, entries: Any) -> None:
    if not isinstance(entries, list):
        ctx.error(("rules",), "ZR021", "`rules` must be an array of tables (`[[rules]]`)")
        return
    for index, entry in enumerate(entries):
        path: PathKey = ("rules", index)
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(entry, dict):
            ctx.error(path, "ZR021", "each rule must be a table")
            continue
        rule_name = name if isinstance(name, str) else None
        expanded = _expand_pattern_sets(ctx, entry, path, rule_name)
        if expanded is None:
            continue
        entry, relocate = expanded
        model = _validate(ctx, models.FilterRule, entry, path, rule=rule_name, relocate=relocate)
        if model is None:
            continue
        span = ctx.src.span_of(path)
        if isinstance(model.match, str):
            condition = parse_dsl(ctx, model.match, path + ("match",), model.name)
            if condition is None:
                continue
        else:
            condition = _match_spec(model.match)
        strategy = model.strategy.model_dump()
        ctx.rules.append(
            Rule(
                id=model.name,
                kind=FILTER,
                group=FILTER,
                order=ctx.next_order(),
                condition=_attach_spans(condition, span),
                effect=strategy.pop("type"),
                span=span,
                payload=tuple(sorted(strategy.items(), key=lambda kv: kv[0])),
                enabled=model.enabled,
                source_text=model.match if isinstance(model.match, str) else "",
            )
        )


# ------------------------------------------------------------ [pattern_sets]

_REGEX = TypeAdapter(models.RegexStr)
_SET_REFERENCE = 'a pattern is a regex string or a pattern-set reference `{ use = "set-name" }`'


def _pattern_sets(ctx: _Context) -> dict[str, tuple[str, ...] | None]:
    """Read the file's ``[pattern_sets]``: name -> its regexes, or None when the set has errors."""
    table = ctx.src.data.get("pattern_sets")
    if table is None:
        return {}
    if not isinstance(table, dict):
        ctx.error(("pattern_sets",), "ZR021", "`pattern_sets` must be a table of named regex lists (`[pattern_sets]`)")
        return {}
    sets: dict[str, tuple[str, ...] | None] = {}
    for name, patterns in table.items():
        path: PathKey = ("pattern_sets", name)
        if not isinstance(patterns, list) or not patterns:
            ctx.error(path, "ZR021", f"pattern set `{name}` must be a non-empty array of regex strings")
            sets[name] = None
            continue
        valid = True
        for index, pattern in enumerate(patterns):
            if not isinstance(pattern, str):
                ctx.error(path + (index,), "ZR022", f"pattern set `{name}` holds regex strings, not {type(pattern).__name__} values",
                          hint="a set cannot use another set; list the regexes")
                valid = False
            elif _validate(ctx, _REGEX, pattern, path + (index,)) is None:
                valid = False
        sets[name] = tuple(patterns) if valid else None
    return sets


def _expand_pattern_sets(ctx: _Context, entry: dict[str, Any], path: PathKey, rule: str | None,
                         ) -> tuple[dict[str, Any], Callable[[PathKey], PathKey] | None] | None:
    """Replace the ``{ use = "set" }`` items of the rule's pattern lists by the set's regexes.

    Return the entry to validate and a map from its locations back to the file's, or None (the rule
    is skipped) when a reference is malformed, unknown or names a set with errors.
    """
    strategy = entry.get("strategy")
    if not isinstance(strategy, dict):
        return entry, None
    expanded: dict[str, Any] = {}
    origins: dict[str, list[int]] = {}
    valid = True
    for key, value in strategy.items():
        if key not in models.PATTERN_LIST_FIELDS or not isinstance(value, list) or not any(isinstance(item, dict) for item in value):
            expanded[key] = value
            continue
        items: list[Any] = []
        origin: list[int] = []
        for index, item in enumerate(value):
            at = path + ("strategy", key, index)
            if not isinstance(item, dict):
                items.append(item)
                origin.append(index)
                continue
            name = item.get("use")
            if set(item) != {"use"} or not isinstance(name, str):
                ctx.error(at, "ZR021", _SET_REFERENCE, rule=rule)
                valid = False
                continue
            patterns = ctx.pattern_sets.get(name, ())
            if name not in ctx.pattern_sets:
                known = sorted(ctx.pattern_sets)
                hint = did_you_mean(name, known) or (f"defined sets: {', '.join(known)}" if known else "define it under `[pattern_sets]`")
                ctx.error(at + ("use",), "ZR027", f"unknown pattern set `{name}`", hint, rule=rule)
                valid = False
            elif patterns is None:
                ctx.error(at + ("use",), "ZR027", f"pattern set `{name}` has errors (reported where it is defined), so this rule cannot use it", rule=rule)
                valid = False
            else:
                items.extend(patterns)
                origin.extend([index] * len(patterns))
        expanded[key] = items
        origins[key] = origin
    if not valid:
        return None
    if not origins:
        return entry, None

    def relocate(loc: PathKey) -> PathKey:
        if len(loc) >= 3 and loc[0] == "strategy" and loc[1] in origins and isinstance(loc[2], int) and loc[2] < len(origins[loc[1]]):
            return (*loc[:2], origins[loc[1]][loc[2]], *loc[3:])
        return loc

    return {**entry, "strategy": expanded}, relocate


def _match_spec(spec: models.MatchSpec) -> Expr:
    if spec.exact is not None:
        return Compare("command", "==", spec.exact)
    if spec.prefix is not None:
        return Compare("command", "^=", spec.prefix)
    assert spec.regex is not None
    return Compare("command", "=~", Regex(spec.regex))


# ------------------------------------------------------------ [tools]


def _tools(ctx: _Context, tools: dict[str, Any]) -> None:
    for key in tools:
        if key not in models.TOOLS_KEYS:
            ctx.error(("tools", key), "ZR020", f"unknown section `tools.{key}`", did_you_mean(key, models.TOOLS_KEYS), key=True)
    if "shell" in tools:
        shell = _validate(ctx, models.ShellSettings, tools["shell"], ("tools", "shell"))
        if shell is not None:
            _legacy_shell(ctx, shell)
    if "permissions" in tools:
        _permissions(ctx, tools["permissions"])
    for section, kind in (("policy", POLICY), ("authorization", AUTHORIZATION)):
        if section in tools:
            _policy(ctx, tools[section], section, kind)
    if "file" in tools:
        file_settings = _validate(ctx, models.FileSettings, tools["file"], ("tools", "file"))
        if file_settings is not None:
            ctx.settings["file.deny_read"] = list(file_settings.deny_read)
            ctx.settings["file.allow_read"] = list(file_settings.allow_read)
            for key in ("deny_read", "allow_read"):  # each glob with its position, for decisions
                ctx.settings[f"file.{key}.sources"] = [
                    (glob, str(ctx.src.span_of(("tools", "file", key, i)))) for i, glob in enumerate(getattr(file_settings, key))
                ]
    if "blocklist" in tools:
        _blocklist(ctx, tools["blocklist"])
    if "constraints" in tools:
        _constraints(ctx, tools["constraints"])
    if "blocked_sequences" in tools:
        _blocked_sequences(ctx, tools["blocked_sequences"])
    if "filters" in tools:
        filters = _validate(ctx, models.FilterSettings, tools["filters"], ("tools", "filters"))
        if filters is not None:
            ctx.settings["filters.enabled"] = filters.enabled
            ctx.settings["filters.builtin"] = filters.builtin
            if filters.filters_path:
                ctx.settings["filters.filters_path"] = filters.filters_path
            ctx.settings["security"] = filters.security.model_dump()
    if "dependencies" in tools:
        deps = _validate(ctx, models.Dependencies, tools["dependencies"], ("tools", "dependencies"))
        if deps is not None:
            ctx.settings["dependencies"] = deps.model_dump()


def _permission_rule(ctx: _Context, tool: str, pattern: str, action: str, span: Span, rule_id: str) -> None:
    condition = Compare("input", "~i", pattern, span)
    ctx.rules.append(
        Rule(id=rule_id, kind=PERMISSION, group=f"{PERMISSION}:{tool.lower()}", order=ctx.next_order(),
             condition=condition, effect=action, span=span, payload=(("tool", tool.lower()), ("pattern", pattern)))
    )


def _legacy_shell(ctx: _Context, shell: models.ShellSettings) -> None:
    if shell.allow_network is not None:
        ctx.settings["blocklist.allow_network"] = shell.allow_network
    for key, action in (("blocked_commands", "deny"), ("confirm_patterns", "ask"), ("allowed_commands", "allow")):
        for index, text in enumerate(getattr(shell, key)):
            path = ("tools", "shell", key, index)
            span = ctx.src.span_of(path)
            glob = text if any(c in text for c in "*?[") else f"*{text}*"
            _permission_rule(ctx, "bash", glob, action, span, f"shell.{key}[{index}]")
            ctx.error(path, "ZR090", f"`tools.shell.{key}` is deprecated", f"use a `{action}` rule in `[tools.permissions]` (zeph-rules check --fix migrates it)", severity=WARNING)


def _permissions(ctx: _Context, permissions: Any) -> None:
    if not isinstance(permissions, dict):
        ctx.error(("tools", "permissions"), "ZR021", "`tools.permissions` must be a table of tool names")
        return
    for tool, entries in permissions.items():
        base = ("tools", "permissions", tool)
        if not isinstance(entries, list):
            ctx.error(base, "ZR021", f"permissions for `{tool}` must be an array of {{ pattern, action }} tables")
            continue
        for index, entry in enumerate(entries):
            path = base + (index,)
            rule = _validate(ctx, models.PermissionRule, entry, path)
            if rule is None:
                continue
            _permission_rule(ctx, tool, rule.pattern, rule.action, ctx.src.span_of(path), f"permissions.{tool}[{index}]")


def _policy(ctx: _Context, section: Any, name: str, kind: str) -> None:
    model = models.Policy if name == "policy" else models.Authorization
    settings = _validate(ctx, model, section, ("tools", name))
    if settings is None:
        return
    ctx.settings[f"{name}.enabled"] = settings.enabled
    if name == "policy":
        ctx.settings["policy.default_effect"] = settings.default_effect
    for index, entry in enumerate(settings.rules):
        path = ("tools", name, "rules", index)
        rule = _validate(ctx, models.PolicyRule, entry, path)
        if rule is None:
            continue
        rule_id = rule.id or f"{name}.rules[{index}]"
        parts: list[Expr] = []
        if rule.tool is not None:
            parts.append(Compare("tool", "~i", rule.tool))
        if rule.when is not None:
            expr = parse_dsl(ctx, rule.when, path + ("when",), rule_id)
            if expr is None:
                continue
            parts.append(expr)
        if rule.args_match is not None:
            parts.append(Compare("args", "=~", Regex(rule.args_match)))
        if rule.paths:
            parts.append(Or(tuple(Compare("path", "~", glob) for glob in rule.paths)) if len(rule.paths) > 1 else Compare("path", "~", rule.paths[0]))
        condition: Expr = TRUE if not parts else parts[0] if len(parts) == 1 else And(tuple(parts))
        span = ctx.src.span_of(path)
        ctx.rules.append(
            Rule(id=rule_id, kind=kind, group=kind, order=ctx.next_order(), condition=_attach_spans(condition, span),
                 effect=rule.effect, span=span, payload=(("reason", rule.reason),) if rule.reason else (),
                 enabled=settings.enabled, source_text=rule.when or "")
        )


# ------------------------------------------------------------ [tools.blocklist], constraints, sequences

#: Rule groups of the policy engine beyond permissions, policy and authorization.
BLOCKLIST = "blocklist"
CONSTRAINT = "constraint"
SEQUENCE = "sequence"
#: Checks that look at redirections, pipelines or whole scripts, not at one program.
_ANY_PROGRAM_CHECKS = frozenset({"device_write", "download_exec", "fork_bomb", "reverse_shell"})


def _blocklist(ctx: _Context, section: Any) -> None:
    base: PathKey = ("tools", "blocklist")
    settings = _validate(ctx, models.BlocklistSettings, section, base)
    if settings is None:
        return
    if settings.allow_network is not None:
        ctx.settings["blocklist.allow_network"] = settings.allow_network
    ctx.settings["blocklist.disable"] = list(settings.disable)
    for key in ("shells", "interpreters", "downloaders", "decoders", "network_programs"):
        if getattr(settings, key):
            ctx.settings[f"blocklist.{key}"] = list(getattr(settings, key))
    if settings.wrappers:
        ctx.settings["blocklist.wrappers"] = [(name, spec.model_dump()) for name, spec in settings.wrappers.items()]
    for index, entry in enumerate(settings.rules):
        path = base + ("rules", index)
        name = entry.get("id") if isinstance(entry, dict) else None
        model = _validate(ctx, models.BlocklistEntry, entry, path, rule=name if isinstance(name, str) else None)
        if model is None:
            continue
        span = ctx.src.span_of(path)
        condition: Expr
        if model.check == "pattern":
            condition = Compare("command", "~i", model.pattern, span)
        elif model.check == "regex":
            condition = Compare("command", "=~", Regex(model.regex or ""), span)
        elif model.check in _ANY_PROGRAM_CHECKS and not model.programs:
            condition = TRUE
        else:
            tests: list[Expr] = []
            if model.programs:
                tests.append(Compare("command.program", "in", tuple(model.programs), span))
            tests.extend(Compare("command.program", "^=", prefix, span) for prefix in model.program_prefixes)
            condition = tests[0] if len(tests) == 1 else Or(tuple(tests))
        payload = (
            ("check", model.check), ("family", model.family), ("programs", tuple(model.programs)),
            ("program_prefixes", tuple(model.program_prefixes)), ("reason", model.reason or ""),
            ("subcommands", tuple(model.subcommands)), ("targets", tuple(model.targets)),
        )
        ctx.rules.append(Rule(id=model.id, kind=BLOCKLIST, group=BLOCKLIST, order=ctx.next_order(), condition=condition,
                              effect=model.effect, span=span, payload=payload, source_text=model.pattern or model.regex or ""))


def _constraints(ctx: _Context, section: Any) -> None:
    base: PathKey = ("tools", "constraints")
    model = _validate(ctx, models.Constraints, section, base)
    if model is None:
        return

    def add(rule_id: str, path: PathKey, condition: Expr, payload: tuple[tuple[str, Any], ...]) -> None:
        span = ctx.src.span_of(path)
        ctx.rules.append(Rule(id=rule_id, kind=CONSTRAINT, group=CONSTRAINT, order=ctx.next_order(),
                              condition=_attach_spans(condition, span), effect="deny", span=span, payload=payload))

    for index, tool in enumerate(model.denied_tools):
        add(f"constraints.denied_tools[{index}]", base + ("denied_tools", index), Compare("tool", "~i", tool),
            (("check", "denied_tool"),))
    if model.allowed_tools is not None:
        allowed = [Compare("tool", "~i", tool) for tool in model.allowed_tools]
        condition: Expr = TRUE if not allowed else Not(allowed[0] if len(allowed) == 1 else Or(tuple(allowed)))
        add("constraints.allowed_tools", base + ("allowed_tools",), condition, (("check", "allowed_tools"),))
    for tool, spec in model.tools.items():
        for index, pattern in enumerate(spec.deny_patterns):
            add(f"constraints.tools.{tool}.deny_patterns[{index}]", base + ("tools", tool, "deny_patterns", index),
                And((Compare("tool", "~i", tool), Compare("input", "~i", pattern))), (("check", "deny_pattern"), ("pattern", pattern)))
        if spec.allowed_paths:
            add(f"constraints.tools.{tool}.allowed_paths", base + ("tools", tool, "allowed_paths"), Compare("tool", "~i", tool),
                (("check", "allowed_paths"), ("globs", tuple(spec.allowed_paths))))
    if model.max_tool_calls_per_session is not None:
        ctx.settings["constraints.max_tool_calls_per_session"] = model.max_tool_calls_per_session
        ctx.settings["constraints.max_tool_calls_per_session.source"] = str(ctx.src.span_of(base + ("max_tool_calls_per_session",)))


def _blocked_sequences(ctx: _Context, entries: Any) -> None:
    base: PathKey = ("tools", "blocked_sequences")
    if not isinstance(entries, list):
        ctx.error(base, "ZR021", "`tools.blocked_sequences` must be an array of tables (`[[tools.blocked_sequences]]`)")
        return
    for index, entry in enumerate(entries):
        path = base + (index,)
        model = _validate(ctx, models.BlockedSequence, entry, path)
        if model is None:
            continue
        span = ctx.src.span_of(path)
        last = model.steps[-1]
        condition = And((Compare("tool", "~i", last.tool, span), Compare("input", "~i", last.pattern, span)))
        steps = tuple((step.tool, step.pattern) for step in model.steps)
        ctx.rules.append(Rule(id=model.id or f"blocked_sequences[{index}]", kind=SEQUENCE, group=SEQUENCE, order=ctx.next_order(),
                              condition=condition, effect=model.effect, span=span,
                              payload=(("reason", model.reason or ""), ("steps", steps))))


# ------------------------------------------------------------ [[tests]]


def _inline_tests(ctx: _Context, entries: Any) -> None:
    if not isinstance(entries, list):
        ctx.error(("tests",), "ZR021", "`tests` must be an array of tables (`[[tests]]`)")
        return
    for index, entry in enumerate(entries):
        path = ("tests", index)
        model = _validate(ctx, models.InlineTest, entry, path)
        if model is None:
            continue
        values = tuple((k, v) for k, v in model.model_dump().items() if v is not None)
        ctx.tests.append(InlineExample(values, ctx.src.span_of(path)))
