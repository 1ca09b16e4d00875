"""`zeph-rules bench`: measure the hot paths."""

from __future__ import annotations

import json
from collections.abc import Sequence

import click

from .options import FORMAT


@click.command()
@click.option("--only", "only", multiple=True, help="Run only benchmarks whose name starts with this (repeatable).")
@click.option("--quick", is_flag=True, help="Fewer rounds; for smoke tests.")
@FORMAT
def bench(only: Sequence[str], quick: bool, fmt: str) -> None:
    """Measure the hot paths and print median/min/max per benchmark."""
    from ..bench import run_benchmarks

    results = run_benchmarks(only=tuple(only), quick=quick, progress=(lambda msg: click.echo(msg, err=True)) if fmt == "text" else None)
    if fmt == "json":
        click.echo(json.dumps([r._asdict() for r in results], indent=2))
        return
    width = max((len(r.name) for r in results), default=10)
    for r in results:
        click.echo(f"{r.name:<{width}}  {r.implementation:<8}  median {r.median:>12.3f} {r.unit:<7} min {r.min:>12.3f}  max {r.max:>12.3f}  n={r.n}")
