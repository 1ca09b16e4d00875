"""``zeph-rules check`` on a generated 10,000-rule file (parse, validate, compile, lint)."""

from __future__ import annotations

from pathlib import Path

from zeph_rules.bench_check import check_generated


def test_check_10000(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    benchmark.name = "check.rules=10000"
    found = benchmark.pedantic(check_generated, args=(10000, tmp_path), rounds=2, iterations=1)
    assert found > 0  # the generated file really has shadowed rules
