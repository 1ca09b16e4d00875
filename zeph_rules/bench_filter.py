"""Output-filter benchmarks: the pipeline, each strategy, and the ``zeph-rules filter`` command.

* ``filter.pipeline`` -- MB/s of ``graph.filter`` with the built-in rules over
  a large mixed input: the real fixture outputs of ``tests/fixtures`` (when the
  source tree is there) or generated tool-like output, each repeated to size
  and filtered as the output of its own command.
* ``filter.strategy.<name>`` -- MB/s of each strategy alone on a large input
  of the kind it is made for, with the built-in rule's parameters.
* ``cli.filter.cargo_test_100k`` (warm cache) and ``cli.filter.cargo_test_100k.cold``
  next to ``cli.python_startup`` -- ms of ``zeph-rules filter --command "cargo test"``
  on a 100,000-line ``cargo test`` output, as a subprocess of the installed script
  (``python -m zeph_rules`` where there is none).  The target is at
  most twice the Python start-up plus 20 ms.  Warm means what every call after
  the first sees: the compiled graph, this command line's filter plan and the
  programs of the regular expressions it runs are in the cache, so the run loads
  the plan (and the security scanner), never the graph, and compiles no pattern.
  Cold starts from an empty cache: parse, compile, build the plan, store them.

Inputs are built deterministically: real fixture lines repeated and renumbered.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .bench import BenchResult, _result

_FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"

_CARGO_HEAD = [
    "   Compiling inventory v0.1.0 (/work/inventory)",
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.52s",
    "     Running unittests src/lib.rs (target/debug/deps/inventory-423625e8a99764e8)",
    "",
]
_CARGO_FAILURE = [
    "---- tests::case_{n} stdout ----",
    "",
    "thread 'tests::case_{n}' (25339) panicked at src/lib.rs:91:9:",
    "assertion `left == right` failed: grouping lost quantities",
    "  left: {{\"apple\": 1, \"fig\": 5}}",
    " right: {{\"apple\": 1, \"fig\": 4}}",
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    "",
]


def cargo_test_output(lines: int = 100_000, failures: int = 5) -> str:
    """Return a ``cargo test`` run of about ``lines`` lines: passing tests, a few failures, the summary."""
    tests = lines - len(_CARGO_HEAD) - 8 - failures * (len(_CARGO_FAILURE) + 2)
    failing = {tests * (k + 1) // (failures + 1) for k in range(failures)}
    out = list(_CARGO_HEAD)
    out.append(f"running {tests} tests")
    for n in range(tests):
        module = ("parser", "store", "report", "cli")[n % 4]
        out.append(f"test tests::{module}::case_{n} ... {'FAILED' if n in failing else 'ok'}")
    out += ["", "failures:", ""]
    for n in sorted(failing):
        out += [line.format(n=n) for line in _CARGO_FAILURE]
    out += ["", "failures:"] + [f"    tests::case_{n}" for n in sorted(failing)] + [""]
    passed = tests - len(failing)
    out.append(f"test result: FAILED. {passed} passed; {len(failing)} failed; 0 ignored; 0 measured; "
               "0 filtered out; finished in 1.92s")
    out += ["", "error: test failed, to rerun pass `--lib`"]
    return "\n".join(out) + "\n"


def _fixture_inputs() -> list[tuple[str, int | None, str]]:
    """Return ``(command, exit code, raw output)`` of every fixture, or nothing outside the source tree."""
    import tomllib

    cases = []
    for case_file in sorted(_FIXTURES.glob("*/*/case.toml")):
        raw = case_file.with_name("raw.txt")
        if not raw.exists():
            continue
        meta = tomllib.loads(case_file.read_text(encoding="utf-8"))
        cases.append((str(meta.get("command", "")), meta.get("exit_code"),
                      raw.read_bytes().decode("utf-8", "surrogateescape")))
    return cases


def _generated_inputs() -> list[tuple[str, int | None, str]]:
    """Return tool-like outputs for the strategies when the fixtures are not available."""
    log = "".join(f"2026-11-22 06:49:{i % 60:02d},{i % 1000:03d} INFO  [5711] http: GET /api/items/{i} -> 200 in {i % 50}ms\n"
                  for i in range(2000))
    listing = "".join(f"./src/mod_{i // 20}/file_{i}.py\n" for i in range(2000))
    grep = "".join(f"src/mod_{i // 20}.py:{i}:    # TODO: handle edge case {i}\n" for i in range(2000))
    diff = "diff --git a/x.py b/x.py\nindex 1..2 100644\n--- a/x.py\n+++ b/x.py\n@@ -1,2000 +1,2000 @@\n" + "".join(
        f"-old line {i}\n+new line {i}\n" for i in range(1000))
    return [
        ("cargo test", 101, cargo_test_output(2000)),
        ("tail -n 2000 app.log", 0, log),
        ("find . -name '*.py'", 0, listing),
        ("grep -rn TODO src", 0, grep),
        ("git diff", 0, diff),
    ]


def _repeat_to(text: str, size: int) -> str:
    """Return ``text`` repeated (whole lines) to at least ``size`` characters."""
    if not text:
        return text
    if not text.endswith("\n"):
        text += "\n"
    return text * max(1, -(-size // len(text)))


def _mb_per_s(total_bytes: int, seconds: list[float]) -> list[float]:
    return [total_bytes / 1e6 / s for s in seconds if s > 0] or [0.0]


def _timed(fn: Callable[[], Any], rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def bench_pipeline(rounds: int, size: int = 8 * 1024 * 1024, implementation: str = "python") -> BenchResult:
    """Return ``filter.pipeline``: MB/s of the built-in pipeline over a mixed input of about ``size`` bytes."""
    from .engine.loader import load

    graph = load(builtin=True, cache=False)
    inputs = _fixture_inputs() or _generated_inputs()
    per_case = max(1, size // max(1, len(inputs)))
    work = [(command, exit_code, _repeat_to(raw, min(per_case, 64 * max(1, len(raw))))) for command, exit_code, raw in inputs]
    total = sum(len(raw.encode("utf-8", "surrogateescape")) for _, _, raw in work)

    def run() -> None:
        for command, exit_code, raw in work:
            graph.filter(command, raw, exit_code)

    run()
    return _result("filter.pipeline", implementation, "MB/s", _mb_per_s(total, _timed(run, rounds)))


#: strategy -> (fixture cases whose output it is made for, built-in parameters)
_STRATEGY_INPUTS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "test_summary": (("cargo/test_many_pass", "pytest/big_v", "go/test_v_fail", "npm/test_fail"),
                     {"max_failures": 10, "truncate_stack_trace": 50}),
    "group_by_rule": (("cargo/clippy_pedantic", "ruff/check", "gcc/warnings"), {}),
    "git_diff": (("git/diff",), {"max_diff_lines": 150}),
    "git_status": (("git/status",), {}),
    "dedup": (("logs/tail_app_log", "logs/cat_app_log", "logs/q9_tail_2500_go_inventory"), {}),
    "truncate": (("ls/la_big", "tree/all", "find/type_f_size"), {"max_lines": 60, "head": 30, "tail": 10}),
    "strip_noise": (("pip/install", "npm/install_vitest"), {"patterns": [r"^\s*Downloading\s", r"^npm warn", r"^\s*$"]}),
    "keep_matching": (("logs/cat_app_log",), {"patterns": [r"\b(ERROR|WARNING|CRITICAL)\b"]}),
    "strip_annotated": (("cargo/build_warnings",), {
        "patterns": [r"^\s*(Compiling|Checking|Downloaded|Downloading) "], "summary_pattern": r"^\s*Finished ",
        "long_output_threshold": 30, "keep_head": 10, "keep_tail": 5}),
}


def bench_strategies(rounds: int, size: int = 2 * 1024 * 1024, implementation: str = "python",
                     names: Sequence[str] = ()) -> list[BenchResult]:
    """Return ``filter.strategy.<name>``: MB/s of each strategy on about ``size`` bytes of its kind of output."""
    from .engine.sanitize import sanitize
    from .engine.strategies import STRATEGIES

    fixtures = {f"{p.parent.name}/{p.name}": p for p in (c.parent for c in _FIXTURES.glob("*/*/case.toml"))}
    generated = {command.split()[0]: raw for command, _, raw in _generated_inputs()}
    fallback_input = {"test_summary": generated["cargo"], "dedup": generated["tail"], "truncate": generated["find"],
                      "git_diff": generated["git"], "group_by_rule": generated["grep"]}
    results = []
    for name, (cases, params) in _STRATEGY_INPUTS.items():
        if names and name not in names:
            continue
        raws = [(fixtures[case] / "raw.txt").read_bytes().decode("utf-8", "surrogateescape")
                for case in cases if case in fixtures]
        if not raws:
            raws = [fallback_input.get(name, generated["tail"])]
        texts = [sanitize(_repeat_to(raw, size // len(raws))) for raw in raws]
        total = sum(len(text.encode("utf-8", "surrogateescape")) for text in texts)
        strategy = STRATEGIES[name]

        def run() -> None:
            for text in texts:
                strategy(text, params, 1)

        results.append(_result(f"filter.strategy.{name}", implementation, "MB/s", _mb_per_s(total, _timed(run, rounds))))
    return results


def _cli_entry() -> list[str]:
    """The command users run: the installed ``zeph-rules`` script beside this interpreter, else ``python -m``.

    ``-m`` goes through ``runpy``, which imports what the script never needs
    (about 5 ms a call here), so it is only the fallback for a bare checkout.
    """
    script = os.path.join(os.path.dirname(sys.executable), "zeph-rules.exe" if os.name == "nt" else "zeph-rules")
    if os.path.isfile(script) and os.access(script, os.X_OK):
        return [script]
    return [sys.executable, "-m", "zeph_rules"]


def bench_cli_filter(rounds: int, lines: int = 100_000) -> list[BenchResult]:
    """Time ``zeph-rules filter --command "cargo test"`` on ``lines`` lines, warm and cold, next to ``python -c pass``."""
    data = cargo_test_output(lines).encode("utf-8")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        # Both commands run as from an installed package: with bytecode.  An
        # environment with PYTHONDONTWRITEBYTECODE (common in dev shells and CI)
        # would otherwise recompile every module of a source checkout on every
        # run, which measures the checkout rather than the command.  The
        # bytecode goes to a private prefix, written by the untimed first runs.
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env.update(ZEPH_RULES_CACHE_DIR=str(Path(tmp) / "cache"), PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        command = [*_cli_entry(), "filter", "--command", "cargo test", "--exit-code", "101"]

        def timed(cmd: list[str], stdin: bytes | None, fresh_cache: bool) -> float:
            if fresh_cache:
                env["ZEPH_RULES_CACHE_DIR"] = tempfile.mkdtemp(dir=tmp)
            start = time.perf_counter()
            subprocess.run(cmd, input=stdin, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            return (time.perf_counter() - start) * 1e3

        timed([sys.executable, "-c", "pass"], None, False)  # write the start-up bytecode
        results.append(_result("cli.python_startup", "python", "ms",
                               [timed([sys.executable, "-c", "pass"], None, False) for _ in range(rounds)]))
        timed(command, data, False)  # fill the cache (and write the bytecode)
        results.append(_result("cli.filter.cargo_test_100k", "python", "ms",
                               [timed(command, data, False) for _ in range(rounds)]))
        results.append(_result("cli.filter.cargo_test_100k.cold", "python", "ms",
                               [timed(command, data, True) for _ in range(max(1, rounds // 2))]))
    return results


def bench_filter(rounds: int = 5, quick: bool = False, names: Sequence[str] = ()) -> list[BenchResult]:
    """Run every filter benchmark whose name is in ``names`` (all when empty)."""

    def wanted(name: str) -> bool:
        return not names or any(name == n or name.startswith(n + ".") or n.startswith(name + ".") for n in names)

    results: list[BenchResult] = []
    if wanted("filter.pipeline"):
        results.append(bench_pipeline(rounds, 2 * 1024 * 1024 if quick else 8 * 1024 * 1024))
    strategies = [name for name in _STRATEGY_INPUTS if wanted(f"filter.strategy.{name}")]
    if strategies:
        results += bench_strategies(rounds, 512 * 1024 if quick else 2 * 1024 * 1024, names=strategies)
    if any(wanted(n) for n in ("cli.filter.cargo_test_100k", "cli.filter.cargo_test_100k.cold")):
        results += bench_cli_filter(max(3, rounds))
    return results
