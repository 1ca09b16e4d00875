"""``zeph-rules``: check, filter, decide, scan and bench from the shell.

Commands parse arguments, call the public API and format results; nothing
else.  ``main(argv)`` returns the exit code (0 success, 1 findings or a failed
check, 2 usage error) and is the only place domain errors become messages.
The warm path (``decide``, ``filter`` with a fresh cache) must not import the
front end, so engine modules are imported inside the commands.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Sequence

import click

from .._version import __version__

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Output format; JSON is stable and documented.")
RULES = click.option("--rules", "rules", multiple=True, type=click.Path(dir_okay=False),
                     help="A rule file (TOML or YAML); repeat to merge several, in order.")
NO_BUILTIN = click.option("--no-builtin", is_flag=True, help="Do not load the built-in rules.")


def _version_text() -> str:
    from .. import _speedups

    return f"zeph-rules {__version__} ({_speedups.IMPLEMENTATION})"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", message="%(version)s", package_name="zeph-rules")
def cli() -> None:
    """A compiled rules engine for the tool layer of AI agents."""


# click's version_option prints only the version; we also name the implementation.
cli.params = [p for p in cli.params if p.name != "version"]


@click.command(name="version", hidden=True)
def _version() -> None:
    click.echo(_version_text())


@cli.command()
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


@cli.command()
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


@cli.command()
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("--version", "-V"):
        click.echo(_version_text())
        return 0
    from ..engine.errors import ZephRulesError

    try:
        cli.main(args=args, prog_name="zeph-rules", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 1
    except click.ClickException as exc:
        exc.show()
        return 2 if isinstance(exc, click.UsageError) else exc.exit_code
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    except ZephRulesError as exc:
        for diagnostic in exc.diagnostics:
            click.echo(diagnostic.render(), err=True)
        click.echo(f"error: {exc}", err=True)
        return exc.exit_code
    except BrokenPipeError:
        return 0
    return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
