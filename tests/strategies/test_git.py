"""git_status and git_diff on the edges the fixtures do not cover."""

from __future__ import annotations

from pathlib import Path

from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import STRATEGIES, Confidence

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _raw(case: str) -> str:
    return sanitize((FIXTURES / case / "raw.txt").read_text(encoding="utf-8"))


def test_status_counts_sections_and_drops_hints() -> None:
    result = STRATEGIES["git_status"](_raw("git/status"), {}, 0)
    assert "Changes to be committed: (3)" in result.text
    assert "Untracked files: (3)" in result.text
    assert '(use "git' not in result.text
    assert "... (5 hint lines omitted) ..." in result.text


def test_short_status_is_kept() -> None:
    raw = _raw("git/status_short_branch")
    assert STRATEGIES["git_status"](raw, {}, 0) == (raw, Confidence.FULL)


def test_diff_limits_bodies_per_file_and_adds_a_stat_line() -> None:
    result = STRATEGIES["git_diff"](_raw("git/diff"), {"max_diff_lines": 40}, 0)
    assert result.confidence is Confidence.PARTIAL
    assert "lines omitted in src/notes/catalog.py) ..." in result.text
    assert result.text.rstrip().endswith("4 files changed, 901 insertions(+), 960 deletions(-)")
    assert result.text.count("diff --git ") == 4


def test_small_diff_is_unchanged() -> None:
    raw = _raw("git/diff_cached")
    assert STRATEGIES["git_diff"](raw, {"max_diff_lines": 500}, 0) == (raw, Confidence.FULL)


def test_show_keeps_the_commit_header() -> None:
    result = STRATEGIES["git_diff"](_raw("git/show_older"), {"max_diff_lines": 5}, 0)
    assert result.text.startswith("commit deb0185098409be8c89a38b50ceea941d097b453\nAuthor: ")
