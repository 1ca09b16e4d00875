"""The matcher graph gives exactly the naive evaluator's answers, only faster."""

from __future__ import annotations

from pathlib import Path

import condition_strategies
import tomllib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zeph_rules.engine.compiler import compile_rules
from zeph_rules.engine.graph import NaiveEvaluator
from zeph_rules.engine.ir import FILTER, Expr, Rule
from zeph_rules.engine.loader import load, load_ruleset
from zeph_rules.engine.ruleset import RuleSet
from zeph_rules.engine.source import Span

SPAN = Span("gen.toml", 1, 1, 1, 1)
WORDS = ["git", "push", "Git", "cargo", "test", "rm", "-rf", "/", "sudo", "SUDO", "ſudo", "K", "k", "ı", "i",
         "a/b", "*.env", "x y", "--force", "é", "ß", "ss", "/etc/passwd", "nextest", "pytest"]
FIELDS = ["command", "command.full", "command.program", "input", "tool", "path", "args"]
REGEXES = ["^git\\s+push", "(?i)sudo", "rm\\s+-rf", "(cargo|go) test", "K", "^$", "i", "ß|ss", "[ab]c", "x*", "(?i:RM) -rf", "a.b"]

words = st.sampled_from(WORDS)
text = st.lists(words, max_size=5).map(" ".join)
globs = st.lists(st.one_of(words, st.sampled_from(["*", "?", "**", "[gG]", "*sudo*"])), min_size=1, max_size=4).map("".join)


conditions = condition_strategies.conditions(FIELDS, text, globs, REGEXES)


def _rules(conds: list[Expr], group: str) -> list[Rule]:
    kind = FILTER if group == FILTER else "permission"
    return [Rule(f"r{i}", kind, group, i + 1, c, ["allow", "ask", "deny"][i % 3], SPAN) for i, c in enumerate(conds)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conds=st.lists(conditions, min_size=1, max_size=12), inputs=st.lists(text, min_size=1, max_size=6))
def test_first_match_agrees_with_naive(conds: list[Expr], inputs: list[str]) -> None:
    rules = _rules(conds, "permission:bash")
    graph = compile_rules(RuleSet(rules=tuple(rules)))
    naive = NaiveEvaluator(rules)
    for value in inputs:
        for payload in (value, {"command": value, "path": value, "mode": "x"}):
            got = graph.first_match("bash", payload)
            want = naive.first_match("bash", payload)
            assert (got.id if got else None) == (want.id if want else None), (value, payload)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conds=st.lists(conditions, min_size=1, max_size=10), commands=st.lists(text, min_size=1, max_size=5))
def test_matching_filters_agree_with_naive(conds: list[Expr], commands: list[str]) -> None:
    rules = _rules(conds, FILTER)
    graph = compile_rules(RuleSet(rules=tuple(rules)))
    naive = NaiveEvaluator(rules)
    for command in commands:
        for line in (command, f"cd /tmp && {command} 2>&1 | tail -5"):
            assert [r.id for r in graph.matching_filters(line)] == [r.id for r in naive.matching_filters(line)]


def test_permission_semantics_first_match_case_insensitive_default() -> None:
    from zeph_rules.engine.desugar import desugar
    from zeph_rules.engine.source import parse_toml_text

    ruleset = desugar([parse_toml_text('''
[tools.permissions]
bash = [
  { pattern = "git push --force*", action = "deny" },
  { pattern = "git *", action = "allow" },
  { pattern = "*", action = "ask" },
]
read = [ { pattern = "*.env", action = "deny" }, { pattern = "/work/**", action = "allow" } ]
''', "p.toml")])
    graph = compile_rules(ruleset)
    assert graph.first_match("bash", "GIT PUSH --FORCE origin").effect == "deny"  # type: ignore[union-attr]
    assert graph.first_match("bash", "git status").effect == "allow"  # type: ignore[union-attr]
    assert graph.first_match("bash", "ls").effect == "ask"  # type: ignore[union-attr]
    assert graph.first_match("Read", "/work/app/.ENV").effect == "deny"  # type: ignore[union-attr]
    assert graph.first_match("read", "/work/app/main.py").id == "permissions.read[1]"  # type: ignore[union-attr]
    assert graph.first_match("write", "/work/app/main.py") is None


def test_builtin_filters_agree_with_naive_on_every_fixture_command() -> None:
    ruleset = load_ruleset()
    graph = load(cache=False)
    naive = NaiveEvaluator(ruleset.rules)
    commands = [tomllib.loads(p.read_text())["command"] for p in Path(__file__).parent.glob("fixtures/*/*/case.toml")]
    assert len(commands) >= 40
    unmatched = []
    for command in commands:
        got = [r.id for r in graph.matching_filters(command)]
        assert got == [r.id for r in naive.matching_filters(command)], command
        if not got:
            unmatched.append(command)
    assert len(unmatched) < len(commands) // 4, unmatched


def test_rules_are_indexed_not_scanned() -> None:
    from zeph_rules.bench import compile_permission_rules

    _, graph = compile_permission_rules(1000)
    group = graph.groups["permission:bash"]
    assert len(group.rules) == 1000
    assert len(group.always) == 1  # only the catch-all "*"
    assert len(group.candidates(__import__("zeph_rules.engine.graph", fromlist=["x"]).call_subject("bash", "git build-14 x"))) <= 3
