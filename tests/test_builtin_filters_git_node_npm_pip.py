"""The built-in git, node, npm and pip filter rules on real output: which rule runs, and what stays."""

from __future__ import annotations

from pathlib import Path

import pytest

import zeph_rules
from zeph_rules.engine.graph import MatcherGraph
from zeph_rules.engine.strategies import Confidence

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def graph() -> MatcherGraph:
    return zeph_rules.load(builtin=True, cache=False)


def _raw(case: str) -> str:
    return (FIXTURES / case / "raw.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("command", "rules"),
    [
        ("git log -p -3 -- more_itertools/more.py", ("git-diff",)),
        ("git --no-pager log --patch", ("git-diff",)),
        ("git log -p --stat", ("git-diff",)),
        ("git whatchanged -p", ("git-diff",)),
        ("git stash show -p", ("git-diff",)),
        ("git -C repo --no-pager diff HEAD~1", ("git-diff",)),
        ("git show v10.2.0", ("git-diff",)),
        ("git log --stat", ("git-log",)),
        ("git log --graph -p", ("git-log",)),  # the graph's prefixes hide the diff lines
        ("git --no-pager log --oneline", ("git-log",)),
        ("git show HEAD:README.md", ()),  # a file's content, not a patch
        ("git show -s HEAD", ()),
        ("git show --stat", ()),
        ("git diff --stat", ()),
        ("git stash show", ()),
        ("git --no-pager push origin main", ("git-push",)),
        ("npm ls --all", ("npm-ls-all",)),
        ("npm ls --all debug", ()),  # the paths to one package are the answer
        ("npm ls", ()),
    ],
)
def test_which_rule_runs(graph: MatcherGraph, command: str, rules: tuple[str, ...]) -> None:
    assert graph.filter(command, "x\n", 0).rules == rules


def test_log_p_goes_through_the_diff_treatment(graph: MatcherGraph) -> None:
    raw = _raw("git/real_log_p_file")
    result = graph.filter("git log -p -3 -- more_itertools/more.py", raw, 0)
    assert result.rules == ("git-diff",)
    assert result.filtered_bytes < result.raw_bytes // 2
    lines = result.output.split("\n")
    assert "commit 879543b0df5c66656a436aca340f21de5ab70293" in lines
    assert "    Release 10.4.0" in lines
    assert "@@ -3650,12 +3820,16 @@ def is_sorted(iterable, key=None, reverse=False, strict=False):" in lines
    assert any(line.endswith("lines omitted in more_itertools/more.py) ...") for line in lines)


def test_node_internal_frames_go_and_the_users_stay(graph: MatcherGraph) -> None:
    result = graph.filter("node server.js", _raw("node/crash"), 1)
    assert "node-internal-frames" in result.rules
    lines = result.output.split("\n")
    assert "    at Module._compile (node:internal/modules/cjs/loader:1521:14)" not in lines
    assert "    at new URL (node:internal/url:806:29)" not in lines
    for kept in (
        "node:internal/url:806",
        "TypeError: Invalid URL",
        "    at connect (/tmp/zeph-fixtures/npm_shop/server.js:16:13)",
        "    at Object.<anonymous> (/tmp/zeph-fixtures/npm_shop/server.js:30:1)",
        "    at node:internal/main/run_main_module:28:49 {",  # opens the error's properties
        "  code: 'ERR_INVALID_URL',",
        "Node.js v20.20.2",
    ):
        assert kept in lines, kept
    assert "... (6 noise lines stripped) ..." in lines


def test_npm_ls_all_keeps_the_root_and_direct_dependencies(graph: MatcherGraph) -> None:
    raw = _raw("npm/ls_all")
    result = graph.filter("npm ls --all", raw, 0)
    assert result.confidence is Confidence.FULL
    lines = result.output.split("\n")
    assert lines[1:8] == [
        "npm-shop@1.0.0 /tmp/zeph-fixtures/npm_shop",
        "├── @eslint/js@9.9.1",
        "├─┬ eslint@9.9.1",
        "├─┬ express@4.19.2",
        "├─┬ jest@29.6.3",
        "└── typescript@5.5.2",
        "",
    ]
    assert lines[0].startswith("npm warn Unknown user config")
    assert "... (838 noise lines stripped) ..." in lines
    assert result.filtered_bytes < result.raw_bytes // 20


def test_npm_ls_all_keeps_problem_lines_at_any_depth(graph: MatcherGraph) -> None:
    # the real tree with one of its deep lines as npm prints a missing dependency
    raw = _raw("npm/ls_all").replace("\n│ │ │ │ └── callsites@3.1.0\n", "\n│ │ │ │ └── UNMET DEPENDENCY callsites@^3.0.0\n", 1)
    assert "UNMET DEPENDENCY callsites" in raw
    lines = graph.filter("npm ls --all", raw, 1).output.split("\n")
    assert "│ │ │ │ └── UNMET DEPENDENCY callsites@^3.0.0" in lines
    assert not any("UNMET OPTIONAL" in line for line in lines)  # an optional one is no problem


def test_pip_editable_keeps_obtaining(graph: MatcherGraph) -> None:
    lines = graph.filter("pip install -e .", _raw("pip/install_editable"), 0).output.split("\n")
    assert "Obtaining file:///tmp/zeph-fixtures/toolz-0.12.1" in lines
    assert "Successfully installed toolz-0.12.1" in lines
    assert not any("build_editable" in line or "editable metadata" in line for line in lines)


def test_pip_build_failure_keeps_the_error_and_drops_the_build_hooks(graph: MatcherGraph) -> None:
    raw = _raw("pip/install_build_fail")
    result = graph.filter("pip install --no-cache-dir mysqlclient==2.2.4", raw, 1)
    assert result.filtered_bytes < result.raw_bytes // 2
    text = result.output
    assert "pip/_vendor/pyproject_hooks" not in text and "setuptools/build_meta.py" not in text
    assert "json_out['return_val']" not in text and "^^^^" not in text
    for kept in (
        "Collecting mysqlclient==2.2.4",
        "  × Getting requirements to build wheel did not run successfully.",
        "      Command 'pkg-config --exists mariadb' returned non-zero exit status 1.",
        '        File "<string>", line 28, in find_package_name',
        "      Exception: Can not find valid pkg-config name.",
        "      Specify MYSQLCLIENT_CFLAGS and MYSQLCLIENT_LDFLAGS env vars manually",
        "error: subprocess-exited-with-error",
        "note: This error originates from a subprocess, and is likely not a problem with pip.",
    ):
        assert kept in text.split("\n"), kept
