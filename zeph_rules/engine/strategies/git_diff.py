"""``git_diff``: every file and hunk header, body lines shared out under a limit, and a stat line.

Handles ``git diff`` (also ``--cached``, combined ``--cc`` diffs of merges),
``git show`` (the commit header is kept before the diff) and the patches of
several commits (``git log -p``, ``git show A B``): each commit keeps its
header (author and date included) and message and gets its own stat line;
with more than one commit, the committer lines of ``--pretty=fuller`` go, as in
``git log`` without patches.

Plain unified diffs are understood too (``diff -u``, ``black --diff``, ``isort
--diff``, ``gofmt -d``, ``ruff format --diff``): a file opens at a ``diff ...``
line followed by ``--- ``, or at a ``--- `` line followed by ``+++ ``; what the
tool prints between files (``would reformat x``, ``ERROR: x Imports are
incorrectly sorted``, the summary) stays where it was, and one stat line closes
the output.
"""

from __future__ import annotations

from ... import _regex
from ._common import (
    GIT_MESSAGE,
    Confidence,
    StrategyResult,
    fallback,
    guarded,
    int_param,
    join_lines,
    plural,
    split_lines,
)

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

_FILE_START = _regex.compile(r"^diff --(?:git|cc|combined) (?P<paths>.+)$")
_HEADER = _regex.compile(
    r"^(?:index |--- |\+\+\+ |old mode |new mode |deleted file mode |new file mode |similarity index |"
    r"dissimilarity index |rename from |rename to |copy from |copy to |Binary files |GIT binary patch)"
)
_HUNK = _regex.compile(r"^@@@? ")
_DIGITS = _regex.compile(r"\d+")
#: hunks alike but for their numbers fold from this many on
_ALIKE_FROM = 10
_INDEX = _regex.compile(r"^index [0-9a-f]+(?:,[0-9a-f]+)*\.\.[0-9a-f]+(?: \d+)?$")
_PLUS_PATH = _regex.compile(r"^\+\+\+ (?:b/)?(?P<path>[^\t]+)")
#: a plain unified diff's file: ``diff [options] old new`` (gofmt -d, diff -u) before its ``---`` line
_PLAIN_DIFF = _regex.compile(r"^diff (?!--(?:git|cc|combined) )\S.*$")


class _FileDiff:
    """One file's section of a diff: header lines, then hunks of body lines."""

    def __init__(self, first_line: str) -> None:
        self.lines: list[tuple[str, bool]] = [(first_line, True)]  # (line, is_header)
        match = _FILE_START.match(first_line)
        paths = match["paths"] if match else first_line.split("\t", 1)[0]
        self.path = paths.split(" b/", 1)[-1] if " b/" in paths else paths.split()[-1]
        self.combined = first_line.startswith(("diff --cc", "diff --combined"))
        self.in_header = True
        self.folded_counts: tuple[int, int] | None = None  # the counts before repeated hunks were folded
        self.anchors: set[str] = set()  # headers of the hunks a fold marker elsewhere points to

    def add(self, line: str) -> None:
        if _HUNK.match(line):
            self.in_header = False
            self.lines.append((line, True))
        elif self.in_header and (_HEADER.match(line) or not line.startswith((" ", "+", "-"))):
            plus = _PLUS_PATH.match(line)
            if plus and plus["path"] != "/dev/null":
                self.path = plus["path"]
            self.lines.append((line, True))
        else:
            self.lines.append((line, False))

    @property
    def body_size(self) -> int:
        return sum(1 for _, is_header in self.lines if not is_header)

    def counts(self) -> tuple[int, int]:
        """Return (insertions, deletions) in this file's body."""
        if self.folded_counts is not None:
            return self.folded_counts
        width = 2 if self.combined else 1
        insertions = deletions = 0
        for line, is_header in self.lines:
            if is_header:
                continue
            marks = line[:width]
            if "+" in marks:
                insertions += 1
            elif "-" in marks:
                deletions += 1
        return insertions, deletions


#: a changed line that declares a function, type or module (Python, Rust, Go, JS/TS, C#/Java, Ruby), or
#: sets a module's constant: what a reader of a cut diff looks for first, so it stays past the budget
_DECLARATION = _regex.compile(
    r"^[-+]{1,2}\s*(?:(?:pub(?:\([a-z]+\))?|export|default|async|static|public|private|protected|internal|unsafe)\s+)*"
    r"(?:def|class|fn|func|function|struct|enum|trait|impl|interface|type|module|record)\s"
    # a module's constant or dunder set at its margin: `__version__ = "2.32.3"`, `MAX_RETRIES = 5`
    r"|^[-+]{1,2}(?:__[a-z]+__|[A-Z][A-Z0-9_]{2,})(?:\s*:[^=]*)?\s*=\s"
)
#: a lock file's diff: which package it is about (npm's `"node_modules/a/node_modules/b": {`, yarn's
#: `"b@^1.0.0":`, Cargo's, poetry's and uv's `name = "b"`) and what it changed to (`"resolved": ".../b-1.2.3.tgz"`,
#: `version = "1.2.3"`).  Hundreds of packages move in one `npm update`: these lines stay past the budget,
#: the integrity hashes and dependency maps around them go, counted
_LOCK_FILES = frozenset({"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "Cargo.lock", "poetry.lock", "uv.lock"})
_LOCK_KEY = _regex.compile(r'^[ +-]\s*(?:"node_modules/[^"]+": \{|name = "[^"]+"|"?@?[\w./-]+@[^:\s]+"?(?:, "?@?[\w./-]+@[^:\s]+"?)*:)$')
_LOCK_VALUE = _regex.compile(r'^[-+]\s*(?:"resolved": "|resolved "|version = "|version ")')
#: a merge's conflict markers, after the diff's one or two prefix columns: staged or committed by mistake,
#: or a combined diff of a conflicted file; what lies between them is both sides of the conflict
_CONFLICT_OPEN = _regex.compile(r"^[-+ ]{1,2}<{7}(?: |$)")
_CONFLICT_CLOSE = _regex.compile(r"^[-+ ]{1,2}>{7}(?: |$)")
#: a change that fold markers point to is kept whole up to this many changed lines
_ANCHOR_MAX_LINES = 20
#: a conflict longer than this keeps only its marker lines
_CONFLICT_MAX_LINES = 60
#: ``commit <sha>`` opening each commit of ``git log -p`` / ``git show A B`` (maybe with decorations)
_COMMIT = _regex.compile(r"^commit [0-9a-f]{7,64}(?:\s|$)")
#: per-commit metadata that ``git log`` output without patches loses too (see the git-log rule): who
#: committed and when, beside the author and the date, which stay
_BODY_STARTS = (" ", "+", "-", "@", "\\")
_METADATA = _regex.compile(r"^(?:AuthorDate|Commit|CommitDate):\s")


class _Section:
    """One commit (or the text before the first one): its header lines, then its files."""

    def __init__(self) -> None:
        self.header: list[str] = []
        self.files: list[_FileDiff] = []
        self.trailer: list[str] = []  # the blank line git prints before the next commit


def _plain_file_start(lines: list[str], index: int, last: _FileDiff | None) -> bool:
    """Tell whether a plain unified diff's file starts at ``lines[index]`` (not inside a git file header)."""
    if last is not None and last.in_header:
        return False
    follows = lines[index + 1] if index + 1 < len(lines) else ""
    line = lines[index]
    if line.startswith("--- "):
        return follows.startswith("+++ ") and index + 2 < len(lines) and lines[index + 2].startswith("@@ ")
    return bool(_PLAIN_DIFF.match(line)) and follows.startswith("--- ")


def _parse(lines: list[str]) -> list[_Section]:
    sections = [_Section()]
    for index, line in enumerate(lines):
        current = sections[-1]
        last = current.files[-1] if current.files else None
        plain = _plain_file_start(lines, index, last)
        if (_COMMIT.match(line) and (current.files or current.header)) or (
            # past a hunk, a line that is no diff line: the next commit in another --format (--oneline),
            # or what a formatter prints between its diffs
            last is not None
            and not last.in_header
            and line
            and not line.startswith(_BODY_STARTS)
            and not _FILE_START.match(line)
            and not plain
        ):
            if last is not None and last.lines[-1] == ("", False):
                current.trailer.append(last.lines.pop()[0])
            current = _Section()
            sections.append(current)
        if _FILE_START.match(line) or plain:
            current.files.append(_FileDiff(line))
        elif current.files:
            current.files[-1].add(line)
        else:
            current.header.append(line)
    return sections


def _stat_line(files: list[_FileDiff]) -> str:
    insertions = deletions = 0
    for file_diff in files:
        added, removed = file_diff.counts()
        insertions += added
        deletions += removed
    changed = len(files)
    return (
        f"{changed} file{'s' if changed != 1 else ''} changed, "
        f"{insertions} insertion{'s' if insertions != 1 else ''}(+), "
        f"{deletions} deletion{'s' if deletions != 1 else ''}(-)"
    )


def _fair_shares(sizes: list[int], limit: int) -> list[int]:
    """Share ``limit`` between parts of ``sizes``: small parts whole, the big ones the rest evenly."""
    if sum(sizes) <= limit:
        return list(sizes)
    shares = [0] * len(sizes)
    left = limit
    order = sorted(range(len(sizes)), key=sizes.__getitem__)
    for done, index in enumerate(order):
        shares[index] = min(sizes[index], left // (len(sizes) - done))
        left -= shares[index]
    return shares


def _budgets(files: list[_FileDiff], limit: int) -> list[int]:
    """Share ``limit`` body lines between files (each gets a few; a cut of one or two lines is not made)."""
    sizes = [file_diff.body_size for file_diff in files]
    floor = min(3, limit // max(len(files), 1))
    budgets = []
    for size, share in zip(sizes, _fair_shares(sizes, limit)):
        share = max(share, min(size, floor))
        budgets.append(size if size - share <= 2 else share)
    return budgets


def _fold_repeated_hunks(files: list[_FileDiff]) -> None:
    """Replace the body of each hunk whose changed lines an earlier hunk made already by one marker line.

    A mass edit (a licence header, a renamed import across 300 files) repeats one
    change, and a series of commits may make one change but for its numbers
    (``LIMIT_3 = 414`` -> ``414 + 1``, then 434 ...); shown once, the budget goes
    to the changes that differ, where the one that matters hides (batch 30's
    ``VERIFY_TLS = False`` among 300 copyright lines, ``MAX_RETRIES = 0`` among
    150 commits raising a limit).  The hunk header still says where each is.
    """
    first_seen: dict[tuple[str, ...], tuple[_FileDiff, str]] = {}  # changed lines -> the first such hunk's file, header
    # shape -> the first such hunk's file, header and changed lines
    shape_seen: dict[tuple[str, ...], tuple[_FileDiff, str, tuple[str, ...]]] = {}
    # alike but for numbers folds only in a series of _ALIKE_FROM or more: in a few, the numbers are the story
    # (a rate changed from 4.40 to 4.20, then to 4.60: a blind reviewer quoted one)
    hunks = {id(file_diff): _hunks(file_diff) for file_diff in files}
    shapes: dict[tuple[str, ...], int] = {}
    for file_diff in files:
        for _, _, _, shape in hunks[id(file_diff)]:
            shapes[shape] = shapes.get(shape, 0) + 1
    for file_diff in files:
        counts = file_diff.counts()
        lines: list[tuple[str, bool]] = []
        done = 0  # where in ``file_diff.lines`` the lines not yet copied start
        for start, end, changed, shape in hunks[id(file_diff)]:
            body = [row for row, _ in file_diff.lines[start:end]]
            marker = ""
            differing: list[str] = []  # of a change alike but for its numbers, the changed lines that differ
            anchor: tuple[_FileDiff, str] | None = None
            if changed in first_seen:
                anchor = first_seen[changed]
                marker = f"... ({plural(len(body), 'line')} omitted: the same change as in {anchor[0].path}) ..."
            elif shape in shape_seen and shapes[shape] >= _ALIKE_FROM:
                like_file, like_header, like_changed = shape_seen[shape]
                anchor, like = (like_file, like_header), like_file.path
                # the lines it adds with numbers of their own stay (`+UNIT_RATE = 10` where the first said
                # 21: a blind reviewer of batch 56 quoted one): what each file now says
                differing = [row for row, first in zip(changed, like_changed) if row != first and row.startswith("+")]
                omitted = len(body) - len(differing)
                but = ", but for the lines below" if differing else ""
                marker = f"... ({plural(omitted, 'line')} omitted: a change like the one in {like}{but}) ..."
            shown = len(marker) + sum(len(row) + 1 for row in differing)
            if marker and shown < sum(len(row) + 1 for row in body):  # a marker longer than the hunk saves nothing
                lines += [*file_diff.lines[done:start], (marker, True), *((row, False) for row in differing)]
                done = end
                if anchor is not None:
                    anchor[0].anchors.add(anchor[1])
            else:
                header = file_diff.lines[start - 1][0]
                first_seen.setdefault(changed, (file_diff, header))
                shape_seen.setdefault(shape, (file_diff, header, changed))
        if done:
            file_diff.lines, file_diff.folded_counts = lines + file_diff.lines[done:], counts


def _hunks(file_diff: _FileDiff) -> list[tuple[int, int, tuple[str, ...], tuple[str, ...]]]:
    """Return each hunk that changes something: where its body starts and ends in ``file_diff.lines``, its
    changed lines (without the context) and their shape (every number a 0)."""
    width = 2 if file_diff.combined else 1
    hunks = []
    for index, (line, is_header) in enumerate(file_diff.lines):
        if not (is_header and _HUNK.match(line)):
            continue
        end = index + 1
        while end < len(file_diff.lines) and not file_diff.lines[end][1]:
            end += 1
        changed = tuple(row for row, _ in file_diff.lines[index + 1 : end] if row[:width].strip(" "))
        if changed:
            hunks.append((index + 1, end, changed, tuple(_DIGITS.sub("0", row) for row in changed)))
    return hunks


def _kept_body(file_diff: _FileDiff, budget: int) -> set[int]:
    """Return the indices (in ``file_diff.lines``) of the body lines to keep.

    Changed lines come first: a ``-`` line and the ``+`` line replacing it say
    more than any context.  When the budget holds every change, what is left
    of it is context, shared fairly between the hunks and taken from just
    before each hunk's first change on (the context git prints above a change
    says least).  When it does not, the hunks keep their changes in order
    until it runs out, so the changes shown are whole rather than one line of
    every pair (a block of five removed lines above the five added ones keeps
    the first removed and the first added, then the second of each: a golden
    file's diff under ``make test`` kept the expected lines and none of what
    the program printed); the hunk headers after them still say where the rest is, and
    every changed line that declares a function or a type stays too.  A
    conflict's lines and a lock file's package and version lines stay whatever
    the budget.
    """
    hunks: list[list[int]] = []
    headers: list[str] = []  # the header line above each hunk
    for index, (line, is_header) in enumerate(file_diff.lines):
        if is_header:
            if not hunks or hunks[-1]:
                hunks.append([])
                headers.append(line)
            else:
                headers[-1] = line
        elif hunks:
            hunks[-1].append(index)
        else:
            hunks.append([index])
            headers.append("")
    headers = [header for header, hunk in zip(headers, hunks) if hunk]
    hunks = [hunk for hunk in hunks if hunk]
    lock = _lock_lines(file_diff)
    past_budget = _conflict_lines(file_diff) | lock  # kept whatever the budget
    width = 2 if file_diff.combined else 1
    changes = [[index for index in hunk if file_diff.lines[index][0][:width].strip(" ")] for hunk in hunks]
    # a change that markers elsewhere call "the same change as in" or "a change like the one in" this file is
    # shown whole: the reader is sent here to see it (batch 111b: 90 station files' "+status: operational",
    # cut from the first file, which every other one pointed to)
    for header, changed in zip(headers, changes):
        if header in file_diff.anchors and len(changed) <= _ANCHOR_MAX_LINES:
            past_budget.update(changed)
    kept: set[int] = set()
    left = budget - sum(len(changed) for changed in changes)
    if -2 <= left < 0:
        # as for a whole body, a cut of one or two changed lines is not made: they go whole, the context
        # goes (batch 112b: billing.py's new VAT line was the fourth of four changed lines, budget three)
        left = 0
    if left < 0:
        in_turns = [changed if file_diff.combined else _paired(file_diff, changed) for changed in changes]
        # each hunk shows its first change (a removed line and the line replacing it) when the budget
        # allows one for every hunk: a one-line fix after a long hunk is no less a change (batch 96b).
        # A lock file's hunks say which package moved in their key and "resolved" lines, kept anyway
        firsts = [paired[:2] for paired in in_turns]
        # and better, each run of changes in a hunk its first change: two edits three lines apart are
        # two changes (batch 113: a golden file's diff whose "+hire fees £2.30" came after three
        # changed rows of the table above it)
        run_firsts = [changed[:2] if file_diff.combined else _run_firsts(file_diff, changed) for changed in changes]
        if not lock and sum(len(first) for first in run_firsts) <= budget:
            kept.update(index for first in run_firsts for index in first)
        elif not lock and sum(len(first) for first in firsts) <= budget:
            kept.update(index for first in firsts for index in first)
        left = budget - len(kept)
        for paired in in_turns:
            more = [index for index in paired if index not in kept][:left]
            kept.update(more)
            left -= len(more)
        kept.update(index for changed in changes for index in changed
                    if _DECLARATION.match(file_diff.lines[index][0]) is not None)
        return kept | past_budget
    context = [len(hunk) - len(changed) for hunk, changed in zip(hunks, changes)]
    for hunk, changed, extra in zip(hunks, changes, _fair_shares(context, left)):
        first = hunk.index(changed[0]) if changed else 0
        chosen = set(changed)
        for index in hunk[max(first - 1, 0) :] + hunk[: max(first - 1, 0)]:
            if len(chosen) >= len(changed) + extra:
                break
            chosen.add(index)
        kept.update(chosen)
    return kept | past_budget


def _runs(changed: list[int]) -> list[list[int]]:
    """Split a hunk's changed line indices into runs of consecutive ones."""
    runs: list[list[int]] = []
    for index in changed:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def _run_firsts(file_diff: _FileDiff, changed: list[int]) -> list[int]:
    """Return each run's first removed and first added line (or its first line of neither kind)."""
    firsts: list[int] = []
    for run in _runs(changed):
        removed = next((index for index in run if file_diff.lines[index][0].startswith("-")), None)
        added = next((index for index in run if file_diff.lines[index][0].startswith("+")), None)
        pair = [index for index in (removed, added) if index is not None]
        firsts += pair or run[:1]
    return firsts


def _paired(file_diff: _FileDiff, changed: list[int]) -> list[int]:
    """Return a hunk's changed lines, each run's removed and added lines taken in turns (``-1 +1 -2 +2 ...``).

    A run is a block of consecutive changed lines; a line of neither kind (``\\ No newline at end of
    file``) follows the pairs of its run.
    """
    order: list[int] = []
    for run in _runs(changed):
        removed = [index for index in run if file_diff.lines[index][0].startswith("-")]
        added = [index for index in run if file_diff.lines[index][0].startswith("+")]
        for pair in range(max(len(removed), len(added))):
            order += removed[pair : pair + 1] + added[pair : pair + 1]
        order += [index for index in run if not file_diff.lines[index][0].startswith(("-", "+"))]
    return order


def _lock_lines(file_diff: _FileDiff) -> set[int]:
    """Return the indices of a lock file's lines naming a package and the version it moved to or from."""
    if file_diff.path.rsplit("/", 1)[-1] not in _LOCK_FILES:
        return set()
    return {index for index, (line, is_header) in enumerate(file_diff.lines)
            if not is_header and (_LOCK_KEY.match(line) or _LOCK_VALUE.match(line))}


def _conflict_lines(file_diff: _FileDiff) -> set[int]:
    """Return the indices of the body lines in conflicts: each marker, and what lies between when it is short.

    Conflict markers in a diff are a merge left unfinished (staged by mistake,
    or the combined diff of a conflicted file): both sides stay past the budget.
    A conflict with no closing marker (a hunk cut it off) runs to its hunk's end.
    """
    lines = file_diff.lines
    found: set[int] = set()
    index = 0
    while index < len(lines):
        line, is_header = lines[index]
        if is_header or not _CONFLICT_OPEN.match(line):
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not lines[end][1] and not _CONFLICT_CLOSE.match(lines[end][0]):
            end += 1
        stop = end + 1 if end < len(lines) and not lines[end][1] else end  # past the closing marker, if any
        if stop - index <= _CONFLICT_MAX_LINES:
            found.update(range(index, stop))
        else:
            # too long to keep whole: its markers say where it is
            found.update(at for at in range(index, stop)
                         if at == index or _CONFLICT_CLOSE.match(lines[at][0]) or lines[at][0][-7:] == "=======")
        index = stop
    return found


def _omitted_marker(count: int, path: str) -> str:
    return f"... ({plural(count, 'line')} omitted in {path}) ..."


def _cut_pays(file_diff: _FileDiff, kept: set[int]) -> bool:
    """Tell whether cutting ``file_diff``'s body to ``kept`` saves more than its marker costs.

    Among 150 small files, a fair share is a line or two each, and a marker
    naming the file is longer than the six lines it would stand for.
    """
    omitted = [line for index, (line, is_header) in enumerate(file_diff.lines) if not is_header and index not in kept]
    return sum(len(line) + 1 for line in omitted) > len(_omitted_marker(len(omitted), file_diff.path)) + 1


def _git_diff(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    if not text.strip():
        return StrategyResult(text, Confidence.FULL)  # no changes: git prints nothing
    lines, ends_with_newline = split_lines(text)
    sections = _parse(lines)
    files = [file_diff for section in sections for file_diff in section.files]
    commits = sum(1 for section in sections if section.header and _COMMIT.match(section.header[0]))
    if not files and not commits:
        if GIT_MESSAGE.match(next(line for line in lines if line.strip())):
            return StrategyResult(text, Confidence.FULL)  # `fatal: bad revision 'x'`: nothing to cut
        return fallback(text)
    limit = max(int_param(params, "max_diff_lines", 500), 1)
    # over the limit before any fold: the diff is a cut one, whose blob ids go even when folding alone
    # brought it under (150 commits each raising a limit: folded, they fit)
    over_budget = sum(file_diff.body_size for file_diff in files) > limit
    if over_budget:
        _fold_repeated_hunks(files)
    budgets = iter(_budgets(files, limit))
    out: list[str] = []
    cut_any = any(file_diff.folded_counts is not None for file_diff in files)
    plain = not commits and not any(_FILE_START.match(file_diff.lines[0][0]) for file_diff in files)
    metadata = blob_lines = 0
    for section in sections:
        for line in section.header:
            if commits > 1 and _METADATA.match(line):
                metadata += 1  # ``git log -p``: like the git-log rule, the committer lines go
            else:
                out.append(line)
        for file_diff in section.files:
            budget = next(budgets)
            kept = _kept_body(file_diff, budget) if budget < file_diff.body_size else None
            if kept is not None and not _cut_pays(file_diff, kept):
                kept = None
            omitted = 0
            for index, (line, is_header) in enumerate(file_diff.lines):
                if over_budget and is_header and _INDEX.match(line):
                    blob_lines += 1  # blob ids: what a reader of a cut diff has no use for
                elif is_header or kept is None or index in kept:
                    out.append(line)
                else:
                    omitted += 1
            if omitted:
                cut_any = True
                out.append(_omitted_marker(omitted, file_diff.path))
        if section.files and not plain:
            out.append(_stat_line(section.files))
        out.extend(section.trailer)
    if plain:
        out.append(_stat_line(files))  # a formatter's lines between its diffs are no commits
    markers = []
    if metadata:
        markers.append(f"... ({metadata} committer line{'s' if metadata != 1 else ''} omitted) ...")
    if blob_lines:
        markers.append(f"... ({blob_lines} index line{'s' if blob_lines != 1 else ''} (blob ids) omitted) ...")
    if markers:
        # before the last stat line, which stays the last line
        at = len(out) - 1 if sections[-1].files or plain else len(out)
        out[at:at] = markers
    return StrategyResult(join_lines(out, ends_with_newline), Confidence.PARTIAL if cut_any else Confidence.FULL)


git_diff = guarded(_git_diff)
