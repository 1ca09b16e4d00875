"""`check --fix` (safe renames and legacy migration, idempotent) and `zeph-rules schema`."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from zeph_rules.cli.main import cli
from zeph_rules.engine.fix import fix_file
from zeph_rules.engine.lint import check_files
from zeph_rules.engine.loader import BUILTIN_DIR

TYPOS = '''# my rules
[[rules]]
name = "x"   # keep me
mach = { prefix = "make" }
strategy = { type = "truncat", max_lines = 50 }

[tools.permisions]
bash = [ { pattern = "git *", action = "alow" } ]
'''


def test_fix_renames_with_did_you_mean_and_keeps_layout(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text(TYPOS)
    result = CliRunner().invoke(cli, ["check", "--fix", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text() == TYPOS.replace("mach", "match").replace("truncat", "truncate").replace("permisions", "permissions").replace("alow", "allow")
    assert result.output.splitlines() == [
        f"{path}:4:1: fixed: renamed `mach` to `match`",
        f"{path}:5:21: fixed: replaced `truncat` with `truncate`",
        f"{path}:7:1: fixed: renamed `permisions` to `permissions`",
        f"{path}:8:40: fixed: replaced `alow` with `allow`",
        "All checks passed (1 file).",
    ]
    assert fix_file(path) == []  # idempotent


def test_fix_does_not_rename_onto_an_existing_key(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    text = '[[rules]]\nname = "x"\nmatch = { prefix = "a" }\nmach = { prefix = "b" }\nstrategy = { type = "git_status" }\n'
    path.write_text(text)
    assert fix_file(path) == []
    assert path.read_text() == text


def test_fix_migrates_legacy_shell_lists_to_the_front_of_permissions(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text('# top comment\n[tools.shell]\nblocked_commands = ["rm -rf /"]\nconfirm_patterns = ["git push*"]\n\n'
                    '[tools.permissions]\nbash = [\n  { pattern = "git *", action = "allow" },  # ok\n]\n'
                    '\n[[tests]]\ntool = "bash"\ninput = "git push origin"\nexpect = "ask"\n')
    before = [(r.effect, dict(r.payload)["pattern"]) for r in check_ruleset(path)]
    fixes = fix_file(path)
    assert [f.description for f in fixes] == ["migrated 2 legacy `[tools.shell]` entries to the front of `[tools.permissions] bash`"]
    text = path.read_text()
    assert "# top comment" in text and "# ok" in text and "[tools.shell]" not in text
    assert tomllib.loads(text)["tools"]["permissions"]["bash"] == [
        {"pattern": "*rm -rf /*", "action": "deny"}, {"pattern": "git push*", "action": "ask"}, {"pattern": "git *", "action": "allow"},
    ]
    assert [(r.effect, dict(r.payload)["pattern"]) for r in check_ruleset(path)] == before
    assert check_files([path]).diagnostics == ()
    assert fix_file(path) == []


def check_ruleset(path: Path) -> list[Any]:
    from zeph_rules.engine.loader import load_ruleset

    return [r for r in load_ruleset([path], builtin=False).rules if r.kind == "permission"]


def test_fix_leaves_yaml_alone(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("toolz: {}\n")
    (fix,) = fix_file(path)
    assert not fix.applied and fix.description.startswith("fix not supported for YAML")
    assert path.read_text() == "toolz: {}\n"


# ------------------------------------------------------------------ schema


def _validate(value: Any, schema: dict[str, Any], root: dict[str, Any], where: str = "$") -> list[str]:
    """A tiny JSON Schema validator for the subset pydantic emits."""
    if "$ref" in schema:
        return _validate(value, root["$defs"][schema["$ref"].split("/")[-1]], root, where)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [_validate(value, option, root, where) for option in schema[key]]
            return [] if any(not o for o in options) else [f"{where}: no {key} branch fits"]
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None), "number": (int, float), "integer": int}
    expected = schema.get("type")
    if expected and not isinstance(value, kinds[expected]):
        return [f"{where}: expected {expected}"]
    if "const" in schema and value != schema["const"]:
        return [f"{where}: expected {schema['const']!r}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} not in enum"]
    problems: list[str] = []
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                problems.append(f"{where}: missing {name}")
        for name, item in value.items():
            if name in props:
                problems += _validate(item, props[name], root, f"{where}.{name}")
            elif schema.get("additionalProperties") is False:
                problems.append(f"{where}: unknown {name}")
            elif isinstance(schema.get("additionalProperties"), dict):
                problems += _validate(item, schema["additionalProperties"], root, f"{where}.{name}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problems += _validate(item, schema["items"], root, f"{where}[{i}]")
    return problems


def test_schema_describes_rule_files_and_builtins_validate() -> None:
    result = CliRunner().invoke(cli, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert set(schema["properties"]) == {"rules", "pattern_sets", "tools", "tests", "settings"}
    assert schema["additionalProperties"] is False
    tools = schema["$defs"]["ToolsSection"]["properties"]
    assert {"permissions", "shell", "file", "policy", "authorization", "filters", "dependencies"} <= set(tools)
    data = tomllib.loads((BUILTIN_DIR / "filters.toml").read_text())
    assert _validate(data, schema, schema) == []
    for case in sorted((Path(__file__).parent / "cases").glob("clean*.toml")):
        assert _validate(tomllib.loads(case.read_text()), schema, schema) == [], case.name
    assert _validate({"rulez": []}, schema, schema) == ["$: unknown rulez"]
