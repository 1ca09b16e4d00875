"""Source positions: where in a rule file a rule, a key or a value came from.

Its own module, free of the front end: every compiled rule carries a ``Span``,
so unpickling a cached graph on the warm path imports this and not the TOML
reader that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """A region of a file; lines and columns are 1-based, columns count characters."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"
