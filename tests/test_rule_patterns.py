"""Rule regexes run by ``re`` without a timeout only where their shape proves the work small.

``patterns.plain_re_line_limit`` reads a parsed pattern and bounds its
backtracking as ``factor * n ** degree`` steps on a text of ``n``
characters; ``RulePattern`` runs ``re`` on texts up to the length that keeps
the bound within the budget and the ``regex`` module, with its timeout, on
longer ones and on every pattern the proof cannot clear.  Both must answer
alike wherever ``re`` is used.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from zeph_rules.engine import patterns
from zeph_rules.engine.patterns import (
    PLAIN_RE_STEP_BUDGET,
    RulePattern,
    plain_re_line_limit,
)
from zeph_rules.engine.pipeline import PATTERN_PARAMETERS

FILTERS = Path(patterns.__file__).parent.parent / "builtin_rules" / "filters.toml"
FIXTURES = Path(__file__).parent / "fixtures"


def _builtin_patterns() -> list[str]:
    """Every regex the built-in filter rules hold, shared pattern sets expanded."""
    data = tomllib.loads(FILTERS.read_text(encoding="utf-8"))
    shared = data.get("pattern_sets", {})
    found: dict[str, None] = {}

    def add(value: Any) -> None:
        if isinstance(value, str):
            found[value] = None
        elif isinstance(value, dict) and "use" in value:
            add(shared[value["use"]])
        elif isinstance(value, list):
            for item in value:
                add(item)

    for rule in data["rules"]:
        for name, value in rule.get("strategy", {}).items():
            if name in PATTERN_PARAMETERS:
                add(value)
    return list(found)


BUILTIN = _builtin_patterns()


@pytest.mark.parametrize("source", [
    r"(a+)+$",  # nested repeats: exponential
    r"(a|ab)*c",  # a repeated choice: exponential
    r"(\w+\s?)+$",
    r"(a)\1",  # a backreference
    r"(a)?(?(1)b|c)",  # a conditional
    r"\p{L}+",  # regex-only syntax re refuses
    r"[[:alpha:]]+",  # a POSIX class re reads as a set of brackets (with a warning)
    r"(?:abc){e<=1}",  # fuzzy matching re reads as text
    r"a{foo",  # a brace re reads as text
    r"\mword\M",  # regex-only word anchors
])
def test_shapes_that_may_backtrack_without_bound_keep_the_timeout(source: str) -> None:
    assert plain_re_line_limit.__wrapped__(source) == 0
    pattern = RulePattern(source)
    assert pattern.limit == -1
    assert (pattern.search("") is None) == (regex.compile(source).search("") is None)  # the regex module answers


@pytest.mark.parametrize(("source", "steps"), [
    (r"^(AuthorDate|Commit|CommitDate|Date):\s", "constant"),  # anchored, four choices, no repeat
    (r"^[|\\/ ]*$", "linear"),  # anchored: one start, one repeat
    (r"(?i)error", "linear"),  # every start, no repeat
    (r"^\S+ from \S+", "linear"),  # \S+ cannot take the space after it: it walks back, failing at each step
    (r"^\s*[\d.]+\s*[kMG]?B\s", "linear"),  # each repeat stops where a class the next cannot take begins
    (r"\d+\]: x", "quadratic"),  # \d+ stops before "]", the starts multiply
    (r"\d+ms", "quadratic"),
    (r"^\S+-\S+ ", "quadratic"),  # \S+ may take the "-" after it: two overlapping repeats
    (r".*foo.*bar", "cubic"),  # two overlapping repeats, and the starts
])
def test_the_bound_counts_choices_repeats_and_starts(source: str, steps: str) -> None:
    """The text ``re`` may search is the longer, the fewer repeats and starts multiply one another."""
    limit = plain_re_line_limit.__wrapped__(source)
    expected = {"constant": (PLAIN_RE_STEP_BUDGET // 2, PLAIN_RE_STEP_BUDGET), "linear": (100_000, PLAIN_RE_STEP_BUDGET),
                "quadratic": (600, 4_600), "cubic": (80, 272)}[steps]
    assert expected[0] <= limit <= expected[1]


def test_a_repeat_followed_by_a_character_it_can_take_multiplies() -> None:
    # [a-z]+ may take the "x" after it (under (?i) also "X"), \S+ the "-": the next repeat's work is multiplied
    def limit(source: str) -> int:
        return plain_re_line_limit.__wrapped__(source)

    assert limit(r"^[a-z]+x[a-z]+") < limit(r"^[a-z]+1[a-z]+")
    assert limit(r"(?i)^[a-z]+X[a-z]+") < limit(r"(?i)^[a-z]+1[a-z]+")
    assert limit(r"^\S+-\S+") < limit(r"^\S+ \S+")


def test_most_builtin_patterns_run_with_re() -> None:
    """The built-in rules' regexes mostly have shapes the proof clears, for lines of ordinary length."""
    limits = [plain_re_line_limit.__wrapped__(source) for source in BUILTIN]
    assert len(BUILTIN) > 100
    assert sum(1 for limit in limits if limit >= 400) >= 0.8 * len(BUILTIN)


def test_the_pattern_parameters_are_the_strategy_models_regex_fields() -> None:
    """The plan works out facts for every strategy parameter the rule models type as a regex."""
    from zeph_rules.engine import models

    strategies = (models.StripNoise, models.KeepMatching, models.StripAnnotated, models.Truncate, models.TestSummary,
                  models.GroupByRule, models.GitStatus, models.GitDiff, models.Dedup)
    typed = {name for model in strategies for name, hint in model.__annotations__.items()
             if "RegexStr" in hint or "OptionalRegex" in hint}  # the models' annotations are strings
    assert typed == PATTERN_PARAMETERS


def _fixture_lines(limit: int = 6000) -> list[str]:
    """Distinct lines of the fixtures' raw outputs (ANSI codes kept), a deterministic sample."""
    seen: dict[str, None] = {}
    for path in sorted(FIXTURES.glob("*/*/raw.txt")):
        for line in path.read_bytes().decode("utf-8", "surrogateescape").split("\n"):
            seen.setdefault(line.rstrip("\r"), None)
    lines = list(seen)
    step = max(1, len(lines) // limit)
    return lines[::step]


def test_re_and_regex_find_the_same_matches_on_real_output() -> None:
    """Every built-in pattern re runs matches real lines exactly where the regex module does."""
    lines = _fixture_lines()
    differences = []
    for source in BUILTIN:
        pattern = RulePattern(source)
        if pattern.limit < 0:
            continue
        exact = regex.compile(source, regex.V0)
        for line in lines:
            if len(line) > pattern.limit:
                continue
            mine, theirs = pattern.search(line), exact.search(line)
            if (mine and mine.span()) != (theirs and theirs.span()) or (mine and mine.groups() != theirs.groups()):
                differences.append((source, line))
    assert differences == []


@settings(max_examples=300, deadline=None)
@given(index=st.integers(0, len(BUILTIN) - 1),
       text=st.text(st.sampled_from("ab xX0179:[]()/.-_\t#=%é\u0301\u1680\x1cİſ\u212a"), max_size=80))
def test_rule_patterns_answer_as_the_regex_module(index: int, text: str) -> None:
    source = BUILTIN[index]
    pattern = RulePattern(source)
    exact = regex.compile(source, regex.V0)
    mine, theirs = pattern.search(text), exact.search(text)
    assert (mine and mine.span()) == (theirs and theirs.span())
    assert pattern.sub("<*>", text) == exact.sub("<*>", text)


def test_a_text_longer_than_the_limit_goes_to_the_regex_module_and_its_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    pattern = RulePattern(r".*foo.*bar")
    assert 0 < pattern.limit < 1000
    calls: list[float] = []

    class Exact:
        def search(self, text: str, timeout: float) -> None:
            calls.append(timeout)
            raise TimeoutError

        def sub(self, replacement: str, text: str, timeout: float) -> str:
            calls.append(timeout)
            raise TimeoutError

    monkeypatch.setattr(pattern, "_exact", Exact())
    long_text = "foo " * pattern.limit
    assert pattern.search(long_text) is None  # a timeout is no match
    assert pattern.sub("<*>", long_text) == long_text  # and no change
    assert calls == [patterns.REGEX_TIMEOUT] * 2
    assert pattern.search("a foo b bar").span() == (0, 11)  # short: re, without the timeout
    assert len(calls) == 2


_ATOMS = st.sampled_from(["a", "b", "x", "0", " ", ":", "-", ".", r"\d", r"\w", r"\s", r"\S", r"\b", "[a-c]", "[^:]",
                          "[0-9.]", "^", "$", "(?i:i)", "é", r"[\s:]"])
_QUANTIFIERS = st.sampled_from(["", "", "", "*", "+", "?", "{1,3}", "*?", "+?", "{2}"])


@st.composite
def _patterns(draw: st.DrawFn, depth: int = 0) -> str:
    """Small regexes of the shapes rule files use: atoms, sets, groups, alternations, quantifiers."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.booleans()) and draw(st.booleans()):
            inner = "|".join(draw(_patterns(depth + 1)) for _ in range(draw(st.integers(1, 3))))
            atom = f"(?:{inner})" if draw(st.booleans()) else f"({inner})"
        else:
            atom = draw(_ATOMS)
        quantifier = draw(_QUANTIFIERS) if atom not in ("^", "$", r"\b") else ""
        parts.append(atom + quantifier)
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(source=_patterns(), text=st.text(st.sampled_from("abx0179 :-.\t_é\u00a0\u0301\x1c\u2028İ"), max_size=40))
def test_any_pattern_re_may_run_answers_as_the_regex_module(source: str, text: str) -> None:
    """Whatever pattern the bound lets ``re`` run, ``re`` finds what ``regex`` finds."""
    try:
        exact = regex.compile(source, regex.V0)
    except regex.error:
        return
    pattern = RulePattern(source)
    mine, theirs = pattern.search(text), exact.search(text)
    assert (mine and (mine.span(), mine.groups())) == (theirs and (theirs.span(), theirs.groups()))
    assert pattern.sub("<*>", text) == exact.sub("<*>", text)


@pytest.mark.parametrize(("source", "reach"), [
    (r"^Collecting \S+", patterns.TEXT_WITHOUT_SEPARATORS),  # \s, \S: alike but for \x1c-\x1f
    (r"^\d+ passed", patterns.ANY_TEXT),
    (r"^\w+:", patterns.ASCII_TEXT),  # \w takes combining marks in regex only
    (r"\berror\b", patterns.ASCII_TEXT),
    (r"(?i)^error", patterns.ASCII_TEXT),  # case folding differs outside ASCII (İ)
    (r"(?i)ſtatus", patterns.NO_TEXT),  # ſ folds into s under regex only: even ASCII text reads otherwise
    (r"x(?i:é)", patterns.NO_TEXT),
    (r"é+ x", patterns.ANY_TEXT),
    (r"\p{L}", patterns.NO_TEXT),  # re refuses it
])
def test_the_reach_of_a_plain_re_program(source: str, reach: int) -> None:
    assert patterns.plain_re_reach.__wrapped__(source) == reach


def test_a_line_outside_ascii_runs_with_re_unless_a_class_could_read_it_otherwise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pip's progress bars (`━━━`) are not ASCII: a pattern with \\s still runs with re there, not regex."""
    pattern = RulePattern(r"^\s*(━|[\d.]+\s*[kMG]?B\s)")

    class Refuse:
        def search(self, text: str, timeout: float) -> None:
            raise AssertionError("regex was asked")

    monkeypatch.setattr(pattern, "_exact", Refuse())
    assert pattern.search("   ━━━━━━━━━━━━━━━━━ 1.2/1.2 MB 5.3 MB/s eta 0:00:00") is not None
    monkeypatch.setattr(pattern, "_exact", regex.compile(pattern.source, regex.V0))
    # an information separator: re's \s takes it, regex's does not, so regex answers
    assert pattern.search("\x1c━ x") is None and re_search(pattern.source, "\x1c━ x") is not None
    word = RulePattern(r"^\w+$")
    monkeypatch.setattr(word, "_exact", regex.compile(word.source, regex.V0))
    assert word.search("cafe\u0301") is not None  # regex's \w takes the combining mark; re's would not


def re_search(source: str, text: str) -> object:
    import re

    return re.search(source, text)


_SETS = st.sampled_from(["a", "x", "0", " ", ":", "-", ".", "é", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", "[a-c]",
                         "[^:]", "[0-9.]", "[kMG]", "[^\\s:]", "[\\w.-]", ".", "[A-Z]", "(?i:b)", "[\\d\\s]"])


@settings(max_examples=300, deadline=None)
@given(first=_SETS, second=_SETS)
def test_sets_proven_apart_share_no_character(first: str, second: str) -> None:
    """The linear-repeat proof rests on _disjoint: no character it calls apart matches both sets."""
    import re

    from zeph_rules.engine._sre import sre_constants, sre_parse

    def item(source: str) -> tuple[object, object, int]:
        """The one-character item of ``source``, and the ignore-case flag of ``(?i:...)``."""
        op, argument = next(iter(sre_parse.parse(source).data))
        if op is sre_constants.SUBPATTERN:
            op, argument = next(iter(argument[-1]))
            return op, argument, sre_constants.SRE_FLAG_IGNORECASE
        return op, argument, 0

    (op_a, arg_a, fold_a), (op_b, arg_b, fold_b) = item(first), item(second)
    flags = fold_a | fold_b
    a = patterns._char_set((op_a, arg_a), sre_constants, flags)
    b = patterns._char_set((op_b, arg_b), sre_constants, flags)
    if a is None or b is None or not patterns._disjoint(a, b, sre_constants, flags):
        return
    sample = [chr(code) for code in range(0x250)] + ["\u0301", "\u1680", "\u2028", "\u3000", "\u0663", "━", "İ", "\u212a"]
    both = [char for char in sample if re.fullmatch(first, char) and re.fullmatch(second, char)]
    assert both == []
