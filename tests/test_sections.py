"""A runner's output of several tools, each below the command it echoed, is filtered section by section."""

from __future__ import annotations

import functools

import pytest
from fixture_cases import regenerate_goldens

import zeph_rules
from zeph_rules.engine.delegation import could_show
from zeph_rules.engine.sections import head_program, split

_goldens = regenerate_goldens()


@functools.cache
def _graph() -> zeph_rules.MatcherGraph:
    return zeph_rules.load(builtin=True, cache=False)


@functools.cache
def _case(name: str):  # noqa: ANN202 - the fixture module's case type
    return next(case for case in _goldens.load_cases() if case.name == name)


def _filtered(name: str) -> zeph_rules.FilterResult:
    case = _case(name)
    return _graph().filter(case.command, case.raw, case.exit_code)


def test_make_ci_groups_clippys_warnings_and_summarises_the_test_run_below() -> None:
    # batch 46: `make ci` echoes `cargo fmt --check`, `cargo clippy --all-targets` and `cargo test`; the 120
    # clippy warnings above the test run were each kept with their location, 1,373 lines -> 404; as its own
    # section clippy's output is grouped by lint, and cargo test's run is summarised below its echo
    result = _filtered("make/q46_make_ci_120_clippy_warnings_then_test_fails")
    lines = result.output.split("\n")
    assert "== warning[clippy::let_and_return] x30: returning the result of a `let` binding from a block" in lines
    assert "   --> src/tables.rs:498:5" in lines  # every location stays
    at = lines.index("cargo test")
    assert lines.index("cargo clippy --all-targets") < at
    assert "thread 'cellref::tests::parses_refs' (24931) panicked at src/cellref.rs:66:9:" in lines[at:]
    assert lines[-2:] == ["make: *** [Makefile:12: test] Error 101", ""]
    assert len(lines) < 220


def test_a_runner_with_two_test_runners_summarises_each() -> None:
    # batch 44b: `make -k test` runs go test, cargo test and pytest; no one tool's rules read all three, so
    # make's own rules cut the middle (5.8 % saved); section by section each run keeps its failures
    result = _filtered("make/q44b_make_k_test_everything")
    case = _case("make/q44b_make_k_test_everything")
    assert not _goldens.lost_lines(result.output, case.must_survive)
    assert "... (" in result.output and len(result.output) < 0.85 * len(case.raw)
    assert "go-test" in result.rules and "cargo-test" in result.rules and "pytest" in result.rules


def test_split_reads_each_runners_echo_and_the_exit_code_make_reports_after_it() -> None:
    prelude, sections = split(_case("make/q44b_make_k_test_everything").raw, 2) or ([], [])
    assert prelude == []
    assert [section.head for section in sections] == [
        ["npx tsc -b"], ["cd services/api && go test ./..."], ["cd crates/codec && cargo test --quiet"],
        ["python3 -m pytest -q tools"],
    ]
    assert [section.exit_code for section in sections] == [2, 1, 101, 2]  # the last: the run's own
    assert sections[1].tail == ["make: *** [Makefile:17: test-api] Error 1"]
    npm = split(_case("npm/q46_npm_run_ci_120_warnings_then_jest_fails").raw, 1)
    assert npm is not None
    assert [section.head for section in npm[1]][1:] == [
        ["> invoice-ts@1.3.0 lint", "> eslint ."], ["> invoice-ts@1.3.0 typecheck", "> tsc --noEmit"],
        ["> invoice-ts@1.3.0 test", "> jest"],
    ]
    tox = split(_case("tox/q46_tox_lint_py_both_fail").raw, 1)
    assert tox is not None
    assert [section.head for section in tox[1]] == [["lint: commands[0]> ruff check ."], ["py: commands[0]> pytest -q"]]
    # tox's own lines after ruff's findings (its verdict on lint, the next environment's set-up) are no
    # linter's: ruff's "Found 5 errors." ends the section's body
    lint, py = tox[1]
    assert lint.body[-2] == "Found 5 errors."
    assert lint.tail[:2] == ["lint: exit 1 (0.01 seconds) /tmp/zeph-fixtures/q46/tally> ruff check . pid=23364",
                             "lint: FAIL ✖ in 2.25 seconds"]
    assert lint.tail[-1].startswith("py: install_package> ")
    assert py.tail[-2:] == ["  evaluation failed :( (7.77 seconds)", ""]


def test_one_echoed_command_is_no_sections() -> None:
    assert split("cargo test\nrunning 1 test\ntest a ... ok\n", 0) is None
    assert split("ruff check .\nAll checks passed!\n", 0) is None


@pytest.mark.parametrize(("echoed", "command", "program"), [
    ("cd api && npx jest -i", "cd api && npx jest -i", "jest"),
    ("py: commands[0]> python -m pytest -q", "python -m pytest -q", "pytest"),
    ("+ cargo test --workspace", "cargo test --workspace", "cargo"),
    ("cd crates/core && RUST_LOG=1 cargo test", "cd crates/core && RUST_LOG=1 cargo test", "cargo"),
    ("> shop@1.0.0 lint\n> eslint .", "eslint .", "eslint"),
    ("pnpm exec vitest run", "pnpm exec vitest run", "vitest"),
    ("./scripts/test.sh", "./scripts/test.sh", "test.sh"),
    ("nox > uv run ruff check src", "uv run ruff check src", "ruff"),
    # pre-commit's hook line reads as a recipe line; it is no shell, and its program is its first word
    ("mypy (src)....................Failed", "mypy (src)....................Failed", "mypy"),
])
def test_head_program_names_what_the_echoed_command_runs(echoed: str, command: str, program: str) -> None:
    _, sections = split(f"{echoed}\nout\n{echoed}\nout\n", 0) or ([], [])
    assert [section.command for section in sections] == [command, command]  # past the runner's prefix
    assert head_program(command) == program


def test_recipes_run_in_parallel_are_not_cut_into_sections() -> None:
    # batch 32b: `make -k -j4 ci` echoes four recipes at once and their lines mix: the section under `node
    # --check src/price.js` shows ruff's findings, so no section is one tool's and make's own rules run
    case = _case("make/q32b_make_shop_k_j4_ci")
    _, sections = split(case.raw, case.exit_code) or ([], [])
    price = next(section for section in sections if section.head == ["node --check src/price.js"])
    assert head_program(price.command) == "node" and price.body[0].startswith("app/cart.py:22:34: B006 ")
    assert not could_show("node", "ruff check")
    result = _filtered("make/q32b_make_shop_k_j4_ci")
    assert "go-test" not in result.rules and "pytest" not in result.rules
