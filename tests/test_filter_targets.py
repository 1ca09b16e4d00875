"""Built-in filters see through wrappers: `timeout 60 go test` is filtered as `go test`."""

from __future__ import annotations

import pytest

import zeph_rules


@pytest.fixture(scope="module")
def builtins() -> zeph_rules.MatcherGraph:
    return zeph_rules.load(builtin=True, cache=False)


@pytest.mark.parametrize(
    ("wrapped", "bare"),
    [
        ("time pytest -x", "pytest -x"),
        ("timeout 60 go test ./...", "go test ./..."),
        ("env CI=1 npm test", "npm test"),
        ("bash -c 'cargo test 2>&1'", "cargo test"),
        ("sudo apt-get install -y jq", "apt-get install -y jq"),
        ("nice -n 10 make -j4", "make -j4"),
        ("npx --yes jest --ci", "jest --ci"),
    ],
)
def test_wrapped_commands_get_the_bare_commands_rules(builtins: zeph_rules.MatcherGraph, wrapped: str, bare: str) -> None:
    names = [rule.id for rule in builtins.matching_filters(wrapped)]
    assert names, wrapped
    if not bare.startswith("jest"):
        assert names == [rule.id for rule in builtins.matching_filters(bare)]
    else:
        assert "js-test" in names


def test_env_is_a_wrapper_not_a_listing_of_the_environment(builtins: zeph_rules.MatcherGraph) -> None:
    assert "system-info" not in [rule.id for rule in builtins.matching_filters("env CI=1 npm test")]
    assert "system-info" in [rule.id for rule in builtins.matching_filters("env")]
