"""Blocks of lines that repeat one above, word for word: found once, shown once.

A program that logs an exception and raises it again prints the same traceback
twice; pip's source build prints setuptools' ten-line warning once per build
step; a retry loop prints its multi-line error each time.  ``repeated_blocks``
finds them, ``without_repeated_blocks`` puts a counted marker in place of each
repeat.  Plain Python over lists: the strategies that use it (dedup's grouping,
strip_noise's ``drop_repeated_blocks``) import nothing more for it.
"""

from __future__ import annotations

from ._common import join_lines, plural, split_lines

#: how many steps per line of input ``repeated_blocks`` may take; a step matches a run of equal
#: lines at once, so only inputs built to be slow (short lines repeating at a long period) reach it
_BLOCK_STEPS_PER_LINE = 64


def repeated_blocks(lines: list[str], min_lines: int = 4, min_chars: int = 200) -> dict[int, int]:
    """Return ``{first line: length}`` of the blocks that repeat an earlier block line for line.

    A program that logs an exception and raises it again prints the same
    traceback twice; a retry loop prints the same multi-line error each time.
    A block needs ``min_lines`` lines, two of them different (a run of one
    repeated line is left to the grouping, which counts it), and ``min_chars``
    characters: a marker in place of a short block would only add noise.
    """
    count = len(lines)
    # run[i]: how many lines from i on equal lines[i]; chars[i]: the characters before line i.
    # Comparing a repeat with the line's first occurrence steps over runs of one line in one go:
    # line by line, a run of n equal lines costs n**2/2 comparisons.
    run = [1] * (count + 1)
    run[count] = 0
    for at in range(count - 2, -1, -1):
        if lines[at] == lines[at + 1]:
            run[at] = run[at + 1] + 1
    chars = [0] * (count + 1)
    for at, line in enumerate(lines):
        chars[at + 1] = chars[at] + len(line)
    first_at: dict[str, int] = {}
    blocks: dict[int, int] = {}
    budget = _BLOCK_STEPS_PER_LINE * count  # past it, the blocks found so far are all there are
    index = 0
    while index < count:
        line = lines[index]
        earlier = first_at.get(line)
        if earlier is not None and line.strip():
            length = 0
            while index + length < count and earlier + length < index:
                here, there = earlier + length, index + length
                if lines[here] != lines[there]:
                    break
                length += min(run[here], run[there], index - here, count - there)
                budget -= 1
            if budget < 0:
                break
            if (length >= min_lines and run[index] < length
                    and chars[index + length] - chars[index] >= min_chars):
                blocks[index] = length
                index += length
                continue
        first_at.setdefault(line, index)
        index += 1
    return blocks


def same_block_marker(length: int) -> str:
    return f"... ({plural(length, 'line')} omitted: the same as the block above) ..."


def without_repeated_blocks(text: str) -> str:
    """Return ``text`` with each block that repeats one above (``repeated_blocks``) as a counted marker.

    Not in a JSON document (a `--report`, `terraform validate -json`): a marker would break it, and
    the pipeline lays valid JSON out in fewer lines anyway.
    """
    if text.lstrip()[:1] in ("{", "["):
        return text
    lines, ends_with_newline = split_lines(text)
    blocks = repeated_blocks(lines)
    if not blocks:
        return text
    out: list[str] = []
    index = 0
    while index < len(lines):
        length = blocks.get(index)
        if length is None:
            out.append(lines[index])
            index += 1
        else:
            out.append(same_block_marker(length))
            index += length
    return join_lines(out, ends_with_newline)
