"""The built-in terraform and cmake/ctest filter rules on real output: what goes and what stays."""

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
