"""The file sandbox also sees the files shell commands read: reader operands and `<` redirections."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from zeph_rules.engine.graph import MatcherGraph
from zeph_rules.engine.loader import load
from zeph_rules.engine.policy import PolicyEngine, decide, engine_for
from zeph_rules.engine.sandbox import read_paths

BUILTIN = load([], cache=False)


def _reads(line: str) -> tuple[tuple[str, str], ...]:
    """What the sandbox is shown of a line the built-in shell config normalised."""
    return read_paths(engine_for(BUILTIN).blocklist.check(line).analysis.segments)


@pytest.mark.parametrize(("line", "expected"), [
    ("cat /s/key", (("cat", "/s/key"),)),
    ("head -n 3 /s/key", (("head", "/s/key"),)),
    ("tail -f -n 5 a b", (("tail", "a"), ("tail", "b"))),
    ("grep -r root /s", (("grep", "/s"),)),  # the first operand is the pattern
    ("grep -e root -e x /s a", (("grep", "/s"), ("grep", "a"))),  # ... unless -e gives it
    ("grep --file=pats /s", (("grep", "pats"), ("grep", "/s"))),
    ("awk -F: '{print $1}' /s/key", (("awk", "/s/key"),)),
    ("awk -f prog.awk data", (("awk", "prog.awk"), ("awk", "data"))),
    ("jq --slurpfile x /s/key --arg a b . in.json", (("jq", "/s/key"), ("jq", "in.json"))),
    ("cut -d , -f 1 data.csv", (("cut", "data.csv"),)),
    ("sort -o out.txt -k 2 in.txt", (("sort", "in.txt"),)),
    ("sed -n 1p -- -odd-name", (("sed", "-odd-name"),)),
    ("wc -l < /s/key", (("wc", "/s/key"),)),
    ("cat - /dev/stdin", ()),
    ("sudo env LC_ALL=C less ~/notes", (("less", "~/notes"),)),  # wrappers peeled, `~` kept
    ("bash -c 'cat /s/key'", (("cat", "/s/key"),)),
    ("cat $(echo /s/key)", (("cat", "/s/key"),)),
    ("cat $FILE", ()),  # not known before it runs: the blocklist asks about such lines
    ("echo /s/key; ls /s; cp /s/key /tmp", ()),  # not readers
])
def test_read_paths_follow_each_programs_arguments(line: str, expected: tuple[tuple[str, str], ...]) -> None:
    assert _reads(line) == expected


@pytest.fixture
def sandboxed(tmp_path: Path, make_graph: Callable[[Path, str], MatcherGraph]) -> tuple[MatcherGraph, Path]:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key").write_text("k")
    (tmp_path / "notes.txt").write_text("n")
    (tmp_path / "link").symlink_to(secret / "key")
    text = f"""
[tools.file]
deny_read = ["{secret}", "*.env"]
[tools.permissions]
bash = [ {{ pattern = "*", action = "allow" }} ]
"""
    return make_graph(tmp_path, text), tmp_path


@pytest.mark.parametrize("line", [
    "cat {s}/key", "head -n 1 {s}/key", "grep root {s}/key", "wc -c < {s}/key", "bash -c 'less {s}/key'",
    "cd {s} && cat key", "cat {s}/k*", "cat {t}/link", "git status && tail {t}/app/.env", "sort -o /dev/null {s}/key",
])
def test_a_command_reading_a_denied_file_is_denied_by_the_sandbox(sandboxed: tuple[MatcherGraph, Path], line: str) -> None:
    graph, tmp = sandboxed
    command = line.format(s=tmp / "secret", t=tmp)
    found = decide(graph, "bash", command)
    assert (found.decision, found.stage) == ("deny", "sandbox"), found.reason
    assert found.rule is not None and found.rule.startswith("file.deny_read[")
    assert "reads it" in found.reason and any(entry.stage == "sandbox" for entry in found.trace)
    assert decide(graph, "bash", {"command": command}).decision == "deny"


@pytest.mark.parametrize("line", ["cat {t}/notes.txt", "echo {s}/key", "grep {s}/key {t}/notes.txt", "ls {s}", "cat"])
def test_commands_that_read_no_denied_file_are_left_to_the_other_stages(sandboxed: tuple[MatcherGraph, Path], line: str) -> None:
    graph, tmp = sandboxed
    found = decide(graph, "bash", line.format(s=tmp / "secret", t=tmp))
    assert (found.decision, found.stage) == ("allow", "permissions"), found.reason


def test_allow_read_applies_to_what_commands_read(tmp_path: Path, make_graph: Callable[[Path, str], MatcherGraph]) -> None:
    inside = tmp_path / "work"
    inside.mkdir()
    graph = make_graph(tmp_path, f'[tools.file]\nallow_read = ["{inside}/**"]\n[tools.permissions]\nbash = [ {{ pattern = "*", action = "allow" }} ]\n')
    assert decide(graph, "bash", f"cat {inside}/a.txt").decision == "allow"
    outside = decide(graph, "bash", f"cat {tmp_path}/b.txt")
    assert (outside.decision, outside.rule) == ("deny", "file.allow_read")
    assert decide(graph, "bash", "cat a.txt", cwd=str(inside)).decision == "allow"


def test_without_a_sandbox_shell_reads_stay_on_the_fast_path(make_graph: Callable[[Path, str], MatcherGraph], tmp_path: Path) -> None:
    graph = make_graph(tmp_path, '[tools.permissions]\nbash = [ { pattern = "*", action = "allow" } ]\n')
    engine = PolicyEngine(graph)
    line: Any = engine._plan("bash", "cat /etc/shadow")
    assert line[5] is not None and line[6] == ()
    assert engine.decide("bash", "cat /etc/shadow").decision == "allow"
