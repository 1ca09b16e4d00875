"""The detectors that run before the cargo parser's, apart from their parsers.

``detect_runner`` tries the detectors in order, so these two run on every test
output, cargo's included; keeping them here (cheap, one small pattern) lets a
cargo run import no other runner's parser module.
"""

from __future__ import annotations

from .... import _regex

RAN = _regex.compile(r"^Ran \d+ tests? in [\d.]+s$")


def looks_like_go_json(lines: list[str]) -> bool:
    """Return whether the output is a ``go test -json`` event stream."""
    events = [line for line in lines if line.startswith("{")]
    return bool(events) and all('"Action":' in line for line in events[:5])


#: unittest -v's result line, ``test_x (tests.test_mod.TestCase.test_x) ... ok``: the test's method, then where
#: it lives in parentheses (libtest's ``test a::b ... ok`` has none)
_VERBOSE_RESULT = _regex.compile(
    r"^[^\s()]+ \([\w.]+\)(?: \[.*?\])? \.\.\. (?:ok|FAIL|ERROR|skipped|expected failure|unexpected success)\b"
)


def looks_like_unittest(lines: list[str]) -> bool:
    """Return whether the output comes from unittest.

    Its ``Ran N tests`` line, or, in a run that died before printing it (a
    segfault, a kill), three of ``-v``'s result lines.
    """
    if any(line.startswith("===") and " in " in line for line in lines[-3:]):
        return False  # pytest's final line
    return any(RAN.match(line) for line in lines) or sum(1 for line in lines[:400] if _VERBOSE_RESULT.match(line)) >= 3
