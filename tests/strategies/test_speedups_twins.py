"""The pure twins of the truncation and dedup hot paths."""

from __future__ import annotations

import pytest

from zeph_rules import _speedups
from zeph_rules._speedups import _dedup_py, _truncate_py


def test_head_tail_split_keeps_whole_lines() -> None:
    text = "".join(f"line {i}\n" for i in range(10))
    head_end, tail_start, omitted = _speedups.head_tail_split(text, 2, 3)
    assert text[:head_end] == "line 0\nline 1\n"
    assert text[tail_start:] == "line 7\nline 8\nline 9\n"
    assert omitted == 5


def test_head_tail_split_without_final_newline() -> None:
    text = "a\nb\nc\nd"
    assert text[_speedups.head_tail_split(text, 1, 1)[1]:] == "d"
    assert _speedups.head_tail_split(text, 1, 1) == (2, 6, 2)


def test_short_text_is_left_whole() -> None:
    assert _speedups.head_tail_split("a\nb\n", 1, 1) == (4, 4, 0)
    assert _speedups.head_tail_split("", 0, 0) == (0, 0, 0)


def test_zero_head_and_tail() -> None:
    assert _speedups.head_tail_split("a\nb\n", 0, 0) == (0, 4, 2)


@pytest.mark.parametrize("module", [_truncate_py, _speedups])
def test_head_tail_split_errors(module: object) -> None:
    with pytest.raises(TypeError, match="text must be str"):
        module.head_tail_split(b"a\n", 1, 1)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="head must be >= 0"):
        module.head_tail_split("a\n", -1, 1)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="tail must be >= 0"):
        module.head_tail_split("a\n", 1, -1)  # type: ignore[attr-defined]


def test_count_lines() -> None:
    assert _speedups.count_lines("") == 0
    assert _speedups.count_lines("a") == 1
    assert _speedups.count_lines("a\n") == 1
    assert _speedups.count_lines("a\n\nb") == 3


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("2024-03-01T12:00:01.123Z started", "<TS> started"),
        ("2024-03-01 12:00:01,123 INFO x", "<TS> INFO x"),
        ("Mar  1 12:00:01 host sshd[4242]: ok", "<TS> host sshd[<N>]: ok"),
        ("[12:00:01] tick", "[<TS>] tick"),
        ("req 550e8400-e29b-41d4-a716-446655440000 done", "req <UUID> done"),
        ("obj at 0x7f9b94892fd0", "obj at <HEX>"),
        ("commit 3fd3be98a1", "commit <HEX>"),
        ("from 10.0.0.1:8080 and 192.168.1.1", "from <IP> and <IP>"),
        ("took 12ms, 3.5s, 99%", "took <N>, <N>, <N>"),
        ("pid=123 worker-7", "pid=<N> worker-<N>"),
        ("x86_64 utf8 sha256 deadbeefcafe", "x86_64 utf8 sha256 deadbeefcafe"),
        # a record's id: capitals then four or more digits, standing alone (batch 35b's parcel ids)
        ("GET /v1/tracking/P0000002 200", "GET /v1/tracking/<ID> <N>"),
        ("ticket INC0012345, order ORD-000123", "ticket <ID>, order ORD-<N>"),
        ("PR123 ABCD12345 Ünï P1234 P12345z", "PR123 <HEX> Ünï <ID> P12345z"),
        ("src/lib.rs:27:38: boom", "src/lib.rs:<N>:<N>: boom"),
        ("", ""),
    ],
)
def test_normalize_line(line: str, key: str) -> None:
    assert _speedups.normalize_line(line) == key
    assert _dedup_py.normalize_line(line) == key


def test_normalize_line_rejects_non_str() -> None:
    with pytest.raises(TypeError):
        _dedup_py.normalize_line(None)  # type: ignore[arg-type]


def test_dedup_lines_groups_in_first_seen_order() -> None:
    lines = ["job 1 done", "boot", "job 2 done", "job 3 done", "boot"]
    assert _speedups.dedup_lines(lines, 100) == [(0, 3), (1, 2)]


def test_dedup_lines_past_the_limit_keeps_every_new_line() -> None:
    lines = ["a", "b", "c", "c", "a"]
    # only "a" is remembered; "b" and each "c" stay groups of their own
    assert _speedups.dedup_lines(lines, 1) == [(0, 2), (1, 1), (2, 1), (3, 1)]
