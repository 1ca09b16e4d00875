"""Options shared by several commands."""

from __future__ import annotations

import click

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Output format; JSON is stable and documented.")
RULES = click.option("--rules", "rules", multiple=True, type=click.Path(dir_okay=False),
                     help="A rule file (TOML or YAML); repeat to merge several, in order.")
NO_BUILTIN = click.option("--no-builtin", is_flag=True, help="Do not load the built-in rules.")
