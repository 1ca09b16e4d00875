"""The compiled core under pytest-benchmark: dedup, truncate and top-k cosine, per twin.

Same names and inputs as ``zeph_rules.bench_core`` (``zeph-rules bench --only
dedup truncate topk``); run with ``pytest benchmarks/test_bench_core.py --benchmark-only``.
"""

from __future__ import annotations

import functools
from array import array

import pytest

from zeph_rules import _speedups
from zeph_rules.bench_core import (
    TOPK_K,
    TOPK_SHAPES,
    TRUNCATE_HEAD,
    TRUNCATE_TAIL,
    generate_float32,
    generate_log_lines,
    generate_text,
)


@functools.cache
def _lines(count: int) -> list[str]:
    return generate_log_lines(count)


@functools.cache
def _text() -> str:
    return generate_text(50 * 1024 * 1024)


@functools.cache
def _prepared(n: int, dim: int) -> tuple[array, object]:  # type: ignore[type-arg]
    # the seam's prepare_matrix at the time of the first call; both twins build the same value
    return array("f", generate_float32(dim, seed=31)), _speedups.prepare_matrix(generate_float32(n * dim), dim)


def test_dedup(benchmark, implementation: str) -> None:  # type: ignore[no-untyped-def]
    lines = _lines(200_000 if implementation == "compiled" else 4_000)
    benchmark.name = f"dedup.{implementation}"
    benchmark.extra_info["lines"] = len(lines)
    benchmark.pedantic(_speedups.dedup_lines, args=(lines, 10_000), rounds=5 if implementation == "compiled" else 2, iterations=1)


def test_truncate_bytes_count(benchmark) -> None:  # type: ignore[no-untyped-def]
    data = _text().encode()
    benchmark.name = "truncate.bytes_count"
    benchmark.pedantic(data.count, args=(b"\n",), rounds=7, iterations=1)


def test_truncate(benchmark, implementation: str) -> None:  # type: ignore[no-untyped-def]
    text = _text()
    benchmark.name = f"truncate.{implementation}"

    def run() -> None:
        # the two calls the truncate strategy makes
        _speedups.count_lines(text)
        _speedups.head_tail_split(text, TRUNCATE_HEAD, TRUNCATE_TAIL)

    benchmark.pedantic(run, rounds=7, iterations=1)


@pytest.mark.parametrize("shape", TOPK_SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_topk(benchmark, implementation: str, shape: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    n, dim = shape
    original = _speedups.IMPLEMENTATION
    if "compiled" in _speedups.available():
        _speedups.select("compiled")  # prepare fast; the value is the same for both twins
    query, prepared = _prepared(n, dim)
    _speedups.select(original)
    benchmark.name = f"topk.{n}x{dim}[{implementation}]"
    if implementation == "pure" and n * dim > 1_000_000:
        benchmark.pedantic(_speedups.topk_cosine, args=(query, prepared, TOPK_K), rounds=1, iterations=1)
    else:
        benchmark(_speedups.topk_cosine, query, prepared, TOPK_K)
