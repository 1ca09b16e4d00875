"""The line-classifying twins (``_lines``) agree on every input, errors included, and mean what they say."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_twins_core import assert_twins_agree

from zeph_rules import _speedups
from zeph_rules._speedups import _lines_py


def _twins() -> list[Any]:
    modules = [_lines_py]
    if "compiled" in _speedups.available():
        modules.append(importlib.import_module("zeph_rules._speedups._lines_c"))
    return modules


LINES = _twins()


def agree(name: str, *args: Any) -> tuple[Any, ...]:
    """Run ``name`` in every twin; they must give the same result or raise the same error."""
    return assert_twins_agree(LINES, name, *args)


#: pieces of libtest output, edge cases of the member test included, in 1-, 2- and 4-byte strings
PIECES = ["test a ... ok", "test tests::b ... ok", "test ", " ... ok", "test x ... ignored ... ok", "test y ... bench: 1 ns ... ok",
          "test result: ok ... ok", "test  ... ok", "test é ... ok", "test 日 ... ok", "test 𝄞 ... ok", "x", "", " ", "\t", "\f", "\v",
          "ok", "FAILED", "panic", "PANIC", "cve-", "ı", "\udcff", "\x00"]
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.sampled_from(["\n", "\n", "\n\n\n\n", " \n", "\r"])),
                 max_size=40).map("".join)
words = st.lists(st.sampled_from(["", "a", "ok", "test ", " ... ok", " ... ignored", "\n", "x\ny", "panic", "cve-", "日",
                                  "𝄞 ", "ı", "test result: ", "é"]), max_size=4).map(tuple)


def _expand(text: str, items: list[Any]) -> list[str]:
    out: list[str] = []
    for item in items:
        if isinstance(item, str):
            out.append(item)
        else:
            start, end, count = item
            run = text[start:end].split("\n")
            assert len(run) == count >= 2
            out.extend(run)
    return out


@settings(max_examples=500, deadline=None)
@given(text=texts, banned=words)
@example(text="test a ... ok\ntest b ... ok\n", banned=())
@example(text="test a ... ok\ntest b ... ok", banned=("",))
@example(text="test a ... ok\ntest result: x ... ok\ntest c ... ok\ntest d ... ok", banned=("test result: ",))
def test_collapse_runs_twins_agree(text: str, banned: tuple[str, ...]) -> None:
    result = agree("collapse_runs", text, "test ", " ... ok", banned)
    assert result[0] == "ok"
    items = result[1]
    assert _expand(text, items) == text.split("\n")
    for item in items:
        if not isinstance(item, str):
            start, end, _count = item
            for line in text[start:end].split("\n"):
                assert line.startswith("test ") and line.endswith(" ... ok") and len(line) > len("test  ... ok")
                assert not any(word in line for word in banned)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ab .\n", max_size=300),
       banned=st.lists(st.text(alphabet="ab .", min_size=2, max_size=12), min_size=1, max_size=4).map(tuple))
def test_collapse_runs_finds_banned_words_at_every_alignment(text: str, banned: tuple[str, ...]) -> None:
    # a small alphabet puts the words everywhere, overlapping, at every distance from each other: the
    # compiled search skips ahead over the text and must never skip an occurrence
    agree("collapse_runs", "test " + text.replace("\n", " ... ok\ntest ") + " ... ok", "test ", " ... ok", banned)


def test_collapse_runs_on_a_large_run() -> None:
    body = "\n".join(["running 3 tests", *(f"test m::case_{i} ... ok" for i in range(5000)), "test m::x ... FAILED",
                      "test m::y ... ok", *(f"test 日::{i} ... ok" for i in range(3)), ""])
    result = agree("collapse_runs", body, "test ", " ... ok", (" ... ignored",))
    assert [item if isinstance(item, str) else item[2] for item in result[1]] == [
        "running 3 tests", 5000, "test m::x ... FAILED", 4, ""]


@pytest.mark.parametrize("args", [
    (b"test a ... ok", "test ", " ... ok", ()),
    (None, "test ", " ... ok", ()),
    ("x", b"test ", " ... ok", ()),
    ("x", "test ", None, ()),
    ("x", "test ", " ... ok", ["a"]),
    ("x", "test ", " ... ok", ("a", 1)),
])
def test_collapse_runs_errors(args: tuple[Any, ...]) -> None:
    assert agree("collapse_runs", *args)[0] == "error"


@settings(max_examples=500, deadline=None)
@given(text=texts)
@example(text="")
@example(text="a \nb")
@example(text="a\n\n\n\nb")
@example(text="a\n \n\n\nb")
@example(text="ends with a tab\t")
def test_line_end_flags_twins_agree(text: str) -> None:
    result = agree("line_end_flags", text)
    assert result[1] == (re.search(r"[ \t\f\v]$", text, re.MULTILINE) is not None, "\n\n\n\n" in text)


@settings(max_examples=500, deadline=None)
@given(text=texts, words=words)
@example(text="", words=("",))
@example(text="a\nb\n", words=("",))
@example(text="panic\npanic panic\nx panic", words=("panic", "anic"))
@example(text="ab\ncd", words=("b\nc",))
def test_lines_containing_twins_agree(text: str, words: tuple[str, ...]) -> None:
    result = agree("lines_containing", text, words)
    assert result[0] == "ok"
    expected = sorted({text.rfind("\n", 0, at) + 1 for word in words for at in range(len(text) + 1)
                       if text.startswith(word, at)})
    assert result[1] == expected


def test_lines_containing_long_text() -> None:
    lines = [f"test tests::parser::case_{i} ... ok" for i in range(20000)]
    lines[7777] = "thread 'x' panicked at src/lib.rs:1:1"
    lines[19999] = "cve-2024-1234 in the last line, no newline"
    text = "\n".join(lines)
    words = ("panic", "fatal error: ", "cve-", "ghsa", "vulnerabilit", " severity", "security ")
    result = agree("lines_containing", text, words)
    assert result[1] == [text.index("thread"), text.index("cve-")]


@pytest.mark.parametrize("args", [(b"x", ("a",)), ("x", ["a"]), ("x", (b"a",)), (None, ())])
def test_lines_containing_errors(args: tuple[Any, ...]) -> None:
    assert agree("lines_containing", *args)[0] == "error"


@pytest.mark.parametrize("text", [None, b"a", 3])
def test_line_end_flags_errors(text: Any) -> None:
    assert agree("line_end_flags", text)[0] == "error"


def test_seam_exports_the_line_twins(implementation: str) -> None:
    suffix = "_c" if implementation == "compiled" else "_py"
    for name in ("collapse_runs", "line_end_flags", "lines_containing"):
        assert getattr(_speedups, name).__module__.endswith(suffix), name
