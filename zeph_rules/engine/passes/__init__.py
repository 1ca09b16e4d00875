"""The compiler's passes, declared as data and run in order.

Each pass is a small named function from ``Program`` to ``Program``; adding a
pass means writing one module and listing it here.
"""

from __future__ import annotations

from collections.abc import Callable

from .index import index
from .normalise import normalise
from .program import IndexKey, Program
from .prune import prune
from .simplify import simplify

Pass = Callable[[Program], Program]

PASSES: tuple[Pass, ...] = (normalise, simplify, prune, index)


def run_passes(program: Program, passes: tuple[Pass, ...] = PASSES) -> Program:
    """Run ``passes`` over ``program`` in order."""
    for compiler_pass in passes:
        program = compiler_pass(program)
    return program


__all__ = ["PASSES", "IndexKey", "Pass", "Program", "run_passes"]
