"""Rule-file problems are reported at file:line:col, and good rules still load."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from zeph_rules.cli.main import cli
from zeph_rules.engine.loader import load_ruleset

BROKEN = '''[[rules]]
name = "good-one"
match = { prefix = "make" }
strategy = { type = "truncate", max_lines = 50 }

[[rules]]
name = "dsl-error"
match = 'command ^= "cargo" and comand == "x"'
strategy = { type = "truncate", max_lines = 50 }

[[rules]]
name = "bad-regex"
match = { regex = "^(cargo" }
strategy = { type = "strip_noise", patterns = ["ok", "[unclosed"] }

[[rules]]
name = "typo"
mach = { prefix = "x" }
strategy = { type = "truncat", max_lines = 5 }

[[rules]]
name = "syntax
match = 'x'

[[rules]]
name = "too-long"
match = { regex = "LONG" }
strategy = { type = "git_status" }

[tools.permisions]
bash = []

[[rules]]
name = "last-good"
match = 'command.program == "ls"'
strategy = { type = "truncate", max_lines = 10, head = 8, tail = 8 }

[[rules]]
name = "really-last"
match = 'command.program == "du"'
strategy = { type = "git_diff" }
'''.replace("LONG", "a" * 600)


def _write(tmp_path: Path, text: str, name: str = "rules.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_every_problem_is_reported_at_its_place(tmp_path: Path) -> None:
    path = _write(tmp_path, BROKEN)
    ruleset = load_ruleset([path], builtin=False)
    found = [(d.line, d.col, d.code) for d in ruleset.diagnostics]
    assert found == [
        (8, 33, "ZR101"),   # unknown DSL field, column inside the string
        (13, 27, "ZR030"),  # bad regex in match, at the regex's error position
        (14, 64, "ZR030"),  # bad regex in the second pattern
        (16, 1, "ZR023"),   # missing `match` (the table is the place)
        (18, 1, "ZR020"),   # `mach`: unknown key
        (19, 21, "ZR024"),  # `truncat`: unknown strategy type
        (22, 15, "ZR010"),  # TOML syntax error
        (27, 19, "ZR031"),  # pattern over 512 characters
        (30, 1, "ZR020"),   # unknown section tools.permisions
        (36, 12, "ZR026"),  # head + tail > max_lines
    ]
    hints = {d.code + str(d.line): d.hint for d in ruleset.diagnostics}
    assert hints["ZR1018"] == "did you mean `command`?"
    assert hints["ZR02018"] == "did you mean `match`?"
    assert hints["ZR02419"] == "did you mean `truncate`?"
    assert hints["ZR02030"] == "did you mean `permissions`?"
    assert [r.id for r in ruleset.rules] == ["good-one", "really-last"]


def test_check_prints_carets_and_exits_1_without_traceback(tmp_path: Path) -> None:
    path = _write(tmp_path, BROKEN)
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    first = lines.index(f"{path}:8:33: error: ZR101: unknown field `comand` (did you mean `command`?)")
    assert lines[first + 1] == "  match = 'command ^= \"cargo\" and comand == \"x\"'"
    assert lines[first + 2] == "  " + " " * 32 + "^^^^^^"
    assert lines[-1] == "Found 10 errors and 0 warnings in 1 file."


def test_check_json_is_stable(tmp_path: Path) -> None:
    import json

    path = _write(tmp_path, 'rules = 3\nfoo = 1\n')
    result = CliRunner().invoke(cli, ["check", "--format", "json", str(path)])
    assert result.exit_code == 1
    payload = json.loads(result.output)
    assert payload["diagnostics"][0] == {
        "file": str(path), "line": 1, "col": 9, "end_line": 1, "end_col": 10, "severity": "error",
        "code": "ZR021", "message": "`rules` must be an array of tables (`[[rules]]`)", "rule": None,
    }
    assert payload["diagnostics"][1]["message"] == "unknown section `foo`"


def test_builtin_rules_are_clean() -> None:
    result = CliRunner().invoke(cli, ["check"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().startswith("All checks passed")


def test_file_over_one_mib_and_missing_file(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"# padding\n" * 110_000)
    result = CliRunner().invoke(cli, ["check", str(big), str(tmp_path / "missing.toml")])
    assert result.exit_code == 1
    assert f"{big}:1:1: error: ZR002: file is 1,100,000 bytes; rule files are limited to 1 MiB (1,048,576 bytes)" in result.output
    assert f"{tmp_path / 'missing.toml'}:1:1: error: ZR001: cannot read file" in result.output


def test_yaml_rules_load_like_toml(tmp_path: Path) -> None:
    path = _write(tmp_path, "rules:\n  - name: y\n    match: {prefix: make}\n    strategy: {type: truncate, max_lines: 40}\n  - name: z\n    match: 'command ^= \"x\" or'\n    strategy: {type: git_status}\n", "r.yaml")
    ruleset = load_ruleset([path], builtin=False)
    assert [r.id for r in ruleset.rules] == ["y"]
    assert [(d.line, d.col, d.code) for d in ruleset.diagnostics] == [(6, 30, "ZR100")]


def test_permissions_policy_and_legacy_sections_desugar(tmp_path: Path) -> None:
    path = _write(tmp_path, '''
[tools.shell]
blocked_commands = ["rm -rf /"]

[tools.permissions]
bash = [ { pattern = "git *", action = "allow" } ]

[[tools.permissions.read]]
pattern = "*.env"
action = "deny"

[tools.policy]
default_effect = "deny"
[[tools.policy.rules]]
effect = "ask"
tool = "bash"
when = 'command ^= "terraform apply"'
''')
    ruleset = load_ruleset([path], builtin=False)
    assert [(r.group, r.effect) for r in ruleset.rules] == [
        ("permission:bash", "deny"), ("permission:bash", "allow"), ("permission:read", "deny"), ("policy", "ask"),
    ]
    assert [(d.code, d.severity) for d in ruleset.diagnostics] == [("ZR090", "warning")]


def test_a_block_start_without_its_end_is_reported_and_the_rule_skipped(tmp_path: Path) -> None:
    path = _write(tmp_path, """[[rules]]
name = "half-a-block"
match = { prefix = "go" }
strategy = { type = "strip_noise", patterns = ["^\\t"], block_start = "<< 'EOF'" }

[[rules]]
name = "kept"
match = { prefix = "go" }
strategy = { type = "strip_noise", patterns = ["^\\t"], block_start = "<< 'EOF'", block_end = "^EOF$" }
""")
    ruleset = load_ruleset([path], builtin=False)
    assert [(d.line, d.code) for d in ruleset.diagnostics] == [(4, ruleset.diagnostics[0].code)]
    assert "`block_start` and `block_end` go together" in ruleset.diagnostics[0].message
    assert [r.id for r in ruleset.rules] == ["kept"]


def test_strip_noise_needs_lines_or_paragraphs_to_strip(tmp_path: Path) -> None:
    path = _write(tmp_path, """[[rules]]
name = "nothing-to-strip"
match = { prefix = "gcov" }
strategy = { type = "strip_noise", label = "covered line" }

[[rules]]
name = "paragraphs-only"
match = { prefix = "gcov" }
strategy = { type = "strip_noise", drop_paragraphs_matching = "Function '.*'\\\\nLines executed:100\\\\.00% of \\\\d+" }
""")
    ruleset = load_ruleset([path], builtin=False)
    assert [(d.line, d.col) for d in ruleset.diagnostics] == [(4, 12)]
    assert "strip_noise needs `patterns`" in ruleset.diagnostics[0].message
    assert [r.id for r in ruleset.rules] == ["paragraphs-only"]


def test_keep_unfinished_needs_its_finished_by_and_a_name_to_match(tmp_path: Path) -> None:
    path = _write(tmp_path, """[[rules]]
name = "no-end"
match = { prefix = "terraform" }
strategy = { type = "strip_noise", patterns = ["Creating"], keep_unfinished = "^(.+?): Creating" }

[[rules]]
name = "no-name"
match = { prefix = "terraform" }
strategy = { type = "strip_noise", patterns = ["Creating"], keep_unfinished = "^.+?: Creating", finished_by = "^(.+?): Creation complete" }

[[rules]]
name = "kept"
match = { prefix = "terraform" }
strategy = { type = "strip_noise", patterns = ["Creating"], keep_unfinished = "^(.+?): Creating", finished_by = "^(.+?): Creation complete" }
""")
    ruleset = load_ruleset([path], builtin=False)
    assert [d.line for d in ruleset.diagnostics] == [4, 9]
    assert "`keep_unfinished` and `finished_by` go together" in ruleset.diagnostics[0].message
    assert "`keep_unfinished` needs a capturing group" in ruleset.diagnostics[1].message
    assert [r.id for r in ruleset.rules] == ["kept"]
