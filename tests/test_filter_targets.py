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


_CLEAN_CLIPPY = "    Checking tinycalc v0.4.0 (/w/tinycalc)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.54s\n"


@pytest.mark.parametrize(
    ("command", "trailer"),
    [
        ('cargo clippy -- -D warnings; echo "exit=$?"', "exit=0\n"),
        ("cargo clippy; echo exit: $?", "exit: 0\n"),
        ('cargo clippy; echo "status ${PIPESTATUS[0]} at $(date +%T)"', "status 0 at 12:00:01\n"),
        ('cargo clippy; echo "exit=$?"; echo done', "exit=0\ndone\n"),
        ("cd x && cargo clippy || true; echo $?", "0\n"),
    ],
)
def test_what_a_trailing_echo_printed_is_not_the_tools_output(
        builtins: zeph_rules.MatcherGraph, command: str, trailer: str) -> None:
    # the clippy rule does not know an "exit=0" line: read with it, the clean run fell back
    result = builtins.filter(command, _CLEAN_CLIPPY + trailer, 0)
    assert result.confidence.name == "FULL" and result.output == _CLEAN_CLIPPY + trailer


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ('cargo clippy; echo "exit=$?"', _CLEAN_CLIPPY + "exit=zero\n"),  # not what the echo prints
        ("cargo clippy; echo $HOME", _CLEAN_CLIPPY + "/root\n"),  # an echo of nothing known
        ("cargo clippy; echo -n done", _CLEAN_CLIPPY + "done"),
        ('cargo clippy; printf "%s\\n" done', _CLEAN_CLIPPY + "done\n"),
    ],
)
def test_an_echo_whose_line_is_not_recognised_is_left_to_the_rules(
        builtins: zeph_rules.MatcherGraph, command: str, output: str) -> None:
    assert builtins.filter(command, output, 0).confidence.name == "FALLBACK"
