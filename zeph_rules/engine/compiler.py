"""Lower a rule set through the passes into a ``MatcherGraph``."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .. import _speedups
from .graph import _TRIE_END, FieldIndex, GroupIndex, MatcherGraph
from .ir import Rule
from .passes import IndexKey, Program, run_passes
from .ruleset import RuleSet


def compile_rules(ruleset: RuleSet, fingerprint: str = "") -> MatcherGraph:
    """Compile a loaded rule set into a matcher graph."""
    program = run_passes(Program(ruleset.rules))
    return lower(program, ruleset, fingerprint)


def lower(program: Program, ruleset: RuleSet, fingerprint: str = "") -> MatcherGraph:
    by_group: dict[str, list[Rule]] = defaultdict(list)
    for rule in program.rules:
        by_group[rule.group].append(rule)
    groups = {name: _lower_group(name, rules, program.keys) for name, rules in by_group.items()}
    from .security import scanner_from_settings

    return MatcherGraph(
        groups=groups,
        settings=ruleset.settings,
        tests=ruleset.tests,
        dropped=program.dropped,
        files=ruleset.files,
        fingerprint=fingerprint,
        extra={"scanner": scanner_from_settings(dict(ruleset.settings).get("security"))},
    )


def _lower_group(name: str, rules: list[Rule], keys: dict[int, tuple[IndexKey, ...]]) -> GroupIndex:
    rules = sorted(rules, key=lambda r: r.order)
    always: list[int] = []
    per_field: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"exact": defaultdict(list), "exact_fold": defaultdict(list), "trie": {}, "trie_fold": {},
                 "literals": {}, "literals_fold": {}}
    )
    for rule in rules:
        rule_keys = keys.get(rule.order)
        if not rule_keys:
            always.append(rule.order)
            continue
        for key in rule_keys:
            tables = per_field[key.field]
            suffix = "_fold" if key.fold else ""
            if key.kind == "exact":
                tables["exact" + suffix][key.value].append(rule.order)
            elif key.kind == "prefix":
                _trie_insert(tables["trie" + suffix], key.value, rule.order)
            else:
                tables["literals" + suffix].setdefault(key.value, []).append(rule.order)
    fields = tuple(_lower_field(field, tables) for field, tables in sorted(per_field.items()))
    return GroupIndex(
        name=name,
        rules=tuple(rules),
        by_order={r.order: r for r in rules},
        fields=fields,
        always=tuple(always),
    )


def _trie_insert(trie: dict[str, Any], key: str, order: int) -> None:
    node = trie
    for ch in key:
        node = node.setdefault(ch, {})
    node.setdefault(_TRIE_END, []).append(order)


def _freeze_trie(node: dict[str, Any]) -> dict[str, Any]:
    return {k: (tuple(v) if k == _TRIE_END else _freeze_trie(v)) for k, v in node.items()}


def _automaton(literals: dict[str, list[int]], fold: bool) -> tuple[Any, tuple[tuple[int, ...], ...]]:
    if not literals:
        return None, ()
    items = sorted(literals.items())
    table = _speedups.build_literal_table([lit.encode("utf-8") for lit, _ in items], ignore_case=fold)
    return table, tuple(tuple(orders) for _, orders in items)


def _lower_field(field: str, tables: dict[str, Any]) -> FieldIndex:
    literals, literal_rules = _automaton(tables["literals"], False)
    literals_fold, literal_rules_fold = _automaton(tables["literals_fold"], True)
    return FieldIndex(
        field=field,
        exact={k: tuple(v) for k, v in tables["exact"].items()},
        exact_fold={k: tuple(v) for k, v in tables["exact_fold"].items()},
        trie=_freeze_trie(tables["trie"]),
        trie_fold=_freeze_trie(tables["trie_fold"]),
        literals=literals,
        literal_rules=literal_rules,
        literals_fold=literals_fold,
        literal_rules_fold=literal_rules_fold,
    )
