"""`zeph-rules check`: validate and lint rule files."""

from __future__ import annotations

from collections.abc import Sequence

import click

from .options import FORMAT, NO_BUILTIN


@click.command()
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@FORMAT
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--fix", is_flag=True, help="Apply safe fixes in place (did-you-mean renames, legacy sections), then check.")
@NO_BUILTIN
def check(files: Sequence[str], fmt: str, strict: bool, fix: bool, no_builtin: bool) -> None:
    """Validate and lint rule files (the built-in rules when no FILE is given)."""
    from ..engine.lint import check_files
    from .render import diagnostics_text, summary_line, to_json

    if fix and not files:
        raise click.UsageError("--fix needs the rule files to fix")
    fixes = []
    if fix:
        from ..engine.fix import fix_file

        for path in files:
            fixes.extend(fix_file(path))
    report = check_files(files, builtin=not no_builtin)
    diagnostics = report.diagnostics
    if fmt == "json":
        payload: dict[str, object] = {"diagnostics": [d.as_json() for d in diagnostics]}
        if fix:
            payload["fixes"] = [{"file": f.file, "line": f.line, "col": f.col, "description": f.description, "applied": f.applied} for f in fixes]
        click.echo(to_json(payload))
    else:
        for item in fixes:
            click.echo(item.render())
        if diagnostics:
            click.echo(diagnostics_text(diagnostics))
        click.echo(summary_line(diagnostics, len(report.files)))
    failed = bool(report.errors) or (strict and bool(diagnostics))
    raise SystemExit(1 if failed else 0)
