"""``git_status``: branch, ahead/behind and every path, without git's hint lines (but how to go on with a rebase or merge)."""

from __future__ import annotations

from ... import _regex
from ._common import (
    GIT_MESSAGE,
    Confidence,
    StrategyResult,
    fallback,
    guarded,
    join_lines,
    omitted_marker,
    split_lines,
)

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# A hint quotes a git command, which no locale translates: `  (use "git add <file>..." to ...)`,
# `  (benutzen Sie "git add <Datei>...", um ...)`; the English conflict hints quote none.
_HINT = _regex.compile(r'^\s+\(.*"git [^"]*".*\)$|^\s*\((?:fix conflicts|all conflicts fixed|commit or discard)[^)]*\)$')
# The hints on how to finish an operation in progress (a rebase, merge, cherry-pick, revert, am) and
# how to get out of it say what to do next: they stay.  They name the command's --continue or
# --abort, or say to commit; in any locale.  A bisect's only hint is its way out, `git bisect reset`
# (a blind reviewer of batch 55 quoted `(use "git merge --abort" to abort the merge)`).
# (The other siblings, --skip and --edit-todo, go with the other hints.)
_STATE_HINT = _regex.compile(r'--continue\b|--abort\b|"git commit"|"git bisect reset"|^\s*\((?:fix conflicts|all conflicts fixed)')
_SECTIONS = frozenset(
    ("Changes to be committed:", "Changes not staged for commit:", "Untracked files:", "Unmerged paths:", "Ignored files:")
)
_SHORT_BRANCH = _regex.compile(r"^## \S")
_SHORT_ENTRY = _regex.compile(r"^(?:[ MTADRCU?!][ MTADRCU?!]) \S")
_LONG_MARKERS = ("On branch ", "HEAD detached ", "Not currently on any branch", "nothing to commit", "Your branch ")


def _section_starts(lines: list[str]) -> set[int]:
    """Return the indices of the section headers, in English or in any locale git speaks.

    A translated header (``Zum Commit vorgemerkte Änderungen:``) is known by its
    shape: a line at column 0 ending in a colon whose next line, past hints, is
    a tab-indented path.
    """
    starts: set[int] = set()
    for index, line in enumerate(lines):
        if line in _SECTIONS:
            starts.add(index)
        elif line.endswith(":") and line[:1] not in ("", " ", "\t"):
            following = index + 1
            while following < len(lines) and _HINT.match(lines[following]):
                following += 1
            if following < len(lines) and lines[following].startswith("\t"):
                starts.add(index)
    return starts


def _long_format(lines: list[str], starts: set[int]) -> list[str]:
    """Compact ``git status``: section headers (at ``starts``) with counts, each path line as it was, state hints only."""
    out: list[str] = []
    header_at: int | None = None
    section = ""
    count = hints = 0

    def close_section() -> None:
        if header_at is not None:
            out[header_at] = f"{section} ({count})"

    for index, line in enumerate(lines):
        if index in starts:
            close_section()
            section, count, header_at = line, 0, len(out)
            out.append(line)
            continue
        if _HINT.match(line) and not _STATE_HINT.search(line):
            hints += 1
            continue
        if not line.strip():
            continue
        if line.startswith("\t") and header_at is not None:
            count += 1
            out.append(line)  # as git printed it: a reader may quote the line back
            continue
        close_section()
        header_at = None
        out.append(line)
    close_section()
    if hints:
        out.append(omitted_marker(hints, "hint line"))
    return out


def _git_status(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    lines, ends_with_newline = split_lines(text)
    starts = _section_starts(lines)  # every English header too
    if starts or any(line.startswith(_LONG_MARKERS) for line in lines):
        return StrategyResult(join_lines(_long_format(lines, starts), ends_with_newline), Confidence.FULL)
    entries = [line for line in lines if line.strip()]
    if entries and all(_SHORT_ENTRY.match(line) or _SHORT_BRANCH.match(line) for line in entries):
        # The short format is already one line per path: nothing to cut.
        return StrategyResult(text, Confidence.FULL)
    if entries and GIT_MESSAGE.match(entries[0]):
        return StrategyResult(text, Confidence.FULL)  # `fatal: bad config line 9 in file .git/config`
    return fallback(text)


git_status = guarded(_git_status)
