"""`[pattern_sets]`: named regex lists that strategies use with `{ use = "name" }`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import zeph_rules
from zeph_rules.cli.main import cli
from zeph_rules.engine.lint.schema import rule_file_schema
from zeph_rules.engine.loader import load_ruleset

SETS = '''[pattern_sets]
progress = ['^\\s*Compiling ', '^\\s*Downloading ']

[[rules]]
name = "mytool"
match = { prefix = "mytool" }
strategy = { type = "strip_noise", patterns = ['^ok ', { use = "progress" }] }
'''

OUTPUT = "".join(f"   Compiling crate{i}\n" for i in range(12)) + "ok 1\nerror: the build broke\n  Downloading x\n"


def _write(tmp_path: Path, text: str, name: str = "rules.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_used_set_filters_like_its_patterns_written_inline(tmp_path: Path) -> None:
    inline = SETS.split("[[rules]]")[1].replace('{ use = "progress" }', "'^\\s*Compiling ', '^\\s*Downloading '")
    with_set = zeph_rules.load([_write(tmp_path, SETS)], builtin=False, cache=False)
    written = zeph_rules.load([_write(tmp_path, "[[rules]]" + inline, "inline.toml")], builtin=False, cache=False)
    result = with_set.filter("mytool build", OUTPUT, 1)
    assert result.output == written.filter("mytool build", OUTPUT, 1).output
    assert result.output == "error: the build broke\n... (14 noise lines stripped) ...\n"
    (rule,) = load_ruleset([tmp_path / "rules.toml"], builtin=False).rules
    assert dict(rule.payload)["patterns"] == ["^ok ", r"^\s*Compiling ", r"^\s*Downloading "]


def test_a_later_file_uses_and_replaces_sets_of_earlier_ones(tmp_path: Path) -> None:
    first = _write(tmp_path, SETS, "first.toml")
    second = _write(tmp_path, '''[pattern_sets]
progress = ['^\\s*Downloading ']

[[rules]]
name = "other"
match = { prefix = "other" }
strategy = { type = "keep_matching", patterns = [{ use = "progress" }] }
''', "second.toml")
    ruleset = load_ruleset([first, second], builtin=False)
    assert ruleset.diagnostics == ()
    payloads = {rule.id: dict(rule.payload)["patterns"] for rule in ruleset.rules}
    # the second file's definition wins for both files' rules, as a later filter rule replaces a built-in
    assert payloads == {"mytool": ["^ok ", r"^\s*Downloading "], "other": [r"^\s*Downloading "]}
    result = CliRunner().invoke(cli, ["check", "--no-builtin", "--format", "json", str(first), str(second)])
    (warning,) = json.loads(result.output)["diagnostics"]
    assert (warning["file"], warning["line"], warning["col"], warning["code"]) == (str(first), 2, 1, "ZR603")
    assert warning["message"].startswith(f"pattern set `progress` is replaced by the one at {second}:2")
    assert result.exit_code == 0


def test_broken_references_skip_only_their_rule_with_the_place_named(tmp_path: Path) -> None:
    path = _write(tmp_path, '''[pattern_sets]
progress = ['^\\s*Compiling ']
broken = ['(unclosed', 'fine']
spare = ['^x']

[[rules]]
name = "unknown"
match = { prefix = "a" }
strategy = { type = "strip_noise", patterns = [{ use = "progres" }] }

[[rules]]
name = "uses-broken"
match = { prefix = "b" }
strategy = { type = "strip_noise", patterns = [{ use = "broken" }] }

[[rules]]
name = "malformed"
match = { prefix = "c" }
strategy = { type = "dedup", routine_patterns = [{ name = "progress" }] }

[[rules]]
name = "bad-inline-after-set"
match = { prefix = "d" }
strategy = { type = "strip_noise", patterns = [{ use = "progress" }, '[bad'] }

[[rules]]
name = "good"
match = { prefix = "e" }
strategy = { type = "strip_noise", patterns = [{ use = "progress" }] }
''')
    ruleset = load_ruleset([path], builtin=False)
    found = [(d.line, d.col, d.code) for d in ruleset.diagnostics]
    assert found == [
        (3, 21, "ZR030"),  # the set's own bad regex, where it is missing its `)`
        (9, 56, "ZR027"),  # unknown set, at the name
        (14, 56, "ZR027"),  # a set with errors
        (19, 50, "ZR021"),  # neither a regex nor `{ use = ... }`
        (24, 75, "ZR030"),  # an inline regex after a set: at its own place (its end), not at the expanded index
    ]
    messages = {d.line: (d.message, d.hint) for d in ruleset.diagnostics}
    assert messages[9] == ("unknown pattern set `progres`", "did you mean `progress`?")
    assert messages[14][0] == "pattern set `broken` has errors (reported where it is defined), so this rule cannot use it"
    assert [rule.id for rule in ruleset.rules] == ["good"]
    result = CliRunner().invoke(cli, ["check", "--no-builtin", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{path}:4:1: warning: ZR603: pattern set `spare` is not used by any rule" in result.output


def test_sets_load_from_yaml(tmp_path: Path) -> None:
    path = _write(tmp_path, "pattern_sets:\n  progress:\n    - '^\\s*Compiling '\nrules:\n  - name: y\n"
                            "    match: {prefix: mytool}\n    strategy:\n      type: strip_noise\n      patterns:\n"
                            "        - use: progress\n        - use: progres\n", "r.yaml")
    ruleset = load_ruleset([path], builtin=False)
    assert [(d.line, d.col, d.code) for d in ruleset.diagnostics] == [(11, 16, "ZR027")]


def test_the_schema_accepts_set_references_in_pattern_lists() -> None:
    schema = rule_file_schema()
    assert schema["properties"]["pattern_sets"]["additionalProperties"]["minItems"] == 1
    strip = schema["$defs"]["StripNoise"]["properties"]["patterns"]["items"]["anyOf"]
    assert {"$ref": "#/$defs/PatternSetReference"} in strip
    assert schema["$defs"]["PatternSetReference"]["required"] == ["use"]


def test_the_builtin_rules_share_their_repeated_lists() -> None:
    ruleset = load_ruleset([], builtin=True)
    payloads = {rule.id: dict(rule.payload) for rule in ruleset.rules}
    assert set(payloads["cmake-configure"]["patterns"]) <= set(payloads["ctest"]["patterns"])
    assert set(payloads["make-progress"]["patterns"]) <= set(payloads["ctest"]["patterns"])
    assert payloads["log-dedup"]["routine_patterns"] == payloads["log-files"]["routine_patterns"]
