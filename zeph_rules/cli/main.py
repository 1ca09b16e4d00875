"""``zeph-rules``: check, filter, decide, scan and bench from the shell.

Commands parse arguments, call the public API and format results; nothing
else.  ``main(argv)`` returns the exit code (0 success, 1 findings or a failed
check, 2 usage error) and is the only place domain errors become messages.
The warm path (``decide``, ``filter`` with a fresh cache) must not import the
front end, so engine modules are imported inside the commands.  ``filter``
runs on every tool call, so ``main()`` runs its common command lines without
importing click at all (see ``filter_core``); the click group is built on first
use and is also reachable as ``main.cli``.
"""

from __future__ import annotations

import errno
import os
import sys

from .._memo import bounded_cache
from .._version import __version__

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence
    from typing import Any

    import click

    from ..engine.errors import ZephRulesError


def _version_text() -> str:
    from .. import _speedups

    return f"zeph-rules {__version__} ({_speedups.resolved_implementation()})"


#: command name -> (module in this package, attribute); each module is imported when its command is
#: looked up, so ``zeph-rules filter`` does not import what ``bench`` or ``check`` need
_COMMANDS: dict[str, tuple[str, str]] = {
    "bench": ("bench", "bench"),
    "check": ("check", "check"),
    "decide": ("decide", "decide"),
    "filter": ("filter", "filter_command"),
    "hook": ("hook", "hook"),
    "scan": ("scan", "scan"),
    "schema": ("schema", "schema"),
}


@bounded_cache(maxsize=1)  # not functools.cache: ``filter`` does not import functools
def _cli() -> click.Group:
    """Return the click group, built on first use: importing click is left until a command line needs it."""
    import click

    class _LazyGroup(click.Group):
        """A group whose commands live in their own modules, imported on first use."""

        def list_commands(self, ctx: click.Context) -> list[str]:
            return sorted({*self.commands, *_COMMANDS})

        def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
            if cmd_name not in self.commands and cmd_name in _COMMANDS:
                module, attribute = _COMMANDS[cmd_name]
                import importlib

                command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
                self.add_command(command, cmd_name)
            return super().get_command(ctx, cmd_name)

    @click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(__version__, "--version", "-V", message="%(version)s", package_name="zeph-rules")
    def cli() -> None:
        """A compiled rules engine for the tool layer of AI agents."""

    # click's version_option prints only the version; main() answers --version itself
    # so that it can also name the implementation.
    cli.params = [p for p in cli.params if p.name != "version"]
    return cli


def __getattr__(name: str) -> Any:
    if name == "cli":
        return _cli()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: click's shell-completion switch for prog_name "zeph-rules"; when set, click must see the command line
_COMPLETE_VAR = "_ZEPH_RULES_COMPLETE"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "filter" and not os.environ.get(_COMPLETE_VAR):
        from .filter_core import parse_filter_args

        params = parse_filter_args(args[1:])
        if params is not None:
            return _filter_without_click(params)
    return _main_click(args)


def _main_click(args: list[str]) -> int:
    """Run ``args`` through the click group: every command line ``main`` does not run itself."""
    import click

    if args and args[0] in ("--version", "-V"):
        click.echo(_version_text())
        return 0
    from ..engine.errors import ZephRulesError

    try:
        _cli().main(args=args, prog_name="zeph-rules", standalone_mode=False)
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
        return _report(exc)
    except BrokenPipeError:
        return 0
    return 0


#: set when ``main`` ran a filter without click and it succeeded: ``run`` may then skip the teardown
_filtered_without_click = False


def _filter_without_click(params: dict[str, Any]) -> int:
    """Run ``filter`` as ``_main_click`` would, exits and messages included, without importing click on success."""
    global _filtered_without_click
    from .filter_core import run_filter

    try:
        run_filter(**params)
    except (EOFError, KeyboardInterrupt):
        import click

        click.echo(file=sys.stderr)  # click closes the terminal's ^C echo, then reports the abort
        click.echo("Aborted.", err=True)
        return 1
    except Exception as exc:
        from ..engine.errors import ZephRulesError

        if isinstance(exc, ZephRulesError):
            return _report(exc)
        if not isinstance(exc, OSError) or exc.errno != errno.EPIPE:
            raise
        # what click does on a closed pipe: quiet the final flushes, exit 1
        from click import utils

        # the wrapper is _PacifyFlushWrapper from click 8.5 on (whose PacifyFlushWrapper warns), PacifyFlushWrapper before
        wrapper = getattr(utils, "_PacifyFlushWrapper", None)
        if wrapper is None:
            wrapper = getattr(utils, "PacifyFlushWrapper")  # noqa: B009 - a name click 8.5's annotations no longer have
        sys.stdout = wrapper(sys.stdout)
        sys.stderr = wrapper(sys.stderr)
        return 1
    _filtered_without_click = True
    return 0


def _report(exc: ZephRulesError) -> int:
    """Write a domain error's diagnostics and message to stderr; return its exit code."""
    import click

    for diagnostic in exc.diagnostics:
        click.echo(diagnostic.render(), err=True)
    click.echo(f"error: {exc}", err=True)
    return exc.exit_code


def run() -> None:
    """Console-script entry point."""
    if sys.argv[1:2] == ["filter"]:
        # A filter process lives for one tool call and creates no garbage
        # cycles worth collecting; the collector's passes over what imports and
        # parsing allocate cost it about 2 ms.
        import gc

        gc.disable()
    code = main()
    if _filtered_without_click:
        # A filter run ends here with its output written.  Tearing the
        # interpreter down (freeing every module and megabytes of output) would
        # cost about 2 ms of a 40 ms run on every tool call; there is nothing
        # left to run at exit (no atexit handler, no thread, no open file), so
        # flush and leave.
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - let the normal exit report it
            sys.exit(code)
        os._exit(code)
    sys.exit(code)
