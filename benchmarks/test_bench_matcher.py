"""First-match lookup, graph vs naive, at 10 to 10,000 rules; compile time.

Run with ``pytest benchmarks/ --benchmark-only``; ``zeph-rules bench`` runs the
same measurements without pytest.  Compare a branch with main using
``pytest benchmarks --benchmark-save=NAME`` and ``pytest-benchmark compare``.
"""

from __future__ import annotations

import functools

import pytest

from zeph_rules.bench import RULE_COUNTS, compile_permission_rules, generate_queries
from zeph_rules.engine.graph import NaiveEvaluator


@functools.lru_cache(maxsize=None)
def _compiled(count: int):  # type: ignore[no-untyped-def]
    return compile_permission_rules(count)


@pytest.mark.parametrize("count", RULE_COUNTS)
def test_first_match(benchmark, implementation: str, count: int) -> None:  # type: ignore[no-untyped-def]
    _, graph = _compiled(count)
    queries = generate_queries(count)
    benchmark.name = f"matcher.first_match.rules={count}[{implementation}]"

    def run() -> None:
        for query in queries:
            graph.first_match("bash", query)

    benchmark(run)


@pytest.mark.parametrize("count", RULE_COUNTS)
def test_naive(benchmark, count: int) -> None:  # type: ignore[no-untyped-def]
    ruleset, _ = _compiled(count)
    naive = NaiveEvaluator(ruleset.rules)
    queries = generate_queries(count)
    benchmark.name = f"matcher.naive.rules={count}"

    def run() -> None:
        for query in queries:
            naive.first_match("bash", query)

    benchmark.pedantic(run, rounds=3 if count >= 10000 else 10, iterations=1)


def test_compile_10000(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.name = "compile.rules=10000"
    benchmark.pedantic(compile_permission_rules, args=(10000,), rounds=2, iterations=1)
