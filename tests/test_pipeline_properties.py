"""Properties of the whole filter pipeline, whatever the text, the command and the exit code.

For any input: ``graph.filter`` never raises; the output, without the security
notice, is never longer than the sanitised input; the same call gives the same
output; and a ``Fallback`` result is the sanitised input itself.  Then how user
rule files combine with the built-in ones.
"""

from __future__ import annotations

import json

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zeph_rules
from zeph_rules.cli.main import cli
from zeph_rules.engine.graph import MatcherGraph
from zeph_rules.engine.pipeline import FilterResult
from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import Confidence

FIXTURES = Path(__file__).resolve().parent / "fixtures"

_FIXTURE_COMMANDS = sorted({
    line.split("=", 1)[1].strip().strip('"').replace('\\"', '"')
    for case in FIXTURES.glob("*/*/case.toml")
    for line in case.read_text(encoding="utf-8").splitlines()
    if line.startswith("command =")
})
_MORE_COMMANDS = [
    "cd app && cargo test 2>&1 | tail -50", "git log --oneline", "ls -la", "find . -name '*.py'", "tree",
    "grep -rn TODO .", "rg --heading FIXME", "make -j8", "docker compose up", "docker build .", "brew install jq",
    "kubectl get pods", "terraform plan", "npm install", "pip install -r requirements.txt", "tail -f app.log",
    "journalctl -u x", "curl -v http://x", "wget http://x", "du -sh *", "ps aux", "eslint .", "go vet ./...",
    "", "   ", "echo hi", "unknown-tool --flag",
    # a trailing echo: its line is split off before the rules read the rest, and put back
    'cargo test; echo "exit=$?"', "pytest -q; echo $?; echo done", 'go test ./...; echo "go: ${PIPESTATUS[0]} $x"',
    "make || echo failed $$", "cargo clippy; echo $", 'npm test; echo "$(date) ${x:-} $1 $?"',
]

_LINES = [
    "test a ... ok", "test b ... FAILED", "running 2 tests", "failures:", "---- b stdout ----",
    "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    "thread 'b' panicked at src/lib.rs:1:2:", "=== RUN   TestX", "--- FAIL: TestX (0.00s)", "FAIL\tpkg\t0.1s",
    "panic: boom", "goroutine 1 [running]:", "E   assert 1 == 2", "____ test_x ____", "1 failed in 0.1s",
    "warning: unused", " --> src/a.rs:1:2", "   |", "12 |     let x = 1;", "   |         ^", "error[E0308]: x",
    "a.py:1:2: E501 too long", "src/a.py:19:    # TODO: x 4", "src/a.py:27:    # TODO: x 6", "16:  # FIXME",
    "diff --git a/x b/x", "@@ -1 +1 @@", "+added", "-removed", "On branch main", "\tmodified:   a.py",
    "├── img_0001.jpg", "│   └── b", "-rw-r--r-- 1 u g 12 Jun 21  2024 f_01.txt", "src/api:", "./src/x_1.py",
    "2024-01-01 10:00:00 INFO 12 done", "ERROR failed to connect", "commit 0123456789abcdef", "Author: A <a@b>",
    "Compiling x v0.1.0", "    Finished `dev` profile", "npm warn deprecated x", "Downloading x (1 MB)",
    "AKIAIOSFODNN7EXAMPLE", "password=hunter2hunter2", "ghp_0123456789abcdefghijklmnopqrstuvwxyz01",
    "", " ", "\t", "exit=0", "101", "done", "go: 1 ", "failed 12",
]
_NASTY = st.sampled_from([
    "\x1b[31mred\x1b[0m", "\x1b[1;32m", "\x1b]0;title\x07", "\x1b[2K\r", "50%\r100%", "\r\n", "\r", "\udcff",
    "\udc80\udcff", "x" * 5000, "é", "\x00", "\x1b", "\u2028", "\t", "\x9b31m",
])
_LINE = st.one_of(st.sampled_from(_LINES), st.text(max_size=60), _NASTY)
_TEXT = st.one_of(
    st.lists(st.tuples(_LINE, st.sampled_from(["\n", "\r\n", "\r", ""])), max_size=60).map(
        lambda parts: "".join(line + end for line, end in parts)
    ),
    st.text(max_size=300),
)
_COMMAND = st.one_of(st.sampled_from(_FIXTURE_COMMANDS + _MORE_COMMANDS), st.text(max_size=40))
_EXIT = st.sampled_from([None, 0, 1, 101])


@pytest.fixture(scope="module")
def graph() -> MatcherGraph:
    return zeph_rules.load(builtin=True, cache=False)


def _body(result: FilterResult) -> str:
    """Return the output without the security notice the pipeline appends."""
    output, notice = result.output, result.security_notice
    if notice:
        assert output.endswith(notice + "\n")
        output = output[: -(len(notice) + 1)]
    return output


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_TEXT, command=_COMMAND, exit_code=_EXIT)
def test_filter_properties(graph: MatcherGraph, text: str, command: str, exit_code: int | None) -> None:
    result = graph.filter(command, text, exit_code)
    clean = sanitize(text)
    body = _body(result)
    if result.security_notice and not (clean.endswith("\n") or not clean):
        # the notice goes on its own line: a newline was added after an unterminated last line
        assert len(body) <= len(clean) + 1
    else:
        assert len(body) <= len(clean)
    assert graph.filter(command, text, exit_code) == result
    if result.confidence is Confidence.FALLBACK:
        expected = clean if not result.security_notice or not clean or clean.endswith("\n") else clean + "\n"
        assert body == expected


#: real outputs small enough to filter hundreds of times over: what the mutations below start from
_SMALL_CASES = sorted(
    case.parent for case in FIXTURES.glob("*/*/raw.txt") if case.stat().st_size < 40_000
)


@st.composite
def _mutated_fixture(draw: st.DrawFn) -> tuple[str, str, int | None]:
    """A real output cut, repeated, shuffled or spliced the way cut-off, retried and interleaved runs are."""
    case = draw(st.sampled_from(_SMALL_CASES))
    meta = (case / "case.toml").read_text(encoding="utf-8")
    command = next(line.split("=", 1)[1].strip().strip('"').replace('\\"', '"')
                   for line in meta.splitlines() if line.startswith("command ="))
    lines = (case / "raw.txt").read_text(encoding="utf-8", errors="surrogateescape").split("\n")
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(lines)))
        end = min(len(lines), start + draw(st.integers(1, 60)))
        operation = draw(st.sampled_from(["cut", "repeat", "head", "tail", "shuffle", "splice", "nasty"]))
        if operation == "cut":
            del lines[start:end]
        elif operation == "repeat":
            lines[start:start] = lines[start:end] * draw(st.integers(2, 40))
        elif operation == "head":
            lines = lines[:end]
        elif operation == "tail":
            lines = lines[start:]
        elif operation == "shuffle":
            lines[start:end] = draw(st.permutations(lines[start:end]))
        elif operation == "splice":
            lines.insert(start, draw(st.sampled_from(_LINES)))
        else:
            lines.insert(start, draw(_NASTY) + draw(st.sampled_from(_LINES)))
    exit_code = draw(st.sampled_from([None, 0, 1, 2, 101, 124]))
    return command, "\n".join(lines), exit_code


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutated=_mutated_fixture())
def test_filter_properties_on_mutated_real_output(graph: MatcherGraph, mutated: tuple[str, str, int | None]) -> None:
    # real output, broken as it is in the wild, reaches the deep paths of every parser that random
    # text never does (a cargo run cut off after its details printed a placeholder object)
    command, text, exit_code = mutated
    result = graph.filter(command, text, exit_code)
    clean = sanitize(text)
    body = _body(result)
    assert len(body) <= len(clean) + (1 if result.security_notice else 0)
    assert " object at 0x" not in body or " object at 0x" in clean
    assert graph.filter(command, text, exit_code) == result
    if result.confidence is Confidence.FALLBACK:
        expected = clean if not result.security_notice or not clean or clean.endswith("\n") else clean + "\n"
        assert body == expected


def test_a_line_wider_than_any_terminal_keeps_its_ends_around_a_marker(graph: MatcherGraph) -> None:
    # a minified JSON body past 64 KiB: its head (where the shape of the answer is) and its tail stay,
    # counted between
    body = '{"count":300,"products":[' + ",".join(f'{{"sku":"SKU-{i}"}}' for i in range(5000)) + "]}"
    assert len(body) > 65_536
    result = graph.filter("curl -s http://x/catalog.json", f"{body}\nfetched\n", 0)
    head, marker, tail = result.output.split("\n")[0].partition(" ... (")
    assert head == body[:4000] and tail.endswith(body[-1000:])
    assert marker and f"{len(body) - 5000} characters omitted) ... " in tail
    assert result.confidence is Confidence.PARTIAL and result.output.endswith("\nfetched\n")
    # a line as wide as 10,000 characters stays whole
    assert graph.filter("curl -s http://x", "y" * 10_000 + "\n", 0).output == "y" * 10_000 + "\n"


def test_a_json_report_on_one_line_stays_whole_but_for_its_long_strings(graph: MatcherGraph) -> None:
    # `eslint -f json`, `jest --json`: every finding in the middle may be the one asked for (batch 38b's
    # reviewer quoted them); a file's source quoted in it is cut inside its quotes and the JSON still parses
    source = r"const rates = {\n" + r'  \"TEA-100\": 1.5,\n' * 400 + r"};\n"  # as JSON escapes it
    findings = ",".join(
        f'{{"ruleId":"no-undef","severity":2,"message":"\'rate{i}\' is not defined.","line":{i},"column":3}}'
        for i in range(150)
    )
    report = f'[{{"filePath":"/src/pricing.js","messages":[{findings}],"source":"{source}"}}]'
    assert 10_000 < len(report) <= 65_536 and len(source) > 2_000
    result = graph.filter("npx eslint -f json src", report + "\n", 1)
    line = result.output.split("\n")[0]
    assert '"message":"\'rate75\' is not defined.","line":75' in line
    assert json.loads(line)[0]["messages"][149]["line"] == 149
    kept_source = json.loads(line)[0]["source"]
    assert kept_source.startswith(json.loads(f'"{source}"')[:1_000]) and "characters omitted) ..." in kept_source
    assert result.confidence is Confidence.PARTIAL
    # with no long string it is left as it is
    whole = f'[{{"filePath":"/src/pricing.js","messages":[{findings}]}}]'
    assert graph.filter("npx eslint -f json src", whole + "\n", 1).output == whole + "\n"


@pytest.mark.parametrize("width", [9_999, 10_000, 10_001, 10_002, 15_000, 20_001])
@pytest.mark.parametrize("offset", [0, 1, 4_999, 5_000, 5_001, 7_777])
def test_a_wide_line_is_found_wherever_it_starts(width: int, offset: int) -> None:
    # the check looks at aligned windows of half the width: a line is found whatever its alignment
    from zeph_rules.engine.pipeline import _narrow_wide_lines

    text = "a" * offset + "\n" + "y" * width + "\nb\n"
    assert (_narrow_wide_lines(text) != text) == (width > 10_000)


_STAMP = "2026-11-26T21:53:02.538870Z "


def test_a_timestamp_on_every_line_is_set_aside_for_the_rules(graph: MatcherGraph) -> None:
    # `cargo test 2>&1 | ts '%Y-%m-%dT%H:%M:%.SZ'` (as batch 28 captured it): the summariser read no
    # libtest line and fell back; it now reads the lines without their stamps, which come back after
    # (a run of many tests: a run of ten keeps its passes, and its summary's marker would cost more
    # than the one build line it counts, so the output stays whole)
    raw = (FIXTURES / "cargo" / "big_test_fail" / "raw.txt").read_text(encoding="utf-8")
    stamped = "\n".join(_STAMP + line if line else _STAMP.rstrip() for line in raw.rstrip("\n").split("\n")) + "\n"
    plain = graph.filter("cargo test", raw, 101)
    result = graph.filter("cargo test 2>&1 | ts '%Y-%m-%dT%H:%M:%.SZ'", stamped, 101)
    assert result.confidence is not Confidence.FALLBACK and result.rules == plain.rules
    raw_lines = set(sanitize(raw).split("\n"))
    kept = [line for line in plain.output.split("\n") if line.strip() and line in raw_lines]
    assert kept and all(_STAMP + line in result.output.split("\n") for line in kept)
    assert result.filtered_lines < plain.raw_lines  # the passing tests went, as without stamps
    # output where only some lines carry a stamp (a log quoted in a test's output) is not split
    from zeph_rules.engine import timestamps

    half = "\n".join(_STAMP + line if i % 2 else line for i, line in enumerate(raw.split("\n")))
    assert timestamps.split(sanitize(half)) is None


@pytest.mark.parametrize("stamp", ["2026-11-26T21:53:02.538870Z", "2026-11-26 21:53:02,538", "Nov 26 21:53:03",
                                   "00:00:01", "[21:53:04]", "[2026-11-26T21:53:02+01:00]"])
def test_timestamps_split_and_reattach(stamp: str) -> None:
    from zeph_rules.engine import timestamps

    lines = ["running 3 tests", "test a ... ok", "", "test b ... FAILED", "test b ... FAILED", "done"]
    text = "\n".join(f"{stamp} {line}" if line else stamp for line in lines)
    prefixes, bare = timestamps.split(text) or ([], "")
    assert bare == "\n".join(lines) and prefixes[0] == f"{stamp} " and prefixes[2] == stamp
    kept = "... (1 passing test omitted) ...\ntest b ... FAILED\ntest b ... FAILED"
    assert timestamps.reattach(prefixes, bare, kept).split("\n") == [
        "... (1 passing test omitted) ...", f"{stamp} test b ... FAILED", f"{stamp} test b ... FAILED"]
    assert timestamps.split("\n".join(lines)) is None
    assert timestamps.split(f"{stamp} a\n{stamp} b") is None  # too few lines to tell


def test_fixture_commands_were_found() -> None:
    assert len(_FIXTURE_COMMANDS) > 50


# ------------------------------------------------------------------ user rules and the built-ins

_USER_RULES = """
[[rules]]
name = "git-log"
match = 'command ^= "git log"'
strategy = { type = "keep_matching", patterns = ["^commit "] }

[[rules]]
name = "my-tool"
match = 'command ^= "my-tool"'
strategy = { type = "strip_noise", patterns = ["^noise"] }
"""

_NOISY = "".join(f"noise line {i}\n" for i in range(20)) + "kept\n"
_LOG = "".join(f"commit {i:040x}\nAuthor: A <a@example.com>\nDate:   today\n\n    subject {i}\n\n" for i in range(3))


@pytest.fixture()
def user_rules(tmp_path: Path) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(_USER_RULES, encoding="utf-8")
    return path


def test_user_rules_extend_the_builtins(user_rules: Path) -> None:
    graph = zeph_rules.load([user_rules], builtin=True, cache=False)
    assert graph.filter("my-tool run", _NOISY, 0).output.startswith("kept\n... (20 noise lines stripped)")
    # a built-in the user file does not name still applies
    assert "cargo-test" in graph.filter("cargo test", "running 0 tests\n", 0).rules or graph.matching_filters("cargo test")


def test_no_builtin_replaces_them(user_rules: Path) -> None:
    graph = zeph_rules.load([user_rules], builtin=False, cache=False)
    assert list(graph.matching_filters("cargo test")) == []
    assert graph.filter("my-tool", _NOISY, 0).output.startswith("kept\n")
    runner = CliRunner()
    raw = "test a ... ok\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n"
    plain = runner.invoke(cli, ["filter", "--command", "cargo test", "--rules", str(user_rules), "--no-builtin"], input=raw)
    assert plain.exit_code == 0 and plain.output == raw


def test_a_rule_overridden_by_name_runs_where_the_one_it_replaces_ran(tmp_path: Path) -> None:
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.write_text("".join(f'[[rules]]\nname = "{name}"\nmatch = \'command ^= "tool"\'\n'
                             f'strategy = {{ type = "strip_noise", patterns = ["^{name}"] }}\n\n' for name in ("one", "two")))
    second.write_text('[[rules]]\nname = "one"\nmatch = \'command ^= "tool"\'\nstrategy = { type = "strip_noise", patterns = ["^x"] }\n')
    graph = zeph_rules.load([first, second], builtin=False, cache=False)
    assert [rule.id for rule in graph.matching_filters("tool run")] == ["one", "two"]
    assert graph.filter("tool run", "x\none\ntwo\nkept\n", 0).rules == ("one", "two")


def test_user_rule_with_a_builtin_name_overrides_it_in_place(user_rules: Path) -> None:
    builtin = zeph_rules.load(builtin=True, cache=False)
    graph = zeph_rules.load([user_rules], builtin=True, cache=False)
    builtin_ids = [rule.id for rule in builtin.matching_filters("git log")]
    user_ids = [rule.id for rule in graph.matching_filters("git log")]
    assert builtin_ids == user_ids  # same name, same place
    result = graph.filter("git log", _LOG, 0)
    assert result.output.splitlines()[:3] == [f"commit {i:040x}" for i in range(3)]
    assert "Author:" not in result.output and "subject" not in result.output
    assert "subject 0" in builtin.filter("git log", _LOG, 0).output
    names = [rule.id for rule in graph.matching_filters("git log")]
    assert names.count("git-log") == 1


@settings(max_examples=300, deadline=None)
@given(text=_TEXT, filtered=_TEXT)
def test_signal_prefilter_restores_the_same_lines(text: str, filtered: str) -> None:
    """The substring prefilter in front of the security-signal regex never changes what is restored."""
    from zeph_rules.engine.pipeline import _signal_candidates
    from zeph_rules.engine.signals import restore_signals

    clean = sanitize(text)
    assert restore_signals(_signal_candidates(clean), filtered) == restore_signals(clean, filtered)
