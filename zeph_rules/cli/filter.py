"""`zeph-rules filter`: filter a command's output read from stdin."""

from __future__ import annotations

from collections.abc import Sequence

import click

from .filter_core import run_filter
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
    # main() runs the command lines it fully understands without click; both reach run_filter
    run_filter(command, exit_code, rules, no_builtin, stats, fmt)
