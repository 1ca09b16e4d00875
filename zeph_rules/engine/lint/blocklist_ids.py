"""ZR602: `[tools.blocklist] disable` names an entry that does not exist.

`disable` removes blocklist entries one by one, by id.  An id no entry has (a
typo, or an entry renamed since the file was written) removes nothing, and says
nothing: the command it was meant to let through is still refused.  Reported
as a warning at the id, with the nearest real one.  The built-in entries count
whether or not the built-ins take part in the check: nothing switches them off.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from ..errors import WARNING, Diagnostic, did_you_mean
from .context import LintContext

BLOCKLIST = "blocklist"


def unknown_blocklist_ids(ctx: LintContext) -> Iterator[Diagnostic]:
    """Report every id in a checked file's `tools.blocklist.disable` that no blocklist entry has."""
    known: frozenset[str] | None = None
    for src in ctx.checked_sources():
        blocklist = _blocklist(src.data)
        disable = blocklist.get("disable") if isinstance(blocklist, dict) else None
        for index, name in enumerate(disable if isinstance(disable, list) else ()):
            if not isinstance(name, str):
                continue  # validation reports the type
            if known is None:
                known = _builtin_ids() | {rule.id for rule in ctx.ruleset.rules if rule.group == BLOCKLIST} | _written_ids(ctx)
            if name in known:
                continue
            yield ctx.at(src, ("tools", "blocklist", "disable", index), "ZR602",
                         f"`disable` names `{name}`, but no blocklist entry has that id, so nothing is disabled",
                         hint=did_you_mean(name, known) or "use the id of an entry of <builtin>/blocklist.toml or of this file",
                         severity=WARNING)


def _blocklist(data: object) -> object:
    tools = data.get("tools") if isinstance(data, dict) else None
    return tools.get("blocklist") if isinstance(tools, dict) else None


def _written_ids(ctx: LintContext) -> set[str]:
    """The ids of the entries the files write, also when their section failed validation (and made no rules)."""
    ids = set()
    for src in ctx.sources:
        blocklist = _blocklist(src.data)
        entries = blocklist.get("rules") if isinstance(blocklist, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                ids.add(entry["id"])
    return ids


@functools.lru_cache(maxsize=1)
def _builtin_ids() -> frozenset[str]:
    from ..desugar import desugar
    from ..loader import BUILTIN_DIR
    from ..source import read_rule_file

    ruleset = desugar([read_rule_file(BUILTIN_DIR / "blocklist.toml", "<builtin>/blocklist.toml")])
    return frozenset(rule.id for rule in ruleset.rules if rule.group == BLOCKLIST)
