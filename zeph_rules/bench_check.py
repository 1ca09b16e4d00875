"""The ``check.rules=10000`` benchmark: lint a generated 10,000-rule file end to end.

The file is ``bench.generate_permission_toml(10000)`` — realistic permission
globs, of which about a tenth are really shadowed (``*--flag-12*`` after
``*--flag-1*``), so the reachability check does its full work.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from .bench import BenchResult, _result, generate_permission_toml


def check_generated(count: int, directory: str | Path) -> int:
    """Write a ``count``-rule file into ``directory``, check it and return how many diagnostics it got."""
    from .engine.lint import check_files

    path = Path(directory) / f"generated-{count}.toml"
    if not path.exists():
        path.write_text(generate_permission_toml(count), encoding="utf-8")
    return len(check_files([path], builtin=False).diagnostics)


def bench_check(count: int = 10000, rounds: int = 3) -> BenchResult:
    """Time ``zeph-rules check`` on a generated ``count``-rule file (seconds per run)."""
    samples = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            start = time.perf_counter()
            check_generated(count, tmp)
            samples.append(time.perf_counter() - start)
    return _result(f"check.rules={count}", "python", "s", samples)
