"""ZR602: `[tools.blocklist] disable` naming an id that no blocklist entry has is a warning at that id."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from zeph_rules.cli.main import cli
from zeph_rules.engine.lint import check_files

RULES = """\
[tools.blocklist]
disable = ["blocklist.power.programs", "blocklist.power.program", "mine", 7]

[[tools.blocklist.rules]]
id = "mine"
check = "pattern"
pattern = "*frobnicate*"
reason = "frobnicates"
"""


def test_an_unknown_id_is_a_warning_at_its_place_with_the_nearest_id(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(RULES)
    report = check_files([path])
    found = [d for d in report.diagnostics if d.code == "ZR602"]
    assert [(d.line, d.col, d.severity) for d in found] == [(2, 40, "warning")]  # not `mine`, though `7` spoils the section
    assert "`blocklist.power.program`" in found[0].message and "nothing is disabled" in found[0].message
    assert found[0].hint == "did you mean `blocklist.power.programs`?"


def test_built_in_ids_count_without_the_built_ins_and_check_still_passes(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("tools:\n  blocklist:\n    disable:\n      - blocklist.forkbomb\n      - no-such-entry\n")
    result = CliRunner().invoke(cli, ["check", "--no-builtin", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output  # a warning, not an error
    found = [d for d in json.loads(result.output)["diagnostics"] if d["code"] == "ZR602"]
    assert [(d["line"], d["col"], d["severity"]) for d in found] == [(5, 9, "warning")]
    strict = CliRunner().invoke(cli, ["check", "--strict", str(path)])
    assert strict.exit_code == 1 and "ZR602" in strict.output
