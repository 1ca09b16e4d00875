"""Each file in cases/ has one planted problem (or none) named on its first line.

``# expect: LINE:COL CODE text`` — exactly one diagnostic, at that place, with
that code, whose message or hint contains ``text``; exit status 1.
``# expect: clean`` — no diagnostic at all, exit status 0.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from zeph_rules.cli.main import cli
from zeph_rules.engine.lint import check_files

CASES = Path(__file__).parent / "cases"
_EXPECT = re.compile(r"^# expect: (?:(?P<clean>clean)|(?P<line>\d+):(?P<col>\d+) (?P<code>ZR\d{3}) (?P<text>.+))$")


def _expectation(path: Path) -> re.Match[str]:
    found = _EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert found is not None, f"{path.name} lacks an `# expect:` line"
    return found


@pytest.mark.parametrize("path", sorted(CASES.iterdir()), ids=lambda p: p.name)
def test_planted_problem_is_found_at_its_place(path: Path) -> None:
    expect = _expectation(path)
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(path)])
    assert "Traceback" not in result.output
    found = json.loads(result.output)["diagnostics"]
    if expect.group("clean"):
        assert found == [] and result.exit_code == 0, result.output
        return
    assert result.exit_code == 1
    wanted = [d for d in found if d["code"] == expect.group("code")]
    assert len(wanted) == 1, found
    diagnostic = wanted[0]
    assert (diagnostic["line"], diagnostic["col"]) == (int(expect.group("line")), int(expect.group("col")))
    assert expect.group("text") in diagnostic["message"], diagnostic["message"]
    # one planted problem each: anything else must be a consequence on the same rule
    others = [d for d in found if d is not diagnostic]
    assert all(d["code"] in ("ZR023", "ZR301") for d in others), others


def test_every_planted_kind_is_covered() -> None:
    codes = {m.group("code") for m in map(_expectation, CASES.iterdir()) if m.group("code")}
    assert {"ZR201", "ZR202", "ZR203", "ZR301", "ZR302", "ZR303", "ZR401", "ZR402", "ZR501", "ZR502", "ZR503", "ZR601"} <= codes


def test_shadowed_rule_names_shadow_and_witness() -> None:
    report = check_files([CASES / "shadowed_permission.toml"])
    (diagnostic,) = report.diagnostics
    assert diagnostic.message == (
        "`permissions.bash[1]` (`git push --force*`) can never match: `permissions.bash[0]` (`git *`, line 4) "
        "decides every input it matches first, e.g. `git push --force`"
    )
    assert diagnostic.hint == "it says `deny` but is decided first by `permissions.bash[0]`: move it above, or remove it"
    assert diagnostic.rule == "permissions.bash[1]"


def test_shadowed_by_several_rules_names_them_all() -> None:
    (diagnostic,) = check_files([CASES / "shadowed_by_union.toml"]).diagnostics
    assert "`permissions.read[0]` (`*.env`, line 4) and `permissions.read[1]` (`*.ENV?*`, line 5) together" in diagnostic.message
    assert "e.g. `.env` goes to `permissions.read[0]`" in diagnostic.message


def test_check_text_output_is_exact() -> None:
    path = CASES / "shadowed_permission.toml"
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{path}:5:15: error: ZR301: `permissions.bash[1]` (`git push --force*`) can never match: `permissions.bash[0]` "
        "(`git *`, line 4) decides every input it matches first, e.g. `git push --force` "
        "(it says `deny` but is decided first by `permissions.bash[0]`: move it above, or remove it)",
        '    { pattern = "git push --force*", action = "deny" },',
        "                ^^^^^^^^^^^^^^^^^^^",
        "Found 1 error and 0 warnings in 1 file.",
    ]


def test_filter_diff_is_shown() -> None:
    path = CASES / "inline_filter.toml"
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.output.splitlines()[:7] == [
        f"{path}:11:17: error: ZR402: test `keeps the error`: the filtered output differs from `expect_output` (filters applied: repeated-blocks, mytool)",
        "--- expected",
        "+++ actual",
        "@@ -1,2 +1,2 @@",
        " error: it broke",
        "-summary: 1 error",
        "+... (4 noise lines stripped) ...",
    ]


def test_inline_decision_passing_only_in_isolation_is_reported(tmp_path: Path) -> None:
    first = tmp_path / "team.toml"
    first.write_text('[tools.permissions]\nbash = [ { pattern = "git *", action = "ask" } ]\n')
    mine = tmp_path / "mine.toml"
    mine.write_text('[tools.permissions]\nbash = [ { pattern = "git status", action = "allow" } ]\n\n'
                    '[[tests]]\ntool = "bash"\ninput = "git status"\nexpect = "allow"\n')
    assert check_files([mine]).diagnostics == ()  # alone it passes
    report = check_files([first, mine])
    failing = [d for d in report.diagnostics if d.code == "ZR401"]
    assert len(failing) == 1 and (failing[0].file, failing[0].line, failing[0].col) == (str(mine), 7, 10)
    assert "the rule set says `ask`: decided by `permissions.bash[0]`" in failing[0].message
    assert "against its own file alone it passes (`permissions.bash[0]`)" in failing[0].message


def test_inline_filter_passing_only_without_builtins_is_reported(tmp_path: Path) -> None:
    output = "\\n".join(f"building target {i}" for i in range(100)) + "\\n"
    path = tmp_path / "make.toml"
    path.write_text(
        '[[rules]]\nname = "make-dirs"\nmatch = \'command.program == "make"\'\n'
        "strategy = { type = \"strip_noise\", patterns = ['^make\\\\[\\\\d+\\\\]: (Entering|Leaving) directory'] }\n\n"
        f'[[tests]]\ncommand = "make all"\noutput = "{output}"\nexpect_contains = ["building target 50"]\n'
    )
    assert check_files([path], builtin=False).diagnostics == ()
    (diagnostic,) = check_files([path]).diagnostics
    assert diagnostic.code == "ZR402" and (diagnostic.line, diagnostic.col) == (9, 20)
    assert "lacks `building target 50` (filters applied: sanitizer-reports, gcov-covered-functions, make-diagnostics, make-progress, make, repeated-blocks, make-dirs); against its own file alone it passes (make-dirs)" in diagnostic.message
    path.write_text(path.read_text() + "\n[tools.filters]\nbuiltin = false\n")
    assert check_files([path]).diagnostics == ()  # the file opts out of the built-ins


def test_builtin_rules_are_clean() -> None:
    result = CliRunner().invoke(cli, ["check"])
    assert result.exit_code == 0 and result.output.startswith("All checks passed ("), result.output


def test_usage_errors_exit_2() -> None:
    from zeph_rules.cli.main import main

    assert main(["check", "--fix"]) == 2
    assert main(["check", "--format", "xml"]) == 2


def test_strict_fails_on_warnings(tmp_path: Path) -> None:
    path = tmp_path / "legacy.toml"
    path.write_text('[tools.shell]\nblocked_commands = ["sudo"]\n')
    assert CliRunner().invoke(cli, ["check", str(path)]).exit_code == 0
    assert CliRunner().invoke(cli, ["check", "--strict", str(path)]).exit_code == 1


def test_a_crashing_pass_is_a_diagnostic_not_a_traceback(tmp_path: Path) -> None:
    from zeph_rules.engine.lint import LINT_PASSES

    def broken(ctx: object) -> list[object]:
        raise RuntimeError("boom")

    path = tmp_path / "r.toml"
    path.write_text('[tools.permissions]\nbash = [ { pattern = "git *", action = "allow" } ]\n')
    report = check_files([path], passes=(broken, *LINT_PASSES))
    assert [(d.code, d.severity) for d in report.diagnostics] == [("ZR900", "warning")]
    assert "internal error in check `broken`: RuntimeError: boom" in report.diagnostics[0].message
