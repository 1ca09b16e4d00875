"""Run every test against each available implementation of the hot paths.

The session-scoped, parametrised, autouse fixture makes pytest run the whole
suite once with the compiled twins and once with the pure ones (where the
extensions were built), the MarkupSafe / aio-libs way.
"""

from __future__ import annotations

import os
from typing import Iterator

import pytest

from zeph_rules import _speedups

os.environ.setdefault("ZEPH_RULES_CACHE_DIR", "off")  # tests opt in to caching explicitly


@pytest.fixture(scope="session", autouse=True, params=_speedups.available())
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Bind the hot paths to one implementation for the tests that follow."""
    original = _speedups.IMPLEMENTATION
    _speedups.select(request.param)
    yield request.param
    _speedups.select(original)
