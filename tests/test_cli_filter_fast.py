"""``main()`` runs common ``filter`` command lines without click; it must behave exactly like the click command."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from click.testing import CliRunner

from zeph_rules.cli import filter as filter_command_module
from zeph_rules.cli import filter_core
from zeph_rules.cli.main import _main_click, main
from zeph_rules.engine.errors import RuleFileError, UsageError

_RULES = """
[[rules]]
name = "my-tool"
match = 'command ^= "my-tool"'
strategy = { type = "strip_noise", patterns = ["^noise"] }
"""

_CARGO = ("running 3 tests\ntest a ... ok\ntest b ... ok\ntest c ... FAILED\n\nfailures:\n\n---- c stdout ----\n"
          "boom\n\nfailures:\n    c\n\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n")
_NOISY = "".join(f"noise line {i}\n" for i in range(20)) + "kept \xe9 \x1b[31mred\x1b[0m\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("fast-filter")
    (root / "rules.toml").write_text(_RULES, encoding="utf-8")
    (root / "broken.toml").write_text("[[rules]]\nname = 'x'\nmatch = 'command ^='\n", encoding="utf-8")
    (root / "adir").mkdir()
    return {"rules": str(root / "rules.toml"), "broken": str(root / "broken.toml"), "dir": str(root / "adir"),
            "missing": str(root / "missing.toml"), "cache": str(root / "cache")}


#: (argv after "filter", whether main() may run it without click)
_MATRIX: list[tuple[list[str], bool]] = [
    (["--command", "cargo test"], True),
    (["--command=cargo test", "--exit-code=101"], True),
    (["--exit-code", "101", "--command", "cargo test", "--stats"], True),
    (["--command", "cargo test", "--format", "json", "--exit-code", "0"], True),
    (["--command", "cargo test", "--format=text"], True),
    (["--command", "my-tool run", "--rules", "{rules}", "--no-builtin", "--stats"], True),
    (["--command", "my-tool run", "--rules={rules}", "--rules", "{rules}", "--format", "json"], True),
    (["--command", "my-tool", "--rules", "{missing}"], True),
    (["--command", "my-tool", "--rules", "{broken}"], True),  # a broken rule file is a diagnostic, not an error
    (["--command", ""], True),
    (["--command=", "--exit-code", " 7 "], True),
    (["--command=-x", "--stats"], True),
    (["--command", "cargo test", "--exit-code", "+3"], True),
    (["--command", "make test", "--exit-code", "2"], True),  # a task runner: cargo's rules, by its output
    (["--command", "./scripts/ci.sh", "--format", "json"], True),
    # everything below is left to click
    ([], False),
    (["--exit-code", "1"], False),
    (["--command"], False),
    (["--command", "--stats"], False),
    (["--command", "-x"], False),
    (["--command", "cargo test", "--exit-code", "x"], False),
    (["--command", "cargo test", "--exit-code", "-1"], False),
    (["--command", "cargo test", "--exit-code="], False),
    (["--command", "cargo test", "--format", "JSON"], False),
    (["--command", "cargo test", "--format", "yaml"], False),
    (["--command", "cargo test", "--stats=1"], False),
    (["--command", "cargo test", "--stats", "--stats"], False),
    (["--command", "a", "--command", "b"], False),
    (["--command", "cargo test", "--rules", "{dir}"], False),
    (["--command", "cargo test", "extra"], False),
    (["--command", "cargo test", "--"], False),
    (["--", "--command", "cargo test"], False),
    (["--comm", "cargo test"], False),
    (["--command", "cargo test", "--stat"], False),
    (["-c", "cargo test"], False),
    (["--help"], False),
    (["-h"], False),
    (["--command", "cargo test", "--help"], False),
]


def _run(fn: Any, argv: list[str], stdin: str) -> tuple[int, bytes, bytes]:
    with CliRunner().isolation(input=stdin.encode("utf-8")) as (out, err, _):
        code = fn(argv)
        return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("argv", "fast"), _MATRIX, ids=[" ".join(a) or "<none>" for a, _ in _MATRIX])
def test_fast_filter_matches_click(argv: list[str], fast: bool, files: dict[str, str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", files["cache"])
    argv = [arg.format(**files) for arg in argv]
    assert (filter_core.parse_filter_args(argv) is not None) is fast
    for stdin in (_CARGO, _NOISY):
        via_main = _run(main, ["filter", *argv], stdin)
        via_click = _run(_main_click, ["filter", *argv], stdin)
        assert via_main == via_click
    if fast:
        assert via_main[0] in (0, 1)


@pytest.mark.parametrize("error", [KeyboardInterrupt(), EOFError(), RuleFileError("no such file"), UsageError("bad"),
                                   BrokenPipeError(32, "Broken pipe")], ids=type)
def test_errors_in_the_filter_are_reported_alike(error: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(*args: Any, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(filter_core, "run_filter", failing)
    monkeypatch.setattr(filter_command_module, "run_filter", failing)
    argv = ["filter", "--command", "cargo test"]
    with monkeypatch.context() as patch:  # click quiets the streams after a closed pipe; keep the test's own
        patch.setattr(sys, "stdout", sys.stdout)
        patch.setattr(sys, "stderr", sys.stderr)
        via_main = _run(main, argv, "")
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stdout", sys.stdout)
        patch.setattr(sys, "stderr", sys.stderr)
        via_click = _run(_main_click, argv, "")
    assert via_main == via_click
    assert via_main[0] == (2 if isinstance(error, UsageError) else 1)


def test_shell_completion_goes_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_ZEPH_RULES_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", "zeph-rules filter --co")
    monkeypatch.setenv("COMP_CWORD", "2")
    code, out, _ = _run(main, ["filter", "--command", "x"], "")
    assert code == 0 and b"--command" in out


def test_filter_stats_with_ansi_in_the_command_strips_it(files: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", files["cache"])
    argv = ["filter", "--command", "my-tool \x1b[1mrun\x1b[0m", "--rules", files["rules"], "--no-builtin", "--stats"]
    code, _, err = _run(main, argv, _NOISY)
    assert code == 0 and err.startswith(b"[shell] `my-tool run` 21 lines -> 2 lines, ") and b"\x1b" not in err
