"""Scanner benchmarks: a deterministic corpus shaped like tool output, with
planted secrets, scanned by every variant; each must find exactly the plants.

Variants: ``scan.compiled`` and ``scan.pure`` (our scanner with each twin of
the prefilter), ``scan.re_per_pattern`` (one stdlib ``re`` per pattern over the
whole text: the naive baseline) and ``scan.hyperscan`` (hyperscan block mode as
the prefilter, same verification) when hyperscan is importable.  Slow variants
run on a prefix of the corpus; throughput is per byte, so MB/s compare.
Planted values are random strings drawn at run time; none is stored anywhere.
"""

from __future__ import annotations

import random
import re
import string
import time
from collections.abc import Callable
from typing import NamedTuple

from .bench import BenchResult, _result

ALNUM = string.ascii_letters + string.digits


class Corpus(NamedTuple):
    data: bytes
    planted: frozenset[int]  # line numbers (1-based) holding a planted secret


def _rand(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(size))


def _secret_line(rng: random.Random, kind: int) -> str:
    """Return one line carrying a credential of a published shape."""
    b64 = ALNUM + "+/"
    kinds = [
        lambda: f"remote: export GITHUB_TOKEN=ghp_{_rand(rng, ALNUM, 36)}",
        lambda: f'    "npm_token": "npm_{_rand(rng, ALNUM, 36)}",',
        lambda: f"aws_access_key_id = AKIA{_rand(rng, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}",
        lambda: f"aws_secret_access_key = {_rand(rng, b64, 40)}",
        lambda: f"SLACK_BOT_TOKEN=xoxb-{_rand(rng, string.digits, 12)}-{_rand(rng, string.digits, 12)}-{_rand(rng, ALNUM, 24)}",
        lambda: f"stripe.api_key = 'sk_live_{_rand(rng, ALNUM, 24)}'",
        lambda: f"curl -H 'Authorization: Bearer {_rand(rng, ALNUM + '-._', 48)}' https://api.internal/v1/jobs",
        lambda: f"DATABASE_URL=postgres://app:{_rand(rng, ALNUM, 18)}@db.internal:5432/prod",
        lambda: f"GITLAB_TOKEN=glpat-{_rand(rng, ALNUM + '-_', 20)}",
        lambda: f"ANTHROPIC_API_KEY=sk-ant-api03-{_rand(rng, ALNUM + '-_', 93)}AA",
    ]
    return kinds[kind % len(kinds)]()


#: Lines that name credentials without holding one: they must stay quiet.
_KEYWORD_NOISE = [
    "2026-11-22 06:{m:02d}:{s:02d},{ms:03d} DEBUG app.cache: hit key=user:{i} ttl={s}",
    "warning: unused variable: `token_{i}`",
    "    --> src/auth/session.rs:{a}:{b}",
    "   Using token cache at ~/.cache/tool/tokens ({i} entries)",
    "password prompt disabled for user{a} (non-interactive session)",
    "api_key not set; falling back to anonymous access for request {i}",
    "Set the secret via `tool secrets set NAME` (see docs, section {a})",
]
#: One line in this many is keyword noise (real output names tokens and keys now and then).
KEYWORD_NOISE_EVERY = 50

_NOISE_TEMPLATES = [
    "   Compiling zeph-core v0.{a}.{b} (/work/app/crates/core)",
    "test tests::parser::case_{i} ... ok",
    "tests/test_api.py::test_endpoint_{i} PASSED                                  [ {p}%]",
    "2026-11-22T06:{m:02d}:{s:02d}.{ms:03d}Z INFO  worker[{pid}] request {uuid} served in {ms}ms from 10.0.{a}.{b}:{port}",
    "2026-11-22 06:{m:02d}:{s:02d},{ms:03d} DEBUG app.db: query {i} returned {a} rows in {ms}ms",
    "@@ -{i},7 +{i},8 @@ fn handle_{i}(req: Request) -> Response {{",
    "+    let value = compute_{i}(&input, {a});",
    "-    let value = compute_old_{i}(&input);",
    "npm warn deprecated inflight@1.0.{a}: This module is not supported, and leaks memory.",
    "added {i} packages, and audited {p} packages in {s}s",
    "ok  \tgithub.com/acme/service/internal/pkg{a}\t0.{ms:03d}s",
    "commit {hex}",
    "index {short}..{short2} 100644",
]


def generate_corpus(size: int = 50 * 1024 * 1024, seed: int = 1, plant_every: int = 4000) -> Corpus:
    """Return ``size`` bytes (at least) of tool-like output with planted secrets."""
    rng = random.Random(seed)
    lines: list[str] = []
    planted: set[int] = set()
    total = 0
    i = 0
    while total < size:
        i += 1
        if i % plant_every == 0:
            line = _secret_line(rng, i // plant_every)
            planted.add(len(lines) + 1)
        else:
            if i % KEYWORD_NOISE_EVERY == 0:
                template = _KEYWORD_NOISE[(i // KEYWORD_NOISE_EVERY) % len(_KEYWORD_NOISE)]
            else:
                template = _NOISE_TEMPLATES[(i * 7 + i // 13) % len(_NOISE_TEMPLATES)]
            line = template.format(
                i=i, a=i % 97, b=i % 31, p=i % 100, m=(i // 60) % 60, s=i % 60, ms=i % 1000, pid=1000 + i % 5000,
                port=1024 + i % 60000, uuid=f"{i:08x}-1f2e-4a3b-8c9d-{i * 2654435761 % (1 << 48):012x}",
                hex=f"{i * 2654435761 % (1 << 64):016x}{i:024x}", short=f"{i * 40503 % (1 << 28):07x}", short2=f"{i * 9973 % (1 << 28):07x}",
            )
        lines.append(line)
        total += len(line) + 1
    return Corpus(("\n".join(lines) + "\n").encode(), frozenset(planted))


def _found_lines(findings: object) -> frozenset[int]:
    return frozenset(f.line for f in findings)  # type: ignore[attr-defined]


def _throughput(scan: Callable[[], object], size: int, rounds: int) -> tuple[list[float], object]:
    samples = []
    result: object = None
    for _ in range(rounds):
        start = time.perf_counter()
        result = scan()
        samples.append(size / (time.perf_counter() - start) / 1e6)
    return samples, result


def _check(name: str, found: frozenset[int], planted: frozenset[int]) -> None:
    if found != planted:
        missing = sorted(planted - found)[:5]
        extra = sorted(found - planted)[:5]
        raise AssertionError(f"{name}: found {len(found)} secret lines, planted {len(planted)} (missing {missing}, extra {extra})")


def re_per_pattern_scan(patterns: object, text: str) -> list[tuple[int, str]]:
    """The naive baseline: every pattern's stdlib ``re`` over the whole text."""
    from .engine.security_reference import _secret_span, shannon_entropy

    compiled = [(p, re.compile(p.regex), [re.compile(a) for a in p.allowlist]) for p in patterns]  # type: ignore[attr-defined]
    hits = []
    for pattern, rx, allow in compiled:
        for match in rx.finditer(text):
            start, end = _secret_span(match, pattern.secret_group)  # type: ignore[arg-type]
            value = text[start:end]
            if end <= start or (pattern.entropy is not None and shannon_entropy(value) < pattern.entropy):
                continue
            if any(a.search(value) for a in allow):
                continue
            hits.append((text.count("\n", 0, start) + 1, pattern.id))
    return hits


def hyperscan_scanner(scanner: object) -> Callable[[bytes], object] | None:
    """Return a scan function using hyperscan block mode as the prefilter, or None."""
    try:
        import hyperscan
    except ImportError:
        return None
    patterns = scanner.patterns  # type: ignore[attr-defined]
    expressions, ids, flags = [], [], []
    base_flags = hyperscan.HS_FLAG_PREFILTER | hyperscan.HS_FLAG_ALLOWEMPTY
    for index, pattern in enumerate(patterns):
        source = pattern.regex
        caseless = source.startswith("(?i)")
        if caseless:
            source = source[4:]
        flag = base_flags | (hyperscan.HS_FLAG_CASELESS if caseless else 0)
        # Prefilter mode may over-match, never under-match: relax what hyperscan
        # refuses (large bounded repeats), else fall back to the pattern's keywords.
        candidates = [source, re.sub(r"\{(\d+),(\d{4,})\}", r"{\1,}", source),
                      "|".join(re.escape(k) for k in pattern.keywords)]
        for candidate in candidates:
            flag_here = flag if candidate is not candidates[-1] else base_flags | hyperscan.HS_FLAG_CASELESS
            try:
                probe = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
                probe.compile(expressions=[candidate.encode()], ids=[index], elements=1, flags=[flag_here])
            except hyperscan.error:
                continue
            expressions.append(candidate.encode())
            flags.append(flag_here)
            ids.append(index)
            break
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    db.compile(expressions=expressions, ids=ids, elements=len(expressions), flags=flags)
    radius = scanner.tables.radius  # type: ignore[attr-defined]
    reach = scanner.tables.line_reach  # type: ignore[attr-defined]

    def scan(data: bytes) -> object:
        ends: list[tuple[int, int]] = []

        def on_match(pattern_id: int, start: int, end: int, flags: int, context: object) -> None:
            ends.append((pattern_id, end))

        db.scan(data, match_event_handler=on_match)
        windows: dict[int, list[list[int]]] = {}
        for pattern_id, end in ends:
            low = max(0, end - radius[pattern_id])
            high = min(len(data), end + 1)
            if reach[pattern_id] == 0:
                low = max(low, data.rfind(b"\n", 0, max(0, end - 1)) + 1)
            line_end = data.find(b"\n", max(0, end - 1))
            high = len(data) if line_end == -1 else max(high, line_end)
            spans = windows.setdefault(pattern_id, [])
            if spans and low <= spans[-1][1]:
                spans[-1][1] = max(spans[-1][1], high)
            else:
                spans.append([low, high])
        found = []
        for pattern_id, spans in windows.items():
            for low, high in spans:
                found.extend(scanner._verify(data, pattern_id, low, high, search=True))  # type: ignore[attr-defined]
        from .engine.security_reference import _dedupe

        return scanner._findings(data, _dedupe(found))  # type: ignore[attr-defined]

    return scan


def bench_scan(size: int, rounds: int, implementations: tuple[str, ...]) -> list[BenchResult]:
    """Measure every scan variant in one run; each must find exactly the planted secrets."""
    from . import _speedups
    from .engine.security import default_scanner

    corpus = generate_corpus(size)
    scanner = default_scanner()
    results: list[BenchResult] = []
    for implementation in implementations:
        _speedups.select(implementation)
        if implementation == "compiled":
            data, planted, n = corpus.data, corpus.planted, rounds
        else:  # the pure prefilter is ~100x slower: a tenth of the corpus, fewer rounds
            cut = corpus.data.find(b"\n", len(corpus.data) // 10) + 1
            data = corpus.data[:cut]
            planted = frozenset(line for line in corpus.planted if line <= data.count(b"\n"))
            n = max(1, rounds // 3)

        def scan_data(d: bytes = data) -> object:  # the default binds this round's data
            return scanner.scan(d)

        samples, findings = _throughput(scan_data, len(data), n)
        _check(f"scan.{implementation}", _found_lines(findings), planted)
        results.append(_result(f"scan.{implementation}", implementation, "MB/s", samples))
    hs_scan = hyperscan_scanner(scanner)
    if hs_scan is not None:
        samples, findings = _throughput(lambda: hs_scan(corpus.data), len(corpus.data), rounds)
        _check("scan.hyperscan", _found_lines(findings), corpus.planted)
        results.append(_result("scan.hyperscan", "hyperscan", "MB/s", samples))
    cut = corpus.data.find(b"\n", len(corpus.data) // 50) + 1
    prefix = corpus.data[:cut]
    text = prefix.decode()
    planted = frozenset(line for line in corpus.planted if line <= prefix.count(b"\n"))
    samples, hits = _throughput(lambda: re_per_pattern_scan(scanner.patterns, text), len(prefix), 1)
    _check("scan.re_per_pattern", frozenset(line for line, _ in hits), planted)  # type: ignore[attr-defined]
    results.append(_result("scan.re_per_pattern", "python", "MB/s", samples))
    return results
