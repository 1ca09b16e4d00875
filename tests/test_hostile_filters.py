"""No input hangs a built-in filter: every built-in rule meets long lines and many lines.

One fixture command per built-in rule, so each rule's strategy and patterns
run; the inputs are the shapes that make backtracking regexes quadratic (a
long run of hex letters, ``x=x=...``, a long line of spaces, deeply indented
lines), one line repeated many times and a long output of mixed short lines.  Before the hex-run pattern was anchored, the
first input alone took hours in ``dedup`` and ``truncate``.
"""

from __future__ import annotations

import functools

import pytest
from fixture_cases import regenerate_goldens

import zeph_rules

load_cases = regenerate_goldens().load_cases

HOSTILE = {
    "hex-letters": "a" * 300_000 + " error: " + "Fa" * 100_000 + "\n",
    "key-value": "x=" * 150_000 + "\n",
    "spaces": "E   " + " " * 300_000 + "assert\n",
    # a line with trailing blanks makes sanitize strip them everywhere: the long run must not be retried
    # from each of its positions (it was: 60,000 blanks took 20 s, these would take hours)
    "spaces-and-trailing-blanks": "ok  \nE   " + " " * 300_000 + "assert\n",
    # indented diagnostics: three blank-eating quantifiers in a row at a line's start (a log record's
    # optional service prefix) tried every split of the indent, 3 ms a line at 60 blanks
    "indented-records": ("  " * 60 + "x:1:2: error: " + "y" * 30 + "\n") * 1_000,
    # one line over and over: each repeat was compared line by line with the first, n**2/2 comparisons
    "one-line-repeated": "=== RUN   T\n" * 20_000,
    "mixed-lines": "".join(
        ("test t%d ... ok\n", "src/a.py:%d:1: E501 line too long\n", '127.0.0.1 - - [22/Nov/2026 09:30:01] "GET /p%d HTTP/1.1" 200 -\n',
         "    at f (node:internal/x:%d:1)\n", "=" * 80 + " %d\n")[i % 5] % i
        for i in range(40_000)
    ),
}


@functools.cache
def _graph() -> zeph_rules.MatcherGraph:
    return zeph_rules.load(builtin=True, cache=False)


def _command_per_rule() -> dict[str, str]:
    """A fixture command for every built-in filter rule some fixture exercises, from as few commands as may be.

    The command that brings the most rules not yet met is taken first (a greedy cover): 59 commands
    where the first fixture per rule took 70, each run on every hostile input under both twins.
    """
    graph = _graph()
    rules_of: dict[str, frozenset[str]] = {}
    for case in load_cases():
        rules_of.setdefault(case.command, frozenset(rule.id for rule in graph.matching_filters(case.command, case.exit_code)))
    unmet = set().union(*rules_of.values())
    found: dict[str, str] = {}
    while unmet:
        command = max(rules_of, key=lambda command: (len(rules_of[command] & unmet), -len(command), command))
        found.update(dict.fromkeys(rules_of[command] & unmet, command))
        unmet -= rules_of[command]
    return found


COMMANDS = _command_per_rule()


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", sorted(set(COMMANDS.values())))
def test_hostile_output_finishes_and_never_grows(command: str, name: str) -> None:
    text = HOSTILE[name]
    result = _graph().filter(command, text, 1)
    assert result.output
    assert len(result.output.encode()) <= len(text.encode()) + 4096  # a security notice may be appended


def test_most_builtin_rules_meet_a_hostile_input() -> None:
    rules = {rule.id for rule in _graph().rules("filter")}
    assert len(set(COMMANDS) & rules) >= 0.9 * len(rules), sorted(rules - set(COMMANDS))
