"""sanitize: what a terminal would have shown, as plain lines."""

from __future__ import annotations

import pytest

from zeph_rules.engine.sanitize import sanitize


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[1m\x1b[31merror\x1b[0m: boom", "error: boom"),
        ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("\x1b]0;title\x07text", "text"),
        ("\x1b(Bplain", "plain"),
        ("  0%\r 50%\r100%\ndone", "100%\ndone"),
        ("line\r\nnext\r\n", "line\nnext\n"),
        ("progress 10%\r", "progress 10%"),
        # a message written over a progress display starts its own line: where the progress stopped stays
        ("Rebasing (1/6)\rRebasing (2/6)\rRebasing (3/6)\rAuto-merging x.py\nCONFLICT", "Rebasing (3/6)\nAuto-merging x.py\nCONFLICT"),
        # counters, bars and spinners are one display whatever their first character
        ("  0   0 --:--\r100 292k 111M --:--\n", "100 292k 111M --:--\n"),
        ("\u280b Installing\r\u2819 Installing\r\u2839 Installed 3\n", "\u2839 Installed 3\n"),
        # a pip bar under its `Downloading` line: the line and the bar's last state
        ("Downloading x.whl (1.2 MB)\r\u2501\u2501 0.1/1.2 MB\r\u2501\u2501\u2501 1.2/1.2 MB\n", "Downloading x.whl (1.2 MB)\n\u2501\u2501\u2501 1.2/1.2 MB\n"),
        # a line cleared with blanks before the next state
        ("Receiving objects:  50%\r                    \rReceiving objects: 100%, done.", "Receiving objects: 100%, done."),
        # curl -v's body (stdout, no newline) with its meter (stderr) redrawn after it: the body is data, not
        # a display state, and stays
        ('{"count":3,' + "x" * 2000 + "\r100 67811  100 67811\n", '{"count":3,' + "x" * 2000 + "\n100 67811  100 67811\n"),
        # a spinner drawn with backspaces (pip under a terminal): what stays on screen is the word after it
        ("  Building editable for x (pyproject.toml) ... -\b \b\\\b \bdone\r\n", "  Building editable for x (pyproject.toml) ... done\n"),
        # a manual page's bold and underline, and a backspace written over by fewer characters than it crossed
        ("N\bNA\bAM\bME\bE _\bx\nabc\b\bX\n\bstart", "NAME x\naXc\nstart"),
        ("trailing   \nspace\t\n", "trailing\nspace\n"),
        ("a\n\n\n\n\nb", "a\n\nb"),
        ("a\n\nb\n\n\nc", "a\n\nb\n\n\nc"),
        ("", ""),
    ],
)
def test_sanitize(raw: str, clean: str) -> None:
    assert sanitize(raw) == clean


def test_sanitize_never_raises_on_odd_input() -> None:
    assert sanitize("\x1b[") == "["
    assert sanitize("\r\r\r") == ""


def test_a_line_of_text_ending_in_a_carriage_return_is_no_redraw() -> None:
    # a program's message ending in "\r" (a file with CRLF endings, quoted), then the quote after it: the
    # quote draws no display over the message (batch 83b: the line said what failed)
    clean = sanitize("+tests/crlf.knot: line 2: expected '=' in \"b {\r\"\n")
    assert clean.split("\n")[0] == "+tests/crlf.knot: line 2: expected '=' in \"b {"
    # counters, bars and check marks still redraw one display: its last state stays
    assert sanitize(" 10%\r 20%\r 30%\n") == " 30%\n"
    assert sanitize("  ✓✓\r  ✓✓✓\n") == "  ✓✓✓\n"
