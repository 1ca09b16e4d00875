"""Benchmarks run once per available implementation, with explicit names."""

from __future__ import annotations

from typing import Iterator

import pytest

from zeph_rules import _speedups


@pytest.fixture(params=_speedups.available())
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    original = _speedups.IMPLEMENTATION
    _speedups.select(request.param)
    yield request.param
    _speedups.select(original)
