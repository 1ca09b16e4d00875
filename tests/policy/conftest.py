"""Shared rule files for the policy tests."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from zeph_rules.engine.graph import MatcherGraph
from zeph_rules.engine.loader import load

ALLOW_ALL_BASH = """
[tools.permissions]
bash = [ { pattern = "*", action = "allow" } ]
"""


def graph_from(tmp_path: Path, text: str, name: str = "rules.toml") -> MatcherGraph:
    """Load the built-ins plus one rule file written from ``text``."""
    path = tmp_path / name
    path.write_text(text)
    return load([path], cache=False)


@pytest.fixture(scope="session")
def make_graph() -> Callable[[Path, str], MatcherGraph]:
    """Return ``graph_from`` (test modules cannot import a conftest)."""
    return graph_from


@pytest.fixture(scope="session")
def allow_all(tmp_path_factory: pytest.TempPathFactory) -> MatcherGraph:
    """A rule set that allows every bash command: only the blocklist can object."""
    return graph_from(tmp_path_factory.mktemp("rules"), ALLOW_ALL_BASH)
