"""The output-filter strategies: one pure function per ``strategy.type``.

Every strategy takes the sanitised output, its parameters as a plain mapping
(defaults filled in; optional ones may be None) and the command's exit code,
and returns a ``StrategyResult``.  None of them raises, none returns more
text than it was given, and each cut leaves a marker saying what went.
"""

from __future__ import annotations

from ._common import Confidence, StrategyFn, StrategyResult
from .dedup import dedup
from .git_diff import git_diff
from .git_status import git_status
from .group_by_rule import group_by_rule
from .keep_matching import keep_matching
from .strip_annotated import strip_annotated
from .strip_noise import strip_noise
from .test_summary import test_summary
from .truncate import truncate

#: strategy ``type`` -> function
STRATEGIES: dict[str, StrategyFn] = {
    "strip_noise": strip_noise,
    "keep_matching": keep_matching,
    "strip_annotated": strip_annotated,
    "truncate": truncate,
    "test_summary": test_summary,
    "group_by_rule": group_by_rule,
    "git_status": git_status,
    "git_diff": git_diff,
    "dedup": dedup,
}

__all__ = ["STRATEGIES", "Confidence", "StrategyFn", "StrategyResult"]
