"""zeph-rules: a declarative, compiled rules engine for the tool layer of AI agents.

    >>> import zeph_rules
    >>> graph = zeph_rules.load(["rules.toml"])          # cached, compiled
    >>> graph.first_match("bash", "git push --force")     # the rule that decides
    >>> graph.matching_filters("cd app && cargo test")    # filters for an output

Attributes are imported lazily so that loading a cached graph does not import
the rule-file front end (lark, pydantic, tomlkit).
"""

from __future__ import annotations

from ._version import __version__

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from .engine.compiler import compile_rules as compile_rules
    from .engine.errors import Diagnostic as Diagnostic
    from .engine.errors import ZephRulesError as ZephRulesError
    from .engine.graph import MatcherGraph as MatcherGraph
    from .engine.graph import NaiveEvaluator as NaiveEvaluator
    from .engine.ir import Rule as Rule
    from .engine.loader import load as load
    from .engine.loader import load_ruleset as load_ruleset
    from .engine.ruleset import RuleSet as RuleSet

_LAZY = {
    "load": ("engine.loader", "load"),
    "load_ruleset": ("engine.loader", "load_ruleset"),
    "compile_rules": ("engine.compiler", "compile_rules"),
    "MatcherGraph": ("engine.graph", "MatcherGraph"),
    "NaiveEvaluator": ("engine.graph", "NaiveEvaluator"),
    "Rule": ("engine.ir", "Rule"),
    "RuleSet": ("engine.ruleset", "RuleSet"),
    "Diagnostic": ("engine.errors", "Diagnostic"),
    "ZephRulesError": ("engine.errors", "ZephRulesError"),
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'zeph_rules' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(f".{module_name}", __name__), attr)
    globals()[name] = value
    return value
