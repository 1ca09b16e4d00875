"""The seam: selection, the env var, and the twins agreeing (errors included)."""

from __future__ import annotations

import os
import subprocess
import sys

import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zeph_rules import _speedups
from zeph_rules._speedups import _literals_py, build_literal_table

#: run child interpreters outside the checkout so they import the installed package
NEUTRAL_DIR = tempfile.gettempdir()


def _twins() -> list:
    modules = [_literals_py]
    if "compiled" in _speedups.available():
        from zeph_rules._speedups import _literals_c

        modules.append(_literals_c)
    return modules


def test_env_var_forces_pure() -> None:
    env = {**os.environ, "ZEPH_RULES_NO_EXTENSIONS": "1"}
    out = subprocess.run([sys.executable, "-c", "from zeph_rules import _speedups as s; print(s.IMPLEMENTATION, s.find_literals.__module__)"],
                         env=env, capture_output=True, text=True, check=True, cwd=NEUTRAL_DIR).stdout.split()
    assert out == ["pure", "zeph_rules._speedups._literals_py"]
    # nor can a test or bench select the compiled twins by name: none runs where pure is forced
    code = "from zeph_rules import _speedups as s; print(*s.available())"
    available = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                               cwd=NEUTRAL_DIR).stdout.split()
    assert available == ["pure"]


@pytest.mark.skipif(os.environ.get("ZEPH_RULES_EXPECT_COMPILED") != "1", reason="only where the build is expected to compile")
def test_compiled_really_loaded() -> None:
    assert "compiled" in _speedups.available()
    env = {k: v for k, v in os.environ.items() if k != "ZEPH_RULES_NO_EXTENSIONS"}
    out = subprocess.run([sys.executable, "-c", "from zeph_rules import _speedups as s; print(s.IMPLEMENTATION)"],
                         env=env, capture_output=True, text=True, check=True, cwd=NEUTRAL_DIR).stdout.strip()
    assert out == "compiled"


def test_select_switches_the_bound_names(implementation: str) -> None:
    assert _speedups.IMPLEMENTATION == implementation
    expected = "_literals_c" if implementation == "compiled" else "_literals_py"
    assert _speedups.find_literals.__module__.endswith(expected)
    with pytest.raises(ValueError, match="not available"):
        _speedups.select("turbo")


def test_find_literals_finds_overlapping_and_case_folded() -> None:
    table = build_literal_table([b"he", b"she", b"hers", b"his"])
    assert _speedups.find_literals(table, b"ushers") == (0, 1, 2)
    assert _speedups.find_literal_hits(table, b"ushers") == [(2, 0), (1, 1), (2, 2)]
    folded = build_literal_table([b"sudo", b"RM -RF"], ignore_case=True)
    assert _speedups.find_literals(folded, b"SuDo rm -Rf /") == (0, 1)
    assert _speedups.find_literals(folded, b"pseudo") == ()


def test_table_errors() -> None:
    with pytest.raises(ValueError, match="must not be empty"):
        build_literal_table([b""])
    with pytest.raises(TypeError, match="must be bytes"):
        build_literal_table(["text"])  # type: ignore[list-item]


@pytest.mark.parametrize("module", _twins(), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_twins_raise_the_same_errors(module) -> None:  # type: ignore[no-untyped-def]
    table = build_literal_table([b"ab"])
    with pytest.raises(TypeError, match="^data must be bytes$"):
        module.find_literals(table, "ab")
    with pytest.raises(TypeError, match="^table must be a LiteralTable$"):
        module.find_literal_hits((1, 2), b"ab")


SMALL_BYTES = st.lists(st.sampled_from(b"abAB\x00\xff"), max_size=40).map(bytes)


def _naive_hits(literals: list[bytes], data: bytes, fold: bool) -> list[tuple[int, int]]:
    hay = data.lower() if fold else data
    hits = []
    for end in range(1, len(hay) + 1):
        for literal_id, literal in enumerate(literals):
            lit = literal.lower() if fold else literal
            if hay[:end].endswith(lit):
                hits.append((end - len(lit), literal_id))
    return hits


@settings(max_examples=150, deadline=None)
@given(
    literals=st.lists(st.lists(st.sampled_from(b"abAB\x00\xff"), min_size=1, max_size=4).map(bytes), min_size=1, max_size=6),
    data=SMALL_BYTES,
    fold=st.booleans(),
)
def test_twins_agree_with_a_naive_search(literals: list[bytes], data: bytes, fold: bool) -> None:
    table = build_literal_table(literals, ignore_case=fold)
    expected = _naive_hits(literals, data, fold)
    for module in _twins():
        assert module.find_literal_hits(table, data) == expected
        assert module.find_literals(table, data) == tuple(sorted({i for _, i in expected}))
