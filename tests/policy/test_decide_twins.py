"""The compiled and pure twins of the per-call rule lookup agree, errors included; decisions stay values."""

from __future__ import annotations

import importlib
import pickle
from types import ModuleType
from typing import Any

import condition_strategies
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zeph_rules import _speedups
from zeph_rules._speedups import _decide_py
from zeph_rules.engine.compiler import compile_rules
from zeph_rules.engine.evaluate import Subject, holds
from zeph_rules.engine.graph import NaiveEvaluator, call_subject, encode_test
from zeph_rules.engine.ir import Compare, Expr, Rule
from zeph_rules.engine.ruleset import RuleSet
from zeph_rules.engine.source import Span

try:
    _decide_c: ModuleType | None = importlib.import_module("zeph_rules._speedups._decide_c")
except ImportError:  # the pure-only build
    _decide_c = None

needs_c = pytest.mark.skipif(_decide_c is None, reason="the compiled twin was not built")

SPAN = Span("gen.toml", 1, 1, 1, 1)
WORDS = ["git", "push", "Git", "cargo", "test", "rm", "-rf", "/", "sudo", "SUDO", "ſudo", "K", "k", "ı", "i", "İ",
         "a/b", "*.env", "x y", "--force", "é", "ß", "ss", "/etc/passwd", "nextest", "deploy-3", "\n", "🙂"]
FIELDS = ["command", "command.full", "command.program", "input", "tool", "path", "args", "trust"]
REGEXES = ["^git\\s+push", "(?i)sudo", "rm\\s+-rf", "(cargo|go) test", "K", "^$", "ß|ss", "[ab]c", "deploy-3\\b"]

words = st.sampled_from(WORDS)
text = st.lists(words, max_size=5).map(" ".join)
#: what calls may carry beyond the rule vocabulary (a lone surrogate, from a bad decode)
call_text = st.lists(st.one_of(words, st.just("\udc80")), max_size=5).map(" ".join)
globs = st.lists(st.one_of(words, st.sampled_from(["*", "?", "**", "[gG]", "*sudo*"])), min_size=1, max_size=4).map("".join)


conditions = condition_strategies.conditions(FIELDS, text, globs, REGEXES, equal_to=st.one_of(text, st.just(3), st.just(True)))
payloads = st.one_of(
    call_text,
    st.builds(lambda c, p, t: {"command": c, "path": p, "mode": t}, call_text, call_text, call_text),
    st.builds(lambda c, a: {"command": c, "args": a}, call_text, st.one_of(call_text, st.just(7), st.none())),
)
contexts = st.fixed_dictionaries({}, optional={"trust": st.one_of(call_text, st.just(2), st.just(("a", "b")))})


def _graph(conds: list[Expr]) -> Any:
    rules = [Rule(f"r{i}", "permission", "permission:bash", i + 1, c, ["allow", "ask", "deny"][i % 3], SPAN)
             for i, c in enumerate(conds)]
    return rules, compile_rules(RuleSet(rules=tuple(rules)))


def _outcome(function: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", function(*args)
    except Exception as exc:  # noqa: BLE001 - the twins must fail alike
        return type(exc).__name__, str(exc)


# ---------------------------------------------------------------- the pure twin is right (every leg)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conds=st.lists(conditions, min_size=1, max_size=10), calls=st.lists(st.tuples(payloads, contexts), min_size=1, max_size=4))
def test_encoded_tests_mean_what_holds_means(conds: list[Expr], calls: list[tuple[Any, dict[str, Any]]]) -> None:
    rules, graph = _graph(conds)
    naive = NaiveEvaluator(rules)
    for payload, context in calls:
        subject = call_subject("bash", payload, **context)
        for rule in rules:
            assert _outcome(_speedups.holds_test, encode_test(rule.condition), subject) == _outcome(holds, rule.condition, subject)
        got = graph.first_match("bash", payload, **context)
        want = naive.first_match("bash", payload, **context)
        assert (got.id if got else None) == (want.id if want else None)


# ---------------------------------------------------------------- the twins agree


@needs_c
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conds=st.lists(conditions, min_size=1, max_size=10), calls=st.lists(st.tuples(payloads, contexts), min_size=1, max_size=4))
def test_twins_agree_on_groups(conds: list[Expr], calls: list[tuple[Any, dict[str, Any]]]) -> None:
    assert _decide_c is not None
    _rules, graph = _graph(conds)
    group = graph.groups.get("permission:bash")
    if group is None:  # every rule was pruned (false conditions)
        return
    for payload, context in calls:
        subject = call_subject("bash", payload, **context)
        for name in ("candidate_orders", "first_match", "all_matches"):
            assert _outcome(getattr(_decide_c, name), group.matcher, subject) == _outcome(getattr(_decide_py, name), group.matcher, subject), name
        for order, test in group.matcher[2].items():
            assert _outcome(_decide_c.holds_test, test, subject) == _outcome(_decide_py.holds_test, test, subject), order


@needs_c
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conds=st.lists(conditions, min_size=1, max_size=10), values=st.lists(st.one_of(call_text, st.text()), min_size=1, max_size=5))
def test_twins_agree_on_field_probes(conds: list[Expr], values: list[str]) -> None:
    assert _decide_c is not None
    _rules, graph = _graph(conds)
    group = graph.groups.get("permission:bash")
    for index in group.fields if group is not None else ():
        for value in values:
            found_c: set[int] = set()
            found_py: set[int] = set()
            assert _outcome(_decide_c.collect_candidates, index.probe, value, found_c) == \
                _outcome(_decide_py.collect_candidates, index.probe, value, found_py)
            assert found_c == found_py, (index.field, value)


BAD_CALLS: list[tuple[str, tuple[Any, ...]]] = [
    ("collect_candidates", ((None,) * 6, "x", set())),
    ("collect_candidates", ([None] * 7, "x", set())),
    ("collect_candidates", ((None,) * 7, b"x", set())),
    ("collect_candidates", ((None,) * 7, "x", [])),
    ("collect_candidates", ((None, None, None, None, ("a", "b"), None, {}), "x", set())),
    ("collect_candidates", ((None, None, None, None, None, (1, 2), {}), "x", set())),
    ("candidate_orders", ((), Subject())),
    ("candidate_orders", (((), ((1, 2, 3),), {}), Subject())),
    ("candidate_orders", (((), (("input",),), {}), Subject(input="x"))),
    ("candidate_orders", (((), ((7, (None,) * 7),), {}), Subject(input="x"))),
    ("first_match", (((1,), (), {}), Subject())),  # a candidate without a test
    ("first_match", (None, Subject())),
    ("all_matches", (((1,), (), {1: "no"}), Subject())),
    ("holds_test", ([], Subject())),
    ("holds_test", ((("input", 0, None),), Subject(input="x"))),
    ("holds_test", ((("input", 99, None, None),), Subject(input="x"))),
    ("holds_test", ((("input", True, None, None),), Subject(input="x"))),
    ("holds_test", ((("input", 0, None, None),), Subject(input="x"))),  # arg is not callable
    ("holds_test", (((lambda s: 1 / 0),), Subject())),
    ("holds_test", ((("input", 2, "x", None),), Subject())),  # no value, fallback not callable
    ("holds_test", ((5,), Subject())),
]


@needs_c
@pytest.mark.parametrize(("name", "args"), BAD_CALLS)
def test_twins_fail_alike(name: str, args: tuple[Any, ...]) -> None:
    assert _decide_c is not None
    got_c = _outcome(getattr(_decide_c, name), *args)
    got_py = _outcome(getattr(_decide_py, name), *args)
    assert got_c == got_py
    assert got_py[0] != "ok"


@needs_c
def test_the_selector_binds_the_decide_twin(implementation: str) -> None:
    module = _decide_c if implementation == "compiled" else _decide_py
    assert module is not None
    for name in _speedups.TWINS["_decide"]:
        assert getattr(_speedups, name) is getattr(module, name)


# ---------------------------------------------------------------- decisions built lazily are still plain values


def test_a_lazy_decision_reads_compares_and_pickles_like_an_eager_one(allow_all: Any) -> None:
    from zeph_rules.engine.policy import Decision, decide

    first = decide(allow_all, "bash", "git status && rm -rf /")
    second = decide(allow_all, "bash", "git status && rm -rf /")
    assert "_explain" in first.__dict__  # nothing written yet
    assert first == second and hash(first) == hash(second)
    eager = Decision(first.decision, first.stage, first.rule, first.source, first.reason, first.trace, first.why_not)
    assert eager == first and eager.as_json() == first.as_json()
    assert "_explain" not in first.__dict__
    third = decide(allow_all, "bash", "git status && rm -rf /")
    restored = pickle.loads(pickle.dumps(third))
    assert restored == eager and "_explain" not in restored.__dict__
    assert repr(restored) == repr(eager)
    with pytest.raises(AttributeError):
        third.nothing  # noqa: B018
    with pytest.raises(Exception, match="cannot assign"):
        third.decision = "allow"  # type: ignore[misc]


def test_policy_rules_are_keyed_by_what_tells_them_apart() -> None:
    from zeph_rules.bench_policy import compile_policy_rules

    _ruleset, graph = compile_policy_rules(1000)
    group = graph.groups["policy"]
    assert len(group.always) == 0
    subject = call_subject("bash", "git task-0 now")
    assert len(group.candidate_orders(subject)) <= 3  # not every `tool == "bash"` rule


@needs_c
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conds=st.lists(conditions, min_size=1, max_size=10), calls=st.lists(st.tuples(payloads, contexts), min_size=1, max_size=4))
def test_twins_agree_on_whole_calls(conds: list[Expr], calls: list[tuple[Any, dict[str, Any]]]) -> None:
    assert _decide_c is not None
    rules, graph = _graph(conds)
    group = graph.groups.get("permission:bash")
    matcher = None if group is None else group.matcher
    ranks = {rule.order: {"allow": 0, "ask": 1, "deny": 2}[rule.effect] for rule in rules}
    for payload, context in calls:
        subject = call_subject("bash", payload, **context)
        items = (subject, call_subject("bash", "git push", **context), subject)
        for policies in ((), (matcher,) if matcher is not None else (), (matcher, matcher) if matcher is not None else ()):
            for perm in (matcher, None):
                args = (perm, ranks, items, policies, subject)
                assert _outcome(_decide_c.decide_lists, *args) == _outcome(_decide_py.decide_lists, *args)


@needs_c
@pytest.mark.parametrize("args", [(None, {}, [], (), Subject()), (None, {}, (), [], Subject()), (((1,), (), {1: ()}), {}, (Subject(),), (), Subject()),
                                  (None, {}, (Subject(),), (None,), Subject())])
def test_decide_lists_twins_fail_alike(args: tuple[Any, ...]) -> None:
    assert _decide_c is not None
    got_c = _outcome(_decide_c.decide_lists, *args)
    assert got_c == _outcome(_decide_py.decide_lists, *args)
    assert got_c[0] != "ok"


# ---------------------------------------------------------------- decide_call: the per-call answer alone

RANKS = {"allow": 0, "ask": 1, "deny": 2}
NO_RULE = (1, ("ask", "permissions", None))
NO_OPINION = ("ask", "default", None)


def _call_plan(rules: list[Rule], matcher: Any, stages: int, default: str | None) -> tuple[Any, ...]:
    """A plan like ``PolicyEngine._tool_plan`` builds: the permission list, then ``stages`` policy lists (the same rules)."""
    verdicts = {r.order: (RANKS[r.effect], (r.effect, "permissions", r.id)) for r in rules}
    policies = tuple((matcher, {r.order: (RANKS[r.effect], (r.effect, f"stage{n}", r.id)) for r in rules}) for n in range(stages))
    policy_default = None if default is None else (RANKS[default], (default, "policy", "policy.default_effect"))
    return (matcher, verdicts, NO_RULE, policies, policy_default, NO_OPINION)


def _expected_verdict(plan: tuple[Any, ...], items: tuple[Any, ...], subject: Any) -> Any:
    """What ``decide_call`` must answer, from ``first_match`` and the combination rule spelled out."""
    permissions, verdicts, no_rule, policies, policy_default, default = plan
    entries = []
    for item in items:
        order = -1 if permissions is None else _decide_py.first_match(permissions, item)[0]
        entries.append(no_rule if order < 0 else verdicts[order])
        if entries[-1][0] == 2:
            return entries[-1][1]
    policy = policy_default
    for group, table in policies:
        order = _decide_py.first_match(group, subject)[0]
        if order >= 0:
            policy = table[order]
            break
    if policy is not None:
        entries.append(policy)
    if not entries:
        return default
    return max(entries, key=lambda entry: entry[0])[1]  # ``max`` keeps the first of equals


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conds=st.lists(conditions, min_size=1, max_size=10), calls=st.lists(st.tuples(payloads, contexts), min_size=1, max_size=4),
       stages=st.integers(0, 2), default=st.sampled_from([None, "allow", "ask", "deny"]))
def test_decide_call_answers_what_first_match_implies(conds: list[Expr], calls: list[tuple[Any, dict[str, Any]]], stages: int,
                                                      default: str | None) -> None:
    rules, graph = _graph(conds)
    group = graph.groups.get("permission:bash")
    matcher = None if group is None else group.matcher
    plan = _call_plan(rules, matcher, stages if matcher is not None else 0, default)
    for payload, context in calls:
        subject = call_subject("bash", payload, **context)
        for items in ((), (subject,), (subject, call_subject("bash", "git push", **context))):
            want = _outcome(_expected_verdict, plan, items, subject)
            assert _outcome(_speedups.decide_call, plan, items, subject) == want
            if _decide_c is not None:
                assert _outcome(_decide_c.decide_call, plan, items, subject) == want


@needs_c
def test_decide_call_twins_agree_beyond_the_compiled_candidate_array() -> None:
    # more candidates than the compiled twin gathers in its C array: it starts again with a set
    conds: list[Expr] = [Compare("command", "^=", "git") for _ in range(150)] + [Compare("tool", "~i", "BASH")]
    rules, graph = _graph(conds)
    matcher = graph.groups["permission:bash"].matcher
    plan = _call_plan(rules, matcher, 1, "ask")
    for text in ("git push", "cargo test", "GIT"):
        subject = call_subject("bash", text)
        for name in ("candidate_orders", "first_match", "all_matches"):
            assert _outcome(getattr(_decide_c, name), matcher, subject) == _outcome(getattr(_decide_py, name), matcher, subject)
        assert _outcome(_decide_c.decide_call, plan, (subject,), subject) == _outcome(_decide_py.decide_call, plan, (subject,), subject)
    assert len(_decide_c.candidate_orders(matcher, call_subject("bash", "git push"))) == 151


ODD_GROUPS = [
    (("a", "b"), (), {"a": (), "b": ()}),  # orders that are not ints
    ((2**70, 1), (), {2**70: (), 1: ((lambda s: False),)}),  # one too large for a C integer
    ((3, 1, 3, 2), (), {1: ((lambda s: False),), 2: (), 3: ()}),  # repeats, out of order
    ((1,), (), [(), ()]),  # tests in a list
    ((1, "a"), (), {1: (), "a": ()}),  # orders that cannot be sorted
]


@needs_c
@pytest.mark.parametrize("group", ODD_GROUPS)
def test_decide_call_twins_agree_on_odd_tables(group: tuple[Any, ...]) -> None:
    assert _decide_c is not None
    subject = Subject(tool="bash", input="x")
    for name in ("candidate_orders", "first_match", "all_matches"):
        assert _outcome(getattr(_decide_c, name), group, subject) == _outcome(getattr(_decide_py, name), group, subject)
    verdicts = {order: (0, ("allow", "permissions", str(order))) for order in group[0]}
    for plan in ((group, verdicts, NO_RULE, (), None, NO_OPINION), (None, {}, NO_RULE, ((group, verdicts),), None, NO_OPINION)):
        assert _outcome(_decide_c.decide_call, plan, (subject,), subject) == _outcome(_decide_py.decide_call, plan, (subject,), subject)


ALWAYS = ((1,), (), {1: ()})
BAD_PLANS: list[tuple[Any, ...]] = [
    ([None, {}, NO_RULE, (), None, NO_OPINION], (), Subject()),  # not a tuple
    ((None, {}, NO_RULE, (), None), (), Subject()),  # too short
    ((None, {}, NO_RULE, (), None, NO_OPINION), [Subject()], Subject()),  # items not a tuple
    ((None, {}, NO_RULE, [], None, NO_OPINION), (), Subject()),  # policies not a tuple
    ((None, {}, (1, "ask"), (), None, NO_OPINION), (Subject(),), Subject()),  # rank without a verdict tuple is fine...
    ((None, {}, ("ask",), (), None, NO_OPINION), (Subject(),), Subject()),  # ...an entry that is not (rank, verdict) is not
    ((None, {}, (3, "x"), (), None, NO_OPINION), (Subject(),), Subject()),  # rank out of range
    ((None, {}, (True, "x"), (), None, NO_OPINION), (Subject(),), Subject()),  # rank not an int
    ((ALWAYS, {}, NO_RULE, (), None, NO_OPINION), (Subject(),), Subject()),  # a matching rule without a verdict
    ((None, {}, NO_RULE, (ALWAYS,), None, NO_OPINION), (), Subject()),  # a policy that is not (group, verdicts)
    ((None, {}, NO_RULE, ((ALWAYS, {1: 5}),), None, NO_OPINION), (), Subject()),  # a policy verdict that is not an entry
    ((None, {}, NO_RULE, (), (1,), NO_OPINION), (), Subject()),  # a bad policy default
    ((None, {}, NO_RULE, ((None, {}),), None, NO_OPINION), (), Subject()),  # not a group
]


@needs_c
@pytest.mark.parametrize("args", BAD_PLANS)
def test_decide_call_twins_fail_alike(args: tuple[Any, ...]) -> None:
    assert _decide_c is not None
    assert _outcome(_decide_c.decide_call, *args) == _outcome(_decide_py.decide_call, *args)


def test_glob_affixes_become_string_tests_that_mean_the_same() -> None:
    from zeph_rules._speedups import _decide_py as D

    cases = {("~", "git *"): (D.PREFIX, "git "), ("~", "*.env"): (D.SUFFIX, ".env"), ("~", "**sudo*"): (D.CONTAINS, "sudo"),
             ("~i", "GİT *"): (D.PREFIX_FOLD, "gi̇t "), ("~i", "*ẞ"): (D.SUFFIX_FOLD, "ss"), ("~i", "*SUDO*"): (D.CONTAINS_FOLD, "sudo")}
    for (op, glob), (kind, arg) in cases.items():
        test = Compare("command", op, glob)
        ((_attr, got_kind, got_arg, _fallback),) = encode_test(test)
        assert (got_kind, got_arg) == (kind, arg), glob
        for value in ("git push", "GIT PUSH", "gİt x", "a.env", "x SUDO y", "sudo", "maßß", "MASS", "", "\n.env"):
            subject = Subject(command=value)
            assert _speedups.holds_test(encode_test(test), subject) == holds(test, subject), (glob, value)
    assert encode_test(Compare("command", "~", "a*b"))[0][1] == D.GLOB  # a star inside: still a glob


class _OwnFold(str):
    """A value whose casefold is its own business: both twins must ask it."""

    def casefold(self) -> str:
        return "git " + str.casefold(self)


@needs_c
def test_a_str_subclass_is_casefolded_its_own_way_by_both_twins() -> None:
    assert _decide_c is not None
    conds: list[Expr] = [Compare("input", "~i", "git push*"), Compare("input", "~i", "*PUSH"), Compare("input", "~i", "git x")]
    _rules, graph = _graph(conds)
    matcher = graph.groups["permission:bash"].matcher
    for value in (_OwnFold("push"), _OwnFold("PUSH"), _OwnFold("x"), "PUSH"):
        subject = Subject(tool="bash", input=value)
        for name in ("candidate_orders", "first_match", "all_matches"):
            assert _outcome(getattr(_decide_c, name), matcher, subject) == _outcome(getattr(_decide_py, name), matcher, subject)
