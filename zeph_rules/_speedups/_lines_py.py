"""Pure-Python twin of the line-classifying hot path: the readable reference for ``_lines_c``.

``collapse_runs`` splits a text into lines like ``text.split("\\n")`` but hands
back every run of two or more consecutive *member* lines as one
``(start, end, count)`` triple, so a parser that treats such lines alike (100,000
``test x ... ok`` lines of a ``cargo test`` run) touches the run once instead of
once per line.  ``text[start:end]`` is the run, its lines joined by ``"\\n"``.
"""

from __future__ import annotations


def _check(text: object, prefix: object, suffix: object, banned: object) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if not isinstance(prefix, str) or not isinstance(suffix, str):
        raise TypeError("prefix and suffix must be str")
    if not isinstance(banned, tuple) or not all(isinstance(item, str) for item in banned):
        raise TypeError("banned must be a tuple of str")


def collapse_runs(text: str, prefix: str, suffix: str, banned: tuple[str, ...] = ()) -> list[str | tuple[int, int, int]]:
    """Return the lines of ``text`` with each run of two or more member lines as ``(start, end, count)``.

    A member line starts with ``prefix``, ends with ``suffix``, is longer than
    the two together (so they never overlap) and contains none of ``banned``.
    Expanding every triple into ``text[start:end].split("\\n")`` gives back
    exactly ``text.split("\\n")``.
    """
    _check(text, prefix, suffix, banned)
    minimum = len(prefix) + len(suffix) + 1
    items: list[str | tuple[int, int, int]] = []
    run_start = run_end = run_count = 0
    first = ""

    def close_run() -> None:
        if run_count >= 2:
            items.append((run_start, run_end, run_count))
        elif run_count == 1:
            items.append(first)

    position = 0
    for line in text.split("\n"):
        end = position + len(line)
        if (len(line) >= minimum and line.startswith(prefix) and line.endswith(suffix)
                and not any(word in line for word in banned)):
            if run_count == 0:
                run_start, first = position, line
            run_count += 1
            run_end = end
        else:
            close_run()
            run_count = 0
            items.append(line)
        position = end + 1
    close_run()
    return items


#: what ends a line for ``sanitize``'s trailing-space rule (``[ \t\f\v]+$``)
_TRAILING = (" \n", "\t\n", "\f\n", "\v\n")


def _check_text(text: object) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")


def _check_words(text: object, words: object) -> None:
    _check_text(text)
    if not isinstance(words, tuple) or not all(isinstance(word, str) for word in words):
        raise TypeError("words must be a tuple of str")


def line_end_flags(text: str) -> tuple[bool, bool]:
    """Return whether some line of ``text`` ends in a space, tab, form feed or vertical tab, and whether four newlines come in a row.

    A line ends before a ``\\n`` or at the end of the text.  These are the
    only inputs on which ``sanitize``'s trailing-space and blank-run rules do
    anything, so it can skip them when both are false.
    """
    _check_text(text)
    trailing = text[-1:] in (" ", "\t", "\f", "\v") or any(ending in text for ending in _TRAILING)
    return trailing, "\n\n\n\n" in text


def lines_containing(text: str, words: tuple[str, ...]) -> list[int]:
    """Return the start offsets of the lines of ``text`` that contain one of ``words``, ascending.

    Lines are separated by ``\\n``; a word holding a newline is found across
    lines and counts for the line it starts in.  The empty word is in every line.
    """
    _check_words(text, words)
    starts: set[int] = set()
    for word in words:
        at = text.find(word)
        while at != -1:
            starts.add(text.rfind("\n", 0, at) + 1)
            # the rest of this line can only add the same start
            newline = text.find("\n", at)
            if newline == -1:
                break
            at = text.find(word, newline + 1)
    return sorted(starts)
