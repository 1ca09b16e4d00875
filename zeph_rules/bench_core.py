"""Benchmarks of the compiled core: dedup, truncate and top-k cosine, per twin.

* ``dedup.<impl>``: ``dedup_lines`` over log lines of 80 to 120 characters
  (timestamps, UUIDs, hex ids, IPs, durations), in lines/s.
* ``truncate.<impl>``: what the ``truncate`` strategy does to a 50 MB log
  (``count_lines`` then ``head_tail_split(text, 20, 20)``), in µs per text;
  ``truncate.bytes_count`` is one ``bytes.count(b"\\n")`` over the same bytes,
  so ``truncate.compiled / truncate.bytes_count`` is the cost ratio the issue
  bounds (at most 1.5).
* ``topk.<rows>x<dim>``: ``topk_cosine(query, prepared, 10)`` with an
  ``array('f')`` query, in µs per query, once per implementation.  The matrix
  is prepared once, outside the timing (the twins build identical values).

Inputs are generated deterministically from fixed seeds.
"""

from __future__ import annotations

import random
import sys
import time
from array import array
from collections.abc import Callable, Sequence

from .bench import BenchResult, _result

TOPK_SHAPES = ((200, 384), (100_000, 384))
TOPK_K = 10
TRUNCATE_HEAD = TRUNCATE_TAIL = 20

_LEVELS = ("INFO", "INFO", "INFO", "DEBUG", "WARN")
_SERVICES = ("api", "worker", "scheduler", "auth", "billing", "gateway")


def _uuid(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def generate_log_lines(count: int, seed: int = 17) -> list[str]:
    """Return ``count`` log lines of 80 to 120 characters; most repeat a template with new values."""
    rng = random.Random(seed)
    templates: list[Callable[[], str]] = [
        lambda: f"request {_uuid(rng)} from {rng.randrange(256)}.{rng.randrange(256)}.0.{rng.randrange(256)}:{rng.randrange(1024, 65536)} took {rng.randrange(900)}ms",
        lambda: f"job {rng.randrange(10**6)} finished status=ok rows={rng.randrange(10**5)} in {rng.random() * 9:.2f}s",
        lambda: f"cache miss key=user:{rng.randrange(10**5)} object 0x{rng.getrandbits(48):012x} size={rng.randrange(4096)}KB",
        lambda: f"commit {rng.getrandbits(40):010x} pushed to origin by user{rng.randrange(50)}, {rng.randrange(100)}% synced",
        lambda: f"heartbeat peer={rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)} latency={rng.randrange(300)}us",
    ]
    lines = []
    for i in range(count):
        stamp = f"2026-03-{1 + i // 86400 % 28:02d}T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randrange(1000):03d}Z"
        service = rng.choice(_SERVICES)
        if rng.random() < 0.05:
            # a message seen once: the dictionary of keys keeps growing
            body = f"unexpected state {rng.choice('abcdefgh')}{i}x in module_{i % 997}_{rng.choice('pqrs')}"
        else:
            body = rng.choice(templates)()
        line = f"{stamp} {rng.choice(_LEVELS)} [{service}] {body}"
        if len(line) < 80:
            line += f" pid={rng.randrange(1, 65536)} thread=main-{rng.randrange(8)}"
        lines.append(line[:120])
    return lines


def generate_text(size: int, seed: int = 23) -> str:
    """Return about ``size`` characters of ASCII log text ending with a newline."""
    chunk = "\n".join(generate_log_lines(10_000, seed)) + "\n"
    return chunk * max(1, size // len(chunk))


def generate_float32(count: int, seed: int = 29) -> bytes:
    """Return ``count`` native float32 values drawn uniformly from ±[1, 2) (fast for 38 M values)."""
    raw = bytearray(random.Random(seed).randbytes(4 * count))
    # little-endian float32: keep 23 random mantissa bits and a random sign, force the exponent of 1.0
    raw[2::4] = raw[2::4].translate(bytes(0x80 | (b & 0x7F) for b in range(256)))
    raw[3::4] = raw[3::4].translate(bytes(0x3F | (b & 0x80) for b in range(256)))
    values = array("f", bytes(raw))
    if sys.byteorder == "big":
        values.byteswap()
    return values.tobytes()


def _select(implementation: str) -> None:
    from . import _speedups

    _speedups.select(implementation)


def bench_dedup(implementations: Sequence[str], rounds: int, count: int = 200_000) -> list[BenchResult]:
    """Time ``dedup_lines`` per implementation, in lines/s (the pure twin on a fiftieth of the lines)."""
    from . import _speedups

    all_lines = generate_log_lines(count)
    results = []
    for implementation in implementations:
        _select(implementation)
        lines = all_lines if implementation == "compiled" else all_lines[: max(1, count // 50)]
        samples = []
        for _ in range(rounds if implementation == "compiled" else max(1, rounds // 5)):
            start = time.perf_counter()
            _speedups.dedup_lines(lines, 10_000)
            samples.append(len(lines) / (time.perf_counter() - start))
        results.append(_result(f"dedup.{implementation}", implementation, "lines/s", samples))
    return results


def bench_truncate(implementations: Sequence[str], rounds: int, size: int = 50 * 1024 * 1024) -> list[BenchResult]:
    """Time a truncation of a ``size``-character log next to one ``bytes.count(b"\\n")``, in µs."""
    from . import _speedups

    text = generate_text(size)
    data = text.encode()
    results = []

    def timed(fn: Callable[[], object], n_rounds: int) -> list[float]:
        samples = []
        for _ in range(n_rounds):
            start = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - start) * 1e6)
        return samples

    results.append(_result("truncate.bytes_count", "python", "us", timed(lambda: data.count(b"\n"), rounds)))
    for implementation in implementations:
        _select(implementation)

        def truncate() -> None:
            # the two calls the truncate strategy makes
            _speedups.count_lines(text)
            _speedups.head_tail_split(text, TRUNCATE_HEAD, TRUNCATE_TAIL)

        results.append(_result(f"truncate.{implementation}", implementation, "us", timed(truncate, rounds)))
    return results


def bench_topk(shapes: Sequence[tuple[int, int]], implementations: Sequence[str], rounds: int) -> list[BenchResult]:
    """Time one ``topk_cosine`` query per shape and implementation, in µs."""
    from . import _speedups

    results = []
    for n, dim in shapes:
        matrix = generate_float32(n * dim)
        query = array("f", generate_float32(dim, seed=31))
        # the compiled prepare_matrix when there is one: the same value, seconds faster at 100,000 rows
        _select("compiled" if "compiled" in implementations else "pure")
        prepared = _speedups.prepare_matrix(matrix, dim)
        del matrix
        for implementation in implementations:
            _select(implementation)
            work = n * dim
            calls = max(1, min(2000, 20_000_000 // work)) if implementation == "compiled" else 1
            n_rounds = rounds if implementation == "compiled" or work <= 1_000_000 else 1
            samples = []
            for _ in range(n_rounds):
                start = time.perf_counter()
                for _ in range(calls):
                    _speedups.topk_cosine(query, prepared, TOPK_K)
                samples.append((time.perf_counter() - start) / calls * 1e6)
            results.append(_result(f"topk.{n}x{dim}", implementation, "us", samples))
    return results
