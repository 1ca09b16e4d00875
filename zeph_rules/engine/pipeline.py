"""The output-filter pipeline: sanitise, match, run every matching strategy.

Semantics users rely on:

* the command is matched on its target (``cd x && cargo test | tail`` is
  ``cargo test``); every enabled filter whose match holds runs, in file order,
  each on the previous one's output;
* confidence is the worst of the stages (``Full`` < ``Partial`` < ``Fallback``);
* nothing is lost silently: a stage that raises, returns nothing for
  something, or grows its input is undone and counts as ``Fallback``; the
  result is never longer than the sanitised input;
* the stats line is produced only when lines were removed.

What a run needs from the graph is a ``FilterPlan`` (the matching rules, the
security scanner, the redact flag); ``run_filters`` builds one and runs it with
``run_plan``, and the ``filter`` command runs a cached plan the same way.
"""

from __future__ import annotations

import time

from .. import _speedups
from .._records import NamedTuple
from .json_layout import JSON_STRING, relayout_json
from .patterns import remember_pattern_facts
from .sanitize import sanitize
from .signals import SIGNAL_WORDS, restore_signals
from .strategies import STRATEGIES, Confidence
from .strategies._common import lines_with_words, omitted_marker

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Any

    from .graph import MatcherGraph
    from .ir import Rule


class FilterResult(NamedTuple):
    """What a filter pass produced, with the numbers a caller reports.

    The records the ``filter`` command builds on every tool call are named
    tuples, not dataclasses: importing ``dataclasses`` (and ``inspect`` with it)
    and generating the classes cost a short-lived process about 10 ms.
    """

    command: str
    output: str
    confidence: Confidence
    rules: tuple[str, ...]
    raw_bytes: int
    filtered_bytes: int
    raw_lines: int
    filtered_lines: int
    findings: tuple[Any, ...] = ()
    security_notice: str | None = None

    @property
    def stats_line(self) -> str | None:
        """``[shell] `cmd` 342 lines -> 28 lines, 91.8% filtered``, or None when nothing was cut."""
        if self.filtered_lines >= self.raw_lines:
            return None
        saved = 100.0 * (1 - self.filtered_bytes / self.raw_bytes) if self.raw_bytes else 0.0
        return f"[shell] `{self.command}` {self.raw_lines} lines -> {self.filtered_lines} lines, {saved:.1f}% filtered"

    def as_json(self) -> dict[str, Any]:
        return {
            "output": self.output,
            "confidence": self.confidence.label,
            "rules": list(self.rules),
            "raw_bytes": self.raw_bytes,
            "filtered_bytes": self.filtered_bytes,
            "raw_lines": self.raw_lines,
            "filtered_lines": self.filtered_lines,
            "findings": [
                {"rule": f.rule, "category": f.category, "line": f.line, "column": f.column, "length": f.length}
                for f in self.findings
            ],
        }


class RuleMetrics:
    """One rule's counters: calls, bytes and lines in and out, time, and how sure it was."""

    __slots__ = ("bytes_in", "bytes_out", "calls", "confidence", "lines_in", "lines_out", "seconds")

    def __init__(self) -> None:
        self.calls = self.bytes_in = self.bytes_out = self.lines_in = self.lines_out = 0
        self.seconds = 0.0
        self.confidence: dict[str, int] = {"Full": 0, "Partial": 0, "Fallback": 0}

    def __repr__(self) -> str:
        return "RuleMetrics(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in (
            "calls", "bytes_in", "bytes_out", "lines_in", "lines_out", "seconds", "confidence")) + ")"


class FilterMetrics:
    """Per-rule counters; pass one to ``run_filters`` to collect them."""

    def __init__(self) -> None:
        self.rules: dict[str, RuleMetrics] = {}

    def __repr__(self) -> str:
        return f"FilterMetrics(rules={self.rules!r})"

    def record(self, rule: str, before: str, after: str, confidence: Confidence, seconds: float) -> None:
        entry = self.rules.setdefault(rule, RuleMetrics())
        entry.calls += 1
        entry.bytes_in += _utf8_len(before)
        entry.bytes_out += _utf8_len(after)
        entry.lines_in += _line_count(before)
        entry.lines_out += _line_count(after)
        entry.seconds += seconds
        entry.confidence[confidence.label] += 1


def _has_text(text: str) -> bool:
    """Whether ``text`` holds a non-whitespace character (``bool(text.strip())`` without copying megabytes)."""
    return bool(text) and not text.isspace()


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def _line_count(text: str) -> int:
    # the compiled count: str.count("\n") takes 1.4 ms on 100,000 lines, this 0.14
    return _speedups.count_lines(text)


if TYPE_CHECKING:
    #: one filter rule as a plan runs it: (rule id, strategy name, parameters as (name, value) pairs)
    PlannedRule = tuple[str, str, tuple[tuple[str, Any], ...]]


class FilterPlan(NamedTuple):
    """Everything the pipeline needs from a graph to filter one command's output.

    Rule matching depends only on the command line and the exit code, so a
    plan built once for a (command, exit code) can be cached and run again
    without loading the graph: that is the warm path of ``zeph-rules filter``.
    """

    rules: tuple[PlannedRule, ...]
    redact: bool = False
    scanner: Any = None  # a security.Scanner, or None when the security pass is off
    #: ``patterns.pattern_facts`` of the rules' regexes (their required literals, how long a text ``re``
    #: may search without a timeout and on which texts beyond ASCII), worked out when the plan was
    #: built: a cached plan's run parses none
    pattern_facts: tuple[tuple[str, str, Any, int, int], ...] = ()


#: the strategy of a plan's first entry when the command is a task runner's (see ``delegation``): its
#: parameter ``tools`` holds, per tool, the rules the tool's output gets instead of the runner's.  With
#: ``chain`` set the command is a chain (``cargo fmt --check && cargo test``) and the tool's rules are
#: tried only when the command's own fall back: its last command may never have run
DELEGATE = "delegate"


def build_plan(graph: MatcherGraph, command: str, exit_code: int | None = None) -> FilterPlan:
    """Return the plan for ``command``: its matching enabled filter rules and the graph's security pass.

    A task runner's command (``make test``, ``./scripts/check.sh``) whose rules do not summarise
    tests themselves also gets the rules of each tool it may be running (``delegation.TOOLS``),
    for the pipeline to pick from by what the output shows.  So does a chain of commands
    (``go vet ./... && go test ./...``), for when the rules of its last command fall back.
    """
    enabled = graph.setting("filters.enabled", True)
    matched = graph.matching_filters(command, exit_code) if enabled else []
    security = graph.setting("security", {})
    rules = _planned(matched)
    every = rules
    if enabled:
        from .delegation import TOOLS, is_chain, is_runner
        from .graph import filter_subject

        runner = False
        if not any(rule.effect == "test_summary" for rule in matched):
            words = (filter_subject(command, exit_code).command or "").split(None, 1)
            runner = bool(words) and is_runner(words[0], words[1] if len(words) > 1 else "")
        chain = not runner and is_chain(command)
        if runner or chain:
            tools = tuple((tool, _planned(graph.matching_filters(tool, exit_code))) for tool, *_ in TOOLS)
            # the rules any command gets (``repeated-blocks``): a tool's rules beyond them are its own
            anyone = tuple(rule.id for rule in graph.matching_filters(_ANY_COMMAND, exit_code))
            payload: tuple[tuple[str, Any], ...] = (("tools", tools), ("anyone", anyone)) + ((("chain", True),) if chain else ())
            rules = ((DELEGATE, DELEGATE, payload), *rules)
            every = rules[1:] + tuple(rule for _, tool_rules in tools for rule in tool_rules)
    return FilterPlan(
        rules=rules,
        redact=bool(security.get("redact")) if isinstance(security, dict) else False,
        scanner=graph.extra.get("scanner"),
        pattern_facts=_pattern_facts(every),
    )


#: a command no rule names: the filter rules it matches are the ones every command gets
_ANY_COMMAND = "_"


def _planned(matched: list[Rule]) -> tuple[PlannedRule, ...]:
    """Return matched rules as a plan runs (and the plan cache stores) them: id, strategy, parameters."""
    return tuple((rule.id, rule.effect, rule.payload) for rule in matched)


def _delegated(rules: tuple[PlannedRule, ...], clean: str) -> tuple[PlannedRule, ...]:
    """Return the rules of the tool whose output ``clean`` shows, else the runner's own (``rules[1:]``)."""
    from .delegation import shown_tool

    own = rules[1:]
    tool = shown_tool(clean)
    if tool is not None:
        payload = dict(rules[0][2])
        for name, tool_rules in payload["tools"]:
            if name != tool:
                continue
            tools_own = {rule[0] for rule in tool_rules}.difference(payload.get("anyone", ()))
            if tools_own and tools_own <= {rule[0] for rule in own}:
                break  # the command's own rules read this output already (``npx eslint``), and maybe more
            return tuple(tool_rules)  # none of its own: the output is left as the tool's rules leave it
    return own


#: the strategy parameters that hold regexes (a string or a list of strings); tests check them against
#: the parameter models' regex fields
PATTERN_PARAMETERS = frozenset({
    "patterns", "since", "until", "count_from", "when_present", "keep_first_of_run", "keep_before", "keep_after", "look_past", "keep_when_named", "keep_unfinished", "finished_by", "keep_last_named", "spare_whole_blocks", "spare_despite", "block_start", "block_end", "drop_paragraphs_with", "drop_paragraphs_matching", "spare_paragraphs_with", "summary_pattern", "keep_patterns", "rule_pattern",
    "location_pattern", "normalize_patterns", "routine_patterns",
})


def _pattern_facts(rules: tuple[PlannedRule, ...]) -> tuple[tuple[str, str, Any, int, int], ...]:
    """Return ``patterns.pattern_facts`` of every regex the plan's rules hold, in order, once each."""
    from .patterns import pattern_facts

    sources: dict[str, None] = {}
    for _, _, payload in rules:
        for name, value in payload:
            if name not in PATTERN_PARAMETERS:
                continue
            if isinstance(value, str):
                sources[value] = None
            elif isinstance(value, (list, tuple)):
                sources.update((source, None) for source in value if isinstance(source, str))
    return tuple(pattern_facts(source) for source in sources)


#: a line longer than this (a base64 blob, minified code, a JSON body past ``WIDE_JSON``) keeps its first
#: WIDE_HEAD and last WIDE_TAIL characters around a counted marker: ten thousand characters is no
#: terminal's line
WIDE_LINE = 10_000
WIDE_HEAD = 4_000
WIDE_TAIL = 1_000
#: a JSON document on one line up to this wide (``eslint -f json``, ``jest --json``, an API's body) is
#: an answer asked for in a shape to parse: it stays whole but for its long strings
WIDE_JSON = 65_536
#: a string in such a document longer than this (a file's source, a package's description) keeps its
#: first JSON_STRING_HEAD and last JSON_STRING_TAIL characters around a counted marker, inside its quotes
LONG_JSON_STRING = 2_000
JSON_STRING_HEAD = 1_200
JSON_STRING_TAIL = 300


def _narrow_wide_lines(text: str) -> str:
    """Return ``text`` with each line longer than ``WIDE_LINE`` cut in its middle (``text`` itself if none is)."""
    # A line that long holds a whole window of half its width aligned on that half: without one
    # with no newline the text has no such line, found in a find per window (5 MB of log: 1,000).
    step = WIDE_LINE // 2
    if all(text.find("\n", start, start + step) >= 0 for start in range(0, len(text) - step + 1, step)):
        return text
    lines = text.split("\n")
    if max(map(len, lines)) <= WIDE_LINE:
        return text
    narrowed = [line if len(line) <= WIDE_LINE else _narrow_wide_line(line) for line in lines]
    return text if narrowed == lines else "\n".join(narrowed)


def _narrow_wide_line(line: str) -> str:
    document = _narrow_json_document(line)
    if document is not None:
        return document
    return f"{line[:WIDE_HEAD]} {omitted_marker(len(line) - WIDE_HEAD - WIDE_TAIL, 'character')} {line[-WIDE_TAIL:]}"


def _narrow_json_document(line: str) -> str | None:
    """Return ``line``, a JSON document, with its long strings narrowed; None when it is no such document."""
    import json
    import re  # here: output without a line this wide never needs it

    bare = line.strip()
    if len(line) > WIDE_JSON or bare[:1] not in ("{", "[") or bare[-1:] not in ("}", "]"):
        return None
    try:
        json.loads(bare)
    except ValueError:
        return None

    def narrow(found: re.Match[str]) -> str:
        string = found.group()
        if len(string) <= LONG_JSON_STRING:
            return string
        head = _escape_boundary(string, JSON_STRING_HEAD)
        tail = _escape_boundary(string, len(string) - JSON_STRING_TAIL)
        return f"{string[:head]} {omitted_marker(tail - head, 'character')} {string[tail:]}"

    return re.sub(JSON_STRING, narrow, line)


def _escape_boundary(string: str, index: int) -> int:
    """Return ``index``, or the start of the backslash escape (``\\n``, ``\\u00e9``) a cut there would split."""
    for position in range(index - 1, max(index - 6, 0) - 1, -1):
        if string[position] != "\\":
            continue
        before = position
        while before > 0 and string[before - 1] == "\\":
            before -= 1
        if (position - before) % 2:
            continue  # the second backslash of an escaped backslash
        end = position + (6 if string[position + 1 : position + 2] == "u" else 2)
        return position if end > index else index
    return index


def run_filters(graph: MatcherGraph, command: str, output: str, exit_code: int | None = None,
                metrics: FilterMetrics | None = None) -> FilterResult:
    """Filter ``output`` of ``command`` with every matching rule of ``graph``."""
    return run_plan(build_plan(graph, command, exit_code), command, output, exit_code, metrics)


def run_plan(plan: FilterPlan, command: str, output: str, exit_code: int | None = None,
             metrics: FilterMetrics | None = None, raw: bytes | None = None) -> FilterResult:
    """Filter ``output`` of ``command`` as ``plan`` says (built for the same command and exit code).

    ``raw``, when the caller has it, is what ``output`` was decoded from
    (UTF-8, ``surrogateescape``): the security scan reads bytes, and encoding
    megabytes of output again costs the ``filter`` command a millisecond or two.
    """
    if raw is None:
        raw = output.encode("utf-8", "surrogateescape")
    if plan.pattern_facts:
        remember_pattern_facts(plan.pattern_facts)
    security_result = _start_security_pass(plan.scanner, output, raw)
    clean = sanitize(output)
    # `cargo test; echo "exit=$?"`: the last line is the echo's, not the tool's; the rules read the rest
    # (the shell parser is imported only for such a command: a cached plan's run does without it)
    body, trailer = _split_trailing_echoes(command, clean) if plan.rules and "echo" in command else (clean, "")
    text, worst, applied = _filter_text(plan.rules, body, exit_code, metrics)
    if worst == Confidence.FALLBACK and plan.rules:
        # a timestamp on every line (`cargo test | ts`, a CI log) hides the tool's lines from its rules:
        # they read the lines without it, and each line they keep gets its own back
        from . import timestamps

        stamped = timestamps.split(body)
        if stamped is not None:
            prefixes, bare = stamped
            bare_text, bare_worst, bare_applied = _filter_text(plan.rules, bare, exit_code, metrics)
            if bare_worst != Confidence.FALLBACK:
                text, worst, applied = timestamps.reattach(prefixes, bare, bare_text), bare_worst, bare_applied
    if worst == Confidence.FALLBACK:
        text = clean  # a filter that is unsure returns the input, whole
    elif trailer:
        text = (text if text.endswith("\n") or not text else text + "\n") + trailer
    findings, security_notice, signal_starts = security_result()
    if signal_starts is None:
        candidates = _signal_candidates(clean)
    else:  # the scan found them in the raw output, whose lines are then the sanitised lines (see _security_pass)
        candidates = sanitize(_lines_at(output, signal_starts))
    text = restore_signals(candidates, text)
    if worst != Confidence.FALLBACK:
        laid_out = relayout_json(text)  # pretty-printed JSON in fewer lines, only whitespace changed
        if laid_out is not None:
            text = laid_out
    if len(text) > len(clean):
        text, worst = clean, Confidence.FALLBACK
    if worst != Confidence.FALLBACK and len(text) > WIDE_LINE:
        narrowed = _narrow_wide_lines(text)
        if narrowed is not text:
            text, worst = narrowed, max(worst, Confidence.PARTIAL)
    if findings and plan.redact:
        text = _redact(plan.scanner, raw, text)
    if security_notice:
        text = (text if text.endswith("\n") or not text else text + "\n") + security_notice + "\n"
    return FilterResult(
        command=command,
        output=text,
        confidence=worst,
        rules=tuple(applied),
        raw_bytes=len(raw),
        filtered_bytes=_utf8_len(text),
        raw_lines=_line_count(output),
        filtered_lines=_line_count(text),
        findings=tuple(findings),
        security_notice=security_notice,
    )


def _echo_parts(words: list[str]) -> list[tuple[str, str]] | None:
    """What ``echo WORDS`` prints, as parts: ("text", literal), ("status", "") for ``$?`` or
    ``${PIPESTATUS[..]}`` (digits), ("any", "") for another variable or substitution; None when no
    part is known (``echo $x`` may print anything).

    No regex: a pattern compiled per command would cost the warm ``filter`` path an import of ``re``.
    """
    text = " ".join(words)
    parts: list[tuple[str, str]] = []
    literal: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char != "$" or at + 1 == len(text):
            literal.append(char)
            at += 1
            continue
        following = text[at + 1]
        if following == "?":
            end, kind = at + 2, "status"
        elif following in "{(":
            close = text.find("}" if following == "{" else ")", at + 2)
            end = len(text) if close < 0 else close + 1
            kind = "status" if text.startswith("${PIPESTATUS", at) else "any"
        elif following.isalnum() or following == "_":
            end = at + 2
            while end < len(text) and (text[end].isalnum() or text[end] == "_") and not following.isdigit():
                end += 1
            kind = "any"
        else:
            literal.append(char)
            at += 1
            continue
        if literal:
            parts.append(("text", "".join(literal)))
            literal = []
        if parts and parts[-1][0] != "text" and "any" in (kind, parts[-1][0]):
            parts[-1] = ("any", "")  # `$a$b` is one stretch of anything
        else:
            parts.append((kind, ""))
        at = end
    if literal:
        parts.append(("text", "".join(literal)))
    known = any(kind == "status" or (kind == "text" and value.strip()) for kind, value in parts)
    # each variable part is matched by trying every end: a few keep that cheap on a 400-character line
    few = sum(kind != "text" for kind, _ in parts) <= _ECHO_VARIABLES_MAX
    return parts if known and few else None


def _fits(parts: list[tuple[str, str]], line: str, index: int = 0, pos: int = 0) -> bool:
    """Whether ``line`` from ``pos`` is what ``parts`` from ``index`` print."""
    if index == len(parts):
        return pos == len(line)
    kind, value = parts[index]
    if kind == "text":
        return line.startswith(value, pos) and _fits(parts, line, index + 1, pos + len(value))
    for end in range(pos + (kind == "status"), len(line) + 1):
        if kind == "status" and line[end - 1] not in "0123456789 ":
            return False
        if _fits(parts, line, index + 1, end):
            return True
    return False


#: a trailing echo's line longer than this is not looked at, nor an echo of more variables than this
#: (its parts match by backtracking)
_ECHO_LINE_MAX = 400
_ECHO_VARIABLES_MAX = 4


def _split_trailing_echoes(command: str, clean: str) -> tuple[str, str]:
    """Split off the lines the ``echo`` commands after the filtered one printed: (the rest, those lines).

    ``pytest -q; echo "exit=$?"`` ends with ``exit=1``, which no rule of pytest's reads (a tool's
    rule that finds a line it does not know may give up).  Only when every line the echoes would
    print ends the output, each as its pattern says; else nothing is split off.
    """
    from .commands import parse_command

    parsed = parse_command(command)
    target = parsed.target
    at = next((index for index, pipeline in enumerate(parsed.pipelines) if any(cmd is target for cmd in pipeline)), None)
    if at is None:
        return clean, ""
    patterns: list[list[tuple[str, str]]] = []
    for pipeline in parsed.pipelines[at + 1 :]:
        for cmd in pipeline:
            if not cmd.argv:
                continue
            if cmd.program != "echo" or len(pipeline) > 1 or cmd.redirections:
                if cmd.program in ("echo", "printf", "cat", "date", "pwd", "ls"):
                    return clean, ""  # prints something this does not know how to read
                continue  # `true`, `cd ..`, `sleep 1`: they print nothing
            words = [word.value for word in cmd.argv[1:]]
            while words and words[0] in ("-e", "-E"):
                words.pop(0)
            parts = _echo_parts(words) if not (words and words[0].startswith("-n")) else None
            if parts is None:
                return clean, ""
            patterns.append(parts)
    if not patterns:
        return clean, ""
    lines = clean.split("\n")
    end = len(lines) - 1 if lines[-1] == "" else len(lines)
    start = end - len(patterns)
    if start < 0 or not all(len(line) <= _ECHO_LINE_MAX and _fits(parts, line)
                            for parts, line in zip(patterns, lines[start:end])):
        return clean, ""
    body = "\n".join(lines[:start]) + ("\n" if start else "")
    return body, clean[len(body):]


def _filter_text(rules: tuple[PlannedRule, ...], clean: str, exit_code: int | None,
                 metrics: FilterMetrics | None) -> tuple[str, Confidence, list[str]]:
    """Run a plan's ``rules`` on ``clean``, a task runner's or a chain's picked by what the output shows."""
    retry: tuple[PlannedRule, ...] = ()
    if rules and rules[0][1] == DELEGATE:
        sectioned = _filter_sections(rules, clean, exit_code, metrics)
        if sectioned is not None:
            return sectioned
        if dict(rules[0][2]).get("chain"):
            retry, rules = rules, rules[1:]
        else:
            jobs = _filter_jobs(rules, clean, exit_code, metrics)
            if jobs is not None:
                return jobs
            picked = _delegated(rules, clean)
            if picked == rules[1:]:
                stamped = _stamped_tool(rules, clean, exit_code, metrics)
                if stamped is not None:
                    return stamped
            rules = picked
    text, worst, applied = _run_rules(rules, clean, exit_code, metrics)
    if worst == Confidence.FALLBACK and retry:
        # a chain's last command may not have run (`go vet ./... && go test ./...` stopped at vet):
        # the rules of the tool whose output shows, when they differ and read it
        other = _delegated(retry, clean)
        if other and other != rules:
            other_text, other_worst, other_applied = _run_rules(other, clean, exit_code, metrics)
            if other_worst != Confidence.FALLBACK:
                return other_text, other_worst, other_applied
    return text, worst, applied


def _filter_sections(rules: tuple[PlannedRule, ...], clean: str, exit_code: int | None,
                     metrics: FilterMetrics | None) -> tuple[str, Confidence, list[str]] | None:
    """Filter a runner's output section by section, each as the tool it shows (see ``sections``).

    A section that shows no tool gets the runner's own rules (a chain's: none), as a whole
    output showing none would.  None unless the sections show two different tools (one tool's
    rules read the whole output then), or when a section headed by one tool shows another's: the
    lines of recipes run in parallel (``make -j4``) mix, and no section is one tool's.
    """
    from . import sections
    from .delegation import could_show, shown_tool

    found = sections.split(clean, exit_code)
    if found is None:
        return None
    prelude, parts = found
    bodies = ["\n".join(part.body) for part in parts]  # each read twice: for its tool, then by its rules
    shown = [shown_tool(body) if body else None for body in bodies]
    if len({tool for tool in shown if tool is not None}) < 2:
        return None
    if any(tool is not None and not could_show(sections.head_program(part.command), tool)
           for part, tool in zip(parts, shown)):
        return None
    payload = dict(rules[0][2])
    tools = dict(payload["tools"])
    own = () if payload.get("chain") else rules[1:]
    worst = Confidence.FULL
    applied: list[str] = []

    def filtered(lines: list[str], body: str, section_rules: tuple[PlannedRule, ...], code: int | None) -> list[str]:
        nonlocal worst
        if not section_rules or not lines:
            return lines
        kept, confidence, used = _run_rules(section_rules, body, code, metrics)
        if confidence == Confidence.FALLBACK:
            return lines  # rules that do not read this section leave it whole
        worst = max(worst, confidence)
        applied.extend(rule for rule in used if rule not in applied)
        return [kept[:-1] if kept.endswith("\n") else kept]

    out = filtered(prelude, "\n".join(prelude), own, None)
    for part, body, tool in zip(parts, bodies, shown):
        out += part.head
        out += filtered(part.body, body, tuple(tools.get(tool, ())) if tool is not None else own, part.exit_code)
        out += part.tail
    if not applied:
        return None  # no section's rules read it: as if there were no sections
    return "\n".join(out), worst, applied


def _stamped_tool(rules: tuple[PlannedRule, ...], clean: str, exit_code: int | None,
                  metrics: FilterMetrics | None) -> tuple[str, Confidence, list[str]] | None:
    """A runner's output whose tool shows only without a timestamp on every line (`make test | ts`): its rules.

    Without the stamps the output is read as an unstamped runner's is: part by part when it echoes
    each command, job by job when its lines carry their jobs' tags (a CI log's parallel steps,
    `[lint] warning: ...` beside `[test] test x ... ok`), else as the one tool it shows.
    """
    from . import timestamps

    stamped = timestamps.split(clean)
    if stamped is None:
        return None
    prefixes, bare = stamped
    found = _filter_sections(rules, bare, exit_code, metrics) or _filter_jobs(rules, bare, exit_code, metrics)
    if found is None:
        tool_rules = _delegated(rules, bare)
        if tool_rules == rules[1:]:
            return None
        found = _run_rules(tool_rules, bare, exit_code, metrics)
    text, worst, applied = found
    if worst == Confidence.FALLBACK:
        return None
    return timestamps.reattach(prefixes, bare, text), worst, applied


def _filter_jobs(rules: tuple[PlannedRule, ...], clean: str, exit_code: int | None,
                 metrics: FilterMetrics | None) -> tuple[str, Confidence, list[str]] | None:
    """Filter a runner's output of several tagged jobs job by job (see ``streams``); None when it has no tags."""
    from . import streams

    found = streams.split(clean)
    if found is None:
        return None
    prefixes, bare, jobs = found
    # each job's filtered lines stand where its first line was; a line of no job (it carries no tag:
    # ``bare`` holds it as printed) stays where it was among them: the runner's summary after the jobs,
    # and, when the jobs ran one after the other (npm's install scripts), each job's header above it
    job_at = {numbers[0]: numbers for numbers in jobs.values()}
    tagged = {number for numbers in jobs.values() for number in numbers}
    worst, applied = Confidence.PARTIAL, []  # Partial at best: the jobs' lines are regrouped
    out: list[str] = []
    for number, line in enumerate(bare):
        numbers = job_at.get(number)
        if numbers is None:
            if number not in tagged:
                out.append(line)
            continue
        text = "\n".join(bare[at] for at in numbers)
        kept, confidence, job_applied = _run_rules(_delegated(rules, text), text, exit_code, metrics)
        if confidence == Confidence.FALLBACK:
            kept = text  # rules that do not read this job's lines leave them whole
        out += streams.retag(prefixes, bare, numbers, kept)
        applied += [rule for rule in job_applied if rule not in applied]
    return "\n".join(out), worst, applied


def _run_rules(rules: tuple[PlannedRule, ...], clean: str, exit_code: int | None,
               metrics: FilterMetrics | None) -> tuple[str, Confidence, list[str]]:
    """Run ``rules`` in order on ``clean``; return the text, the worst confidence and the rules applied."""
    text = clean
    worst = Confidence.FULL
    applied: list[str] = []
    for rule_id, effect, payload in rules:
        strategy = STRATEGIES.get(effect)
        if strategy is None:
            continue
        params = dict(payload)
        started = time.perf_counter()
        try:
            result = strategy(text, params, exit_code)
            candidate, confidence = result.text, result.confidence
        except Exception:  # noqa: BLE001 - a broken strategy must never break the caller
            candidate, confidence = text, Confidence.FALLBACK
        if len(candidate) > len(text) or (_has_text(text) and not _has_text(candidate)):
            candidate, confidence = text, Confidence.FALLBACK
        if metrics is not None:
            metrics.record(rule_id, text, candidate, confidence, time.perf_counter() - started)
        text = candidate
        worst = max(worst, confidence)
        applied.append(rule_id)
    return text, worst, applied


def _signal_candidates(clean: str) -> str:
    """Return the lines of ``clean`` that may carry a security signal.

    ``signals.SIGNAL`` is a case-insensitive alternation, slow on megabytes of
    output; a case-folded substring search finds the few lines it can match.
    """
    return _lines_at(clean, lines_with_words(clean, SIGNAL_WORDS))


def _lines_at(text: str, starts: list[int]) -> str:
    """Return the lines of ``text`` that start at ``starts`` (ascending), joined by newlines."""
    lines = []
    for start in starts:
        end = text.find("\n", start)
        lines.append(text[start : len(text) if end == -1 else end])
    return "\n".join(lines)


#: outputs at least this long (characters) are scanned in a thread while the filters run
PARALLEL_SCAN_FROM = 256 * 1024


if TYPE_CHECKING:
    #: what the security pass gives back: findings, the notice (or None) and the signal-line starts (or None)
    SecurityOutcome = tuple[list[Any], str | None, list[int] | None]


def _start_security_pass(scanner: Any, output: str, raw: bytes) -> Callable[[], SecurityOutcome]:
    """Start the security pass over ``output``; return the function that waits for its result.

    The compiled scanner searches without the GIL, so on a long output it runs
    in a thread beside the filters (on two cores a 100,000-line cargo test
    output is filtered about 8 ms sooner).  Short outputs, and the pure twin,
    which would only contend for the GIL, scan here and now.  ``_thread``
    rather than ``threading``: this runs in every ``filter`` process, and the
    import would cost about as much as a short scan.
    """
    if scanner is None or len(output) < PARALLEL_SCAN_FROM or _speedups.IMPLEMENTATION != "compiled":
        done = _security_pass(scanner, output, raw)
        return lambda: done
    import _thread

    # Bind (import) the search here: the thread holds the GIL until its search
    # starts, and all it should do before then is validate its arguments.
    _speedups.windows_and_marked_lines  # noqa: B018 - the attribute access binds it
    started, finished = _thread.allocate_lock(), _thread.allocate_lock()
    started.acquire()
    finished.acquire()
    outcome: list[Any] = []

    def scan() -> None:
        started.release()
        try:
            outcome.append(_security_pass(scanner, output, raw))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, raised there
            outcome.append(exc)
        finally:
            finished.release()

    _thread.start_new_thread(scan, ())
    # Wait for the thread to run: it keeps the GIL up to its GIL-free search,
    # so the filters start as the search does, not a switch interval (5 ms) later.
    started.acquire()

    def wait() -> SecurityOutcome:
        with finished:
            result = outcome[0]
        if isinstance(result, BaseException):
            raise result
        return result  # type: ignore[no-any-return]

    return wait


def _security_pass(scanner: Any, output: str, raw: bytes) -> SecurityOutcome:
    """Scan the raw output (``raw``, the bytes of ``output``); return the findings, the notice and the signal lines.

    The signal lines are the starts of the lines holding one of
    ``SIGNAL_WORDS``, marked by the scan's own pass over the bytes when the
    scanner marks lines and the output is ASCII with no escape.  Sanitising
    such an output keeps every line (bar blank-line runs, which hold no word)
    and only ever shortens one to part of itself -- trailing blanks go, a
    redrawn line keeps its last state -- so every line the sanitised search
    would find is marked, and sanitising the marked lines gives the lines it
    would find plus some that ``SIGNAL`` then rejects.  An escape can join
    the halves of a word, so with one the marks could miss a line: then, and
    for non-ASCII output, None, and the pipeline searches the sanitised text
    (about 6 ms on 100,000 lines).
    """
    if scanner is None:
        return [], None, None
    from .security import notice

    if scanner.marks_lines and output.isascii() and "\x1b" not in output:
        findings, starts = scanner.scan_marking_lines(raw)
    else:
        findings, starts = scanner.scan(raw), None
    return findings, (notice(findings) if findings else None), starts


def _redact(scanner: Any, raw: bytes, text: str) -> str:
    """Replace every secret value found in the raw output (``raw``) by ``[REDACTED:<id>]`` in ``text``."""
    # longest values first, so a value that contains another is replaced whole
    spans = sorted(scanner.spans(raw), key=lambda span: span[0] - span[1])
    for start, end, rule in spans:
        value = raw[start:end].decode("utf-8", "surrogateescape")
        if value:
            text = text.replace(value, f"[REDACTED:{rule}]")
    return text
