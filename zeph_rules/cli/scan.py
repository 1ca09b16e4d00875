"""`zeph-rules scan`: report credential-shaped strings, never their values."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click

from .options import FORMAT, NO_BUILTIN, RULES


@click.command()
@click.argument("source", required=False, default="-", type=click.Path(dir_okay=False, allow_dash=True))
@RULES
@NO_BUILTIN
@FORMAT
def scan(source: str, rules: Sequence[str], no_builtin: bool, fmt: str) -> None:
    """Scan FILE (or stdin) for credentials; exit 1 when anything is found."""
    if source == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        try:
            with open(source, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            raise click.UsageError(f"cannot read {source}: {exc.strerror or exc}") from None
        name = source
    if rules:
        from ..engine.loader import load

        scanner = load(rules, builtin=not no_builtin).extra.get("scanner")
    else:
        from ..engine.security import default_scanner

        scanner = default_scanner()
    findings = scanner.scan(data) if scanner is not None else []
    if fmt == "json":
        payload = [{"rule": f.rule, "category": f.category, "line": f.line, "column": f.column, "length": f.length}
                   for f in findings]
        click.echo(json.dumps({"findings": payload}, indent=2))
    else:
        for f in findings:
            click.echo(f"{name}:{f.line}:{f.column}: {f.category}: {f.rule} ({f.length} characters)")
        noun = "finding" if len(findings) == 1 else "findings"
        click.echo(f"{len(findings)} {noun}." if findings else "No credentials found.")
    raise SystemExit(1 if findings else 0)
