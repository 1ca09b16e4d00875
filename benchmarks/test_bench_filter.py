"""Output-filter throughput: the whole pipeline, each strategy, and the ``zeph-rules filter`` command.

``zeph-rules bench --only filter`` (and ``--only cli.filter``) runs the same measurements without pytest.
"""

from __future__ import annotations

import functools

import pytest

from zeph_rules.bench_filter import _STRATEGY_INPUTS, bench_cli_filter, cargo_test_output
from zeph_rules.engine.loader import load
from zeph_rules.engine.strategies import STRATEGIES


@functools.lru_cache(maxsize=None)
def _graph():  # type: ignore[no-untyped-def]
    return load(builtin=True, cache=False)


def test_filter_pipeline(benchmark, implementation: str) -> None:  # type: ignore[no-untyped-def]
    from zeph_rules.bench_filter import _fixture_inputs, _generated_inputs

    graph = _graph()
    inputs = _fixture_inputs() or _generated_inputs()
    benchmark.name = f"filter.pipeline[{implementation}]"

    def run() -> None:
        for command, exit_code, raw in inputs:
            graph.filter(command, raw, exit_code)

    benchmark(run)


@pytest.mark.parametrize("name", sorted(_STRATEGY_INPUTS))
def test_filter_strategy(benchmark, implementation: str, name: str) -> None:  # type: ignore[no-untyped-def]
    from zeph_rules.bench_filter import _FIXTURES, _repeat_to
    from zeph_rules.engine.sanitize import sanitize

    cases, params = _STRATEGY_INPUTS[name]
    raws = [(_FIXTURES / case / "raw.txt").read_bytes().decode("utf-8", "surrogateescape")
            for case in cases if (_FIXTURES / case / "raw.txt").exists()]
    if not raws:
        pytest.skip("fixtures not available")
    texts = [sanitize(_repeat_to(raw, 256 * 1024)) for raw in raws]
    strategy = STRATEGIES[name]
    benchmark.name = f"filter.strategy.{name}[{implementation}]"

    def run() -> None:
        for text in texts:
            strategy(text, params, 1)

    benchmark(run)


def test_cargo_test_100k_in_process(benchmark, implementation: str) -> None:  # type: ignore[no-untyped-def]
    text = cargo_test_output(100_000)
    graph = _graph()
    benchmark.name = f"filter.cargo_test_100k.in_process[{implementation}]"
    result = benchmark(graph.filter, "cargo test", text, 101)
    assert "test result: FAILED" in result.output


@pytest.mark.slow
def test_cli_filter_cargo_test_100k() -> None:
    """Report the CLI figures (subprocess timings do not fit pytest-benchmark's loop)."""
    results = {r.name: r.median for r in bench_cli_filter(3)}
    print({name: f"{value:.1f} ms" for name, value in results.items()})
    assert results["cli.filter.cargo_test_100k"] > 0


def _log_5mb() -> str:
    return "2026-11-26 10:00:00 INFO request handled in 12ms path=/api/x status=200\n" * 70_000


def test_wide_line_check_by_windows(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The pipeline's look for a line over 10,000 characters in 5 MB of log that has none."""
    from zeph_rules.engine.pipeline import _narrow_wide_lines

    text = _log_5mb()
    benchmark.name = "filter.wide_lines.windows.5mb"
    assert benchmark(_narrow_wide_lines, text) is text


def test_wide_line_check_naive(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The same look by splitting into lines: what the window check replaced."""
    from zeph_rules.engine.pipeline import WIDE_LINE

    text = _log_5mb()
    benchmark.name = "filter.wide_lines.split.5mb"
    assert benchmark(lambda: max(map(len, text.split("\n"))) > WIDE_LINE) is False


def _build_100k() -> str:
    return "".join(f"gcc -c -O2 src/file{n}.c -o build/file{n}.o\n" for n in range(100_000))


def test_prefix_look_by_first_lines(benchmark) -> None:  # type: ignore[no-untyped-def]
    """Whether a runner's 100,000-line build carries a timestamp or a job's tag on every line (it does not):
    the look at its first 400 lines that timestamps.split and streams.split start with."""
    from zeph_rules.engine import streams, timestamps

    text = _build_100k()
    benchmark.name = "filter.prefixes.first_lines.100k"
    assert benchmark(lambda: (timestamps.split(text), streams.split(text))) == (None, None)


def test_prefix_look_naive(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The same look by matching every line: what reading the first lines first replaced."""
    from zeph_rules.engine import prefixes, streams, timestamps

    text = _build_100k()
    benchmark.name = "filter.prefixes.every_line.100k"

    def every_line() -> int:
        lines = text.split("\n")
        found = prefixes.take_off(lines, timestamps._PREFIX)[2]
        for syntax in streams._SYNTAXES:
            found += prefixes.take_off(lines, syntax)[2]
        return sum(1 for match in found if match)

    assert benchmark(every_line) == 0


def _make_ci_output() -> str:
    """Batch 46's `make ci` (clippy's 120 warnings, then a failing cargo test), six times over: 18 sections."""
    from zeph_rules.bench_filter import _FIXTURES

    path = _FIXTURES / "make/q46_make_ci_120_clippy_warnings_then_test_fails/raw.txt"
    if not path.exists():
        pytest.skip("fixtures not available")
    return path.read_text(encoding="utf-8") * 6


def test_runner_output_by_sections(benchmark) -> None:  # type: ignore[no-untyped-def]
    # each echoed command's part filtered as its tool's (engine/sections.py)
    text, graph = _make_ci_output(), _graph()
    result = benchmark(graph.filter, "make ci", text, 2)
    assert "cargo-clippy" in result.rules or "cargo-build" in result.rules


def test_runner_output_as_one_tool(benchmark) -> None:  # type: ignore[no-untyped-def]
    # the same text read whole by one tool's rules, as before sections: the cost sections add
    text, graph = _make_ci_output(), _graph()
    benchmark(graph.filter, "cargo test", text, 2)


def _sarif_report() -> str:
    """Batch 38b's `ruff check --output-format sarif`: 467 KB of pretty-printed JSON."""
    from zeph_rules.bench_filter import _FIXTURES

    path = _FIXTURES / "ruff/q38b_check_sarif/raw.txt"
    if not path.exists():
        pytest.skip("fixtures not available")
    return path.read_text(encoding="utf-8")


def test_json_relayout(benchmark) -> None:  # type: ignore[no-untyped-def]
    # the layout alone (engine/json_layout.py): validate, tokenise, lay out
    from zeph_rules.engine.json_layout import relayout_json

    text = _sarif_report()
    assert len(benchmark(relayout_json, text)) < len(text)


def test_json_report_filtered(benchmark) -> None:  # type: ignore[no-untyped-def]
    # the whole pipeline on the same report: what the layout costs beside sanitising and the security pass
    text, graph = _sarif_report(), _graph()
    result = benchmark(graph.filter, "ruff check --output-format sarif", text, 1)
    assert result.filtered_bytes < result.raw_bytes
