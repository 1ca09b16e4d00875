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
