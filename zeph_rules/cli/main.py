"""``zeph-rules``: check, filter, decide, scan and bench from the shell.

Commands parse arguments, call the public API and format results; nothing
else.  ``main(argv)`` returns the exit code (0 success, 1 findings or a failed
check, 2 usage error) and is the only place domain errors become messages.
The warm path (``decide``, ``filter`` with a fresh cache) must not import the
front end, so engine modules are imported inside the commands.
"""

from __future__ import annotations

import sys
from typing import Sequence

import click

from .._version import __version__




def _version_text() -> str:
    from .. import _speedups

    return f"zeph-rules {__version__} ({_speedups.IMPLEMENTATION})"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", message="%(version)s", package_name="zeph-rules")
def cli() -> None:
    """A compiled rules engine for the tool layer of AI agents."""


# click's version_option prints only the version; main() answers --version itself
# so that it can also name the implementation.
cli.params = [p for p in cli.params if p.name != "version"]


def _register() -> None:
    """Attach the commands; each lives in its own module."""
    from .bench import bench
    from .check import check
    from .decide import decide
    from .filter import filter_command
    from .hook import hook
    from .scan import scan
    from .schema import schema

    for command in (check, decide, filter_command, bench, hook, scan, schema):
        cli.add_command(command)


_register()


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
