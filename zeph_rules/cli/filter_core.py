"""The behaviour of ``zeph-rules filter``, and a click-free parser for its common command lines.

``filter`` runs once per tool call, so its start-up time is part of every call.
Importing click costs about a fifth of a warm run; ``main()`` therefore parses
the command lines it fully understands here and runs :func:`run_filter`
directly.  Anything else -- help, an unknown or repeated option, a value click
would reject or interpret specially -- goes to the click command in
``filter.py``, which calls the same :func:`run_filter`, so there is one
definition of what ``filter`` does.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: options that take a value -> the parameter name of :func:`run_filter`
_VALUED = {"--command": "command", "--exit-code": "exit_code", "--rules": "rules", "--format": "fmt"}
#: flag options -> the parameter name of :func:`run_filter`
_FLAGS = {"--no-builtin": "no_builtin", "--stats": "stats"}
_FORMATS = ("text", "json")


def parse_filter_args(args: Sequence[str]) -> dict[str, Any] | None:
    """Return :func:`run_filter`'s keyword arguments for ``args`` (after ``filter``), or None to leave them to click.

    Accepted: ``--opt VALUE`` and ``--opt=VALUE`` for the valued options, the
    flags alone, ``--rules`` repeated, every other option at most once, and
    ``--command`` present.  A value is accepted only where click would accept
    it and read it the same way; a separate value that starts with ``-`` is
    left to click.
    """
    params: dict[str, Any] = {"command": None, "exit_code": None, "rules": [], "no_builtin": False,
                              "stats": False, "fmt": "text"}
    seen: set[str] = set()
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        name, eq, value = arg.partition("=")
        if name in _FLAGS and not eq:
            if name in seen:
                return None
            seen.add(name)
            params[_FLAGS[name]] = True
            continue
        if name not in _VALUED:
            return None  # help, "--", an argument, an unknown or abbreviated option: click decides
        if not eq:
            if i == len(args) or args[i].startswith("-"):
                return None
            value = args[i]
            i += 1
        if name == "--rules":
            if not _plain_path(value):
                return None
            params["rules"].append(value)
            continue
        if name in seen:
            return None
        seen.add(name)
        if name == "--exit-code":
            try:
                params["exit_code"] = int(value)
            except ValueError:
                return None
        elif name == "--format":
            if value not in _FORMATS:
                return None
            params["fmt"] = value
        else:
            params["command"] = value
    if params["command"] is None:
        return None
    params["rules"] = tuple(params["rules"])
    return params


def _plain_path(value: str) -> bool:
    """Whether click's ``Path(dir_okay=False)`` would take ``value`` unchanged: missing, or a readable non-directory."""
    try:
        if os.path.isdir(value):
            return False
        return not os.path.exists(value) or os.access(value, os.R_OK)
    except (OSError, ValueError):
        return False


def run_filter(command: str, exit_code: int | None, rules: Sequence[str], no_builtin: bool, stats: bool,
               fmt: str) -> None:
    """Filter stdin as the output of ``command`` and write what the model should see to stdout."""
    from .. import _regex
    from ..engine.cache import cache_dir

    # before the engine's modules compile their patterns at import
    _regex.open_cache(cache_dir())
    from ..engine.loader import load_plan
    from ..engine.pipeline import run_plan

    raw = sys.stdin.buffer.read()
    # surrogateescape keeps invalid UTF-8 bytes and writes them back unchanged
    text = raw.decode("utf-8", "surrogateescape")
    # the cached plan for this command line: what ``graph.filter`` would run, without loading the graph
    plan = load_plan(rules, not no_builtin, command, exit_code)
    result = run_plan(plan, command, text, exit_code, raw=raw)
    out = sys.stdout.buffer
    if fmt == "json":
        import json

        payload = result.as_json()
        payload["output"] = result.output.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        out.write(json.dumps(payload, ensure_ascii=False).encode("utf-8") + b"\n")
    else:
        out.write(result.output.encode("utf-8", "surrogateescape"))
    out.flush()
    if stats and result.stats_line:
        line = result.stats_line
        if line.isascii() and "\x1b" not in line:
            # what click.echo writes for such a line, without importing click
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
        else:
            import click  # it strips ANSI codes off a non-terminal and may re-wrap a misconfigured stream

            click.echo(line, err=True)
    _regex.save_cache()  # after the output: a first run's patterns are the next run's programs
