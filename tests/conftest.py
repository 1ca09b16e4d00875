"""Run every test against each available implementation of the hot paths.

The session-scoped, parametrised, autouse fixture makes pytest run the whole
suite once with the compiled twins and once with the pure ones (where the
extensions were built), the MarkupSafe / aio-libs way.

A test marked ``one_implementation`` runs once, with the compiled twins where
they were built: what it walks (every fixture through the plan cache, the CLI's
cache, each strategy alone and behind a task runner, the corpus' savings, the
repository's files) costs minutes and reaches the twins only through the
filters, which the twin tests and the fixture pipeline's test (every case, with
each implementation) already hold to the same output.
"""

from __future__ import annotations

import os
from typing import Iterator

import pytest

from zeph_rules import _speedups

os.environ.setdefault("ZEPH_RULES_CACHE_DIR", "off")  # tests opt in to caching explicitly


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "compiled" not in _speedups.available():
        return  # a pure-only install: the pure twins are the only ones, and everything runs with them
    kept: list[pytest.Item] = []
    again: list[pytest.Item] = []
    for item in items:
        params = item.callspec.params if isinstance(item, pytest.Function) and hasattr(item, "callspec") else {}
        pure_again = params.get("implementation") == "pure" and item.get_closest_marker("one_implementation") is not None
        (again if pure_again else kept).append(item)
    if again:
        config.hook.pytest_deselected(items=again)
        items[:] = kept


@pytest.fixture(scope="session", autouse=True, params=_speedups.available())
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Bind the hot paths to one implementation for the tests that follow."""
    original = _speedups.IMPLEMENTATION
    _speedups.select(request.param)
    yield request.param
    _speedups.select(original)
