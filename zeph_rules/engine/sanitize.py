"""Make raw command output plain text before any strategy sees it.

Terminals understand escapes and carriage returns; a model reading the bytes
does not.  ``sanitize`` turns what a terminal would have shown into plain
lines: colours and cursor movements removed, progress bars reduced to their
final state, backspaced characters written over, line endings and blank-line
runs normalised.
"""

from __future__ import annotations

from .. import _regex, _speedups

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), charset designations (ESC ( B),
# other two-byte escapes (ESC =, ESC >, ESC 7, ...), and the 8-bit CSI introducer.
_ESCAPES = _regex.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]            # CSI: colours, cursor movement, erase
    | \x9b[0-?]*[ -/]*[@-~]            # 8-bit CSI
    | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)   # OSC: titles, hyperlinks
    | \x1b[()*+][0-9A-Za-z]            # charset designation
    | \x1b[@-Z\\-_=>78]                # other two-byte escapes
    | \x1b(?=$|[^\[\]()*+])            # a lone ESC left over
    """,
    _regex.VERBOSE,
)
_BLANK_RUN = _regex.compile(r"\n(?:[ \t]*+\n){3,}")
# Starts only where a run of blanks starts: "[ \t]+$" alone would try every position of a long run
# followed by text, and each try scans to the run's end (60,000 blanks took 20 s).
_TRAILING_SPACE = _regex.compile(r"(?<![ \t\f\v])[ \t\f\v]++$", _regex.MULTILINE)


_FIRST_WORD = _regex.compile(r"[^\W\d_]+")
#: how wordless text starts that is no display's state: a diff's added line (``+x``), a quoted value;
#: counters, bars, spinners and check marks (``42%``, ``[===  ]``, ``⠋``, ``✓✓✓``) all redraw one display
_WORDLESS_TEXT = _regex.compile(r"[+\"']")
#: wider than any terminal: such a state was written, not drawn (curl's body, its meter's ``\r`` after it)
_WIDEST_DISPLAY = 1000


def _last_carriage_state(line: str) -> str:
    """Return the final state of each progress display in a line redrawn with ``\\r``.

    A progress display redraws one message (``Rebasing (1/6)``, ``Receiving
    objects:  42%``, a bar and its counts): only its last state is kept.  A
    different message written over it (``Auto-merging x`` after
    ``Rebasing (3/6)``) starts a line of its own, so where the progress stopped
    is not lost.  A redraw is known by the word it starts with (a state that
    starts with a number, a bar or a spinner redraws the same display); blank
    states (a line being cleared, a redraw about to happen) are no states;
    nor is text wider than any terminal: it is data that a display on another
    stream (curl's meter on stderr after the body on stdout) drew after, and it stays.
    """
    kept: list[str] = []
    previous_word: str | None = None
    for state in line.split("\r"):
        if not state.strip():
            continue
        stripped = state.lstrip()
        found = _FIRST_WORD.match(stripped)
        word = found.group() if found else ""  # counters, bars and spinners: one display
        if kept and word == previous_word:
            kept[-1] = state
        else:
            kept.append(state)
        # a wordless state is a display's only when it starts as one does: a program's `"b {\r"` printed
        # after a diff's `+x` line is no redraw of it (batch 83b: the line said what failed)
        display = found is not None or _WORDLESS_TEXT.match(stripped) is None
        previous_word = word if len(state) <= _WIDEST_DISPLAY and display else None
    return "\n".join(kept)


#: a line longer than this that backspaces is no terminal's display: its backspaces are only dropped
_WIDEST_OVERSTRUCK = 100_000


def _overstruck(line: str) -> str:
    """Return what a terminal shows of a line written with backspaces.

    A backspace steps back over the character before it and what follows is
    written over it: a spinner's frames (pip's ``... -\b \b\\\b \bdone`` shows
    ``... done``), a manual page's bold (``N\bNAME``) and underline (``_\bx``).
    """
    if len(line) > _WIDEST_OVERSTRUCK:
        return line.replace("\b", "")
    cells: list[str] = []
    at = 0
    for char in line:
        if char == "\b":
            at = max(at - 1, 0)
            continue
        if at < len(cells):
            cells[at] = char
        else:
            cells.append(char)
        at += 1
    return "".join(cells)


def sanitize(text: str) -> str:
    """Return ``text`` as plain lines: no escapes, no ``\\r`` redraws, no long blank runs."""
    try:
        if not text:
            return ""
        # Each rule runs only when the text holds what it acts on; the checks
        # cost a pass at memory speed, the rules a regex over every character.
        if "\x1b" in text or "\x9b" in text:
            text = _ESCAPES.sub("", text).replace("\x1b", "")  # a cut-off escape leaves a bare ESC
        if "\r" in text:
            text = text.replace("\r\n", "\n")
            if "\r" in text:
                text = "\n".join(_last_carriage_state(line) if "\r" in line else line for line in text.split("\n"))
        if "\b" in text:
            text = "\n".join(_overstruck(line) if "\b" in line else line for line in text.split("\n"))
        trailing, blank_run = _speedups.line_end_flags(text)
        if trailing:
            text = _TRAILING_SPACE.sub("", text)
        elif not blank_run:
            return text  # without trailing blanks a blank run is four newlines in a row
        return _BLANK_RUN.sub("\n\n", text)
    except Exception:  # noqa: BLE001 - sanitising must never take the pipeline down
        return text if isinstance(text, str) else ""
