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


def looks_like_unittest(lines: list[str]) -> bool:
    """Return whether the output comes from unittest."""
    return any(RAN.match(line) for line in lines) and not any(line.startswith("===") and " in " in line for line in lines[-3:])
