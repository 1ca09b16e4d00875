"""A task runner's output (``make test``, ``./scripts/ci.sh``) is filtered as the output of the tool it shows.

Every test run and lint report among the fixtures, given the command ``make
test`` (or ``make lint``) instead of its own, keeps every must-survive line:
before delegation, make's head-and-tail cut lost lines in 104 of 453 test runs
and 28 of 135 lint reports.
"""

from __future__ import annotations

import functools
import re

import pytest
from fixture_cases import regenerate_goldens

import zeph_rules
from zeph_rules.engine.delegation import TOOLS, is_chain, is_runner, shown_tool
from zeph_rules.engine.pipeline import DELEGATE, build_plan
from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import Confidence

_goldens = regenerate_goldens()
_TEST_TOOLS = ("pytest", "cargo", "go", "jest", "vitest", "unittest", "node", "mocha", "django")
_LINTERS = ("ruff", "mypy", "eslint", "flake8", "pylint", "shellcheck", "black")


@functools.cache
def _graph() -> zeph_rules.MatcherGraph:
    return zeph_rules.load(builtin=True, cache=False)


#: commands of these tools that neither run tests nor lint: a fetch, a listing, a program's run, a report in
#: JSON for another program (`go vet -json`), the compiler's own listings (`go build -gcflags=-S`) (make's own
#: rules read them)
#: (and Django's management commands other than `test`: migrate, collectstatic, check; and `pytest --co`,
#: which lists the tests it would run)
_NOT_A_RUN = re.compile(r"\b(?:cargo\s+(?:fetch|tree|metadata|run)|go\s+(?:list|mod|env|run)|go\s+vet\s+(?:\S+\s+)*-json"
                        r"|go\s+build\s+(?:\S+\s+)*-gcflags)\b"
                        r"|\bmanage\.py\s+(?!test\b)\w|\bpytest\s+(?:\S+\s+)*(?:--co|--collect-only)\b")


@functools.cache
def _all_cases() -> dict:
    """Every fixture case by name, read once for the module (reading them all takes a second)."""
    return {case.name: case for case in _goldens.load_cases()}


def _cases(tools: tuple[str, ...]) -> list:
    return [case for case in _all_cases().values()
            if case.name.split("/")[0] in tools and case.must_survive and not _NOT_A_RUN.search(case.command)]


@pytest.mark.parametrize(("runner", "tools"), [("make test", _TEST_TOOLS), ("make lint", _LINTERS)])
@pytest.mark.one_implementation
def test_every_must_survive_line_survives_behind_a_task_runner(runner: str, tools: tuple[str, ...]) -> None:
    graph = _graph()
    losing = []
    for case in _cases(tools):
        result = graph.filter(runner, case.raw, case.exit_code)
        lost = [entry for entry in _goldens.lost_lines(result.output, case.must_survive) if entry not in case.known_lost]
        # machine formats (github annotations, bandit's report, eslint's compact, JSON, SARIF and JUnit
        # reports) are no tool's signature: make's own rules run on them
        machine = ("github", "bandit", "compact", "grouped", "json", "sarif", "junit")
        if lost and not any(mark in case.name for mark in machine):
            losing.append((case.name, result.rules, lost[:2]))
    assert not losing


def test_the_output_picks_the_rules() -> None:
    graph = _graph()
    raw = _all_cases()["cargo/test_fail"].raw
    assert graph.filter("make test", raw, 2).rules == graph.filter("cargo test", raw, 2).rules
    pytest_raw = _all_cases()["pytest/fail"].raw
    assert graph.filter("./scripts/test.sh", pytest_raw, 1).rules == graph.filter("pytest", pytest_raw, 1).rules
    # an interpreter running a test script is a runner too
    unittest_raw = _all_cases()["unittest/q19_cachetools_unittest_v"].raw
    assert graph.filter("python3 runtests.py", unittest_raw, 1).rules == graph.filter(
        "python3 -m unittest -v", unittest_raw, 1).rules
    # a C build shows no tool: make's own rules
    c_build = _all_cases()["make/q14_warnings"].raw
    assert graph.filter("make", c_build, 0).rules == ("sanitizer-reports", "gcov-covered-functions", "make-diagnostics", "make-progress", "make", "repeated-blocks")


def test_what_the_runner_prints_around_the_tool_stays() -> None:
    raw = "cargo test --all\n" + _all_cases()["cargo/test_fail"].raw
    raw += "make: *** [Makefile:4: test] Error 101\n"
    out = _graph().filter("make test", raw, 2).output
    assert "make: *** [Makefile:4: test] Error 101" in out
    assert "test result: FAILED. 5 passed; 5 failed" in out


def test_two_tools_or_none_leave_the_runner_its_own_rules() -> None:
    pytest_tail = "==== 2 failed, 10 passed in 0.31s ====\n"
    go_tail = "--- FAIL: TestX (0.00s)\nFAIL\tx/y\t0.002s\n"
    assert shown_tool(pytest_tail) == "pytest"
    assert shown_tool(go_tail) == "go test"
    assert shown_tool(pytest_tail + go_tail) is None
    # one test runner among linters is the one (its summariser keeps the findings it does not know)
    mypy = "src/a.py:3: error: Function is missing a type annotation  [no-untyped-def]\n"
    assert shown_tool(mypy) == "ruff check"
    assert shown_tool(mypy + pytest_tail) == "pytest"
    assert shown_tool(mypy + "+++ b/x.py\n@@ -1 +1 @@\n") is None  # findings of two kinds
    assert shown_tool("gcc -c x.c\n") is None
    # a family's first tool wins: cargo test prints rustc's warnings before its results
    warning = "warning: unused variable: `x`\n --> src/lib.rs:3:9\n"
    assert shown_tool(warning) == "cargo build"
    assert shown_tool(warning + "test result: ok. 3 passed; 0 failed; 0 ignored\n") == "cargo test"


def test_only_runners_get_the_tools_rules_in_their_plan() -> None:
    graph = _graph()
    make_plan = build_plan(graph, "make -C backend test", 2)
    assert make_plan.rules[0][:2] == (DELEGATE, DELEGATE)
    assert [tool for tool, _ in dict(make_plan.rules[0][2])["tools"]] == [tool for tool, *_ in TOOLS]
    assert all(rule[1] != DELEGATE for rule in build_plan(graph, "cargo test", 101).rules)
    # npm test summarises tests itself (js-test)
    assert all(rule[1] != DELEGATE for rule in build_plan(graph, "npm test", 1).rules)
    assert is_runner("./run-tests") and is_runner("ci.sh") and is_runner("just") and not is_runner("git")


def test_a_shown_tool_without_rules_leaves_the_output_whole() -> None:
    # shellcheck's default format has no rule of its own: behind make it is left as shellcheck's is
    # (but for the rule every command gets: a finding that says what one above said, word for word)
    raw = _all_cases()["shellcheck/q9_etc_initd"].raw
    result = _graph().filter("make lint", raw, 1)
    assert result.rules == ("repeated-blocks",)
    assert result.output == _graph().filter("shellcheck /etc/init.d/*", raw, 1).output != sanitize(raw)


def test_tox_and_nox_are_runners_whatever_their_environment_runs() -> None:
    cases = _all_cases()
    graph = _graph()
    lint, tests = cases["tox/q20_e_lint_recreate"], cases["tox/q20_e_py311"]
    assert graph.filter(lint.command, lint.raw, lint.exit_code).rules == ("linters", "repeated-blocks")
    assert graph.filter(tests.command, tests.raw, tests.exit_code).rules == ("pytest", "python-carets", "python-library-frames", "python-faulthandler-frames",
                                                                           "repeated-blocks")


def test_a_long_output_is_read_at_its_ends() -> None:
    # a summary at the end of megabytes is found without searching them all sixteen times
    filler = "test tests::case_%d ... ok\n"
    long = "".join(filler % n for n in range(60_000))
    assert shown_tool(long + "test result: ok. 60000 passed; 0 failed; 0 ignored\n") == "cargo test"
    assert shown_tool("=================== test session starts ===================\n" + long) == "pytest"
    middle = long[: len(long) // 2] + "Ran 3 tests in 0.001s\n" + long[len(long) // 2 :]
    assert shown_tool(middle) is None


def test_a_command_whose_own_rules_read_the_output_keeps_them() -> None:
    # `npx eslint` is a runner's command (npx), and eslint's findings are the linters' signature: its own
    # rules (node's internal frames as well as the linters') already read them, and stay
    raw = _all_cases()["eslint/q7_stylish_express"].raw
    graph = _graph()
    assert graph.filter("npx eslint lib", raw, 1).rules == ("node-internal-frames", "linters", "repeated-blocks")
    # `npx nx test web` names no tool its rules know: jest's output gets jest's rules
    jest = _all_cases()["jest/q19_npx_jest_verbose"].raw
    assert graph.filter("npx nx test web", jest, 1).rules == graph.filter("npx jest", jest, 1).rules


def test_a_chain_whose_last_command_never_ran_gets_the_rules_of_the_tool_shown() -> None:
    # `cargo fmt --check && cargo test`: the check failed, so cargo test never ran; cargo-test's
    # rules fall back on rustfmt's diff, and the fmt check's read it
    cases = _all_cases()
    graph = _graph()
    diff = cases["cargo/q22b_fmt_check_errs"].raw
    chained, alone = graph.filter("cargo fmt --check && cargo test", diff, 1), graph.filter("cargo fmt --check", diff, 1)
    assert chained.rules == alone.rules == ("cargo-fmt-check", "repeated-blocks") and chained.output == alone.output
    assert chained.filtered_bytes < chained.raw_bytes / 2
    # when the last command's rules read the output (the tests ran), they are the ones
    tests = cases["cargo/test_fail"].raw
    assert graph.filter("cargo fmt --check && cargo test", tests, 101) == graph.filter("cargo test", tests, 101)._replace(
        command="cargo fmt --check && cargo test")
    # a chain is two commands that print: `cd`, `|| true`, `; echo $?` and `| tail` add none
    assert is_chain("go vet ./... && go test ./...") and is_chain("ruff check . ; mypy src")
    assert not any(is_chain(command) for command in (
        "cd app && cargo test 2>&1 | tail -40", "pytest -q || true", 'make test; echo "exit: $?"', "cargo test"))


def test_a_googletest_binary_run_by_its_path_gets_the_ctest_summary() -> None:
    cases = _all_cases()
    case = cases["gtest/q28b_gtest_filter_exclude_crash"]
    result = _graph().filter(case.command, case.raw, case.exit_code)
    assert case.command.startswith("./build/tests") and result.rules == ("sanitizer-reports", "ctest", "ctest-summary", "repeated-blocks")
    assert result.filtered_bytes < result.raw_bytes / 5


def test_a_runners_tagged_jobs_are_filtered_job_by_job_and_grouped() -> None:
    # batch 28: `turbo run test --continue`: four packages' jest, vitest and node --test lines interleave,
    # each tagged "@shop/pkg:test: "; each job gets its tool's rules and its lines come together
    cases = _all_cases()
    case = cases["turbo/q28_turbo_run_test_continue"]
    result = _graph().filter(case.command, case.raw, case.exit_code)
    assert "js-test" in result.rules and result.filtered_bytes < result.raw_bytes * 0.85
    lines = result.output.split("\n")
    for job in ("@shop/core:test:", "@shop/web:test:", "@shop/api:test:", "@shop/shared:test:"):
        at = [index for index, line in enumerate(lines) if line.startswith(job)]
        assert at == list(range(at[0], at[-1] + 1)), job  # one block per job
    assert "@shop/api:test:  FAIL  src/routes.test.ts > parseLimit > parseLimit(0) = 1" in lines
    assert "@shop/shared:test: ok 1 - slug" in lines  # a job of three tests keeps them
    assert lines[-1] == "" and " ERROR  run failed: command  exited (1)" in lines  # the runner's own end



def test_jobs_run_one_after_another_keep_the_lines_between_them_in_place() -> None:
    # batch 35b: `npm install --foreground-scripts`: 30 postinstall scripts, each "fleet-x: built ..." line
    # tagged by its package, each under npm's untagged "> fleet-x@1.0.0 postinstall" header
    case = _all_cases()["npm/q35b_npm_install_foreground_scripts"]
    result = _graph().filter(case.command, case.raw, case.exit_code)
    lines = result.output.split("\n")
    for package in ("fleet-banners", "fleet-map-tiles", "fleet-zones"):
        header = lines.index(f"> {package}@1.0.0 postinstall")
        first = next(index for index, line in enumerate(lines) if line.startswith(f"{package}: "))
        assert header < first < header + 4, package  # the header, "> node postinstall.js", a blank line
    assert "npm-install-scripts" in result.rules and "fleet-avatars: ... (34 similar lines omitted) ..." in lines
    assert result.filtered_bytes < result.raw_bytes / 3
    warning = next(line for line in case.raw.split("\n") if "checksum mismatch" in line)
    assert warning in lines


def test_a_jobs_blank_line_is_its_tag_alone() -> None:
    from zeph_rules.engine import streams

    # `parallel --tag`: a job's empty line is "ledger<TAB>", which sanitising leaves as "ledger"
    text = "\n".join(f"{job}\tline {n}" for n in range(4) for job in ("ledger", "report")) + "\nledger\nreport\n"
    prefixes, bare, found = streams.split(text) or ([], [], {})
    assert found["ledger"] == [0, 2, 4, 6, 8] and found["report"] == [1, 3, 5, 7, 9]
    assert bare[8] == "" and prefixes[8] == "ledger"

def test_tags_that_are_levels_or_on_one_line_make_no_jobs() -> None:
    from zeph_rules.engine import streams

    log = "\n".join(f"{level}: step {n}" for n in range(10) for level in ("INFO", "ERROR"))
    assert streams.split(log) is None
    jobs = "\n".join(f"[{job}] line {n}" for n in range(5) for job in ("ruff", "mypy")) + "\nFailed: [mypy]\n"
    prefixes, bare, found = streams.split(jobs) or ([], [], {})
    assert list(found) == ["[ruff]", "[mypy]"] and bare[0] == "line 0" and prefixes[0] == "[ruff] "
    kept = "line 0\n... (3 lines omitted) ...\nline 4"
    assert streams.retag(prefixes, bare, found["[ruff]"], kept) == [
        "[ruff] line 0", "[ruff] ... (3 lines omitted) ...", "[ruff] line 4"]


def test_a_chain_stopped_at_go_vet_gets_go_vets_rules() -> None:
    # `go vet ./... && go test ./...` where vet's findings stopped the chain: go test's rules read none of
    # it; go vet's signature (a package's "# path" line over a located finding) picks the linters rule
    cases = _all_cases()
    for name in ("go/q27b_go_vet_and_test", "go/q32b_go_vet_and_test"):
        case = cases[name]
        result = _graph().filter(case.command, case.raw, case.exit_code)
        assert result.rules == ("linters", "repeated-blocks") and result.confidence is Confidence.FULL, name


def test_pre_commit_is_a_runner_and_its_one_failing_tools_output_gets_that_tools_rules() -> None:
    # batch 32b: pre-commit runs hooks, and a hook's output is its tool's (ruff's findings, pytest's run);
    # read as nothing, 13 runs saved 1 %
    assert is_runner("pre-commit")
    case = _all_cases()["pre-commit/q27b_precommit_run_all_files"]
    result = _graph().filter(case.command, case.raw, case.exit_code)
    assert result.rules == ("linters", "repeated-blocks")
    assert "src/ledgerkit/ledger.py:3:8: F401 [*] `os` imported but unused" in result.output.split("\n")
    assert "ruff.....................................................................Failed" in result.output
    assert result.filtered_bytes < result.raw_bytes * 0.65  # each finding keeps the code line it points at


def test_tap_of_any_test_program_under_make_is_read_as_tap() -> None:
    # batch 56: `make test` builds a C library, then runs its checks, which print TAP with the plan
    # last; make's head-and-tail cut dropped the "#   at file:line" under two of three failures
    graph = _graph()
    raw = _all_cases()["make/q56_make_test_fail"].raw
    result = graph.filter("make test", raw, 2)
    assert result.rules == ("bats", "repeated-blocks")
    lines = result.output.split("\n")
    at = lines.index("./tests/run_checks")
    assert lines[at + 1 : at + 7] == [
        "not ok 65 - clamp8(300) saturates", "#   at tests/run_checks.c:77: clamp8(300) == 255",
        "not ok 66 - clamp8(-5) saturates", "#   at tests/run_checks.c:78: clamp8(-5) == 0",
        "not ok 85 - blend8(0, 7, 128) rounds", "#   at tests/run_checks.c:97: blend8(0, 7, 128) == 4",
    ]
    assert "ok 64 - clamp8(252)" not in lines and lines[-4:-1] == [
        "1..325", "# 325 checks, 3 failed", "make: *** [Makefile:21: test] Error 1"]
    # node's TAP under make stays node's
    node = _all_cases()["make/q52b_gl_make_test"].raw
    assert graph.filter("make test", node, 2).rules == ("js-test", "node-internal-frames", "repeated-blocks")


def test_a_manifest_rendered_under_make_is_read_as_kubectls() -> None:
    # batch 59b: `make k8s-render` echoes `kubectl kustomize` and prints 120 lines of YAML; make's
    # head-and-tail cut dropped the replica count and two image tags from its middle
    graph = _graph()
    raw = _all_cases()["kubectl/q59b_kubectl_make_render"].raw
    result = graph.filter("make k8s-render", raw, 0)
    assert result.rules == ("kubectl", "kubectl-long")  # a render: no block of it goes for a marker
    lines = [line.strip().removeprefix("- ") for line in result.output.split("\n")]
    for kept in ("replicas: 3", "image: registry.example.com/shop/catalog:2.4.0",
                 "image: registry.example.com/shop/exporter:0.9.0"):
        assert kept in lines
    assert shown_tool("apiVersion: v1\nkind: ConfigMap\n") == "kubectl kustomize"
    # a line that only starts like one is no manifest
    assert shown_tool("apiVersion: is the first key\nkind: of a manifest\n") is None


def test_go_builds_errors_under_a_runner_are_read_as_go_builds_not_vets() -> None:
    # batch 61b: go build's errors are lines like go vet's findings; under `make build` the go vet
    # signature took them and its rules folded the ninety `undefined: model.Message`
    raw = _all_cases()["go/q61b_go_build_too_many"].raw
    assert shown_tool(raw) == "go build"
    result = _graph().filter("make build", raw, 2)
    assert result.rules == ("go-build", "repeated-blocks") and "internal/store/store.go:6:23: undefined: model.Message" in result.output
    # vet's own findings are still vet's
    assert shown_tool(_all_cases()["go/q27b_go_vet_and_test"].raw) == "go vet"


def test_a_conftest_that_failed_to_load_under_a_runner_is_read_as_pytests() -> None:
    # batch 67b: pytest stops at a conftest's ImportError before its session header; under `make test`
    # nothing named pytest, and make's rules read `tests/conftest.py:5: in <module>` as a compiler's
    # diagnostic and dropped the source line under it, the line that raised
    raw = _all_cases()["pytest/q67b_pytest_conftest_raises"].raw
    assert shown_tool(raw) == "pytest"
    output = _graph().filter("make test", raw, 2).output.split("\n")
    assert '    STATION = os.environ["WXQC_STATION"]' in output and "E   KeyError: 'WXQC_STATION'" in output


def test_a_cargo_alias_or_xtask_is_a_runner_of_cargos_tools() -> None:
    # batch 59b: `cargo lint` (an alias for clippy with -D warnings) and `cargo xtask ci` met no rule
    assert is_runner("cargo", "xtask ci") and is_runner("cargo", "--quiet lint") and is_runner("cargo", "make test")
    assert not any(is_runner("cargo", rest) for rest in ("build", "+nightly clippy -- -D warnings", "-q test", "nextest run", ""))
    cases, graph = _all_cases(), _graph()
    lint = cases["cargo/q59b_clippy_lint_alias"]
    assert graph.filter("cargo lint", lint.raw, 101).rules == ("cargo-build", "rustc-std-locations", "repeated-blocks")
    ci = graph.filter("cargo xtask ci", cases["cargo/q59b_cargo_xtask_ci"].raw, 1)
    assert ci.rules == ("cargo-test", "rust-backtrace", "rustc-std-locations", "repeated-blocks") and ci.filtered_bytes < ci.raw_bytes / 2
    assert "xtask ci: 2 step(s) failed: fmt, test" in ci.output.split("\n")


def test_a_failed_build_script_under_a_runner_is_read_as_cargos() -> None:
    # batch 62b: a build.rs whose C compile failed prints cargo's "failed to run custom build command"
    # and no rustc diagnostic; under `make` the runner's head-and-tail cut took the line saying which
    # build script exited 101
    case = _all_cases()["cargo/q62b_cargo_build_c_syntax_error"]
    assert shown_tool(case.raw) == "cargo build"
    result = _graph().filter("make test", case.raw, case.exit_code)
    assert result.rules == ("cargo-build", "rustc-std-locations", "repeated-blocks")
    assert any(line.endswith("build-script-build` (exit status: 101)") for line in result.output.split("\n"))
    assert "  csrc/pack.c:6:15: error: expected ‘;’ before ‘return’" in result.output.split("\n")


def test_a_ci_logs_parallel_steps_are_read_job_by_job_under_their_timestamps() -> None:
    # batch 63b: a CI job's log stamps every line, and its two parallel steps tag theirs ([lint],
    # [test]); the stamps hid the tags, no tool showed, and make's cut lost a clippy location
    case = _all_cases()["cargo/q63b_clippy_par_lint_test"]
    for runner in ("make test", case.command):
        result = _graph().filter(runner, case.raw, case.exit_code)
        assert "cargo-test" in result.rules and "cargo-build" in result.rules
        lines = result.output.split("\n")
        assert any(line.endswith("[lint]   --> crates/tally-cli/src/main.rs:10:5") for line in lines)
        assert any(line.endswith("[test] test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out;"
                                 " finished in 0.00s") for line in lines)
        assert lines[0].startswith("2026-11-27T") and lines[0].endswith("Z Current runner version: '2.329.0'")
