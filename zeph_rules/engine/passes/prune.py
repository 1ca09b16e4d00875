"""Drop rules that can never take part in a decision: disabled ones and ones
whose condition simplified to ``false`` (the linter reports the latter)."""

from __future__ import annotations

from dataclasses import replace

from ..ir import FALSE
from .program import Program


def prune(program: Program) -> Program:
    kept = []
    dropped = list(program.dropped)
    for rule in program.rules:
        if not rule.enabled:
            dropped.append((rule, "disabled"))
        elif rule.condition == FALSE:
            dropped.append((rule, "never matches"))
        else:
            kept.append(rule)
    return replace(program, rules=tuple(kept), dropped=tuple(dropped))
