"""The linter: semantic checks over loaded rule files, as small named passes.

Validation (``desugar``) finds what is wrong with one value; the passes here
find what is wrong with the rules together — a rule no input can reach, a
regex that can backtrack for ever, an inline test the whole rule set fails.
Each pass is a function from a ``LintContext`` to diagnostics, listed in
``LINT_PASSES``; ``check_files`` loads, validates, runs them all and returns
every problem of the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import ERROR, WARNING, Diagnostic
from .blocklist_ids import unknown_blocklist_ids
from .context import LintContext
from .dependencies import dependency_gates
from .determinism import determinism
from .duplicates import duplicate_names
from .inline_tests import inline_tests
from .pattern_sets import unused_pattern_sets
from .reachability import unreachable_rules
from .regex_shape import regex_shapes

LintPass = Callable[[LintContext], Iterable[Diagnostic]]

#: The passes ``check`` runs, in order (cheap, local ones first).
LINT_PASSES: tuple[LintPass, ...] = (
    regex_shapes,
    duplicate_names,
    unused_pattern_sets,
    unknown_blocklist_ids,
    unreachable_rules,
    dependency_gates,
    inline_tests,
    determinism,
)


@dataclass(frozen=True)
class CheckReport:
    """Every diagnostic of one ``check`` run, and the files it looked at."""

    diagnostics: tuple[Diagnostic, ...]
    files: tuple[str, ...]

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == ERROR)

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == WARNING)


def _display(path: Path, builtin_dir: Path) -> str:
    try:
        if path.resolve().is_relative_to(builtin_dir):
            return f"<builtin>/{path.name}"
    except (ValueError, OSError):
        pass
    return str(path)


def check_files(paths: Sequence[str | Path] = (), builtin: bool = True,
                passes: Sequence[LintPass] = LINT_PASSES) -> CheckReport:
    """Validate and lint rule files; with no paths, lint the built-in rules.

    The built-ins take part (inline tests see the whole rule set) unless
    ``builtin`` is False or a checked file sets ``[tools.filters] builtin = false``;
    only the checked files' problems are reported.
    """
    from ..desugar import desugar
    from ..loader import BUILTIN_DIR, builtin_paths
    from ..source import read_rule_file

    user = [read_rule_file(p, _display(Path(p), BUILTIN_DIR)) for p in paths]
    opted_out = any(_builtin_disabled(src.data) for src in user)
    builtins = [read_rule_file(p, _display(p, BUILTIN_DIR)) for p in builtin_paths()] if (builtin or not paths) and not opted_out else []
    sources = tuple(builtins + user)
    checked = frozenset(s.path for s in (user if paths else builtins))
    ruleset = desugar(sources)
    ctx = LintContext(sources, ruleset, checked)
    found = [d for d in ruleset.diagnostics if d.file in checked]
    found += lint(ctx, passes)
    order = {name: i for i, name in enumerate(s.path for s in sources)}
    unique = dict.fromkeys(sorted(found, key=lambda d: (order.get(d.file, len(order)), d.file, d.line, d.col, d.code, d.message)))
    return CheckReport(tuple(unique), tuple(s.path for s in sources if s.path in checked))


def lint(ctx: LintContext, passes: Sequence[LintPass] = LINT_PASSES) -> list[Diagnostic]:
    """Run ``passes`` over ``ctx``; a pass that crashes becomes one diagnostic, never a traceback."""
    found: list[Diagnostic] = []
    for lint_pass in passes:
        try:
            found.extend(d for d in lint_pass(ctx) if d.file in ctx.checked)
        except Exception as exc:  # noqa: BLE001 - one broken check must not hide the others' findings
            file = next(iter(sorted(ctx.checked)), "<rules>")
            found.append(Diagnostic(file, 1, 1, WARNING, "ZR900",
                                    f"internal error in check `{lint_pass.__name__}`: {type(exc).__name__}: {exc}",
                                    hint="please report this; the other checks ran"))
    return found


def _builtin_disabled(data: object) -> bool:
    tools = data.get("tools") if isinstance(data, dict) else None
    filters = tools.get("filters") if isinstance(tools, dict) else None
    return isinstance(filters, dict) and filters.get("builtin") is False


__all__ = ["LINT_PASSES", "CheckReport", "LintContext", "LintPass", "check_files", "lint"]
