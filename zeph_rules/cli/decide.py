"""`zeph-rules decide`: the decision for one tool call."""

from __future__ import annotations

import json
from typing import Any, Sequence

import click

from .options import FORMAT, NO_BUILTIN, RULES

@click.command()
@click.option("--tool", required=True, help="The tool being called, e.g. bash, read, write.")
@click.option("--input", "input_text", help="The tool's input: the command for bash, the path for file tools.")
@click.option("--args", "args_json", help="The tool's arguments as a JSON object.")
@RULES
@NO_BUILTIN
@FORMAT
def decide(tool: str, input_text: str | None, args_json: str | None, rules: Sequence[str], no_builtin: bool, fmt: str) -> None:
    """Decide allow / ask / deny for one tool call and name the rule that decided."""
    if (input_text is None) == (args_json is None):
        raise click.UsageError("give exactly one of --input or --args")
    payload: Any = input_text
    if args_json is not None:
        try:
            payload = json.loads(args_json)
        except json.JSONDecodeError as exc:
            raise click.UsageError(f"--args is not valid JSON: {exc.msg} at column {exc.colno}") from None
        if not isinstance(payload, dict):
            raise click.UsageError("--args must be a JSON object")
    from ..engine.loader import load

    graph = load(rules, builtin=not no_builtin)
    rule = graph.first_match(tool, payload)
    decision = rule.effect if rule is not None else "ask"
    result = {
        "decision": decision,
        "rule": rule.id if rule is not None else None,
        "source": str(rule.span) if rule is not None else None,
        "reason": (f"{rule.id} ({rule.span}) matched" if rule is not None else f"no permission rule for `{tool}` matched; the default is ask"),
    }
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False))
    else:
        click.echo(f"{decision}: {result['reason']}")
