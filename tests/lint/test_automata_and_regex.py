"""Glob automata (inclusion, witnesses) and regex shape analysis, unit by unit."""

from __future__ import annotations

import tomllib

import pytest

from zeph_rules.engine.ir import Compare, Regex
from zeph_rules.engine.lint.automata import GlobProblem, glob_nfa, included, intersects, shortest
from zeph_rules.engine.lint.logic import implies, unsatisfiable
from zeph_rules.engine.lint.regex_analysis import matches_everything, risky_shapes
from zeph_rules.engine.loader import BUILTIN_DIR
from zeph_rules.engine.patterns import glob_match


def _nfa(glob: str, path: bool = False) -> object:
    return glob_nfa(glob, path, not path)


@pytest.mark.parametrize(("inner", "outer", "expected", "witness"), [
    ("git push *", ["git *"], True, None),
    ("git *", ["git push *"], False, "git "),
    ("[ab]*", ["a*", "b*"], True, None),
    ("[a-c]x", ["ax", "bx"], False, "cx"),
    ("*.env*", ["*.env", "*.env?*"], True, None),
    ("GIT *", ["git *"], True, None),  # case-insensitive
    ("?", ["[!x]"], False, "x"),
])
def test_inclusion_with_witness(inner: str, outer: list[str], expected: bool, witness: str | None) -> None:
    answer = included(_nfa(inner), [_nfa(o) for o in outer])  # type: ignore[arg-type]
    assert answer.included is expected and answer.witness == witness
    if witness is not None:  # the witness really escapes every outer glob
        assert glob_match(inner, witness, fold=True) and not any(glob_match(o, witness, fold=True) for o in outer)


def test_path_globs_follow_the_engine() -> None:
    assert included(_nfa("/etc/*.conf", True), [_nfa("/etc/**", True)]).included  # type: ignore[arg-type]
    assert not included(_nfa("/etc/**", True), [_nfa("/etc/*", True)]).included  # type: ignore[arg-type]
    assert shortest(_nfa("/etc/**/*.py", True)) == "/etc/.py"  # type: ignore[arg-type]


def test_emptiness_intersection_and_bad_globs() -> None:
    assert shortest(_nfa("a[!\x00-\U0010ffff]")) is None  # type: ignore[arg-type]
    assert intersects(_nfa("git *"), _nfa("*--force*"))  # type: ignore[arg-type]
    assert not intersects(_nfa("git *"), _nfa("rm *"))  # type: ignore[arg-type]
    with pytest.raises(GlobProblem):
        glob_nfa("[z-a]")


def test_condition_implication_is_sound() -> None:
    assert implies(Compare("command", "^=", "terraform apply"), Compare("command", "^=", "terraform"))
    assert implies(Compare("tool", "==", "bash"), Compare("tool", "~i", "BA*"))
    assert implies(Compare("exit_code", ">", 3), Compare("exit_code", ">=", 2))
    assert implies(Compare("tool", "in", ("a", "b")), Compare("tool", "in", ("a", "b", "c")))
    assert not implies(Compare("command", "^=", "terraform"), Compare("command", "^=", "terraform apply"))
    assert not implies(Compare("command", "=~", Regex("a")), Compare("command", "=~", Regex("b")))
    assert not implies(Compare("path", "~", "/etc/**"), Compare("path", "~", "/etc/*"))


def test_contradictions() -> None:
    from zeph_rules.engine.ir import And

    assert unsatisfiable(And((Compare("tool", "==", "a"), Compare("tool", "==", "b"))))
    assert unsatisfiable(And((Compare("exit_code", ">", 5), Compare("exit_code", "<", 3))))
    assert unsatisfiable(And((Compare("command", "^=", "git"), Compare("command", "^=", "npm"))))
    assert not unsatisfiable(And((Compare("path", "==", "a"), Compare("path", "==", "b"))))  # several paths
    assert not unsatisfiable(And((Compare("command", "^=", "git"), Compare("command", "^=", "git push"))))


@pytest.mark.parametrize(("pattern", "code", "fragment"), [
    (r"(a+)+$", "ZR201", "(a+)+"),
    (r"^x (\w+\s?)+$", "ZR201", r"(\w+\s?)+"),
    (r"(\s?\w+)*z", "ZR201", r"(\s?\w+)*"),
    (r"(a?a)+", "ZR201", "(a?a)+"),
    (r"x(\d+\d+)+y", "ZR201", r"(\d+\d+)+"),
    (r"(a|a)*", "ZR202", "(a|a)*"),
    (r"(\w|\d)+", "ZR202", r"(\w|\d)+"),
    (r"(.|\s)*x", "ZR202", r"(.|\s)*"),
])
def test_risky_shapes_are_found_with_their_place(pattern: str, code: str, fragment: str) -> None:
    (shape,) = risky_shapes(pattern)
    assert (shape.code, shape.fragment) == (code, fragment)
    assert pattern[shape.offset : shape.offset + shape.length] == fragment


@pytest.mark.parametrize("pattern", [
    r"^(tail\s+(-\S+\s+)*|docker\s+(compose\s+)?logs\b)", r"(\d+\.)+\d+", r"(foo|bar)+", r"(?:ab|a)*",
    r"(\d{1,3}\.){3}\d{1,3}", r"(a+)++", r"(?:[\w-]{1,30}:[^\r\n]{0,200}\n){0,8}", r"^\s*(Compiling|Checking) ",
])
def test_safe_shapes_are_not_flagged(pattern: str) -> None:
    assert risky_shapes(pattern) == []


def test_builtin_patterns_are_clean() -> None:
    patterns: list[str] = []
    for name in ("filters.toml", "security.toml"):
        path = BUILTIN_DIR / name
        if not path.exists():
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for rule in data.get("rules", []):
            patterns += [p for p in rule.get("strategy", {}).get("patterns", []) if isinstance(p, str)]
            if isinstance(rule.get("match"), str) and "/" in rule["match"]:
                patterns.append(rule["match"].split("/", 1)[1].rsplit("/", 1)[0])
        for entry in data.get("patterns", []):
            patterns += [entry["regex"], *entry.get("allowlist", [])]
        for listed in data.get("pattern_sets", {}).values():
            patterns += listed
    assert len(patterns) > 200
    assert [p for p in patterns if risky_shapes(p)] == []


def test_matches_everything() -> None:
    assert matches_everything(r"\s*") and matches_everything("x?") and matches_everything("^")
    assert not matches_everything(r"^\s*$") and not matches_everything("error")
