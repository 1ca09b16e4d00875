"""`zeph-rules filter`: filter a command's output read from stdin."""

from __future__ import annotations

import sys
from typing import Sequence

import click

from .options import FORMAT, NO_BUILTIN, RULES

@click.command(name="filter")
@click.option("--command", "command", required=True, help="The command whose output is on stdin.")
@click.option("--exit-code", "exit_code", type=int, default=None, help="The command's exit code.")
@RULES
@NO_BUILTIN
@click.option("--stats", is_flag=True, help="Print the stats line to stderr when lines were removed.")
@FORMAT
def filter_command(command: str, exit_code: int | None, rules: Sequence[str], no_builtin: bool, stats: bool, fmt: str) -> None:
    """Filter stdin as the output of COMMAND and write what the model should see."""
    from ..engine.loader import load

    raw = sys.stdin.buffer.read()
    # surrogateescape keeps invalid UTF-8 bytes and writes them back unchanged
    text = raw.decode("utf-8", "surrogateescape")
    graph = load(rules, builtin=not no_builtin)
    result = graph.filter(command, text, exit_code)
    out = sys.stdout.buffer
    if fmt == "json":
        import json

        payload = result.as_json()
        payload["output"] = result.output.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        out.write(json.dumps(payload, ensure_ascii=False).encode("utf-8") + b"\n")
    else:
        out.write(result.output.encode("utf-8", "surrogateescape"))
    out.flush()
    if stats and result.stats_line:
        click.echo(result.stats_line, err=True)
