"""Decision latency, graph vs naive, at 10 to 10,000 permission and policy rules.

``zeph-rules bench --only decide`` runs the same measurements without pytest.
"""

from __future__ import annotations

import functools

import pytest

from zeph_rules.bench import RULE_COUNTS
from zeph_rules.bench_policy import compile_policy_rules, policy_queries
from zeph_rules.engine.policy import PolicyEngine


@functools.lru_cache(maxsize=None)
def _graph(count: int):  # type: ignore[no-untyped-def]
    return compile_policy_rules(count)[1]


@pytest.mark.parametrize("count", RULE_COUNTS)
def test_decide_graph(benchmark, implementation: str, count: int) -> None:  # type: ignore[no-untyped-def]
    engine = PolicyEngine(_graph(count))
    queries = policy_queries(count)
    benchmark.name = f"decide.graph.rules={count}[{implementation}]"

    def run() -> None:
        for query in queries:
            engine.decide("bash", query)

    benchmark(run)


@pytest.mark.parametrize("count", RULE_COUNTS)
def test_decide_naive(benchmark, count: int) -> None:  # type: ignore[no-untyped-def]
    engine = PolicyEngine(_graph(count), reference=True)
    queries = policy_queries(count)
    benchmark.name = f"decide.naive.rules={count}"

    def run() -> None:
        for query in queries:
            engine.decide("bash", query)

    benchmark.pedantic(run, rounds=3 if count >= 10000 else 10, iterations=1)
