"""ZR610: filter examples whose output changes from one run to the next.

Every filter example is run twice with the current hot-path implementation
and once with each other available twin (compiled / pure); all runs must give
the same text and confidence.  A difference means a strategy depends on
state, ordering or the implementation — what users would see as flakiness.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import Diagnostic
from .context import LintContext
from .inline_tests import run_filter_example


def determinism(ctx: LintContext) -> Iterator[Diagnostic]:
    """Run each filter example repeatedly (and under each twin) and report differing outputs."""
    from ... import _speedups

    examples = [t for t in ctx.ruleset.tests if t.span.file in ctx.checked and t.get("expect") is None and t.get("command") is not None]
    if not examples:
        return
    original = _speedups.IMPLEMENTATION
    others = [name for name in _speedups.available() if name != original]
    for test in examples:
        runs = [(original, run_filter_example(ctx.graph, test)), (original, run_filter_example(ctx.graph, test))]
        try:
            for name in others:
                _speedups.select(name)
                runs.append((name, run_filter_example(ctx.graph, test)))
        finally:
            _speedups.select(original)
        first_name, first = runs[0]
        for name, result in runs[1:]:
            if (result.output, result.confidence) != (first.output, first.confidence):
                how = "a second run" if name == first_name else f"the {name} implementation"
                found = ctx.test_location(test)
                src, path = found if found is not None else (None, ())
                message = (f"filter output for `{test.get('command')}` is not deterministic: {how} gave a different result "
                           f"(filters: {', '.join(first.rules) or 'none'})")
                if src is None:
                    continue
                yield ctx.at(src, path, "ZR610", message, hint="a strategy depends on state or on the implementation; please report it")
                break
