"""The built-in terraform, cmake/ctest and shellcheck filter rules on real output: what goes and what stays."""

from __future__ import annotations

from pathlib import Path

import pytest

import zeph_rules
from zeph_rules.engine.graph import MatcherGraph

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def graph() -> MatcherGraph:
    return zeph_rules.load(builtin=True, cache=False)


def _raw(case: str) -> str:
    return (FIXTURES / case / "raw.txt").read_text(encoding="utf-8")


def test_apply_keeps_the_plan_headers_and_results_but_not_the_attribute_diff(graph: MatcherGraph) -> None:
    raw = _raw("terraform/q4_apply")
    out = graph.filter("terraform apply -auto-approve -input=false", raw, 0).output
    assert "terraform-apply" in graph.filter("terraform apply -auto-approve", raw, 0).rules
    assert "# terraform_data.shard[5] will be created" in out
    assert "Plan: 11 to add, 0 to change, 0 to destroy." in out
    assert "Apply complete! Resources: 11 added, 0 changed, 0 destroyed." in out
    assert '  "staging-worker",' in out  # the Outputs, two columns in
    assert "(known after apply)" not in out  # the changed attributes, four or more in
    assert "noise lines stripped" in out


def test_plan_keeps_its_attribute_diff(graph: MatcherGraph) -> None:
    raw = _raw("terraform/q4_apply")
    result = graph.filter("terraform plan", raw, 0)
    assert "terraform-apply" not in result.rules
    assert "(known after apply)" in result.output


def test_ctest_after_a_cmake_build_keeps_results_and_warnings(graph: MatcherGraph) -> None:
    command = "cmake -S . -B build && cmake --build build -j2 && ctest --test-dir build"
    result = graph.filter(command, _raw("cmake/q7_configure_build_ctest"), 0)
    assert result.rules == ("ctest",)
    out = result.output
    assert "1/1 Test #1: field ............................   Passed    0.00 sec" in out
    assert "100% tests passed, 0 tests failed out of 1" in out
    assert "[100%] Built target csvcount" in out
    assert "warning: unused parameter" in out
    assert "Start 1: field" not in out and "Building C object" not in out and "Detecting C compiler" not in out


@pytest.mark.parametrize(
    ("command", "rules"),
    [
        ("shellcheck scripts/*", ("shellcheck",)),
        ("shellcheck -f gcc deploy.sh", ("linters",)),
        ("shellcheck --format=gcc deploy.sh", ("linters",)),
        ("shellcheck -f json deploy.sh", ()),
    ],
)
def test_shellcheck_formats_go_to_their_rule(graph: MatcherGraph, command: str, rules: tuple[str, ...]) -> None:
    assert graph.filter(command, "x\n", 1).rules == rules


def test_shellcheck_tty_keeps_every_finding_and_fix_and_drops_the_wiki_links(graph: MatcherGraph) -> None:
    raw = _raw("shellcheck/q7_debian_scripts")
    out = graph.filter("shellcheck scripts/*", raw, 1).output
    assert out.count("Did you mean:") == raw.count("Did you mean:")
    assert out.count(" SC2086 (info): ") == raw.count(" SC2086 (info): ")
    assert "https://www.shellcheck.net/wiki/" not in out and "For more information:" not in out
