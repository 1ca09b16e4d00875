"""Benchmarks behind ``zeph-rules bench`` (and reused by ``benchmarks/``).

Every measurement has a unique name and reports median / min / max over
rounds; the matcher benchmarks run once per available implementation
(compiled and pure) in the same process, so their ratios are comparable even on
a noisy machine.  Rule sets and queries are generated deterministically.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .engine.graph import MatcherGraph
    from .engine.ruleset import RuleSet

RULE_COUNTS = (10, 100, 1000, 10000)

_PROGRAMS = ["git", "cargo", "npm", "docker", "kubectl", "terraform", "make", "pytest", "go", "pip", "curl", "ls", "rm", "python"]
_WORDS = ["build", "test", "push", "pull", "status", "apply", "plan", "install", "run", "exec", "logs", "get", "diff", "log"]


class BenchResult(NamedTuple):
    name: str
    implementation: str
    unit: str
    median: float
    min: float
    max: float
    n: int


def generate_permission_toml(count: int, seed: int = 7) -> str:
    """Return a rule file with ``count`` bash permission rules of realistic shapes."""
    rng = random.Random(seed)
    lines = ["[tools.permissions]", "bash = ["]
    for i in range(count - 1):
        program = _PROGRAMS[i % len(_PROGRAMS)]
        word = _WORDS[(i // len(_PROGRAMS)) % len(_WORDS)]
        action = rng.choice(["allow", "ask", "deny"])
        shape = i % 5
        if shape == 0:
            pattern = f"{program} {word}-{i} *"
        elif shape == 1:
            pattern = f"{program}-tool-{i} {word}"
        elif shape == 2:
            pattern = f"*--flag-{i}*"
        elif shape == 3:
            pattern = f"{program} {word} target-{i}/*"
        else:
            pattern = f"*/bin/helper-{i} *"
        lines.append(f'  {{ pattern = "{pattern}", action = "{action}" }},')
    lines.append('  { pattern = "*", action = "ask" },')
    lines.append("]")
    return "\n".join(lines) + "\n"


def generate_queries(count: int, seed: int = 11) -> list[str]:
    """Return commands hitting early, late and no rules of ``generate_permission_toml(count)``."""
    rng = random.Random(seed)
    queries = []
    for _ in range(32):
        i = rng.randrange(max(1, count - 1))
        program = _PROGRAMS[i % len(_PROGRAMS)]
        word = _WORDS[(i // len(_PROGRAMS)) % len(_WORDS)]
        shape = i % 5
        queries.append(
            [
                f"{program} {word}-{i} --verbose src/main.rs",
                f"{program}-tool-{i} {word}",
                f"make all --flag-{i} --jobs 4",
                f"{program} {word} target-{i}/debug",
                f"/usr/local/bin/helper-{i} --check",
            ][shape]
        )
    queries += ["echo hello world", "cat README.md", "git status --short", "ls -la /tmp/project/src"]
    return queries


def _time_rounds(fn: Callable[[], object], calls: int, rounds: int) -> list[float]:
    """Return per-call times in microseconds, one per round."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return samples


def _result(name: str, implementation: str, unit: str, samples: Sequence[float]) -> BenchResult:
    return BenchResult(name, implementation, unit, statistics.median(samples), min(samples), max(samples), len(samples))


def compile_permission_rules(count: int) -> tuple[RuleSet, MatcherGraph]:
    """Parse, desugar and compile a generated rule file (returns rules and graph)."""
    from .engine.compiler import compile_rules
    from .engine.desugar import desugar
    from .engine.source import parse_toml_text

    ruleset = desugar([parse_toml_text(generate_permission_toml(count), f"generated-{count}.toml")])
    return ruleset, compile_rules(ruleset)


def bench_matcher(counts: Sequence[int], implementations: Sequence[str], rounds: int) -> list[BenchResult]:
    from . import _speedups
    from .engine.graph import NaiveEvaluator

    results = []
    for count in counts:
        ruleset, graph = compile_permission_rules(count)
        naive = NaiveEvaluator(ruleset.rules)
        queries = generate_queries(count)
        for implementation in implementations:
            _speedups.select(implementation)
            for query in queries:  # warm caches (compiled regexes, parsed commands)
                graph.first_match("bash", query)

            def run_graph() -> None:
                for query in queries:
                    graph.first_match("bash", query)

            results.append(_result(f"matcher.first_match.rules={count}", implementation, "us",
                                   _time_rounds(run_graph, len(queries), rounds)))
        naive_rounds = max(3, rounds // (1 + count // 1000))

        def run_naive() -> None:
            for query in queries:
                naive.first_match("bash", query)

        run_naive()
        results.append(_result(f"matcher.naive.rules={count}", "python", "us", _time_rounds(run_naive, len(queries), naive_rounds)))
    return results


def bench_compile(count: int, rounds: int) -> BenchResult:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        compile_permission_rules(count)
        samples.append((time.perf_counter() - start) * 1e3)
    return _result(f"compile.rules={count}", "python", "ms", samples)


def bench_cli(rounds: int) -> list[BenchResult]:
    """Time a cold and a warm ``zeph-rules decide`` next to ``python -c pass``."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        rules = Path(tmp) / "rules.toml"
        rules.write_text(generate_permission_toml(1000))
        env = {**os.environ, "ZEPH_RULES_CACHE_DIR": str(Path(tmp) / "cache")}
        decide = [sys.executable, "-m", "zeph_rules", "decide", "--tool", "bash", "--input", "git status", "--rules", str(rules)]

        def timed(cmd: list[str], fresh_cache: bool) -> float:
            if fresh_cache:
                env["ZEPH_RULES_CACHE_DIR"] = tempfile.mkdtemp(dir=tmp)
            start = time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            return (time.perf_counter() - start) * 1e3

        results.append(_result("cli.python_startup", "python", "ms", [timed([sys.executable, "-c", "pass"], False) for _ in range(rounds)]))
        results.append(_result("cli.decide.cold", "python", "ms", [timed(decide, True) for _ in range(rounds)]))
        timed(decide, False)
        results.append(_result("cli.decide.warm", "python", "ms", [timed(decide, False) for _ in range(rounds)]))
    return results


def run_benchmarks(only: Sequence[str] = (), quick: bool = False,
                   progress: Callable[[str], None] | None = None) -> list[BenchResult]:
    """Run every benchmark whose name starts with one of ``only`` (all when empty)."""
    from . import _speedups

    def wanted(name: str) -> bool:
        return not only or any(_selects(o, name) for o in only)

    original = _speedups.IMPLEMENTATION
    implementations = _speedups.available()
    rounds = 5 if quick else 25
    results: list[BenchResult] = []
    try:
        counts = [c for c in RULE_COUNTS if wanted(f"matcher.first_match.rules={c}") or wanted(f"matcher.naive.rules={c}")]
        if counts:
            if progress:
                progress("matcher: first-match lookup, graph vs naive ...")
            results += bench_matcher(counts, implementations, rounds)
        decide_counts = [c for c in RULE_COUNTS if any(wanted(f"decide.{k}.rules={c}") for k in ("graph", "graph.cold", "naive"))]
        if decide_counts:
            from .bench_policy import bench_decide

            if progress:
                progress("decide: policy decisions, graph vs naive ...")
            results += bench_decide(decide_counts, implementations, rounds)
        if wanted("compile.rules=10000"):
            if progress:
                progress("compile: 10,000 rules ...")
            results.append(bench_compile(10000, 2 if quick else 5))
        if wanted("check.rules=10000"):
            if progress:
                progress("check: lint 10,000 rules ...")
            from .bench_check import bench_check

            results.append(bench_check(10000, 1 if quick else 3))
        if any(wanted(f"scan.{v}") for v in ("compiled", "pure", "hyperscan", "re_per_pattern")):
            from .bench_scan import bench_scan

            if progress:
                progress("scan: credential scanning on a 50 MB corpus ...")
            results += bench_scan(8 * 1024 * 1024 if quick else 50 * 1024 * 1024, 2 if quick else 5, implementations)
        if any(wanted(f"dedup.{i}") for i in implementations):
            from .bench_core import bench_dedup

            if progress:
                progress("dedup: grouping log lines ...")
            results += bench_dedup(implementations, 2 if quick else 5)
        if any(wanted(f"truncate.{v}") for v in (*implementations, "bytes_count")):
            from .bench_core import bench_truncate

            if progress:
                progress("truncate: head and tail of a 50 MB log ...")
            results += bench_truncate(implementations, 3 if quick else 7, 8 * 1024 * 1024 if quick else 50 * 1024 * 1024)
        topk_shapes = [(n, d) for n, d in ((200, 384), (100_000, 384)) if wanted(f"topk.{n}x{d}")]
        if topk_shapes:
            from .bench_core import bench_topk

            if progress:
                progress("topk: cosine top-10 over 200 and 100,000 rows ...")
            results += bench_topk(topk_shapes, implementations, rounds)
        if any(wanted(n) for n in ("cli.python_startup", "cli.decide.cold", "cli.decide.warm")):
            if progress:
                progress("cli: cold and warm start ...")
            results += bench_cli(3 if quick else 10)
        filter_names = ["filter.pipeline", *(f"filter.strategy.{n}" for n in (
            "test_summary", "group_by_rule", "git_diff", "git_status", "dedup", "truncate", "strip_noise",
            "keep_matching", "strip_annotated")), "cli.filter.cargo_test_100k", "cli.filter.cargo_test_100k.cold"]
        if any(wanted(n) for n in filter_names):
            from .bench_filter import bench_filter

            if progress:
                progress("filter: pipeline and strategy throughput, CLI on 100,000 lines of cargo test ...")
            seen = {r.name for r in results}
            results += [r for r in bench_filter(3 if quick else 7, quick, [n for n in filter_names if wanted(n)])
                        if r.name not in seen]
    finally:
        _speedups.select(original)
    return [r for r in results if not only or any(_selects(o, r.name) for o in only)]


def _selects(selector: str, name: str) -> bool:
    """Whether ``--only selector`` picks ``name``: equal, or a prefix ending at a ``.`` or ``=``."""
    if name == selector:
        return True
    return name.startswith(selector) and (selector[-1] in ".=" or name[len(selector)] in ".=")
