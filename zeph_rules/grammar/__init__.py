"""Parse DSL condition strings into IR expressions.

The grammar is package data, loaded package-relative, and the LALR parser is
built once per process.  Errors carry the offset inside the expression so the
loader can point at the file's line and column inside the string.
"""

from __future__ import annotations

from .parser import DslSyntaxError, parse_expression

__all__ = ["DslSyntaxError", "parse_expression"]
