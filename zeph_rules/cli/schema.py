"""`zeph-rules schema`: print the JSON Schema of rule files, for editors."""

from __future__ import annotations

import json

import click


@click.command()
def schema() -> None:
    """Print a JSON Schema of rule files (generated from the validation models)."""
    from ..engine.lint.schema import rule_file_schema

    click.echo(json.dumps(rule_file_schema(), indent=2, ensure_ascii=False))
