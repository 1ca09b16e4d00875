"""The output-filter strategies: one pure function per ``strategy.type``.

Every strategy takes the sanitised output, its parameters as a plain mapping
(defaults filled in; optional ones may be None) and the command's exit code,
and returns a ``StrategyResult``.  None of them raises, none returns more
text than it was given, and each cut leaves a marker saying what went.

``STRATEGIES`` imports a strategy's module the first time it is looked up:
filtering one command's output runs one or two strategies, and the warm CLI
path should not pay for compiling the regexes of the other seven.
"""

from __future__ import annotations

from _collections_abc import Mapping  # collections.abc's class, without importing collections (see _common)

from ._common import Confidence, StrategyFn, StrategyResult

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Iterator

#: strategy ``type`` -> the module (in this package) defining a function of that name
_MODULES = {
    "strip_noise": "strip_noise",
    "keep_matching": "keep_matching",
    "strip_annotated": "strip_annotated",
    "truncate": "truncate",
    "test_summary": "test_summary",
    "group_by_rule": "group_by_rule",
    "git_status": "git_status",
    "git_diff": "git_diff",
    "dedup": "dedup",
}


class _Registry(Mapping[str, StrategyFn]):
    """Strategy ``type`` -> function, each module imported on first lookup."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, StrategyFn] = {}

    def __getitem__(self, name: str) -> StrategyFn:
        found = self._loaded.get(name)
        if found is None:
            module = self._modules[name]  # KeyError for an unknown type, as a dict
            # __import__ with a fromlist returns the submodule, as importlib.import_module would; importing
            # importlib would cost every ``filter`` process a module or two
            found = self._loaded[name] = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._modules

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


#: strategy ``type`` -> function
STRATEGIES: Mapping[str, StrategyFn] = _Registry(_MODULES)

__all__ = ["STRATEGIES", "Confidence", "StrategyFn", "StrategyResult"]
