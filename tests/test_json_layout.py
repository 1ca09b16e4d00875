"""Pretty-printed JSON laid out again in fewer lines: the same document, character for character but for whitespace."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zeph_rules
from fixture_cases import regenerate_goldens
from zeph_rules.engine.graph import MatcherGraph
from zeph_rules.engine.json_layout import WIDTH, relayout_json
from zeph_rules.engine.strategies import Confidence

FIXTURES = Path(__file__).resolve().parent / "fixtures"
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@pytest.fixture(scope="module")
def graph() -> MatcherGraph:
    return zeph_rules.load(builtin=True, cache=False)


def _exact(text: str) -> list[Any]:
    """Every document of ``text`` with its numbers as written and its members in order, duplicates kept."""
    decoder = json.JSONDecoder(object_pairs_hook=list, parse_float=str, parse_int=str, parse_constant=str)
    documents, at = [], 0
    text = text.strip()
    while at < len(text):
        document, at = decoder.raw_decode(text, at)
        documents.append(document)
        while at < len(text) and text[at].isspace():
            at += 1
    return documents


def _same_document(before: str, after: str) -> None:
    assert _exact(after) == _exact(before)
    # no string was re-escaped: each is the same characters, in the same order
    assert _STRING.findall(after) == _STRING.findall(before)
    # outside the strings only whitespace changed
    assert re.sub(r"\s", "", _STRING.sub('""', after)) == re.sub(r"\s", "", _STRING.sub('""', before))


_PRETTY_CASES = [
    "ruff/q38b_check_json",  # ruff's findings, two spaces a level
    "ruff/q38b_check_sarif",
    "docker/q20_inspect",  # four spaces a level
    "go/q38_go_list_json_all",  # one document per package, a tab a level
    "python/q24b_json_tool_catalog",
    "terraform/q38b_validate_json_errors",
    "npm/q23b_npm_view_versions_json",  # an array of strings: filled, several to a line
    "pylint/q38b_output_format_json2",
]


@pytest.mark.parametrize("name", _PRETTY_CASES)
def test_real_reports_keep_every_value_in_fewer_lines(name: str) -> None:
    raw = (FIXTURES / name / "raw.txt").read_text(encoding="utf-8")
    laid_out = relayout_json(raw)
    assert laid_out is not None
    _same_document(raw, laid_out)
    assert laid_out.count("\n") < raw.count("\n") and len(laid_out) < len(raw)
    assert laid_out.endswith("\n") == raw.endswith("\n")
    # a line is no wider than WIDTH unless one value alone is (a long string, a key with its string)
    for line in laid_out.split("\n"):
        if len(line) > WIDTH:
            assert len(_STRING.findall(line)) <= 2 or line.lstrip()[:1] not in "{["
    assert relayout_json(laid_out) is None  # laid out once, nothing more to save


def test_every_fixture_of_pretty_json_keeps_its_lines_quoted() -> None:
    # each reviewer's quote of such an output (`"code": "F401",`, `"Status": "running",`) is a
    # substring of a line of the layout
    checked = 0
    for case in regenerate_goldens().load_cases():
        laid_out = relayout_json(case.raw)
        if laid_out is None:
            continue
        checked += 1
        lines = laid_out.split("\n")
        for entry in case.must_survive:
            assert any(entry.strip() in line for line in lines), (case.name, entry)
    assert checked >= 25


def test_the_filter_lays_out_json_and_keeps_its_confidence(graph: MatcherGraph) -> None:
    raw = (FIXTURES / "docker" / "q20_inspect" / "raw.txt").read_text(encoding="utf-8")
    result = graph.filter("docker inspect inventory-api", raw, 0)
    _same_document(raw, result.output)
    assert result.confidence is Confidence.FULL
    assert result.filtered_lines < result.raw_lines * 0.9
    assert '"LogConfig": {"Type": "json-file", "Config": {}},' in [line.strip() for line in result.output.split("\n")]


@pytest.mark.parametrize("text", [
    '[{"a": 1, "b": [1, 2, 3]}, {"a": 2}]\n',  # compact already: one line
    '{\n  "a": 1\n}\n',  # too short to be worth it
    "npm warn config production Use `--omit=dev` instead.\n" + json.dumps({"k": list(range(20))}, indent=2),
    json.dumps({"k": list(range(20))}, indent=2) + "\nexit=0\n",  # a line of something else after it
    json.dumps({"k": list(range(20))}, indent=2)[:-3],  # cut short: not JSON
    '[\n  1,\n  2,\n  3,\n  4,\n  5,\n  6,\n  7,\n  8\n]\n[\n  1\n',  # the second document unfinished
    "{\n" * 20 + "}\n" * 20,  # not JSON
    "[" * 300 + "\n" * 10 + "]" * 300,  # deeper than the layout goes
])
def test_anything_but_pretty_json_documents_is_left_alone(text: str) -> None:
    assert relayout_json(text) is None


def test_documents_one_after_another_are_each_laid_out() -> None:
    # `jq '.items[]'`, `go list -json ./...`: a stream of documents
    documents = [{"name": f"pkg{i}", "deps": [f"dep{j}" for j in range(12)], "pos": {"line": i, "col": 1}} for i in range(3)]
    text = "\n".join(json.dumps(document, indent=4) for document in documents) + "\n"
    laid_out = relayout_json(text)
    assert laid_out is not None
    _same_document(text, laid_out)
    # each container that fits in WIDTH columns on one line, the others an item a line, two spaces a level
    assert laid_out.split("\n")[:5] == [
        "{",
        '  "name": "pkg0",',
        '  "deps": ["dep0", "dep1", "dep2", "dep3", "dep4", "dep5", "dep6", "dep7", "dep8", "dep9", "dep10", "dep11"],',
        '  "pos": {"line": 0, "col": 1}',
        "}",
    ]
    assert laid_out.count("\n") == 15


def test_a_long_array_of_values_fills_its_lines() -> None:
    text = json.dumps({"Deps": [f"internal/package{i}" for i in range(30)]}, indent="\t") + "\n"
    laid_out = relayout_json(text)
    assert laid_out is not None
    _same_document(text, laid_out)
    lines = laid_out.split("\n")
    assert lines[:2] == ["{", '\t"Deps": [']  # Go's tab stays the step of a level
    items = lines[2:-3]
    assert all(len(line) <= WIDTH < len(line) + 22 for line in items[:-1]) and len(items) == 6
    assert lines[-3:] == ["\t]", "}", ""]


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=8) | st.dictionaries(st.text(max_size=12), children, max_size=8),
    max_leaves=60,
)


@settings(max_examples=300, deadline=None)
@given(value=st.lists(_VALUES, min_size=1, max_size=12) | st.dictionaries(st.text(max_size=8), _VALUES, min_size=1),
       indent=st.sampled_from([1, 2, 4, "\t"]), ensure_ascii=st.booleans(), documents=st.integers(1, 3))
def test_any_pretty_json_keeps_its_values(value: Any, indent: int | str, ensure_ascii: bool, documents: int) -> None:
    text = "\n".join(json.dumps(value, indent=indent, ensure_ascii=ensure_ascii) for _ in range(documents)) + "\n"
    laid_out = relayout_json(text)
    if laid_out is None:
        return
    _same_document(text, laid_out)
    assert len(laid_out) < len(text) and laid_out.count("\n") < text.count("\n")
    assert relayout_json(laid_out) in (None, laid_out)
