"""`zeph-rules check`: validate and lint rule files."""

from __future__ import annotations

from typing import Sequence

import click

from .options import FORMAT, NO_BUILTIN


@click.command()
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@FORMAT
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@NO_BUILTIN
def check(files: Sequence[str], fmt: str, strict: bool, no_builtin: bool) -> None:
    """Validate and lint rule files (the built-in rules when no FILE is given)."""
    from ..engine.loader import load_ruleset
    from .render import diagnostics_text, summary_line, to_json

    ruleset = load_ruleset(files, builtin=not files and not no_builtin)
    diagnostics = sorted(ruleset.diagnostics, key=lambda d: (d.file, d.line, d.col, d.code))
    if fmt == "json":
        click.echo(to_json({"diagnostics": [d.as_json() for d in diagnostics]}))
    else:
        if diagnostics:
            click.echo(diagnostics_text(diagnostics))
        click.echo(summary_line(diagnostics, len(ruleset.files)))
    failed = any(d.severity == "error" for d in diagnostics) or (strict and bool(diagnostics))
    raise SystemExit(1 if failed else 0)
