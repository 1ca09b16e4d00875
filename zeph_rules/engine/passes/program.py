"""The value the passes transform: rules plus what the passes learned about them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ..ir import Rule


class IndexKey(NamedTuple):
    """A necessary condition the graph can look up instead of evaluating.

    ``kind`` is ``exact`` (field equals ``value``), ``prefix`` (field starts
    with it) or ``literal`` (field contains it); ``fold`` means the comparison
    is on casefolded text.
    """

    field: str
    kind: str
    value: str
    fold: bool


@dataclass(frozen=True)
class Program:
    rules: tuple[Rule, ...]
    #: rule order -> alternatives; the rule can only match if one of them holds.
    keys: dict[int, tuple[IndexKey, ...]] = field(default_factory=dict)
    dropped: tuple[tuple[Rule, str], ...] = ()

    def with_rules(self, rules: tuple[Rule, ...]) -> Program:
        return replace(self, rules=rules)
