"""The DSL: what parses into which IR, and how errors are reported."""

from __future__ import annotations

import pytest

from zeph_rules.engine.ir import And, Compare, Not, Or, Regex, render
from zeph_rules.grammar import DslSyntaxError, parse_expression


def test_precedence_and_literals() -> None:
    expr = parse_expression('tool == "bash" and not command ~i "*sudo*" or exit_code >= 2')
    assert expr == Or((
        And((Compare("tool", "==", "bash"), Not(Compare("command", "~i", "*sudo*")))),
        Compare("exit_code", ">=", 2),
    ))
    assert parse_expression("command =~ /^cargo\\s+test/i") == Compare("command", "=~", Regex("^cargo\\s+test", "i"))
    assert parse_expression("tool in ['write', \"edit\"]") == Compare("tool", "in", ("write", "edit"))
    assert parse_expression("args.force") == Compare("args.force", "truthy", None)
    assert parse_expression("(output)") == Compare("output", "truthy", None)


def test_render_round_trips() -> None:
    text = 'tool == "bash" and (command ^= "git" or command $= ".sh") and not path ~ "/etc/**"'
    assert parse_expression(render(parse_expression(text))) == parse_expression(text)


@pytest.mark.parametrize(
    ("text", "offset", "message", "hint"),
    [
        ('comand == "x"', 0, "unknown field `comand`", "did you mean `command`?"),
        ('command = "x"', 8, "unexpected `=`", "did you mean `==`?"),
        ('command == "x" && tool == "y"', 15, "unexpected `&&`", "did you mean `and`?"),
        ('command == "x" AND tool == "y"', 15, "unexpected `AND`", "did you mean `and`?"),
        ('command == ', 11, "the expression ends too early", None),
        ('exit_code ~ "1*"', 10, "`~` works on text, but `exit_code` is a number", None),
        ('command < 3', 8, "`<` compares numbers, but `command` is a string", None),
        ("command =~ /(unclosed/", 21, "invalid regex: missing )", None),
        ("command =~ /x/q", 14, "unknown regex flag `q`", "flags are i, m, s and x"),
        ("command == /x/", 8, "`==` compares values; use `=~` to match a regex", None),
        ("", 0, "empty condition", None),
    ],
)
def test_errors_carry_offset_message_and_hint(text: str, offset: int, message: str, hint: str | None) -> None:
    with pytest.raises(DslSyntaxError) as info:
        parse_expression(text)
    assert (info.value.offset, info.value.message) == (offset, message)
    if hint is not None:
        assert info.value.hint == hint


def test_expected_tokens_are_named() -> None:
    with pytest.raises(DslSyntaxError) as info:
        parse_expression("command ==")
    assert "a string" in (info.value.hint or "") and "a /regex/" in (info.value.hint or "")
