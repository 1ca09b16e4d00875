"""The compiled core: truncate, dedup and top-k twins agree on every input, errors included."""

from __future__ import annotations

import importlib
import itertools
import math
import struct
from array import array
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from zeph_rules import _speedups
from zeph_rules._speedups import _dedup_py, _topk_py, _truncate_py


def _twins(stem: str) -> list[Any]:
    """Return the pure twin of ``stem`` and, where it was built, the compiled one."""
    modules = [importlib.import_module(f"zeph_rules._speedups.{stem}_py")]
    if "compiled" in _speedups.available():
        modules.append(importlib.import_module(f"zeph_rules._speedups.{stem}_c"))
    return modules


TRUNCATE = _twins("_truncate")
DEDUP = _twins("_dedup")
TOPK = _twins("_topk")
ids = lambda m: m.__name__.rsplit(".", 1)[-1]


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    """Return ``("ok", result, type)`` or ``("error", exception type, message)``."""
    try:
        result = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the point is to compare any exception
        return ("error", type(exc), str(exc))
    return ("ok", result, type(result))


def assert_twins_agree(modules: list[Any], name: str, *args: Any) -> tuple[Any, ...]:
    outcomes = [outcome(getattr(module, name), *args) for module in modules]
    for other in outcomes[1:]:
        assert other == outcomes[0], (name, args)
    return outcomes[0]


# -- truncate ---------------------------------------------------------------

#: newlines, CRLF, Latin-1, BMP, non-BMP and a lone surrogate (as surrogateescape makes)
TEXT_CHARS = ["\n", "\n", "\r\n", "a", "b", " ", "é", "日", "𝄞", "\udcff", "\x00"]
texts = st.lists(st.sampled_from(TEXT_CHARS), max_size=60).map("".join)
counts = st.one_of(st.integers(-2, 12), st.sampled_from([10**6, 2**63, 10**30]))


@settings(max_examples=400, deadline=None)
@given(text=texts, head=counts, tail=counts)
@example(text="", head=0, tail=0)
@example(text="\n\n\n", head=1, tail=1)
@example(text="a\r\nb\r\nc", head=1, tail=1)
@example(text="a\nb\nc\nd", head=1, tail=1)
@example(text="x\n" * 50, head=2**63, tail=0)
def test_truncate_twins_agree(text: str, head: int, tail: int) -> None:
    result = assert_twins_agree(TRUNCATE, "head_tail_split", text, head, tail)
    assert_twins_agree(TRUNCATE, "count_lines", text)
    if result[0] == "ok":
        head_end, tail_start, omitted = result[1]
        assert 0 <= head_end <= tail_start <= len(text)
        kept = text[:head_end].count("\n") + _truncate_py.count_lines(text[tail_start:])
        assert omitted == 0 or omitted + kept == _truncate_py.count_lines(text)


@pytest.mark.parametrize(
    "args",
    [
        (b"a\nb", 1, 1),
        (None, 0, 0),
        ("a\nb\nc", -1, 0),
        ("a\nb\nc", 0, -1),
        ("a\nb\nc", 1.0, 0),  # range() refuses a float, after the cheap checks
        ("a\nb\nc", 0, 1.5),
        ("a\nb\nc", "1", 0),
        ("a\nb\nc\n", 9.0, 0.5),  # short enough: floats never reach range()
        ("a\nb\nc", True, False),
    ],
)
def test_truncate_odd_arguments(args: tuple[Any, ...]) -> None:
    assert_twins_agree(TRUNCATE, "head_tail_split", *args)
    assert_twins_agree(TRUNCATE, "count_lines", args[0])


class Text(str):
    """A str subclass: both twins take it like a str."""


@pytest.mark.parametrize("text", [Text("a\nb\nc\n"), Text(""), Text("𝄞\n\ndone")])
def test_truncate_takes_str_subclasses(text: str) -> None:
    assert_twins_agree(TRUNCATE, "count_lines", text)
    assert assert_twins_agree(TRUNCATE, "head_tail_split", text, 1, 0)[0] == "ok"


def test_truncate_large_text_with_wide_characters() -> None:
    lines = [f"{i} 𝄞 é\r" for i in range(5000)]
    text = "\n".join(lines)  # no final newline, 4-byte kind
    for head, tail in [(0, 0), (3, 4), (2500, 2499), (2500, 2500), (0, 4999)]:
        result = assert_twins_agree(TRUNCATE, "head_tail_split", text, head, tail)
        assert result[0] == "ok"
    head_end, tail_start, omitted = _speedups.head_tail_split(text, 3, 4)
    assert text[:head_end].split("\n")[:-1] == lines[:3] and text[tail_start:].split("\n") == lines[-4:]
    assert omitted == 4993


# -- dedup ------------------------------------------------------------------

#: fragments that hit every matcher and every way a matcher can just miss
FRAGMENTS = [
    "2024-03-01", "2024/03/01", "2024-03-01T12:00:01.123Z", "2024-03-01 12:00", "12:00:01,5", "12:00:01+02:00",
    "12:00:01-0700", "27:38", "Mar  1 12:00:01", "Jan 31 ", "Dec", "550e8400-e29b-41d4-a716-446655440000",
    "550e8400-e29b-41d4", "0x7f9b94892fd0", "0X", "0x", "3fd3be98a1", "deadbeefcafe", "10.0.0.1:8080",
    "192.168.1", "1.2.3.4.5", "12ms", "3.5s", "99%", "12µs", "12μs", "10KiB", "7x", "x86_64", "utf8",
    "-", ":", ".", ",", " ", "  ", "_", "=", "[", "]", "/", "T", "Z", "+", "é", "日本", "𝄞", "\udcff", "٣", "²",
]
CHARS = list("0123456789abcdefABCDEFxX:-./, TZ+_%µJFMASONDanuglcpbrt") + ["é", "𝄞", "\udcff", "٣", "\t"]
lines_st = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join),
    st.lists(st.sampled_from(CHARS), max_size=40).map("".join),
    st.text(max_size=30),
)


@settings(max_examples=1500, deadline=None)
@given(line=lines_st)
@example(line="")
@example(line="12µs é")  # the only non-ASCII character is replaced: the key narrows to ASCII
@example(line=" 1" * 100)  # more spans than the compiled twin keeps on the stack
def test_normalize_twins_agree(line: str) -> None:
    result = assert_twins_agree(DEDUP, "normalize_line", line)
    assert result[0] == "ok" and result[2] is str
    # canonical strings: the same kind as a str built from scratch
    assert all(ascii(o) == ascii(result[1]) for o in [m.normalize_line(line) for m in DEDUP])


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(lines_st, max_size=30), max_unique=st.one_of(st.integers(-1, 8), st.just(10**30), st.just(2.5)))
def test_dedup_twins_agree(lines: list[str], max_unique: int) -> None:
    result = assert_twins_agree(DEDUP, "dedup_lines", lines, max_unique)
    if result[0] == "ok":
        assert sum(count for _, count in result[1]) == len(lines)


@pytest.mark.parametrize(
    "args",
    [
        (["a", None, "b"], 5),
        ([b"bytes"], 5),
        (["a"], -1),
        ([], -1),
        (iter(["job 1", "job 2", "boot"]), 2),
        (("job 1", "job 2"), 0),
        (["a", "b"], float("nan")),
        (["a"], "3"),
    ],
)
def test_dedup_odd_arguments(args: tuple[Any, ...]) -> None:
    materialised = list(args[0]) if not isinstance(args[0], (list, tuple)) else args[0]
    outcomes = [outcome(m.dedup_lines, iter(materialised) if not isinstance(args[0], (list, tuple)) else materialised, args[1]) for m in DEDUP]
    assert all(o == outcomes[0] for o in outcomes)


@pytest.mark.parametrize("value", [None, b"x", 3])
def test_normalize_rejects_non_str(value: object) -> None:
    assert assert_twins_agree(DEDUP, "normalize_line", value)[0] == "error"


def test_normalize_keeps_str_subclasses_exact() -> None:
    class Line(str):
        pass

    for module in DEDUP:
        for text in ("plain words", "took 12ms"):
            key = module.normalize_line(Line(text))
            assert type(key) is str and key == _dedup_py.normalize_line(text)


def test_dedup_many_unique_log_lines() -> None:
    lines = [f"2024-03-01T12:00:{i % 60:02d}Z worker-{i % 7} job {i} state-{chr(97 + i % 26)}{'x' * (i % 5)}" for i in range(3000)]
    results = [m.dedup_lines(lines, 50) for m in DEDUP]
    assert all(r == results[0] for r in results)


# -- top-k cosine -------------------------------------------------------------

float32s = st.floats(width=32, allow_nan=False, allow_infinity=False)
small_ints = st.integers(-3, 3).map(float)  # exact values: many ties and zero rows


@st.composite
def topk_cases(draw: st.DrawFn) -> tuple[bytes, int, Any, int]:
    dim = draw(st.integers(1, 12))
    n = draw(st.integers(0, 40))
    values = draw(st.lists(st.one_of(float32s, small_ints), min_size=n * dim, max_size=n * dim))
    if n and draw(st.booleans()):
        # repeat rows: equal scores must come out by row index
        rows = [values[i * dim : (i + 1) * dim] for i in range(n)]
        values = [v for i in range(n) for v in rows[draw(st.integers(0, i))]]
    query = draw(st.lists(st.one_of(float32s, small_ints, st.floats(-1e3, 1e3)), min_size=dim, max_size=dim))
    form = draw(st.sampled_from(["list", "array", "bytes", "tuple"]))
    if form == "array":
        query = array("f", query)
    elif form == "bytes":
        query = array("f", query).tobytes()
    elif form == "tuple":
        query = tuple(query)
    k = draw(st.integers(0, n + 3))
    return array("f", values).tobytes(), dim, query, k


@settings(max_examples=500, deadline=None)
@given(case=topk_cases())
def test_topk_twins_agree(case: tuple[bytes, int, Any, int]) -> None:
    matrix, dim, query, k = case
    prepared = assert_twins_agree(TOPK, "prepare_matrix", matrix, dim)
    assert prepared[0] == "ok"
    results = [m.topk_cosine(query, m.prepare_matrix(matrix, dim), k) for m in TOPK]
    assert all(r == results[0] for r in results), results
    for module in TOPK:  # a prepared matrix from either twin serves both
        assert module.topk_cosine(query, prepared[1], k) == results[0]
    best = results[0]
    assert len(best) == min(k, len(matrix) // (4 * dim))
    assert all((-a[1], a[0]) < (-b[1], b[0]) for a, b in itertools.pairwise(best))


def test_topk_example() -> None:
    rows = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0], [2.0, 0.0], [-1.0, 0.0]]
    prepared = _speedups.prepare_matrix(array("f", [v for r in rows for v in r]).tobytes(), 2)
    assert _speedups.topk_cosine([1.0, 0.0], prepared, 3) == [(0, 1.0), (4, 1.0), (2, 1 / math.sqrt(2))]
    everything = _speedups.topk_cosine(array("f", [3.0, 0.0]), prepared, 100)
    assert [row for row, _ in everything] == [0, 4, 2, 1, 3, 5] and everything[-1] == (5, -1.0)
    # a zero query scores every row 0.0: the first rows win
    assert _speedups.topk_cosine(b"\x00" * 8, prepared, 2) == [(0, 0.0), (1, 0.0)]
    assert _speedups.topk_cosine([1.0, 0.0], _speedups.prepare_matrix(b"", 2), 5) == []


NAN32 = struct.pack("f", float("nan"))
INF32 = struct.pack("f", float("inf"))
GOOD = array("f", [1.0, 2.0, 3.0, 4.0]).tobytes()


@pytest.mark.parametrize(
    "args",
    [
        ("matrix", 2),
        (bytearray(GOOD), 2),
        (GOOD, 2.0),
        (GOOD, None),
        (GOOD, 0),
        (GOOD, -3),
        (GOOD, 3),
        (GOOD[:-1], 1),
        (GOOD[:4] + NAN32, 2),
        (INF32 + GOOD, 1),
        (GOOD, 10**30),
    ],
)
def test_prepare_matrix_errors(args: tuple[Any, ...]) -> None:
    assert assert_twins_agree(TOPK, "prepare_matrix", *args)[0] == "error"


@pytest.mark.parametrize(
    "query,k,prepared",
    [
        ([1.0, 2.0], -1, None),
        ([1.0, 2.0], 1.0, None),
        ([1.0, 2.0], None, None),
        ([1.0], 1, None),
        ([1.0, 2.0, 3.0], 1, None),
        (b"\x00" * 7, 1, None),
        (b"\x00" * 12, 1, None),
        ([1.0, "x"], 1, None),
        ([1.0, float("nan")], 1, None),
        ([1.0, float("inf")], 1, None),
        ([1.0, 1e300], 1, None),  # out of float32 range: array('f') refuses it
        (array("d", [1.0, 2.0]), 1, None),
        (array("f", [1.0, float("-inf")]), 1, None),
        (None, 1, None),
        ([1.0, 2.0], 1, "not prepared"),
        ([1.0, 2.0], 1, _topk_py.TopKMatrix(2, 2, b"\x00" * 16, b"")),
        ([1.0, 2.0], 1, _topk_py.TopKMatrix(2, 2, b"\x00" * 8, b"\x00" * 64)),
        ([1.0, 2.0], 1, _topk_py.TopKMatrix(-1, 2, b"", b"")),
        ([1.0, 2.0], 1, _topk_py.TopKMatrix(1, 0, b"\x00" * 8, b"")),
        ([1.0, 2.0], 1, _topk_py.TopKMatrix(2, 2, bytearray(16), b"\x00" * 64)),
        ([1.0, 2.0], 10**30, None),
    ],
)
def test_topk_errors_and_odd_queries(query: Any, k: Any, prepared: Any) -> None:
    if prepared is None:
        prepared = _topk_py.prepare_matrix(GOOD, 2)
    assert_twins_agree(TOPK, "topk_cosine", query, prepared, k)


def test_seam_exports_the_twins(implementation: str) -> None:
    suffix = "_c" if implementation == "compiled" else "_py"
    for name in ("count_lines", "head_tail_split", "normalize_line", "dedup_lines", "prepare_matrix", "topk_cosine"):
        assert getattr(_speedups, name).__module__.endswith(suffix), name
