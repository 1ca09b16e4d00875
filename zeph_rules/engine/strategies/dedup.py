"""``dedup``: collapse log records that differ only in their variables.

A log record has a message and variables.  The message is what the program
says: its level, its text, an HTTP request line and its status.  The variables
are what differs from one occurrence to the next: timestamps, ids, addresses,
durations, counts.  Records whose messages agree collapse to the first one,
shown verbatim with ``(xN)`` for the N records it stands for, and the last
one, shown verbatim where it happened: it is the final state (the last
counters, a save that succeeded after one that failed).

* Plain text lines: the hot path (``_speedups.dedup_lines``) masks timestamps,
  ids, addresses and numbers; what is left is the message.
* JSON records (``{"level": "info", "msg": "request done", ...}``): the level,
  the logger and the message text; every other key is a variable.
* Access-log lines (``... "GET /x HTTP/1.1" 200 ...``): the status, the method
  and the path without its query; the client, the time, the size, the referer
  and the user agent are variables.
* logfmt records (``ts=... level=info msg="request done" path=/x status=200``):
  as JSON, plus a request's method, path and status as for an access line.

Signal records group only with their verbatim repeats: the id, the count or
the attempt number that differs between two errors may be the clue.  With
``errors_repeat_across_time`` (for logs, where each record carries its time) a
repeat at another time counts as verbatim: its leading time (and klog's pid)
may differ, nothing else, and the group shows its first and its last.  A record
is a signal when its level is warning or worse, when it carries an error word
(``error``, ``failed``, ``timed out``, ``killed`` ...), an HTTP status of 400
or more, or a security signal.  ``routine_patterns`` name records that carry
such a word but are routine (an sshd login attempt): those group like the rest,
except a security signal, which always stays.

A record's continuation lines (PostgreSQL's ``DETAIL:``, ``HINT:``,
``STATEMENT:``, ``CONTEXT:`` ... after an ``ERROR:``) belong to it: they are
part of its message, stay right under it and are never grouped apart from it.
So does the stack trace a record is followed by (Python's ``Traceback`` with
its chained causes, Java's and node's ``at`` frames with ``Caused by:``): the
frames and the exception line of one trace never group with another's, where
the file, the line number or the message may be the clue.  A trace that repeats
an earlier one word for word is shown as a counted marker under its record.

``fold_runs`` (0: off) folds each run of that many or more consecutive lines
that are equal but for their numbers (``registering route /api/resource0`` ...
``resource19``, a mirror's one line per fetched file) to its first and last
line with a counted marker between; signal lines never fold.
"""

from __future__ import annotations

from _collections_abc import Mapping  # collections.abc's, without importing collections (see _common)

from ... import _regex, _speedups
from ..signals import SIGNAL as _SECURITY
from ..signals import SIGNAL_WORDS
from ._blocks import repeated_blocks, same_block_marker
from ._common import (
    NUMBERISH,
    Confidence,
    StrategyResult,
    guarded,
    int_param,
    join_lines,
    line_indices,
    lines_with_words,
    matches_any,
    omitted_marker,
    plural,
    split_lines,
    user_pattern,
)

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from typing import Any

# -- signal lines ---------------------------------------------------------------

#: lower-case literals, one inside every alternative of ``_SIGNAL_WORD``: lines without one cannot match it
_SIGNAL_WORDS = (
    "err", "fatal", "crit", "emerg", "alert", "severe", "warn", "panic", "exception", "traceback", "fail",
    "timed out", "timeout", "kill", "oom", "out of memory", "segfault", "segmentation", "core dumped", "abort",
    "denied", "refused", "unreachable", "unhandled", "uncaught", "crash", "unauthori", "forbidden",
    "not permitted", "cannot", "can't", "could not", "couldn't", "unable to", "corrupt", "deadlock", "not found",
    # a few other locales' error and warning words
    "fehler", "fehlgeschlagen", "warnung", "échec", "echec", "avertissement", "fallo", "falló", "advertencia",
    "avviso", "ошибк", "предупрежд", "错误", "失败", "警告", "エラー", "失敗",
)
#: the same for ``_SIGNAL_HTTP`` (a table's cell may sit anywhere between its bars)
_HTTP_STATUS_WORDS = (
    "status", "http/", "|", "completed", "code 4", "code 5",
    "get /", "post /", "put /", "patch /", "delete /", "head /", "options /",
)
# Error and warning lines are grouped only with exact repeats: the id, the
# count or the attempt number that differs between them may be the clue.
# Two regexes, each run only on the lines holding one of its words (a request
# line, `GET /stock/A-100 from=...`, costs the short one, not seventy words tried
# at every position), over the lower-cased line rather than ignoring case, and
# the HTTP one with a literal first in every alternative so the engine skips to
# where one can start: an access log of 2,500 lines went from 127 µs a line to 10.
_SIGNAL_WORD = _regex.compile(
    r"\b(?:errors?|err|fatal|critical|crit|emerg|emergency|alert|severe|warn|warning|warnings"
    r"|panic|panicked|exception|exceptions|traceback|fail|fails|failed|failing|failure|failures"
    r"|timed out|timeout|killed|kill|oom|oom-kill|out of memory|segfault|segmentation fault|core dumped"
    r"|abort|aborted|aborting|denied|refused|unreachable|unhandled|uncaught|crash|crashed|crashing"
    r"|unauthori[sz]ed|forbidden|not permitted|cannot|can't|could not|couldn't|unable to"
    r"|corrupt|corrupted|corruption|deadlock|deadlocked|not found"
    r"|fehler|warnung|fehlgeschlagen|échec|echec|erreur|avertissement|fallo|falló|advertencia|errore|avviso"
    r"|ошибк\w*|предупрежд\w*)\b"
    r"|\B(?:error|exception)s?\b"  # TimeoutError, NullPointerException
    r"|错误|失败|警告|エラー|失敗"
)
_SIGNAL_HTTP = _regex.compile(
    # an HTTP status of 400 or more: after the request line, as a field, in a table (no word boundary
    # first: a `substatus=500` kept apart costs a line, a boundary test at every position costs more)
    r"http/[\d.]+\"?\s+[45]\d\d\b|status(?:_?code)?[\"']?\s*[=:]\s*[\"']?[45]\d\d\b"
    r"|\|\s*[45]\d\d\s*\||completed [45]\d\d\b"
    r"|code [45]\d\d\b"  # http.server's `code 404, message File not found`
    # a request and its status without the protocol: `"POST /api/x" 500 57 ms`, morgan's `GET /x 404 3.1 ms`;
    # an app's own `POST /api/checkout -> 502 in 120ms` only for a server error (its 404s for
    # `/api/users/673`, `/api/users/917` ... are one finding, and group)
    r"|(?:get|post|put|patch|delete|head|options) /\S*?(?:\"? [45]| (?:->|=>|→) 5)\d\d\b"
)


def is_signal(text: str) -> bool:
    """Return whether ``text`` (a line, a record's message) holds an error or warning word or an HTTP error status."""
    lowered = text.lower()
    return _SIGNAL_WORD.search(lowered) is not None or _SIGNAL_HTTP.search(lowered) is not None


def _candidates(text: str, lines: list[str], words: tuple[str, ...]) -> set[int]:
    """Return the indices of the lines that contain one of ``words`` in any case."""
    return line_indices(lines_with_words(text, words), lines)


# -- log records ----------------------------------------------------------------

# A log record: a timestamp or a level word first (after a bracket, a `level=`
# or a `service |` prefix of docker compose), syslog's `Mon dd hh:mm:ss host`,
# an access-log line.  A program's other output (tables, JSON data, prose)
# repeats shapes that carry data, so it is never grouped when the rule asks for
# log lines only.
_LOG_RECORD = _regex.compile(
    r"^\s*+(?:[\w.-]+\s*+\|\s)?\s*+(?:\[[\w.-]+\]\s(?=\[))?[\[(<]?(?:"
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d{4}[/.]\d\d[/.]\d\d[ T-]+\d\d:\d\d"
    r"|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}[ T,]+\d{1,2}:\d\d|\d\d-\d\d \d\d:\d\d:\d\d"
    r"|\d\d:\d\d:\d\d|\d{1,2}:\d\d(?::\d\d)?\s?[AP]M\b"
    r"|(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? )?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d"
    r"|\d\d? (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d"
    r"|[IWEF]\d{4} \d\d:\d\d:\d\d|\s*\d+\.\d+\]|\d{1,3}>\d? ?\d{4}-\d\d-\d\d|\d{10}(?:\.\d+)?\s"
    r"|(?:time|ts|timestamp|t)=|\{\s*\"(?:@?timestamp|time|ts|level|severity|msg|message)\""
    r"|(?:level=|lvl=|severity=)?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|CRITICAL|CRIT|FATAL|SEVERE"
    r"|EMERG|ALERT|PANIC|DBG|INF|WRN|FTL|trace|debug|info|notice|warn|warning|error|fatal|critical"
    # a library's tag, then its level in brackets: "[LightGBM] [Warning] No further splits with positive gain"
    r"|(?<=\] \[)(?:Trace|Debug|Info|Notice|Warn|Warning|Error|Fatal|Critical)(?=\]))\b)"
    # an access-log line: client, ident, user, [time] "request"
    r"|^\s*(?:[\w.-]+\s*\|\s)?\S+ \S+ \S+ \[[^\]]{10,40}\] \""
)

# An access-log request line and the status after it (combined/common log
# format of nginx, Apache, gunicorn, werkzeug; uvicorn's `"GET / HTTP/1.1" 200`).
_ACCESS = _regex.compile(r"\"([A-Z]{3,10}) ([^\s?\"]*)\S* (HTTP/[\d.]+)\" (\d{3})\b")
# HAProxy's HTTP log: `client [time] frontend backend/server Tq/Tw/Tc/Tr/Ta status bytes ... "GET /x HTTP/1.1"`
_HAPROXY = _regex.compile(
    r"\] \S+ \S+/\S+ (?:-?\d+/){3,4}\+?-?\d+ (\d{3}) .*\"([A-Z]{3,10}) ([^\s?\"]*)\S* (HTTP/[\d.]+)\"\s*$"
)
_SERVICE_PREFIX = _regex.compile(r"^\s*([\w.-]+)\s*\|\s")
# What may come before a JSON record: a compose service, a [tag], a timestamp.
_JSON_PREFIX = _regex.compile(r"\s*+(?:[\w.-]+\s*+\|\s*+)?(?:\[[^\]]*\]\s*+)?(?:\d[\w:.+-]*\s+)?$")

#: JSON keys, first match wins
_LEVEL_KEYS = ("level", "lvl", "severity", "log.level", "levelname", "loglevel", "log_level", "@l", "PRIORITY", "s")
_MESSAGE_KEYS = ("msg", "message", "@m", "@mt", "event", "MESSAGE", "log")
_LOGGER_KEYS = ("logger", "logger_name", "name", "component", "module", "SYSLOG_IDENTIFIER", "c")
_STATUS_KEYS = ("status", "status_code", "statusCode", "http_status", "response_status")
_STATUS_PARENTS = ("res", "response", "http", "request", "req")
_ERROR_KEYS = ("error", "err", "exception", "exc_info", "stack", "stack_trace", "stacktrace")
_SIGNAL_LEVELS = frozenset((
    "warn", "warning", "error", "err", "fatal", "critical", "crit", "panic", "dpanic", "emerg", "emergency",
    "alert", "severe", "exception", "w", "e", "f", "c",
))
# A continuation line of the record above it: PostgreSQL's (two spaces after the colon).
_CONTINUATION = _regex.compile(r"\b(?:DETAIL|HINT|STATEMENT|CONTEXT|QUERY|LOCATION):  \S")
#: the lines that make a stack trace one: Python's frames, Java's and node's
_TRACE_FRAME = _regex.compile(r"^\s+File \"|^\s+at \S")
#: Python's words between a chained exception and the next traceback
_TRACE_CHAIN = _regex.compile(
    r"^(?:During handling of the above exception, another exception occurred:"
    r"|The above exception was the direct cause of the following exception:)$"
)
#: an exception line at column 0: ``KeyError: 'CHF'``, ``java.lang.NullPointerException: ...``,
#: ``Caused by: java.io.IOException``, or a bare dotted class name
_EXCEPTION_HEAD = _regex.compile(r"^(?:Caused by: |Suppressed: )?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?::(?:\s.*)?)?$")
_JSON_KEY = "\x1fJ"
_ACCESS_KEY = "\x1fA"
_LOGFMT_KEY = "\x1fL"
#: a logfmt record (logrus, go-kit, slog's TextHandler, heroku): three or more ``key=value`` pairs and
#: nothing else, after an optional compose service prefix; atomic groups keep a line that is not one linear
_LOGFMT_LINE = _regex.compile(
    r'^\s*+(?:[\w.-]+\s*+\|\s*+)?(?>[\w.@/-]+=(?>"(?:[^"\\]|\\.)*+"|[^\s"]*+)\s*){3,}$'
)
_LOGFMT_PAIR = _regex.compile(r'([\w.@/-]+)=("(?:[^"\\]|\\.)*+"|[^\s"]*+)')
#: what an HTTP request record is, besides its message: like an access-log line's request and status
_METHOD_KEYS = ("method", "http_method", "verb")
_PATH_KEYS = ("path", "route", "uri", "url", "endpoint")


def _json_level(value: Any) -> tuple[str, bool]:
    """Return a level as text and whether it is a warning or worse (pino/bunyan >= 40, syslog <= 4)."""
    if isinstance(value, bool):
        return str(value), False
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, (int, float)):
        number = int(value)
        return str(number), (number >= 40) if number >= 10 else (0 <= number <= 4)
    if isinstance(value, dict):
        value = value.get("level", value.get("name", ""))
    text = str(value)
    return text, text.lower() in _SIGNAL_LEVELS or is_signal(text)


def _http_error(record: Mapping[str, Any]) -> bool:
    """Return whether a JSON record carries an HTTP status of 400 or more."""
    for holder in (record, *(record.get(key) for key in _STATUS_PARENTS)):
        if not isinstance(holder, Mapping):
            continue
        for key in _STATUS_KEYS:
            status = holder.get(key)
            if isinstance(status, str) and status.isdigit():
                status = int(status)
            if isinstance(status, int) and not isinstance(status, bool) and 400 <= status <= 599:
                return True
    return False


def _json_record(line: str) -> tuple[str, bool] | None:
    """Return ``(message key, is signal)`` for a JSON log record, None for anything else.

    A record needs a level or a message key; a JSON object without either is
    data, not a log record.  The object may follow a short prefix (a compose
    service name, a timestamp added by ``kubectl logs --timestamps``).
    """
    start = line.find("{")
    if start < 0 or not line.rstrip().endswith("}") or (start and not _JSON_PREFIX.match(line, 0, start)):
        return None
    import json  # here: json imports re and enum, 10 ms of a filter run whose output holds no JSON

    try:
        record = json.loads(line[start:])
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    nested = record.get("log")
    level_value = next((record[key] for key in _LEVEL_KEYS if key in record), None)
    if level_value is None and isinstance(nested, dict):
        level_value = nested.get("level")
    message = next((record[key] for key in _MESSAGE_KEYS if key in record and not isinstance(record[key], dict)), None)
    if level_value is None and message is None:
        return None
    level, signal = _json_level(level_value) if level_value is not None else ("", False)
    text = message if isinstance(message, str) else json.dumps(message)
    logger = next((record[key] for key in _LOGGER_KEYS if isinstance(record.get(key), str)), "")
    if not signal:
        signal = _http_error(record) or is_signal(text) or any(
            record.get(key) not in (None, "", False, 0, {}, []) for key in _ERROR_KEYS
        )
    prefix = _SERVICE_PREFIX.match(line)
    service = prefix.group(1) if prefix and prefix.end() <= start else ""
    return f"{_JSON_KEY}{service}\x1f{level.lower()}\x1f{logger}\x1f{text}", signal


def _logfmt_record(line: str) -> tuple[str, bool] | None:
    """Return ``(message key, is signal)`` for a logfmt record, None for anything else.

    As for JSON, the message is the level, the logger and the message text
    (``msg``, ``event`` ...); a request record adds its method, its path
    without the query and its status, as an access-log line does.  Every other
    pair (the time, a request id, a duration, a client address) is a variable.
    """
    if not _LOGFMT_LINE.match(line):
        return None
    record = {key: value[1:-1] if value.startswith('"') else value for key, value in _LOGFMT_PAIR.findall(line)}
    level = next((record[key] for key in _LEVEL_KEYS if key in record), None)
    message = next((record[key] for key in _MESSAGE_KEYS if key in record), None)
    if level is None and message is None:
        return None
    level_text, signal = _json_level(level) if level is not None else ("", False)
    logger = next((record[key] for key in _LOGGER_KEYS if key in record), "")
    method = next((record[key] for key in _METHOD_KEYS if key in record), "")
    path = next((record[key] for key in _PATH_KEYS if key in record), "").split("?", 1)[0]
    status = next((record[key] for key in _STATUS_KEYS if key in record), "")
    if not signal:
        signal = (
            _http_error(record)
            or bool(message and is_signal(message))
            or any(record.get(key) not in (None, "", "0", "false", "nil", "null", "<nil>") for key in _ERROR_KEYS)
        )
    prefix = _SERVICE_PREFIX.match(line)
    service = prefix.group(1) if prefix else ""
    # the status stays glued to a letter so that the hot path does not mask it
    return (f"{_LOGFMT_KEY}{status}\x1f{service}\x1f{level_text.lower()}\x1f{logger}\x1f{message or ''}"
            f"\x1f{method} {path}"), signal


def _access_record(line: str) -> tuple[str, bool] | None:
    """Return ``(message key, is signal)`` for an access-log line, None for anything else."""
    if "HTTP/" not in line:
        return None
    found = _ACCESS.search(line)
    if found is not None:
        method, path, _protocol, status = found.groups()
    else:
        found = _HAPROXY.search(line)
        if found is None:
            return None
        status, method, path, _protocol = found.groups()
    prefix = _SERVICE_PREFIX.match(line)
    service = prefix.group(1) if prefix and prefix.end() <= found.start() else ""
    # The status stays glued to a letter so that the hot path does not mask it.
    return f"{_ACCESS_KEY}{status}\x1f{service}\x1f{method} {path}", status[0] in "45"


# -- grouping -------------------------------------------------------------------


def _apply_user_normalisers(lines: list[str], sources: list[str]) -> list[str]:
    """Replace each user pattern's matches with ``<*>`` so they group together (a timeout leaves the line)."""
    patterns = [user_pattern(source) for source in sources]
    normalised: list[str] = []
    for line in lines:
        for pattern in patterns:
            line = pattern.sub("<*>", line)
        normalised.append(line)
    return normalised


class _Plan:
    """Per line: the key it groups by, or None for a line that stays on its own or groups verbatim."""

    __slots__ = ("attached", "continued", "keys", "records", "repeats", "signals", "timeless", "traced")

    def __init__(self, size: int) -> None:
        self.keys: list[str | None] = [None] * size
        self.signals: list[bool] = [False] * size
        #: first line of a block that repeats an earlier block verbatim -> its length
        self.repeats: dict[int, int] = {}
        #: a record -> the indices of its continuation lines (they follow it, in order)
        self.attached: dict[int, list[int]] = {}
        #: every continuation line (it is shown with its record, never on its own)
        self.continued: set[int] = set()
        #: the records followed by a stack trace: each stays on its own (a repeated trace becomes a marker)
        self.traced: set[int] = set()
        self.records = 0
        #: whether signal lines group with their repeats at other times (``_timeless``): the
        #: ``errors_repeat_across_time`` parameter, for logs, where each record carries its time
        self.timeless = False

    def block(self, lines: list[str], index: int) -> list[str]:
        """Return the record at ``index`` with its continuation lines."""
        return [lines[index], *(lines[at] for at in self.attached.get(index, ()))]


def _attach_continuations(lines: list[str], plan: _Plan, skipped: set[int]) -> None:
    """Attach each run of continuation lines to the log record right above it."""
    heads: dict[int, int] = {}  # continuation line -> its record
    for index, line in enumerate(lines):
        if line[:1] == "\t" and index - 1 in heads and index not in skipped:
            # a continuation that goes on over tab-indented lines (a deadlock's DETAIL names each
            # process and its statement on one line of its own)
            heads[index] = heads[index - 1]
            plan.attached[heads[index]].append(index)
            plan.continued.add(index)
            continue
        if not index or ":  " not in line or index in skipped or not _CONTINUATION.search(line):
            continue
        above = index - 1
        head = heads.get(above, -1)
        if head < 0 and above not in skipped and _LOG_RECORD.match(lines[above]):
            head = above
        if head >= 0:
            heads[index] = head
            plan.attached.setdefault(head, []).append(index)
            plan.continued.add(index)


def _attach_stack_traces(lines: list[str], plan: _Plan, skipped: set[int]) -> None:
    """Attach the stack trace that follows a log record to it (see the module's docstring).

    The lines after a record belong to its trace while they are indented (frames,
    source lines, carets), a traceback header, Python's chaining sentence (and the
    blank lines around it), or an exception line at column 0; the first other line
    ends it.  Lines that hold no frame at all stay as they were.  A record with a
    trace is never grouped: two traces equal but for a line number are two clues.
    A trace that no record heads (cut by the view, an uncaught error's report) is
    attached to its own first line, for the same reason.
    """
    index = 0
    count = len(lines)
    while index < count:
        if index in skipped or index in plan.attached:
            index += 1
            continue
        line = lines[index]
        framed = bool(_TRACE_FRAME.match(line))
        # A trace with no record above it heads itself: its first line where the view cut into it
        # (`tail` starting mid-trace: every frame the loop reaches is such a line), or the line at
        # column 0 right above its first frame (node's `Error: ...` under its report of an uncaught
        # error, Java's `Exception in thread "main" ...`, Python's `Traceback` header).  Left loose,
        # its frames would group with other traces' frames equal but for a line number.
        if not (framed or _LOG_RECORD.match(line)
                or line[:1] not in (" ", "\t", "") and index + 1 < count and _TRACE_FRAME.match(lines[index + 1])):
            index += 1
            continue
        head = index
        block: list[int] = []
        at = head + 1
        while at < count and at not in skipped and not _LOG_RECORD.match(lines[at]):
            line = lines[at]
            if line[:1] in (" ", "\t") and line.strip() or line == "Traceback (most recent call last):" or _TRACE_CHAIN.match(line):
                framed = framed or bool(_TRACE_FRAME.match(line))
            elif not line.strip():
                following = lines[at + 1] if at + 1 < count else ""
                if not (_TRACE_CHAIN.match(following) or following == "Traceback (most recent call last):"
                        or block and _TRACE_CHAIN.match(lines[block[-1]])):
                    break
            elif not _EXCEPTION_HEAD.match(line):
                break
            block.append(at)
            at += 1
        while block and not lines[block[-1]].strip():
            block.pop()
        if framed and block:
            plan.attached.setdefault(head, []).extend(block)
            plan.continued.update(block)
            plan.traced.add(head)
        index = max(at, head + 1)


def _plan(text: str, lines: list[str], params: Mapping[str, Any]) -> _Plan:
    """Classify every line: log record or not, signal or not, and its message key."""
    log_lines_only = bool(params.get("log_lines_only"))
    routine = [user_pattern(source) for source in params.get("routine_patterns") or ()]
    word_candidates = _candidates(text, lines, _SIGNAL_WORDS)
    http_candidates = _candidates(text, lines, _HTTP_STATUS_WORDS)

    def candidate(index: int) -> bool:
        return index in word_candidates or index in http_candidates

    def signals(index: int) -> bool:
        lowered = lines[index].lower()
        return (index in word_candidates and _SIGNAL_WORD.search(lowered) is not None
                or index in http_candidates and _SIGNAL_HTTP.search(lowered) is not None)

    security_candidates = _candidates(text, lines, SIGNAL_WORDS)
    plan = _Plan(len(lines))
    plan.timeless = bool(params.get("errors_repeat_across_time"))
    if log_lines_only:
        plan.repeats = repeated_blocks(lines)
    repeated = {index for start, length in plan.repeats.items() for index in range(start, start + length)}
    if ":  " in text:
        _attach_continuations(lines, plan, repeated)
        repeated |= plan.continued
    if not log_lines_only and ("Traceback (most recent call last):" in text or "\tat " in text or "    at " in text):
        # where every line is a record or groups with its like, a trace's lines would group with other
        # traces' (log_lines_only leaves them alone anyway)
        _attach_stack_traces(lines, plan, repeated)
        repeated |= plan.continued
    for index, line in enumerate(lines):
        if index in repeated:
            continue
        derived = _json_record(line) if "{" in line else None
        if derived is None:
            derived = _access_record(line)
        if derived is None and "=" in line:
            derived = _logfmt_record(line)
        record = derived is not None or _LOG_RECORD.match(line) is not None
        if record and log_lines_only and line[:1] in (" ", "\t"):
            # among a program's own lines an indented row under a heading is a table's, not a log's: its
            # numbers are the answer (batch 75: a schedule's five DST offsets grouped as one "(x4)")
            record = False
        if record:
            plan.records += 1
        elif log_lines_only:
            continue  # stays a group of its own
        if index in security_candidates and _SECURITY.search(line):
            plan.signals[index] = True
            continue
        if derived is not None:
            key, signal = derived
        else:
            key, signal = line, candidate(index)
        # routine first: it is the cheaper test where it applies (an sshd storm)
        if signal and not (routine and matches_any(routine, line)) and (derived or signals(index)):
            plan.signals[index] = True
            continue
        if index in plan.attached:
            # the continuation lines are part of the message; a signal among them makes the record one
            # (only lines holding one of the words can match: the candidate sets skip the others)
            attached = plan.attached[index]
            if any(at in security_candidates and _SECURITY.search(lines[at])
                   or signals(at) for at in attached):
                plan.signals[index] = True
                continue
            key = "\x1e".join((key, *(lines[at] for at in attached)))
        plan.keys[index] = key
    return plan


def _last_of_each_group(keys: list[str], groups: list[tuple[int, int]], max_unique: int) -> dict[int, int]:
    """Return ``{first: last}`` member indices of every group of two or more ``keys`` (``dedup_lines`` groups).

    The last occurrence of a message is the final state: the counters of the
    last ``stats:`` line, the save that succeeded after one that failed.
    Grouping the reversed keys finds it; the two groupings are matched by
    their normalised key, worked out once per group rather than per line.
    """
    if not any(count > 1 for _, count in groups):
        return {}
    normalize = _speedups.normalize_line
    end = len(keys) - 1
    last_of = {
        normalize(keys[end - first]): end - first
        for first, count in _speedups.dedup_lines(keys[::-1], max_unique)
        if count > 1
    }
    lasts = {}
    for first, count in groups:
        if count > 1:
            last = last_of.get(normalize(keys[first]), first)
            if last != first:
                lasts[first] = last
    return lasts


def _groups(lines: list[str], plan: _Plan, max_unique: int, sources: list[str]) -> list[tuple[int, int]]:
    """Return ``(first index, count)`` groups in first-seen order.

    A group of two or more records is shown by its first record (with the
    count of the records it stands for) and its last (as it is, where it
    happened).  Signal lines group only
    with their verbatim repeats; a line without a key
    stays a group of its own, and so does the last line, unless it repeats an
    earlier line word for word: it is the final state (the install that
    finished, the end date), so the output ends with it.
    """
    final = next((index for index in range(len(lines) - 1, -1, -1) if lines[index].strip()), None)
    if final is not None and lines[final] in lines[:final]:
        final = None  # shown with its verbatim repeats
    grouped: list[int] = []
    grouped_keys: list[str] = []
    signal_groups: dict[str, list[tuple[int, str]]] = {}
    # A repeated block is one group with a negative count: its marker.
    groups: list[tuple[int, int]] = [(start, -length) for start, length in plan.repeats.items()]
    repeated = {index for start, length in plan.repeats.items() for index in range(start, start + length)}
    repeated |= plan.continued
    for index, key in enumerate(plan.keys):
        if index in repeated:
            continue
        if index == final or index in plan.traced:
            groups.append((index, 1))
        elif key is not None:
            grouped.append(index)
            grouped_keys.append(key)
        elif plan.signals[index]:
            verbatim = "\n".join(plan.block(lines, index)) if index in plan.attached else lines[index]
            key = _timeless(verbatim) if plan.timeless else verbatim
            signal_groups.setdefault(key, []).append((index, verbatim))
        else:
            groups.append((index, 1))
    if sources:
        # Grouping runs on the user-normalised copy; the output shows the original first line.
        grouped_keys = _apply_user_normalisers(grouped_keys, sources)
    found = _speedups.dedup_lines(grouped_keys, max_unique)
    lasts = _last_of_each_group(grouped_keys, found, max_unique)
    # the first record stands for the group but its last, which is shown on its own
    groups.extend((grouped[first], count - (first in lasts)) for first, count in found)
    groups.extend((grouped[last], 1) for last in lasts.values())
    for members in signal_groups.values():
        (first, shown), (last, last_shown) = members[0], members[-1]
        if last_shown == shown or last - first == len(members) - 1:
            # verbatim repeats, or one run of them (a retry loop): the first stands for them all
            groups.append((first, len(members)))
        else:
            # repeats at other times: like a record's group, the first with the count it stands for and
            # the last, where the error was still happening
            groups.append((first, len(members) - 1))
            groups.append((last, 1))
    groups.sort()
    return groups


#: the time a record starts with: ISO and syslog dates, klog's ``E1122 15:32:46.675690   29637``, a bare clock
_LEADING_TIME = _regex.compile(
    r"^\s*+[\[(<]?(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+"
    r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d"
    r"|\d\d:\d\d:\d\d(?:[.,]\d+)?)"
)
_DIGIT = _regex.compile(r"\d")


def _timeless(record: str) -> str:
    """Return ``record`` with the digits of its leading time zeroed: what a verbatim repeat must equal.

    An error logged again word for word is the same error; only its time (and
    klog's pid beside it) may differ.  Any other number keeps the two apart.
    """
    found = _LEADING_TIME.match(record)
    return record if found is None else _DIGIT.sub("0", found.group()) + record[found.end() :]


# -- folding runs ---------------------------------------------------------------

_NUMBERISH = NUMBERISH
_SPACES = _regex.compile(r"\s+")


def _shape(line: str, key: str | None) -> str:
    """Return ``line`` with its numbers, hex ids and padding blanked (an access line keeps its status)."""
    shape = _SPACES.sub(" ", _NUMBERISH.sub("0", line)).strip()
    if key is not None and key.startswith(_ACCESS_KEY):
        shape += key[len(_ACCESS_KEY) : len(_ACCESS_KEY) + 3]
    return shape


def _signal_entries(texts: list[str]) -> set[int]:
    """Return the indices of ``texts`` that report trouble or a security signal.

    Only the lines holding one of the regexes' words are searched: a training log's 2,000 epoch
    lines, a run of one shape, cost two case-folded regexes each before (0.08 s of 0.11).
    """
    joined = "\n".join(texts)
    starts = lines_with_words(joined, _SIGNAL_WORDS + _HTTP_STATUS_WORDS + SIGNAL_WORDS)
    multiline = joined.count("\n") != len(texts) - 1  # (an entry of several lines: search them all)
    candidates = range(len(texts)) if multiline else line_indices(starts, texts)
    return {index for index in candidates if is_signal(texts[index]) or _SECURITY.search(texts[index])}


#: a word that may name one row of a table, four characters or more with a digit: with a ``-`` or ``_``
#: (``2026-07-15``, ``M-0417``) or starting with a letter (``r017``); not a number, with a unit (``47µs``,
#: ``0x6770``) or without (``0.0228``'s ``0228``)
_NAMING_WORD = _regex.compile(r"(?<![\w-])(?=[\w-]*\d)(?:(?=[\w-]*[_-])|(?=[A-Za-z]))[\w-]{4,}(?![\w-])")
#: a word names rows only when no more rows than this hold it (a date every row holds names none)
_NAMED_ROWS = 3


def _named_rows(entries: list[tuple[str, int, str | None]], runs: list[tuple[int, int]]) -> set[int]:
    """Return the entries of ``runs`` holding a word a line outside every run names, and few other rows do.

    A program prints a table of 30 days per hut, then ``closure: Cabane de Moiry 2026-07-14..2026-07-15``:
    the rows of those days are what the closure line is about (batch 110: bunks booked on a closed day).
    """
    inside = {at for start, end in runs for at in range(start, end)}
    words = {word for at, (line, _, _) in enumerate(entries) if at not in inside
             for word in _NAMING_WORD.findall(line)}
    if not words:
        return set()
    holding: dict[str, list[int]] = {}
    for at in sorted(inside):
        for word in words.intersection(_NAMING_WORD.findall(entries[at][0])):
            holding.setdefault(word, []).append(at)
    rows = {at for found in holding.values() if len(found) <= _NAMED_ROWS for at in found}
    # a run a tenth of whose rows are named is a list the lines outside repeat, not rows they point to
    named: set[int] = set()
    for start, end in runs:
        here = rows.intersection(range(start, end))
        if len(here) * 10 <= end - start:
            named |= here
    return named


def _fold_runs(entries: list[tuple[str, int, str | None]], min_run: int) -> list[str]:
    """Fold each run of ``min_run`` or more consecutive entries of one shape to its first and last.

    An entry is ``(output line, input lines it stands for, shape or None)``;
    an entry without a shape (a marker, a signal group, a record with its
    continuation lines) belongs to no run, nor does a line that reports
    trouble: the id or the count that differs may be the clue.  Nor does a
    row a line outside the runs names (``_named_rows``).
    """
    runs: list[tuple[int, int]] = []
    start = 0
    while start < len(entries):
        shape = entries[start][2]
        end = start + 1
        while end < len(entries) and shape is not None and entries[end][2] == shape:
            end += 1
        if end - start >= min_run:
            runs.append((start, end))
        start = end
    if not runs:
        return [line for line, _, _ in entries]
    named = _named_rows(entries, runs)
    out: list[str] = []
    done = 0
    for start, end in runs:
        out.extend(line for line, _, _ in entries[done:start])
        done = end
        run = entries[start:end]
        # split the run at the lines that report trouble; fold what is still long enough, to its ends and
        # the rows a line outside names
        pieces: list[list[tuple[int, tuple[str, int, str | None]]]] = [[]]
        troubled = _signal_entries([line for line, _, _ in run])
        for number, entry in enumerate(run):
            if number in troubled:
                pieces.extend(([(start + number, entry)], []))
            else:
                pieces[-1].append((start + number, entry))
        for piece in pieces:
            if len(piece) >= min_run:
                out.extend(_folded_piece(piece, named))
            else:
                out.extend(line for _, (line, _, _) in piece)
    out.extend(line for line, _, _ in entries[done:])
    return out


def _folded_piece(piece: list[tuple[int, tuple[str, int, str | None]]], named: set[int]) -> list[str]:
    """Return a run's lines as its first, its last and its ``named`` rows, a counted marker for each gap."""
    out: list[str] = []
    gap: list[tuple[str, int]] = []
    for number, (at, (line, weight, _)) in enumerate(piece):
        if number in (0, len(piece) - 1) or at in named:
            if len(gap) == 1:
                out.append(gap[0][0])  # one line costs less than the marker in its place
            elif gap:
                out.append(omitted_marker(sum(weight for _, weight in gap), "similar line"))
            gap = []
            out.append(line)
        else:
            gap.append((line, weight))
    return out


def _runs_counted(block: list[str]) -> list[str]:
    """Return ``block`` with each run of equal lines as its first line and ``(xN)``.

    A recursion's trace repeats one frame word for word (Java prints 1,024 lines
    of a StackOverflowError); the frames around the run, and their order, stay.
    """
    shown: list[str] = []
    at = 0
    while at < len(block):
        end = at + 1
        while end < len(block) and block[end] == block[at]:
            end += 1
        shown.append(block[at] if end - at == 1 else f"{block[at]} (x{end - at})")
        at = end
    return shown


def _dedup(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    lines, ends_with_newline = split_lines(text)
    if not lines:
        return StrategyResult(text, Confidence.FULL)
    plan = _plan(text, lines, params)
    min_ratio = float(params.get("min_log_ratio") or 0.0)
    if min_ratio > 0 and plan.records < min_ratio * sum(1 for line in lines if line.strip()):
        return StrategyResult(text, Confidence.FULL)  # not a log: nothing to group
    max_unique = int_param(params, "max_unique_patterns", 10_000)
    groups = _groups(lines, plan, max_unique, list(params.get("normalize_patterns") or ()))
    min_run = int_param(params, "fold_runs", 0)
    if min_run > 0:
        min_run = max(min_run, 3)  # a shorter run would not get shorter under a marker
    # a trace (or continuation) under a record that repeats, word for word, one under an earlier record
    # becomes a marker; any other is shown with its runs of equal lines counted
    seen_blocks: set[str] = set()
    repeated_blocks: set[int] = set()
    counted_blocks: dict[int, list[str]] = {}
    for first, count in groups:
        block = plan.attached.get(first) if count > 0 else None
        if block is None:
            continue
        block_lines = [lines[at] for at in block]
        if len(block) >= 3:
            shown = "\n".join(block_lines)
            if shown in seen_blocks:
                repeated_blocks.add(first)
                continue
            seen_blocks.add(shown)
        counted_blocks[first] = _runs_counted(block_lines)
    runs_counted = any(len(counted) < len(plan.attached[first]) for first, counted in counted_blocks.items())
    if (len(groups) + len(plan.continued) == len(lines) and not plan.repeats and not repeated_blocks and min_run <= 0
            and not runs_counted):
        return StrategyResult(text, Confidence.FULL)
    entries: list[tuple[str, int, str | None]] = []
    for first, count in groups:
        if count < 0:
            entries.append((same_block_marker(-count), -count, None))
            continue
        line = lines[first] if count == 1 else f"{lines[first]} (x{count})"
        if first in repeated_blocks:
            entries.append((line, count, None))
            omitted = len(plan.attached[first])
            entries.append((f"... ({plural(omitted, 'line')} omitted: the same as under an earlier record) ...", count, None))
        elif first in counted_blocks:
            entries.append((line, count, None))
            entries.extend((shown, count, None) for shown in counted_blocks[first])
        elif min_run > 0 and not plan.signals[first]:
            entries.append((line, count, _shape(lines[first], plan.keys[first])))
        else:
            entries.append((line, count, None))
    out = _fold_runs(entries, min_run) if min_run > 0 else [line for line, _, _ in entries]
    if len(out) == len(lines):
        return StrategyResult(text, Confidence.FULL)
    return StrategyResult(join_lines(out, ends_with_newline), Confidence.FULL)


dedup = guarded(_dedup)
