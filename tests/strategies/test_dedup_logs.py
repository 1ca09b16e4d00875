"""``dedup`` on real logs: records group by their message, signals stay, non-logs come through as they are."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st

from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import STRATEGIES, Confidence
from zeph_rules.engine.strategies._blocks import repeated_blocks
from zeph_rules.engine.strategies.dedup import _NAMING_WORD, _timeless, is_signal

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
dedup = STRATEGIES["dedup"]
_COUNT = re.compile(r" \(x(\d+)\)$")
_BLOCK = re.compile(
    r"^\.\.\. \((\d+) (?:lines? omitted: the same as (?:the block above|under an earlier record)|similar lines? omitted)\) \.\.\.$"
)


def _raw(case: str) -> str:
    return sanitize((FIXTURES / case / "raw.txt").read_text(encoding="utf-8"))


def _must_survive(case: str) -> list[str]:
    return list(tomllib.loads((FIXTURES / case / "case.toml").read_text(encoding="utf-8"))["must_survive"])


@lru_cache(maxsize=1)
def _graph() -> Any:
    from zeph_rules.engine.loader import load

    return load(builtin=True, cache=False)


def _builtin_params(rule_name: str) -> dict[str, Any]:
    """Return the strategy parameters of a built-in filter rule, as the pipeline passes them."""
    from zeph_rules.engine.loader import load_ruleset

    rules = load_ruleset([], builtin=True).rules  # desugared: `{ use = "set" }` items are the set's regexes
    return dict(next(rule for rule in rules if rule.id == rule_name).payload)


def _split(text: str) -> list[str]:
    """Return the lines of ``text`` the way the strategy splits them (on ``\\n`` only)."""
    return text.removesuffix("\n").split("\n")


def _lines_accounted(out: str) -> int:
    """Return how many input lines the output stands for (a group counts N, a repeated block its length)."""
    total = 0
    for line in _split(out):
        block = _BLOCK.match(line)
        count = _COUNT.search(line)
        total += int(block.group(1)) if block else int(count.group(1)) if count else 1
    return total


# -- access logs ------------------------------------------------------------------


def test_access_log_keeps_every_error_status_and_groups_the_rest_by_request() -> None:
    raw = _raw("logs/tail_access_log")
    out = dedup(raw, _builtin_params("log-dedup"), 0).text
    lines = out.splitlines()
    for expected in _must_survive("logs/tail_access_log"):  # every 500 and 502, verbatim
        assert expected in lines
    for line in raw.splitlines():
        if re.search(r'HTTP/1\.1" [45]\d\d ', line):
            assert line in lines  # a 404 too: never merged with a differing line
    # 2xx/3xx group by status, method and path: the client, time, size and agent vary
    healthz = [line for line in lines if '"GET /healthz HTTP/1.1" 200 ' in line]
    last_healthz = [line for line in raw.splitlines() if '"GET /healthz HTTP/1.1" 200 ' in line][-1]
    assert len(healthz) == 2 and healthz[0].endswith(")") and healthz[1] == last_healthz  # first (xN), last as it was
    assert _lines_accounted(out) == len(_split(raw))
    assert len(out) < len(raw) * 0.2


def test_access_log_status_is_part_of_the_message() -> None:
    raw = _raw("logs/tail_access_log").splitlines()
    ok = next(line for line in raw if '"GET /api/cart HTTP/1.1" 200 ' in line)
    failed = next(line for line in raw if '"GET /api/cart HTTP/1.1" 500 ' in line)
    out = dedup(f"{ok}\n{ok}\n{failed}\n{ok}\n", {}, 0).text
    assert out == f"{ok} (x2)\n{failed}\n{ok}\n"  # the 200s group; the error never joins them


def test_a_request_logged_without_its_protocol_keeps_an_error_status_apart() -> None:
    # python logging and morgan's "dev" format log `"POST /x" 500 57 ms` / `GET /x 404 3.1 ms`
    lines = [f'2025-03-15 06:09:{second:02d},731 INFO orders.api: 10.0.1.{second} - "POST /api/carts/{second}/checkout" 201 6 ms'
             for second in range(10, 16)]
    failed = '2025-03-15 06:09:57,731 INFO orders.api: 10.0.1.194 - "POST /api/carts/35/checkout" 500 57 ms'
    out = dedup("\n".join([*lines[:3], failed, *lines[3:]]) + "\n", {}, 0).text
    assert failed in out.splitlines()
    assert out.splitlines()[0] == lines[0] + " (x4)"  # the 201s group (the last line stays as it is)
    assert is_signal("GET /api/items/7 404 3.112 ms - 21")
    assert not is_signal("GET /api/items/7 200 3.112 ms - 21")
    # an app's own request line, with an arrow before the status (held-out batch 24: a 502 among 160 200s)
    assert is_signal("INFO shop.http [req-02417] POST /api/checkout -> 502 in 120ms")
    assert is_signal("GET /x => 500 (3 ms)") and not is_signal("GET /api/products -> 200 in 12ms")
    assert not is_signal("GET /api/users/673 -> 404 in 7ms")  # one of many alike: they group
    assert not is_signal("GET /orders -> 500s handled: 0")  # (the status must end there)


# -- JSON lines -------------------------------------------------------------------


def test_json_lines_group_by_level_and_message_and_keep_warnings_and_errors() -> None:
    raw = _raw("logs/jsonl")
    out = dedup(raw, _builtin_params("log-dedup"), 0).text
    lines = out.splitlines()
    for expected in _must_survive("logs/jsonl"):
        assert expected in lines
    records = [json.loads(line) for line in raw.splitlines()]
    first_info = next(line for line, record in zip(raw.splitlines(), records) if record["msg"] == "request completed")
    infos = sum(1 for record in records if record["msg"] == "request completed")
    assert records[-1]["msg"] == "request completed"  # the last record stands alone at the end
    last_info = [line for line, record in zip(raw.splitlines(), records) if record["msg"] == "request completed"][-2]
    # the first example, verbatim, with the count of those it stands for; the last grouped one where it was
    assert f"{first_info} (x{infos - 2})" in lines and last_info in lines
    assert lines[-1] == raw.splitlines()[-1]
    assert sum(1 for line in lines if '"level":"warn"' in line) == sum(1 for r in records if r["level"] == "warn")
    assert _lines_accounted(out) == len(records)


def test_json_lines_levels_by_number_and_http_status_and_error_fields() -> None:
    text = (
        '{"level":30,"time":1,"msg":"tick","n":1}\n'
        '{"level":30,"time":2,"msg":"tick","n":2}\n'
        '{"level":30,"time":2,"msg":"tick","n":5}\n'
        '{"level":50,"time":3,"msg":"tick","n":3}\n'
        '{"level":50,"time":4,"msg":"tick","n":4}\n'
        '{"level":"info","msg":"done","res":{"statusCode":200}}\n'
        '{"level":"info","msg":"done","res":{"statusCode":503}}\n'
        '{"level":"info","msg":"job","err":null}\n'
        '{"level":"info","msg":"job","err":{"type":"Boom"}}\n'
    )
    out = dedup(text, {}, 0).text.splitlines()
    assert out == [
        '{"level":30,"time":1,"msg":"tick","n":1} (x2)',
        '{"level":30,"time":2,"msg":"tick","n":5}',  # the last of the group, where it was
        '{"level":50,"time":3,"msg":"tick","n":3}',  # pino's 50 is an error
        '{"level":50,"time":4,"msg":"tick","n":4}',
        '{"level":"info","msg":"done","res":{"statusCode":200}}',
        '{"level":"info","msg":"done","res":{"statusCode":503}}',
        '{"level":"info","msg":"job","err":null}',
        '{"level":"info","msg":"job","err":{"type":"Boom"}}',
    ]


def test_json_data_without_level_or_message_is_not_a_log_record() -> None:
    text = '{"id":1,"price":10}\n{"id":2,"price":12}\n{"id":3,"price":14}\n'
    assert dedup(text, {"log_lines_only": True}, 0).text == text
    assert dedup(text, {"log_lines_only": True, "min_log_ratio": 0.5}, 0).text == text


# -- syslog -----------------------------------------------------------------------


def test_syslog_keeps_timeouts_kernel_errors_and_groups_routine_sshd_attempts() -> None:
    raw = _raw("logs/cat_syslog")
    out = dedup(raw, _builtin_params("log-dedup"), 0).text
    lines = out.splitlines()
    for expected in _must_survive("logs/cat_syslog"):
        assert expected in lines
    failed = [line for line in lines if "sshd[" in line and "Failed password for root " in line]
    assert len(failed) == 2 and _COUNT.search(failed[0]) and not _COUNT.search(failed[1])  # first (xN), last
    assert _lines_accounted(out) == len(_split(raw))
    assert len(out) < len(raw) * 0.1


def test_without_routine_patterns_failed_lines_stay_verbatim() -> None:
    raw = _raw("logs/cat_syslog")
    out = dedup(raw, {}, 0).text.splitlines()
    assert sum("Failed password for" in line for line in out) == raw.count("Failed password for")


def test_routine_patterns_never_group_a_security_signal() -> None:
    text = (
        "Mar  1 06:00:01 h sshd[1]: pam_unix(sshd:auth): authentication failure; rhost=203.0.113.4 user=root\n"
        "Mar  1 06:00:02 h sshd[2]: pam_unix(sshd:auth): authentication failure; rhost=203.0.113.5 user=root\n"
    )
    assert dedup(text, {"routine_patterns": [r"sshd\[\d+\]: pam_unix"]}, 0).text == text


def test_signal_words_across_formats_and_locales() -> None:
    for line in (
        "upstream timed out (110: Connection timed out) while reading response header",
        "Out of memory: Killed process 48211 (php-fpm8.2)",
        "worker: job 12 failed: TimeoutError: upstream did not answer",
        'level=info msg="request" status=503',
        "Verbindung fehlgeschlagen: Fehler 12",
        "连接错误 12",
    ):
        assert is_signal(line), line
    for line in ("GET /api/items -> 200 in 37ms", "Started session-8629.scope", "fail2ban.filter: Found 1.2.3.4"):
        assert not is_signal(line), line


@pytest.mark.parametrize("message", [
    "Sicherung {n} fehlgeschlagen",  # no "fehler" in it: the candidate words once missed it
    "| GET | /api/items/{n} |404| 3 ms |",  # a table's cell with no blank after its bar
    "GET /stock/A-{n}00 404 3.1 ms",
    "worker {n}: NullPointerException in handler",
])
def test_a_signal_found_only_by_its_own_words_stays_apart_in_a_log(message: str) -> None:
    # each regex runs only on the lines holding one of its words: every alternative needs one
    lines = [f"2026-11-28 10:00:{second:02d} INFO " + message.format(n=second) for second in range(10, 16)]
    quiet = [f"2026-11-28 10:01:{second:02d} INFO GET /healthz from=127.0.0.1:{40000 + second}" for second in range(10, 16)]
    out = dedup("\n".join(quiet + lines) + "\n", {}, 0).text.splitlines()
    assert all(line in out for line in lines), out
    assert out[0] == quiet[0] + " (x5)"


def test_a_recursions_repeated_frame_is_counted_inside_its_trace() -> None:
    # Java prints 1,024 frames of a StackOverflowError, one frame over and over: inside the trace a
    # run of equal lines is its first with a count; the frames around it and their order stay
    text = ("Exception in thread \"main\" java.lang.StackOverflowError\n"
            + "\tat Foo.bar(Foo.java:5)\n" * 1024 + "\tat Foo.main(Foo.java:9)\n"
            + "2026-01-01 10:00:00 INFO done\n")
    assert dedup(text, {}, 0).text == (
        "Exception in thread \"main\" java.lang.StackOverflowError\n\tat Foo.bar(Foo.java:5) (x1024)\n"
        "\tat Foo.main(Foo.java:9)\n2026-01-01 10:00:00 INFO done\n"
    )


def test_what_was_not_found_is_a_clue_each_id_stays() -> None:
    # an INFO record, but which product was missing is what the reader looks for: "product 45
    # not found" must not hide under "product 44 not found (x11)"
    text = "".join(
        f"2026-11-26 08:39:{second:02d},000 INFO     [shop.orders] product {product} not found\n"
        for second, product in enumerate((44, 41, 44, 42, 44, 48, 45, 44, 41))
    ) + "2026-11-26 08:39:59,000 INFO     [shop.orders] done\n"
    kept = _split(dedup(text, _builtin_params("log-dedup"), 0).text)
    for product in (41, 42, 44, 45, 48):
        assert any(f"product {product} not found" in line for line in kept), product
    assert kept[0].endswith("product 44 not found (x3)")  # and its last repeat where it happened


# -- logs by content, repeated blocks ---------------------------------------------


def test_a_file_that_is_not_a_log_comes_through_unchanged() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    result = _graph().filter("cat README.md", readme, 0)
    assert result.output == sanitize(readme)
    assert "log-files" in result.rules
    params = _builtin_params("log-files")
    assert dedup(sanitize(readme), params, 0) == (sanitize(readme), Confidence.FULL)


def test_a_log_under_any_name_is_found_by_its_content() -> None:
    raw = _raw("logs/tail_app_log")
    result = _graph().filter("tail -n 500 service.txt", raw, 0)
    assert result.rules == ("log-files",)
    assert len(result.output) < len(raw) * 0.1
    for expected in _must_survive("logs/tail_app_log"):
        assert any(expected in line for line in result.output.splitlines())


@pytest.mark.parametrize(("command", "rule"), [
    ("cat syslog", "log-dedup"), ("sudo tail -f /var/log/messages", "log-dedup"), ("cat app.jsonl", "log-dedup"),
    ("zcat kern.log.2.gz", "log-dedup"), ("tail -n 800 access.log", "log-dedup"), ("less +F nohup.out", "log-dedup"),
    ("journalctl -u nginx --no-pager", "log-dedup"), ("docker compose -f prod.yml logs web", "log-dedup"),
    ("kubectl -n shop logs deploy/web", "log-dedup"), ("cat notes.txt", "log-files"), ("head -50 server", "log-files"),
])
def test_log_commands_and_files_reach_a_log_rule(command: str, rule: str) -> None:
    assert rule in _graph().filter(command, "x\n", 0).rules


def test_data_tables_are_never_deduplicated_by_content() -> None:
    assert not {"log-dedup", "log-files"} & set(_graph().filter("cat metrics.csv", "x\n", 0).rules)


def test_a_traceback_printed_twice_is_kept_once_with_a_marker() -> None:
    raw = _raw("logs/python_chained_crash")
    out = dedup(raw, _builtin_params("program-logs"), 1).text
    lines = out.splitlines()
    markers = [line for line in lines if _BLOCK.match(line)]
    assert len(markers) == 1
    assert set(lines) - set(markers) <= {line for line in raw.splitlines()} | {
        line for line in lines if _COUNT.search(line)}
    for expected in _must_survive("logs/python_chained_crash"):
        assert any(expected in line for line in lines)
    assert _lines_accounted(out) == len(_split(raw))


# -- continuation lines -------------------------------------------------------------


def test_postgres_detail_and_statement_lines_stay_under_their_error() -> None:
    raw = _raw("logs/postgres_server")
    out = dedup(raw, _builtin_params("log-dedup"), 0).text
    lines = _split(out)
    for expected in _must_survive("logs/postgres_server"):
        assert any(expected in line for line in lines), expected
    error = lines.index(next(line for line in lines if 'ERROR:  duplicate key value' in line))
    assert "DETAIL:  Key (id)=(1) already exists." in lines[error + 1]
    assert "STATEMENT:  insert into t values (1,'a'),(1,'b')" in lines[error + 2]
    assert "connection received: host=[local] (x2)" in out  # routine records still group (the last apart)
    assert _lines_accounted(out) == len(_split(raw))


def test_a_continuation_line_is_never_grouped_away_from_its_record() -> None:
    raw = _raw("logs/postgres_server").splitlines()
    error = next(line for line in raw if "ERROR:  division by zero" in line)
    statement = next(line for line in raw if "STATEMENT:  select 1/0" in line)
    other = statement.replace("select 1/0", "select 2/0")
    text = f"{error}\n{statement}\n{error}\n{other}\n"
    # the same error with another statement is another record: both stay whole
    assert dedup(text, {}, 0).text == text
    # a routine record with its own statement: the statement differs only by a number, so they group as one block
    log = statement.replace("ERROR", "LOG").replace("STATEMENT", "LOG")
    notice = [log.replace("select 1/0", "duration: 1 ms"), statement.replace("select 1/0", "select 1")]
    notice2 = [log.replace("select 1/0", "duration: 2 ms"), statement.replace("select 1/0", "select 2")]
    notice3 = [log.replace("select 1/0", "duration: 3 ms"), statement.replace("select 1/0", "select 3")]
    out = dedup("\n".join(notice + notice2 + notice3) + "\n", {}, 0).text
    assert _split(out) == [f"{notice[0]} (x2)", notice[1], *notice3]  # the last of the group stands apart


# -- folding runs -------------------------------------------------------------------


def test_program_logs_fold_a_run_of_similar_records_to_its_ends() -> None:
    raw = _raw("node/crash")
    out = dedup(raw, _builtin_params("program-logs"), 0).text
    lines = _split(out)
    assert any(line.endswith("registering route /api/v1/resource0") for line in lines)
    assert any(line.endswith("registering route /api/v1/resource19") for line in lines)
    assert "... (18 similar lines omitted) ..." in lines
    assert not any("resource7" in line for line in lines)
    assert "TypeError: Invalid URL" in lines  # the traceback stays
    assert _lines_accounted(out) == len(_split(raw))


def test_http_server_console_folds_successful_requests_and_keeps_every_error() -> None:
    raw = _raw("http_server/access_log")
    out = dedup(raw, _builtin_params("program-logs"), 0).text
    lines = _split(out)
    for expected in _must_survive("http_server/access_log"):
        assert expected in lines, expected
    assert lines[1].endswith('"GET /p1.html HTTP/1.1" 200 -')  # requested twice: first and last shown
    assert lines[2] == "... (19 similar lines omitted) ..."
    assert lines[3].endswith('"GET /p20.html HTTP/1.1" 200 -')
    assert _lines_accounted(out) == len(_split(raw))
    assert len(out) < len(raw) * 0.5


def test_a_run_is_split_at_lines_that_report_trouble() -> None:
    raw = [line for line in _split(_raw("http_server/access_log")) if "HTTP/1.1\" 200" in line]
    error = next(line for line in _split(_raw("http_server/access_log")) if "code 404" in line)
    text = "\n".join(raw[:11] + [error] + raw[11:]) + "\n"
    out = _split(dedup(text, {"log_lines_only": True, "fold_runs": 10}, 0).text)
    assert error in out  # `code 404, message ...` is a signal: never folded
    assert out.index(error) == 3  # p1 (x2), a marker, p10: the run before it folds on its own
    assert out[-2:] == ["... (9 similar lines omitted) ...", raw[-1]]  # the run after it ends with the last line
    assert len(out) < len(_split(text))
    assert dedup(text, {"log_lines_only": True}, 0).text.count("similar") == 0  # off by default


def test_wget_mirror_counts_fetched_files_and_keeps_errors_and_summary() -> None:
    raw = _raw("wget/mirror")
    out = dedup(raw, _builtin_params("wget-files"), 0).text
    lines = _split(out)
    for expected in _must_survive("wget/mirror"):
        assert expected in lines, expected
    assert "... (15 similar lines omitted) ..." in lines
    assert any(line.endswith('/p12.html" [2]') for line in lines)
    assert any(line.endswith('/p9.html" [1]') for line in lines)
    assert _lines_accounted(out) == len(_split(raw))


# -- properties -------------------------------------------------------------------

_LOG_FRAGMENTS = [
    "2024-03-01 06:00:01,123 INFO [12] http: GET /x -> 200 in 5ms",
    "2024-03-01 06:00:02,456 ERROR [12] worker: job 7 failed",
    "Mar  1 06:00:05 h sshd[20003]: Failed password for git from 203.0.113.35 port 32744 ssh2",
    '10.0.0.1 - - [01/Mar/2024:06:03:11 +0000] "GET / HTTP/1.1" 500 5493 "-" "kube-probe/1.29"',
    '10.0.0.1 - - [01/Mar/2024:06:03:12 +0000] "GET / HTTP/1.1" 200 93 "-" "kube-probe/1.29"',
    '{"level":"info","msg":"done","n":1}', '{"level":"warn","msg":"slow","n":2}', '{"id":3}',
    "Traceback (most recent call last):", '  File "a.py", line 1, in <module>', "ValueError: x", "", "  }",
]


@settings(max_examples=150, deadline=None)
@given(
    lines=st.lists(st.one_of(st.sampled_from(_LOG_FRAGMENTS), st.text(max_size=30)), max_size=40),
    log_lines_only=st.booleans(),
    min_log_ratio=st.sampled_from([0.0, 0.5]),
    fold_runs=st.sampled_from([0, 3]),
    across_time=st.booleans(),
)
def test_every_line_is_accounted_for_and_signals_stay(lines: list[str], log_lines_only: bool,
                                                      min_log_ratio: float, fold_runs: int, across_time: bool) -> None:
    text = sanitize("\n".join(lines) + "\n")
    params = {"log_lines_only": log_lines_only, "min_log_ratio": min_log_ratio, "fold_runs": fold_runs,
              "routine_patterns": [r"sshd\[\d+\]: Failed"], "errors_repeat_across_time": across_time}
    out = dedup(text, params, 0).text
    assert len(out) <= len(text)
    if out != text:
        assert _lines_accounted(out) == len(_split(text))
    kept = {_timeless(k.split(" (x")[0]) if across_time else k for k in _split(out)}
    for line in _split(text):
        if is_signal(line) and "sshd[" not in line and "{" not in line:
            # verbatim, or with the count of its exact repeats (at another time, when asked)
            shown = _timeless(line) if across_time else line
            assert shown in kept or any(k.startswith(shown + " (x") for k in kept), line


def test_an_error_repeated_at_other_times_groups_only_when_asked() -> None:
    lines = []
    for second in range(6):
        lines.append(f"2026-11-26 08:39:{10 + second:02d},963 ERROR [db] connection refused to 10.0.0.5:5432")
        lines.append(f"2026-11-26 08:39:{10 + second:02d},970 ERROR [db] retry {second} refused")
        lines.append(f"2026-11-26 08:39:{10 + second:02d},990 INFO [web] GET /health 200")
    text = "\n".join(lines) + "\n"
    out = dedup(text, {"errors_repeat_across_time": True}, 1).text.split("\n")
    # the first with the count it stands for, the last where it still happened
    assert "2026-11-26 08:39:10,963 ERROR [db] connection refused to 10.0.0.5:5432 (x5)" in out
    assert "2026-11-26 08:39:15,963 ERROR [db] connection refused to 10.0.0.5:5432" in out
    # a number that differs keeps errors apart
    assert sum("retry" in line for line in out) == 6
    # off: only verbatim repeats group
    assert dedup(text, {}, 1).text.count("connection refused") == 6
    # klog: time and pid differ, the message does not
    klog = [f'E1122 15:32:{40 + n}.67{n}690   2963{n} memcache.go:265] "Unhandled Error" err="connection refused"'
            for n in range(4)]
    end = "The connection to the server 127.0.0.1:16445 was refused - did you specify the right host or port?"
    out = dedup("\n".join([*klog, end]) + "\n", {"errors_repeat_across_time": True}, 1).text.split("\n")
    assert out[:2] == [klog[0] + " (x4)", end]  # one run of retries: the first stands for them all
    request = "I1122 15:32:46.675622   29637 round_trippers.go:560] GET https://127.0.0.1:16445/api  in 0 milliseconds"
    interleaved = [line for error in klog for line in (request, error)]
    out = dedup("\n".join([*interleaved, end]) + "\n", {"errors_repeat_across_time": True}, 1).text.split("\n")
    assert [line for line in out if "memcache" in line] == [klog[0] + " (x3)", klog[3]]  # apart: first and last


@pytest.mark.parametrize(
    ("case", "last"),
    [("logs/q4_dpkg_tail", "2026-11-22 09:39:09 status installed man-db:amd64 2.11.2-2"),
     ("logs/q4_apt_history", "End-Date: 2026-11-22  09:39:09")],
)
def test_the_last_record_ends_the_output_even_when_it_repeats_an_earlier_one(case: str, last: str) -> None:
    raw = _raw(case)
    assert raw.rstrip("\n").split("\n")[-1] == last
    out = dedup(raw, {}, 0).text.rstrip("\n").split("\n")
    assert out[-1] == last
    assert out.count(last) == 1


def test_the_last_line_stands_alone_and_the_counts_still_add_up() -> None:
    raw = "10:00:01 worker 1 ready\n10:00:02 worker 2 ready\n10:00:03 worker 3 ready\n10:00:04 worker 4 ready\n"
    assert dedup(raw, {}, 0).text == "10:00:01 worker 1 ready (x2)\n10:00:03 worker 3 ready\n10:00:04 worker 4 ready\n"
    # with one record less the group is its first and its last: nothing to collapse
    assert dedup(raw[:72], {}, 0).text == raw[:72]


def test_a_stack_trace_stays_whole_under_its_record() -> None:
    output = dedup(_raw("logs/q8_tail_1000_java_log"), {}, 0).text.splitlines()
    record = output.index('2025-04-02 05:02:10.945 SEVERE  [sync-3] SyncService - row 612 skipped: NullPointerException')
    assert output[record + 1 : record + 5] == [
        'java.lang.NullPointerException: Cannot invoke "java.lang.Integer.intValue()" because "<local4>" is null',
        "\tat com.example.inventory.SyncService.applyRow(SyncService.java:76)",
        "\tat com.example.inventory.SyncService.syncRow(SyncService.java:88)",
        "\tat com.example.inventory.SyncService.main(SyncService.java:120)",
    ]


def test_chained_python_tracebacks_keep_each_exception_line() -> None:
    output = dedup(_raw("logs/q8_cat_app_log"), {}, 0).text.splitlines()
    record = next(i for i, line in enumerate(output) if "invoice 51022 for cust-0218 failed" in line)
    trace = output[record + 1 : record + 14]
    assert trace[3] == "billing.gateway.UpstreamTimeout: ledger.internal:7443 did not answer within 5.0s (invoice 51022)"
    assert trace[5] == "The above exception was the direct cause of the following exception:"
    assert trace[-1] == "billing.gateway.LedgerError: could not post invoice 51022"


def test_a_trace_repeated_word_for_word_is_a_counted_marker() -> None:
    record = "2025-04-02 06:00:0{} ERROR app: request failed"
    trace = ["Traceback (most recent call last):", '  File "app.py", line 3, in handle', "    fail()", "KeyError: 'x'"]
    text = "\n".join([record.format(1), *trace, record.format(2), *trace, "2025-04-02 06:00:03 INFO app: done", ""])
    assert dedup(text, {}, 0).text.splitlines() == [
        record.format(1), *trace, record.format(2),
        "... (4 lines omitted: the same as under an earlier record) ...",
        "2025-04-02 06:00:03 INFO app: done",
    ]


@pytest.mark.parametrize("start", [0, 3, 5])
def test_a_trace_with_no_record_above_keeps_every_frame(start: int) -> None:
    # `tail -n 150` of a node server's log: the view starts inside a trace, and node's own report of
    # an uncaught error (its file:line, the source, a caret, `Error: ...`) has no record above it.
    # Frames that differ only in a line number are two clues: none may group with another trace's.
    lines = _raw("logs/q15_cat_express_server").split("\n")
    crash = next(i for i, line in enumerate(lines) if line == "/tmp/zeph-fixtures/express_fifteenth/server.js:50")
    first_frame = next(i for i in range(crash - 150, crash) if lines[i].startswith("    at "))
    text = "\n".join(lines[first_frame + start: crash + 40])
    output = dedup(text, _builtin_params("log-dedup"), 0).text
    def crash_trace(text: str) -> list[str]:
        after = text.split("/tmp/zeph-fixtures/express_fifteenth/server.js:50\n", 1)[1].split("\n")
        error = next(i for i, line in enumerate(after) if line.startswith("Error: export failed"))
        return after[error: next(i for i in range(error + 1, len(after)) if not after[i].startswith("    at "))]

    assert len(crash_trace(text)) == 11
    assert crash_trace(output) == crash_trace(text)
    # the orphan frames at the top stay in their order, none folded into another with a count
    head = text.split("\n")[: next(i for i, line in enumerate(text.split("\n")) if not line.startswith("    "))]
    assert output.split("\n")[: len(head)] == head


# -- the last of a group, HAProxy, continuations over tab-indented lines -------------


def test_the_last_of_a_group_is_the_final_state() -> None:
    # redis: a background save fails, the next one succeeds; the success after the failure is the news
    out = _split(dedup(_raw("logs/q9_cat_redis_log"), _builtin_params("log-dedup"), 0).text)
    saved = [line for line in out if "Background saving terminated with success" in line]
    assert len(saved) == 2 and saved[-1].startswith("11855:M 25 Nov 2026 19:38:13.036")
    failed = out.index("11855:M 25 Nov 2026 19:38:11.932 # Background saving error")
    assert out.index(saved[-1]) > failed  # shown where it happened: after the failure
    # the last counters of a periodic stats line
    text = "".join(f"10:00:{second:02d} INFO stats: {100 * second} requests served\n" for second in range(1, 9))
    text += "10:00:09 INFO shutting down\n"
    assert _split(dedup(text, {}, 0).text) == [
        "10:00:01 INFO stats: 100 requests served (x7)", "10:00:08 INFO stats: 800 requests served",
        "10:00:09 INFO shutting down",
    ]


def test_haproxy_http_log_keeps_error_statuses_apart() -> None:
    raw = _raw("logs/q9_cat_haproxy_log")
    out = _split(dedup(raw, _builtin_params("log-dedup"), 0).text)
    for expected in _must_survive("logs/q9_cat_haproxy_log"):
        assert any(expected in line for line in out), expected
    # every 4xx/5xx request stays verbatim; the 200s group by method, path (without the query) and status
    for line in raw.splitlines():
        if re.search(r"/\d+ [45]\d\d \d+ ", line):
            assert line in out
    ok = '127.0.0.1:40918 [25/Nov/2026:19:37:15.229] fe_shop be_api/api1 0/0/0/4/4 200 221 - - ---- 1/1/0/0/0 0/0 "GET /health HTTP/1.1"'
    bad = ok.replace(" 200 221 ", " 503 217 ")
    assert _split(dedup(f"{ok}\n{ok}\n{ok}\n{bad}\n", {}, 0).text) == [f"{ok} (x2)", ok, bad]


def test_a_postgres_detail_goes_on_over_tab_indented_lines() -> None:
    raw = _raw("logs/q9_tail_3000_postgres")
    out = _split(dedup(raw, _builtin_params("log-dedup"), 0).text)
    detail = next(i for i, line in enumerate(out) if "DETAIL:  Process 14679 waits for ShareLock" in line)
    assert out[detail + 1 : detail + 4] == [
        "\tProcess 14675 waits for ShareLock on transaction 5158; blocked by process 14679.",
        "\tProcess 14679: UPDATE customers SET credit = credit + 5 WHERE id = 1;",
        "\tProcess 14675: UPDATE customers SET credit = credit + 10 WHERE id = 2;",
    ]
    assert _lines_accounted("\n".join(out)) == len(_split(raw))


def test_logfmt_records_group_by_message_and_request_and_keep_signals_verbatim() -> None:
    raw = _raw("logs/q10_tail_1500_logfmt_gateway")
    result = STRATEGIES["dedup"](raw, {}, 0)
    out = result.text.split("\n")
    assert len(result.text) < len(raw) / 10
    # one group per method, path and status: the request id, the client and the duration are variables
    first = "ts=2026-03-14T06:34:08.454Z level=info event=request method=GET path=/v1/stock status=200"
    assert sum(line.startswith(first) and line.endswith(")") for line in out) == 1
    assert sum("method=GET path=/v1/stock status=200" in line for line in out) == 2  # its first and last
    # every error record stays, with its own request id
    errors = [line for line in raw.split("\n") if "level=error" in line]
    assert errors and all(line in out for line in errors)
    assert 'level=info event="circuit closed" upstream=stock-db:5432 open_for=2.9s' in result.text


def test_a_line_of_key_value_pairs_without_a_level_or_message_is_not_a_logfmt_record() -> None:
    from zeph_rules.engine.strategies.dedup import _logfmt_record

    assert _logfmt_record("a=1 b=2 c=3") is None
    assert _logfmt_record('ts=1 level=info msg="a b"') is not None
    assert _logfmt_record('level=info msg="unterminated b=2 c=3') is None
    assert _logfmt_record("level=info " + "a=" * 5000 + '"') is None  # no quadratic backtracking


def _repeated_blocks_line_by_line(lines: list[str], min_lines: int, min_chars: int) -> dict[int, int]:
    """The plain reading of ``repeated_blocks``: compare each repeat with the first, a line at a time."""
    first_at: dict[str, int] = {}
    blocks: dict[int, int] = {}
    index = 0
    while index < len(lines):
        line, earlier = lines[index], first_at.get(lines[index])
        if earlier is not None and line.strip():
            length = 0
            while (index + length < len(lines) and earlier + length < index
                   and lines[earlier + length] == lines[index + length]):
                length += 1
            block = lines[index : index + length]
            if length >= min_lines and len(set(block)) > 1 and sum(map(len, block)) >= min_chars:
                blocks[index] = length
                index += length
                continue
        first_at.setdefault(line, index)
        index += 1
    return blocks


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(["", "x", "retry 3", "  File \"a.py\", line 1", "x" * 70, "Error: gone"]), max_size=60),
    st.integers(min_value=0, max_value=60),
)
def test_repeated_blocks_step_over_runs_yet_find_what_a_line_by_line_scan_finds(lines: list[str], again: int) -> None:
    lines = lines + lines[:again]  # a tail that repeats the head, so there are blocks to find
    assert repeated_blocks(lines, 4, 100) == _repeated_blocks_line_by_line(lines, 4, 100)


def test_one_line_repeated_many_times_is_no_block_and_a_block_after_it_is_found() -> None:
    trace = ["Traceback (most recent call last):", '  File "app.py", line 3, in <module>', "    main()",
             "ValueError: the same failure, logged and raised again"]
    lines = ["waiting for the database"] * 20_000 + trace + ["retrying"] + trace
    assert repeated_blocks(lines, 4, 100) == {20_000 + len(trace) + 1: len(trace)}


def test_a_librarys_tag_then_its_bracketed_level_is_a_log_record() -> None:
    # LightGBM: "[LightGBM] [Warning] No further splits with positive gain", 239 times among the eval lines
    raw = sanitize((Path(__file__).resolve().parents[1] / "fixtures" / "python" / "q34b_lightgbm_early_stopping"
                    / "raw.txt").read_text(encoding="utf-8"))
    params = {"log_lines_only": True, "fold_runs": 10, "errors_repeat_across_time": True}
    out = STRATEGIES["dedup"](raw, params, 0).text.split("\n")
    assert "[LightGBM] [Warning] No further splits with positive gain, best gain: -inf (x239)" in out
    assert "[LightGBM] [Info] Total Bins 5100" in out and "[189]\tvalid's auc: 0.922523\tvalid's binary_logloss: 0.359798" in out
    # a bracketed number or word is no level: "[10]\tvalid's auc", "[x] [y] z" stay lines of their own
    assert STRATEGIES["dedup"]("[x] [y] z\n" * 3, params, 0).text == "[x] [y] z\n" * 3


def test_strip_noise_drop_repeated_blocks_marks_a_repeated_block_and_groups_nothing() -> None:
    block = [f"  warning line {n} of a deprecation that setuptools prints once per build step" for n in range(5)]
    lines = ["step 1", *block, "step 2", *block, "same", "same", "same"]
    strip = STRATEGIES["strip_noise"]
    out = strip("\n".join(lines) + "\n", {"drop_repeated_blocks": True}, 0).text.split("\n")
    assert out[:7] == ["step 1", *block, "step 2"]
    assert out[7] == "... (5 lines omitted: the same as the block above) ..."
    assert out[8:11] == ["same", "same", "same"]  # a run of one line is no block, and nothing groups
    # a JSON document stays whole: a marker would break it
    item = '  {\n    "name": "Programming Language :: Python :: 3",\n    "license": "Apache Software License",\n' \
           '    "classifier": "Topic :: Internet :: WWW/HTTP :: Dynamic Content",\n' \
           '    "summary": "Python HTTP for Humans, with every request and response typed"\n  }'
    document = "[\n" + ",\n".join([item] * 3) + "\n]\n"
    assert strip(document, {"drop_repeated_blocks": True}, 0).text == document
    assert "the same as the block above" in strip("x\n" + document, {"drop_repeated_blocks": True}, 0).text
    # after the line patterns: a block repeated once its noise is gone goes too
    noisy = ["step 1", *block, "step 2", "Downloading x", *block]
    assert strip("\n".join(noisy), {"patterns": ["^Downloading "], "drop_repeated_blocks": True}, 0).text.split("\n") == [
        "step 1", *block, "step 2", "... (5 lines omitted: the same as the block above) ...", "... (1 noise line stripped) ..."]


def test_fold_runs_keeps_the_rows_a_line_outside_names() -> None:
    # batch 110: a table of 30 days per hut, folded to its ends, lost the day the closure line is about
    days = [f"2026-07-{day:02d}   {day % 30:2d}/36  bunks  dinners  {day % 9:2d}" for day in range(1, 31)]
    text = "\n".join(["== Cabane de Moiry, 36 bunks", *days, "closure: Cabane de Moiry 2026-07-15..2026-07-15 storm warning"])
    out = STRATEGIES["dedup"](text, {"log_lines_only": True, "fold_runs": 10}, 0).text.split("\n")
    assert out == ["== Cabane de Moiry, 36 bunks", days[0], "... (13 similar lines omitted) ...", days[14],
                   "... (14 similar lines omitted) ...", days[-1], "closure: Cabane de Moiry 2026-07-15..2026-07-15 storm warning"]
    # a word every row holds, or a number with its unit, names no row
    assert _NAMING_WORD.findall("2026-07-15 r017 M-0417 47µs 0x6770 0.0228 2825") == ["2026-07-15", "r017", "M-0417"]
