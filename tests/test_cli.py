"""The command line: version, usage errors, decide and bench output shapes."""

from __future__ import annotations

import json
import subprocess
import tempfile
import sys

from click.testing import CliRunner

from zeph_rules import _speedups
from zeph_rules.cli.main import cli, main

#: run child interpreters outside the checkout so they import the installed package
NEUTRAL_DIR = tempfile.gettempdir()


def test_version_names_the_implementation(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"zeph-rules 0.1.0 ({_speedups.IMPLEMENTATION})\n"


def test_console_script_version() -> None:
    out = subprocess.run([sys.executable, "-m", "zeph_rules", "--version"], capture_output=True, text=True, check=True, cwd=NEUTRAL_DIR).stdout
    assert out.startswith("zeph-rules 0.1.0 (") and out.strip().endswith(("(compiled)", "(pure)"))


def test_usage_errors_exit_2(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["decide", "--tool", "bash"]) == 2
    assert "give exactly one of --input or --args" in capsys.readouterr().err
    assert main(["decide", "--tool", "bash", "--args", "[1]"]) == 2
    assert main(["nonsense"]) == 2


def test_decide_defaults_to_ask_without_rules() -> None:
    result = CliRunner().invoke(cli, ["decide", "--tool", "bash", "--input", "ls", "--format", "json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["decision"] == "ask"


def test_bench_json_shape() -> None:
    result = CliRunner().invoke(cli, ["bench", "--only", "matcher.first_match.rules=10", "--quick", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {r["name"] for r in rows} == {"matcher.first_match.rules=10"}
    assert {r["implementation"] for r in rows} == set(_speedups.available())
    assert all(set(r) == {"name", "implementation", "unit", "median", "min", "max", "n"} for r in rows)
