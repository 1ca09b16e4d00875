"""Every built-in strategy on real captured output: what must survive does, and the output shrinks.

Each case under ``tests/fixtures/<tool>/<case>/`` is mapped to a strategy by its
command (the same split the built-in rules make).  The test sanitises the raw
output, runs the strategy with the built-in rule's parameters, and checks that
every ``must_survive`` line is still a substring of some output line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import tomllib

from zeph_rules.engine import streams, timestamps
from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import STRATEGIES, Confidence

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

_CARGO_BUILD_NOISE = (
    r"^\s*(Compiling|Downloading|Downloaded|Updating|Fetching|Fresh|Locking|Adding|Checking|Blocking|Packaging"
    r"|Verifying|Archiving|Documenting) "
)

#: (command regex, strategy type, parameters) -- first match wins, like the built-in rules
ROUTES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (r"^cargo\s+(test|nextest)\b(?!.*\s--list\b)", "test_summary", {"max_failures": 10, "truncate_stack_trace": 50}),
    (r"^cargo\s+(clippy|build|check)\b", "group_by_rule", {}),
    (r"^cargo\s+run\b", "strip_annotated",
     {"patterns": [_CARGO_BUILD_NOISE], "summary_pattern": r"^\s*(Finished|Running) "}),
    (r"^git\s+status\b", "git_status", {}),
    (r"^git\s+(diff|show)\b", "git_diff", {"max_diff_lines": 500}),
    (r"^git\s+log\b", "truncate", {"max_lines": 60, "head": 40, "tail": 10}),
    (r"^git\s+(push|pull|fetch)\b", "strip_noise", {"patterns": [
        r"^(remote: )?(Enumerating|Counting|Compressing|Writing|Delta compression|Total|Resolving|Receiving|Unpacking) "]}),
    (r"^(pytest|python3?\s+-m\s+pytest)\b", "test_summary", {}),
    (r"^python3?\s+-m\s+unittest\b", "test_summary", {}),
    (r"^go\s+test\b", "test_summary", {}),
    (r"^((npx|pnpm|yarn|bunx)\s+)?(jest|vitest|mocha)\b|^node\s+--test\b(?!.*--test-reporter[=\s]+(junit|lcov))"
     r"|^(npm|pnpm|yarn)\s+(run\s+)?test\b",
     "test_summary", {}),
    (r"^((npx|python3?\s+-m|uv\s+run)\s+)?(eslint|ruff\s+check|mypy|flake8|pylint)\b|^go\s+vet\b", "group_by_rule", {}),
    (r"^(gcc|g\+\+|clang|clang\+\+|cc|c\+\+)\b", "group_by_rule", {}),
    (r"^(journalctl|dmesg)\b|^tail\s|^(docker\s+(compose\s+)?|kubectl\s+)logs\b|^cat\s+\S+\.log\b", "dedup", {}),
    (r"^(npm|yarn|pnpm)\s+(install|i|ci|add)\b", "strip_noise",
     {"patterns": [r"^npm (warn|WARN) deprecated", r"^npm notice", r"^\s*$"]}),
    (r"^(pip3?|python3?\s+-m\s+pip)\s+install\b", "strip_noise", {"patterns": [
        r"^\s*Downloading\s", r"^\s*Using cached\s", r"^\s*Collecting\s", r"^\s*Obtaining\s",
        r"^\s*Requirement already satisfied", r"^\s*(Installing|Building|Preparing|Getting) ", r"^\s*━",
        r"^\s*Stored in directory", r"^\s*Created wheel"]}),
    (r"^make\b", "truncate", {"max_lines": 80, "head": 30, "tail": 30}),
    (r"^terraform\s+(plan|apply|init|validate)\b", "truncate", {"max_lines": 120, "head": 60, "tail": 40}),
    (r"^kubectl\s+(get|describe|apply)\b", "truncate", {"max_lines": 80, "head": 40, "tail": 20}),
    (r"^(ls|find|tree|fd)\b", "truncate", {"max_lines": 120, "head": 80, "tail": 20}),
    (r"^(grep|rg|ag|ack)\b", "truncate", {"max_lines": 120, "head": 80, "tail": 20}),
    (r"^(du|df|ps)\b", "truncate", {"max_lines": 60, "head": 40, "tail": 10}),
)


class Case(NamedTuple):
    tool: str
    name: str
    command: str
    exit_code: int | None
    must_survive: list[str]
    raw: str
    #: the entries the whole pipeline is known to lose (``known_lost`` in case.toml, with its reason)
    known_lost: tuple[str, ...] = ()
    #: why the matching rules fall back on this output (``fallback_reason`` in case.toml), if they do
    fallback_reason: str = ""


def _target(command: str) -> str:
    """Return the command as the rules see it: no leading VAR=value assignments."""
    return re.sub(r"^(?:\w+=\S*\s+)+", "", command.strip())


def _route(command: str) -> tuple[str, dict[str, Any]] | None:
    for pattern, strategy, params in ROUTES:
        if re.search(pattern, _target(command)):
            return strategy, params
    return None


def _cases() -> list[Case]:
    cases = []
    for case_file in sorted(FIXTURES.glob("*/*/case.toml")):
        raw_file = case_file.with_name("raw.txt")
        if not raw_file.exists():
            continue
        meta = tomllib.loads(case_file.read_text(encoding="utf-8"))
        cases.append(Case(
            tool=case_file.parent.parent.name,
            name=case_file.parent.name,
            command=str(meta.get("command", "")),
            exit_code=meta.get("exit_code"),
            must_survive=list(meta.get("must_survive", [])),
            raw=raw_file.read_text(encoding="utf-8", errors="surrogateescape"),
            known_lost=tuple(meta.get("known_lost", ())),
            fallback_reason=str(meta.get("fallback_reason", "")),
        ))
    return cases


CASES = [case for case in _cases() if _route(case.command) is not None]


#: must-survive lines a test-summary rule drops on purpose, per case (see the module docstring of
#: ``zeph_rules.engine.strategies.test_summary``): log lines of passing tests, packages without tests,
#: passing test cases.  Listed so that any other loss still fails.
BY_DESIGN: dict[str, tuple[str, ...]] = {
    "go/test_v_fail": (r"\[no test files\]$", r"^mathx_test\.go:29: gcd\(12,18\) ok$"),
    "go/test_v_pass": (r"\[no test files\]$", r"^mathx_test\.go:29: gcd\(12,18\) ok$"),
    "vitest/run_fail_verbose": (r"^✓ \S+\.test\.js > ",),
}
_LOCATED_LINE = re.compile(r"^(?P<location>[^\s:]+:\d+(?::\d+)?): (?P<message>.+)$")


def _loss_is_by_design(case: Case, strategy: str, params: dict[str, Any], line: str, clean: str, output: str) -> bool:
    """Return whether losing ``line`` is what the strategy promises (the rest is a bug)."""
    if line in case.known_lost:
        return True  # the pipeline loses it too, and case.toml says why
    if strategy in ("strip_noise", "strip_annotated"):
        # the rule named this line noise
        return any(re.search(pattern, full) for pattern in params["patterns"] for full in clean.split("\n") if line in full)
    if strategy == "truncate":
        return "lines omitted) ..." in output
    if strategy == "git_diff":
        # a body line past its file's share of the budget: the file's marker says how many went
        before = clean[: clean.find(line)]
        path = re.findall(r"^\+\+\+ (?:b/)?(\S+)", before, re.M)
        return bool(path) and re.search(rf"\(\d+ lines? omitted in {re.escape(path[-1])}\) \.\.\.", output) is not None
    if strategy == "group_by_rule":
        # a repeat folded into its group: its location and its message are both still there
        if re.fullmatch(r"\*+ Module \S+", line):
            return True
        located = _LOCATED_LINE.match(line)
        return bool(located) and located["location"] in output and located["message"].split(": ", 1)[-1] in output
    return any(re.search(pattern, line) for pattern in BY_DESIGN.get(f"{case.tool}/{case.name}", ()))


@pytest.mark.parametrize("case", CASES, ids=[f"{case.tool}/{case.name}" for case in CASES])
@pytest.mark.one_implementation
def test_must_survive(case: Case) -> None:
    route = _route(case.command)
    assert route is not None
    strategy, params = route
    clean = sanitize(case.raw)
    result = STRATEGIES[strategy](clean, params, case.exit_code)
    assert len(result.text) <= len(clean)
    assert result.text or not clean.strip(), "a strategy emptied non-empty output"
    assert result == STRATEGIES[strategy](clean, params, case.exit_code), "not deterministic"
    output_lines = result.text.split("\n")
    # Entries absent from the (sanitised) capture itself are stale (a re-capture changed a timing or a
    # thread id): they cannot be checked.
    live = [line for line in case.must_survive if line in clean]
    lost = [line for line in live if not any(line in out for out in output_lines)]
    unexpected = [line for line in lost if not _loss_is_by_design(case, strategy, params, line, clean, result.text)]
    assert not unexpected, f"{strategy} dropped must-survive lines ({result.confidence.label}):\n" + "\n".join(unexpected)
    saved = 1 - len(result.text) / len(clean) if clean else 0.0
    print(f"{case.tool}/{case.name}: {strategy} {result.confidence.label} {len(clean)} -> {len(result.text)} chars"
          f" ({saved:.0%} saved, {len(lost)} must-survive lines dropped by design)")


def test_fixture_routes_cover_test_runners() -> None:
    tools = {case.tool for case in CASES}
    assert {"cargo", "pytest", "go"} <= tools


def test_recognised_test_runs_are_not_fallback() -> None:
    for case in CASES:
        route = _route(case.command)
        if route is None or route[0] != "test_summary" or case.tool in ("npm",) and "test" not in case.command:
            continue
        if re.search(r"--reporter[=\s](?:junit|json)\b", case.command) or "<testsuites" in case.raw:
            continue  # a report for CI to read (JUnit XML, JSON, also behind `npm test`), not a run's text: it passes whole
        if not sanitize(case.raw).strip() or case.fallback_reason:
            continue  # (a run that stopped before any test, `cargo test` on a missing manifest, says why)
        if timestamps.split(sanitize(case.raw)) is not None or streams.split(sanitize(case.raw)) is not None:
            continue  # `| ts` stamps, a runner's job tags: the pipeline takes them off first (test_fixtures_pipeline)
        result = STRATEGIES["test_summary"](sanitize(case.raw), route[1], case.exit_code)
        assert result.confidence is not Confidence.FALLBACK, f"{case.tool}/{case.name} not recognised"
