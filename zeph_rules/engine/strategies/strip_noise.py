"""``strip_noise``: drop lines matching any of the rule's regexes.

With ``keep_first_of_run`` (a regex) a matching line stays when the line
before it does not match that regex: given a stack frame's pattern, each stack
keeps its first frame, the place where the program broke
(``at Server.setupListenHandle (node:net:1908:16)`` of ``listen EADDRINUSE``),
even when it is a frame the patterns call noise.  With ``keep_before`` (a regex)
a matching line stays when the line after it matches that regex: given the
exception line's pattern, a Python traceback keeps the carets of its innermost
frame, which say what part of the expression raised; ``look_past`` (a regex)
lets it look past context lines to the line they lead to (a build's progress
line stays above ``x.c: In function 'f':`` when an error follows, not a warning).
With ``keep_after`` (a regex) a matching line stays when the line before it
matches that regex: rustc's pointer into the standard library's source goes,
but not the one under ``note: method defined here``, which says whose method.

``min_lines`` (0: always) leaves output of fewer lines whole: what is detail
worth dropping in a 3,000-line dependency tree or plan is the answer in a
100-line one; with ``count_from`` (a regex) it counts from the first line that
matches (a plan's diff, not the refresh lines before it).  ``since`` (a regex) starts the stripping
at the first line it matches, and the lines before it stay (none matches: nothing goes); with
``until``, the two bound a block (the usage npm prints after a usage error).  With ``when_present``
(a regex) lines are stripped only when some line matches it: pip's downloads
go when ``Successfully installed`` names what they fetched, and stay in an
install that failed or was cut short.  ``until`` (a regex) ends the stripping at the first line it
matches: that line and every line after it stay (a plan's attribute lines go,
the attributes of its ``Changes to Outputs:`` are the answer).  ``label`` names
what a stripped line is in the marker (``... (237 passing tests stripped) ...``):
"noise" is wrong for lines that carry a result the marker's count stands for.
With ``take_indented`` a stripped line takes with it the lines right under it
indented deeper (a Python frame's source line and carets); with
``spare_whole_blocks`` (a regex) a block, a line it matches and the lines under
it indented deeper, whose every line would go keeps them all.  With
``keep_when_named`` (a regex with groups) a line the patterns match stays when
this regex matches it too and some line that stays holds the text of each of
its groups: a plan's ``x.y["a"]: Refreshing state...`` goes, unless the plan
changes ``x.y["a"]`` or an error names ``resource "x" "y"``; with ``keep_when_named_max``, only while
no more lines than that would stay.  With ``keep_unfinished`` and
``finished_by`` (regexes whose groups name a thing under way) the last stripped line the first
matches for each name stays when no line after it says, through the second, that the thing finished:
an apply's ``x: Still creating... [20s elapsed]`` goes above ``x: Creation complete after 31s``, and
stays as the last word on ``x`` when the run was interrupted or the creation failed.  With
``keep_last_named`` (a regex whose groups name a thing) each name's last stripped line it matches
stays whatever follows: a slow resource's last ``Still creating... [20s elapsed]``, one line a
resource however long it took.  ``min_run`` leaves runs of fewer
consecutive matched lines whole, and with ``keep_run_ends`` a run that goes keeps that many lines
at each end, its marker in its place: a bundler's table of 260 chunks keeps its first rows and its
last, the largest.  With ``block_start`` and ``block_end`` (regexes) the patterns strip only lines
inside a block, between a line the first matches and the next line the second matches (both stay):
the config files ``go build -x`` writes through heredocs, and nothing the compiler said.
``drop_repeated_paragraphs`` strips each paragraph of two or more lines that an earlier one says
word for word: terraform's advice under each of 33 errors of one unterminated string; one with a
line ``spare_paragraphs_with`` (a regex) matches stays (a place).  ``take_next`` (a count) strips
with each matched line the lines after it: ``make -p``'s
``# default`` and the variable it heads.  ``drop_paragraphs_with`` (a regex) strips each paragraph,
a run of non-blank lines, holding a line it matches: make's built-in rules, each a paragraph that
says ``#  Builtin rule``.  ``drop_paragraphs_matching`` (a regex) strips each paragraph it matches
whole, its lines joined by newlines: gcov's fully covered functions, ``Function 'free_seats'`` over
``Lines executed:100.00% of 3``, and not a file's summary nor a function that is not covered.
With ``only_repeats`` a line the patterns match goes only when it says what the last line they
matched said: ``git log``'s ``Author:`` line of a commit by the author of the commit above.
Last, ``drop_repeated_blocks`` puts a counted marker in place of each block of four lines or more
(200 characters) that repeats one above word for word (``_blocks``): a traceback logged and raised
again, setuptools' warning printed once per build step.  It needs no pattern.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

from ... import _regex, _speedups
from ..patterns import fold_for_prefilter, regex_may_match, required_literals
from ._blocks import without_repeated_blocks
from ._common import (
    Confidence,
    StrategyResult,
    guarded,
    indent_of,
    int_param,
    join_lines,
    line_indices,
    matches_any,
    plural,
    split_lines,
    user_pattern,
)


#: the parameters that strip whole paragraphs: with one of them, no line pattern is needed
_PARAGRAPH_DROPPERS = ("drop_paragraphs_with", "drop_paragraphs_matching", "drop_repeated_paragraphs")


def _strip_noise(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    result = _strip_lines(text, params)
    if params.get("drop_repeated_blocks"):
        return StrategyResult(without_repeated_blocks(result.text), result.confidence)
    return result


def _strip_lines(text: str, params: Mapping[str, Any]) -> StrategyResult:
    min_lines = int_param(params, "min_lines", 0)
    if min_lines:
        count_from = params.get("count_from")
        start = _first_line_matching(text, count_from) if count_from else 0
        if start < 0 or _speedups.count_lines(text[start:] if start else text) < min_lines:
            return StrategyResult(text, Confidence.FULL)  # before any pattern is looked at
    when_present = params.get("when_present")
    if when_present and _first_line_matching(text, when_present) < 0:
        return StrategyResult(text, Confidence.FULL)
    # a pattern none of whose required literals is in the text matches no line: never compiled
    folded: list[str] = []
    patterns = [user_pattern(source) for source in params.get("patterns") or () if _may_match(source, text, folded)]
    if not patterns and not any(params.get(name) for name in _PARAGRAPH_DROPPERS):
        # nothing to strip line by line (drop_repeated_blocks, alone, comes after)
        return StrategyResult(text, Confidence.FULL)
    lines, ends_with_newline = split_lines(text)
    since_source = params.get("since")
    before: list[str] = []
    if since_source:
        since = [user_pattern(since_source)]
        first = next((index for index, line in enumerate(lines) if matches_any(since, line)), None)
        if first is None:
            return StrategyResult(text, Confidence.FULL)
        before, lines = lines[:first], lines[first:]
    until_source = params.get("until")
    rest: list[str] = []
    if until_source:
        until = [user_pattern(until_source)]
        end = next((index for index, line in enumerate(lines) if matches_any(until, line)), len(lines))
        lines, rest = lines[:end], lines[end:]
    run_source = params.get("keep_first_of_run")
    if run_source:
        run = [user_pattern(run_source)]
        staying: list[bool] = []
        in_run = False
        for line in lines:
            staying.append(not (in_run and matches_any(patterns, line)))
            in_run = matches_any(run, line)
    else:
        staying = [not matches_any(patterns, line) for line in lines]
    if params.get("only_repeats"):
        _keep_changes(lines, staying)
    take_next = int_param(params, "take_next", 0)
    if take_next:
        _take_next(staying, take_next)
    paragraph_source = params.get("drop_paragraphs_with")
    if paragraph_source:
        _drop_paragraphs(lines, staying, user_pattern(paragraph_source))
    whole_paragraph_source = params.get("drop_paragraphs_matching")
    if whole_paragraph_source:
        _drop_paragraphs_matching(lines, staying, user_pattern(_anchored(whole_paragraph_source)))
    if params.get("drop_repeated_paragraphs"):
        spare_paragraphs = params.get("spare_paragraphs_with")
        _drop_repeated_paragraphs(lines, staying, user_pattern(spare_paragraphs) if spare_paragraphs else None)
    block_start = params.get("block_start")
    if block_start:
        _only_inside_blocks(lines, staying, user_pattern(block_start), user_pattern(params["block_end"]))
    min_run = int_param(params, "min_run", 0)
    run_ends = int_param(params, "keep_run_ends", 0)
    folded_at: dict[int, int] = {}  # where a folded run's marker goes -> where the run ends
    if min_run or run_ends:
        _fold_runs(staying, min_run, run_ends, folded_at)
    keep_before_source = params.get("keep_before")
    if keep_before_source:
        keep_before = [user_pattern(keep_before_source)]
        past_source = params.get("look_past")
        past = [user_pattern(past_source)] if past_source else []
        for index in range(len(lines) - 1):
            if staying[index]:
                continue
            following = index + 1
            while past and following < len(lines) - 1 and matches_any(past, lines[following]):
                following += 1
            if matches_any(keep_before, lines[following]):
                staying[index] = True
    keep_after_source = params.get("keep_after")
    if keep_after_source:
        keep_after = [user_pattern(keep_after_source)]
        for index in range(1, len(lines)):
            if not staying[index] and matches_any(keep_after, lines[index - 1]):
                staying[index] = True
    if params.get("take_indented"):
        _take_indented(lines, staying)
    spare_source = params.get("spare_whole_blocks")
    if spare_source:
        despite_source = params.get("spare_despite")
        _spare_whole_blocks(lines, staying, user_pattern(spare_source),
                            user_pattern(despite_source) if despite_source else None)
    named_source = params.get("keep_when_named")
    if named_source and not all(staying):
        _rescue_named(lines, staying, before + rest, user_pattern(named_source), int_param(params, "keep_when_named_max", 0))
    unfinished_source = params.get("keep_unfinished")
    if unfinished_source and not all(staying):
        _keep_unfinished(lines, staying, rest, user_pattern(unfinished_source), user_pattern(params["finished_by"]))
    last_source = params.get("keep_last_named")
    if last_source and not all(staying):
        _keep_last_named(lines, staying, last_source)
    label = params.get("label") or "noise line"
    kept = []
    in_folds = 0  # counted where their runs were, after whatever the steps above kept of them
    for index, (line, stays) in enumerate(zip(lines, staying)):
        if index in folded_at:
            cut_here = staying[index : folded_at[index]].count(False)
            if cut_here:
                kept.append(f"... ({plural(cut_here, label)} stripped) ...")
                in_folds += cut_here
        if stays:
            kept.append(line)
    stripped = staying.count(False)
    if stripped == 0:
        return StrategyResult(text, Confidence.FULL)
    kept = before + kept + rest
    if stripped > in_folds:
        kept.append(f"... ({plural(stripped - in_folds, label)} stripped) ...")
    return StrategyResult(join_lines(kept, ends_with_newline), Confidence.FULL)


def _keep_changes(lines: list[str], staying: list[bool]) -> None:
    """Keep each stripped line that differs from the last stripped one: only repeats go."""
    previous = None
    for index, line in enumerate(lines):
        if staying[index]:
            continue
        if line != previous:
            staying[index] = True
        previous = line


def _take_next(staying: list[bool], count: int) -> None:
    """Strip, with each line the patterns strip, the ``count`` lines after it (a heading's value)."""
    for index in [index for index, stays in enumerate(staying) if not stays]:
        end = min(index + 1 + count, len(staying))
        staying[index + 1 : end] = [False] * (end - index - 1)


def _drop_paragraphs(lines: list[str], staying: list[bool], marked: Any) -> None:
    """Strip each paragraph (a run of non-blank lines) with a line ``marked`` matches, and the blank line after it."""
    for start, end in _paragraphs(lines):
        if any(marked.search(lines[row]) is not None for row in range(start, end)):
            _strip_paragraph(staying, start, end)


#: a regex's leading inline flags (``(?i)``): they must stay first when the regex is wrapped
_INLINE_FLAGS = _regex.compile(r"^\(\?[aiLmsux]+\)")


def _anchored(source: str) -> str:
    """Return ``source`` matching only a whole text: ``\\A(?:source)\\Z``, its leading inline flags kept first."""
    flags = _INLINE_FLAGS.match(source)
    head = flags.group() if flags else ""
    return f"{head}\\A(?:{source[len(head):]})\\Z"


def _drop_paragraphs_matching(lines: list[str], staying: list[bool], pattern: Any) -> None:
    """Strip each paragraph ``pattern`` (anchored at both ends) matches, its lines joined by newlines, and the blank line after it."""
    for start, end in _paragraphs(lines):
        if pattern.search("\n".join(lines[start:end])) is not None:
            _strip_paragraph(staying, start, end)


def _paragraphs(lines: list[str]) -> list[tuple[int, int]]:
    """Return where each paragraph (a run of non-blank lines) starts and ends in ``lines``."""
    found = []
    start = 0
    while start < len(lines):
        if not lines[start].strip():
            start += 1
            continue
        end = start
        while end < len(lines) and lines[end].strip():
            end += 1
        found.append((start, end))
        start = end
    return found


def _drop_repeated_paragraphs(lines: list[str], staying: list[bool], spared: Any = None) -> None:
    """Strip each paragraph of two or more lines that an earlier one says word for word, and the blank line after it.

    terraform explains an error under each of its blocks: an unterminated string raised the same
    three lines of advice 33 times, once for each line of the file after it (batch 86b); the error
    line and the location of each stay.  A paragraph with a line ``spared`` matches stays however
    often it comes: two errors at one place each keep the place.
    """
    seen: set[tuple[str, ...]] = set()
    for start, end in _paragraphs(lines):
        if end - start < 2 or spared is not None and any(spared.search(lines[row]) for row in range(start, end)):
            continue
        text = tuple(lines[start:end])
        if text in seen:
            _strip_paragraph(staying, start, end)
        seen.add(text)


def _strip_paragraph(staying: list[bool], start: int, end: int) -> None:
    """Strip the paragraph from ``start`` to ``end`` and the blank line after it, if one follows."""
    stop = min(end + 1, len(staying))
    staying[start:stop] = [False] * (stop - start)


def _only_inside_blocks(lines: list[str], staying: list[bool], start: Any, end: Any) -> None:
    """Keep every line outside a block: from a line ``start`` matches to the next line ``end`` matches.

    The two bounding lines stay (``cat >$WORK/b001/vet.cfg << 'EOF'`` says what the block was); a
    block with no closing line is not known to be one, so its lines stay too.  A closing line that
    ``start`` matches opens the next block.
    """
    opened = -1  # the row of the opening line of the block being read, or -1 between blocks
    for index, line in enumerate(lines):
        if opened < 0:
            staying[index] = True
            if start.search(line) is not None:
                opened = index
        elif end.search(line) is not None:
            staying[index] = True
            # the line that closes one block may open the next (`run "b"... pass` after run "a"'s)
            opened = index if start.search(line) is not None else -1
    if opened >= 0:
        staying[opened:] = [True] * (len(lines) - opened)


def _fold_runs(staying: list[bool], min_run: int, ends: int, folded_at: dict[int, int]) -> None:
    """Keep runs of matched lines shorter than ``min_run``; of a longer one keep ``ends`` lines at each end.

    A run cut (whole, or between its ends) gets its marker there (``folded_at``: where the cut starts and ends):
    a table of 260 chunks keeps its first and last rows, and the count stands where the rest were.
    """
    index = 0
    while index < len(staying):
        if staying[index]:
            index += 1
            continue
        end = index
        while end < len(staying) and not staying[end]:
            end += 1
        if end - index < max(min_run, 2 * ends + 1):
            staying[index:end] = [True] * (end - index)
        else:
            staying[index : index + ends] = [True] * ends
            staying[end - ends : end] = [True] * ends
            folded_at[index + ends] = end - ends
        index = end


def _take_indented(lines: list[str], staying: list[bool]) -> None:
    """Strip, with each stripped line, the non-blank lines right under it indented deeper than it."""
    depth = -1  # the indent of the stripped line above, while its deeper lines follow
    for index, line in enumerate(lines):
        indent = indent_of(line)
        if depth >= 0 and line.strip() and indent > depth and staying[index]:
            staying[index] = False
            continue
        depth = indent if not staying[index] else -1


def _spare_whole_blocks(lines: list[str], staying: list[bool], start: Any, despite: Any = None) -> None:
    """Keep every line of a block that would lose them all.

    A block is a line ``start`` matches and the lines under it indented deeper
    (blank lines included); when every non-blank line under it is stripped, they
    all stay: a traceback made only of the library's frames is the library's own
    crash, and its frames are the story.  A first line ``despite`` matches does
    not count (``File "<string>"``: the ``python -c`` code that imported a
    package whose own frames, installed in site-packages, are the story; a
    ``<string>`` frame further down is a build backend's exec).  Output that opens
    indented (``| tail`` cut the traceback's first line off) opens with such a
    block, its head unseen.
    """
    index = 0
    if lines and lines[0].strip() and indent_of(lines[0]) > 0:
        end = next((row for row, line in enumerate(lines) if line.strip() and not indent_of(line)), len(lines))
        body = [row for row in range(end) if lines[row].strip()]
        first_stripped = next((row for row in body if not staying[row]), None)
        # what opens it indented deeper than the first stripped frame (the source line and carets of
        # the frame cut off above) stays on its own: it does not count
        orphans = set() if first_stripped is None else {
            row for row in body if row < first_stripped and indent_of(lines[row]) > indent_of(lines[first_stripped])}
        if first_stripped is not None and not any(staying[row] for row in body if row not in orphans):
            for row in body:
                staying[row] = True
        index = end
    while index < len(lines):
        if start.search(lines[index]) is None:
            index += 1
            continue
        depth = indent_of(lines[index])
        end = index + 1
        while end < len(lines) and (not lines[end].strip() or indent_of(lines[end]) > depth):
            end += 1
        body = [row for row in range(index + 1, end) if lines[row].strip()]
        counted = body[1:] if body and despite is not None and despite.search(lines[body[0]]) else body
        if counted and not any(staying[row] for row in counted):
            for row in body:
                staying[row] = True
        index = end


def _rescue_named(lines: list[str], staying: list[bool], rest: list[str], named: Any, at_most: int) -> None:
    """Mark as staying each stripped line of ``lines`` whose ``named`` groups a line that stays holds.

    With ``at_most`` (0: no limit), when more lines than that would stay none does: the names are a
    list the output gives itself (a plan changing 211 resources heads each change with its address).
    """
    text = "\n".join([line for line, stays in zip(lines, staying) if stays] + rest)
    # where each name stands in what stays, found once: a plan's resource addresses recur in
    # thousands of lines, and looking again for every stripped line took most of a 134 KB plan's time
    holding: dict[str, set[int]] = {}
    rescued: list[int] = []
    for index, line in enumerate(lines):
        if staying[index]:
            continue
        found = named.search(line)
        if found is None:
            continue
        names = [group for group in found.groups() if group]
        common: set[int] | None = None
        for name in names:
            starts = holding.get(name)
            if starts is None:
                starts = holding[name] = set(_speedups.lines_containing(text, (name,)))
            common = starts if common is None else common & starts
            if not common:
                break
        if common:
            rescued.append(index)  # one line that stays holds every name
    if at_most and len(rescued) > at_most:
        return
    for index in rescued:
        staying[index] = True


def _keep_unfinished(lines: list[str], staying: list[bool], rest: list[str], unfinished: Any, finished: Any) -> None:
    """Keep each name's last stripped line ``unfinished`` matches when no later line ``finished`` matches with that name.

    Read from the end: the names finished below a line are known when it is reached (``rest``, the
    lines after ``until``, come last).  Only from the first such stripped line on: a plan, with no
    progress line, is not read for finished ones (14,000 lines of an apply took 14 ms).
    """
    under_way = {index: found.groups() for index, stays in enumerate(staying)
                 if not stays and (found := unfinished.search(lines[index])) is not None}
    if not under_way:
        return
    done = {found.groups() for line in rest if (found := finished.search(line)) is not None}
    for index in range(len(lines) - 1, min(under_way) - 1, -1):
        found = finished.search(lines[index])
        if found is not None:
            done.add(found.groups())
        elif index in under_way and under_way[index] not in done:
            staying[index] = True
            done.add(under_way[index])  # its earlier progress lines go: this one is its last word


def _keep_last_named(lines: list[str], staying: list[bool], source: str) -> None:
    """Keep, of the lines the regex ``source`` matches, each name's last (the name: its groups), if it was stripped.

    A name whose last such line stays already (``keep_unfinished`` kept it) keeps no earlier one.
    Every line is read, so the lines the regex can match are found first by its required literal
    (``: Still ``): a 3,700-line apply spent 4 ms here, a tenth of its filtering, and now 0.4 ms.
    """
    pattern = user_pattern(source)
    required = required_literals(source)
    rows: Sequence[int] = range(len(lines))
    if required is not None and required[0] and not required[1]:
        rows = sorted(line_indices(_speedups.lines_containing("\n".join(lines), required[0]), lines))
    named: set[tuple[str | Any, ...]] = set()
    for index in reversed(rows):
        found = pattern.search(lines[index])
        if found is not None and found.groups() not in named:
            named.add(found.groups())
            staying[index] = True


def _first_line_matching(text: str, source: str) -> int:
    """Return the offset in ``text`` of the first line the regex ``source`` matches, or -1 (none does)."""
    pattern, start = user_pattern(source), 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if pattern.search(text[start:end]) is not None:
            return start
        start = end + 1
    return -1


def _may_match(source: str, text: str, folded: list[str]) -> bool:
    """``regex_may_match`` for a rule pattern, folding ``text`` at most once per call (kept in ``folded``)."""
    required = required_literals(source)
    if required is None or not required[1]:
        return regex_may_match(source, "", text)
    if not folded:
        folded.append(fold_for_prefilter(text))
    return regex_may_match(source, "", text, folded[0])


strip_noise = guarded(_strip_noise)
