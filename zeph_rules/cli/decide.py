"""`zeph-rules decide`: the decision for one tool call."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from .options import FORMAT, NO_BUILTIN, RULES


@click.command()
@click.option("--tool", required=True, help="The tool being called, e.g. bash, read, write.")
@click.option("--input", "input_text", help="The tool's input: the command for bash, the path for file tools.")
@click.option("--args", "args_json", help="The tool's arguments as a JSON object.")
@click.option("--session", "session_file", type=click.Path(dir_okay=False),
              help='A session file: {"calls": N, "history": [{"tool": ..., "input": ...}]}, for sequences and quotas.')
@RULES
@NO_BUILTIN
@FORMAT
def decide(tool: str, input_text: str | None, args_json: str | None, session_file: str | None, rules: Sequence[str],
           no_builtin: bool, fmt: str) -> None:
    """Decide allow / ask / deny for one tool call and name the rule that decided (exit 0 whatever it is)."""
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
    from ..engine.policy import decide as decide_call
    from ..engine.session import Session

    session = None
    if session_file is not None:
        try:
            session = Session.load(session_file)
        except (OSError, ValueError) as exc:
            raise click.UsageError(f"--session {session_file}: {exc}") from None
    graph = load(rules, builtin=not no_builtin)
    decision = decide_call(graph, tool, payload, session)
    if fmt == "json":
        click.echo(json.dumps(decision.as_json(), ensure_ascii=False))
        return
    click.echo(f"{decision.decision}: {decision.reason}")
    if decision.source:
        click.echo(f"  rule: {decision.rule} ({decision.source})")
    if decision.why_not:
        click.echo(f"  why not: {decision.why_not}")
