"""``group_by_rule``: fold repeated lint warnings into one block per rule.

Understands, without configuration, the formats of rustc / clippy, ruff (full
and concise), eslint (stylish), mypy, flake8, pylint, go vet and gcc / clang.
Every group keeps one full example and every location; errors are never
grouped (each is kept verbatim), and the tools' summary lines are kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..patterns import REGEX_TIMEOUT
from ._common import (
    Confidence,
    StrategyResult,
    fallback,
    guarded,
    join_lines,
    omitted_marker,
    split_lines,
    user_pattern,
)

# rustc / clippy / ruff-full heads: the location follows on a "  --> path:line:col" line
_RUST_HEAD = re.compile(r"^(?P<severity>warning|error)(?:\[(?P<rule>[\w:-]+)\])?: (?P<message>.+)$")
_RUFF_HEAD = re.compile(r"^(?P<rule>[A-Z]{1,4}\d{2,4}) (?:\[\*\] )?(?P<message>.+)$")
_ARROW = re.compile(r"^\s*--> (?P<location>\S+)")
_RUST_RULE_NOTE = re.compile(r"#\[(?:warn|deny|forbid)\((?P<rule>[\w:]+)\)\]")
_CLIPPY_URL = re.compile(r"rust-clippy/.*#(?P<lint>\w+)")

# one-line heads: "path:line[:col]: [severity[code]: ]message"
_LOCATED = re.compile(
    r"^(?P<location>[^\s:][^:]*:\d+(?::\d+)?): (?:(?P<severity>fatal error|error|warning|note|remark|info)"
    r"(?:\[(?P<code>[\w-]+)\])?: )?(?P<message>.*)$"
)
_GCC_FLAG = re.compile(r" \[(?P<rule>-W[\w=+-]+)\]$")
_MYPY_CODE = re.compile(r"  \[(?P<rule>[\w-]+)\]$")
_LINT_CODE = re.compile(r"^(?P<rule>[A-Z]{1,4}\d{2,4}) (?:\[\*\] )?(?P<message>.*)$")
_PYLINT = re.compile(r"^(?P<code>[CRWEFI]\d{4}): (?P<message>.*) \((?P<rule>[\w-]+)\)$")

# eslint stylish: a file name, then "  line:col  severity  message  rule"
_ESLINT_FILE = re.compile(r"^(?:/|\.{1,2}/|[A-Za-z]:\\|\w)\S*\.(?:[cm]?[jt]sx?|vue|svelte|astro)$")
_ESLINT_ITEM = re.compile(
    r"^\s+(?P<line>\d+):(?P<col>\d+)\s+(?P<severity>error|warning)\s+(?P<message>.+?)(?:\s{2,}(?P<rule>[\w@/-]+))?$"
)

_SUMMARY = re.compile(
    r"^(?:warning|error): .*generated \d+ warnings?|^error: could not compile|^(?:error|warning): aborting due to"
    r"|^Found \d+ (?:errors?|problems?)|^\d+ (?:errors?|warnings?)(?: and \d+ (?:errors?|warnings?))? generated\."
    r"|^✖ \d+ problems?|^Success: no issues|^Your code has been rated|^\[\*\] \d+ fixable|^All checks passed"
    r"|^\d+ files? (?:would be )?(?:reformatted|left unchanged)|^No fixes available|^\d+\s+\S+\s+\[[ *]\] "
    r"|^\s*Finished \S+ |^\s*Finished [`'\"]"
)
_NOISE = re.compile(
    r"^\s*(?:Compiling|Checking|Finished|Blocking|Downloading|Downloaded|Updating|Locking|Fresh|Building) "
    r"|^-{10,}$"
)
# gcc names the enclosing function before its diagnostics; the line travels with the next one
_CONTEXT = re.compile(
    r"^\S+: In (?:function|member function|constructor|destructor|instantiation of|static member function) .*:$"
    r"|^In file included from |^\s+from \S+:\d+[:,]$"
)


@dataclass
class Diagnostic:
    """One diagnostic: its head, the lines that belong to it, and what it is grouped by."""

    severity: str
    message: str
    rule: str | None
    location: str | None
    lines: list[str] = field(default_factory=list)
    ends_at_blank: bool = False


def _shape(message: str) -> str:
    """Return the message with its quoted specifics blanked, to group rule-less repeats."""
    return re.sub(r"`[^`]*`|'[^']*'|‘[^’]*’|\"[^\"]*\"|\d+", "_", message)


def _rust_rule(diagnostic: Diagnostic) -> str | None:
    for line in diagnostic.lines:
        note = _RUST_RULE_NOTE.search(line)
        if note:
            return note["rule"]
        url = _CLIPPY_URL.search(line)
        if url:
            return f"clippy::{url['lint']}"
    return diagnostic.rule


def _located(match: re.Match[str]) -> Diagnostic:
    """Build a diagnostic from a ``path:line: ...`` head, finding the rule wherever the tool puts it."""
    severity = match["severity"] or "warning"
    message = match["message"]
    rule: str | None = match["code"]
    for pattern in (_GCC_FLAG, _MYPY_CODE):
        found = pattern.search(message)
        if found:
            rule = found["rule"]
            message = message[: found.start()]
            break
    else:
        pylint = _PYLINT.match(message)
        lint = _LINT_CODE.match(message)
        if pylint:
            rule, message = f"{pylint['code']} {pylint['rule']}", pylint["message"]
        elif lint:
            rule, message = lint["rule"], lint["message"]
    return Diagnostic(severity, message, rule, match["location"], [match.group(0)])


def _parse(lines: list[str]) -> tuple[list[Diagnostic | str], list[str], int]:
    """Split output into diagnostics and other lines (in order), summary lines, and a noise count."""
    items: list[Diagnostic | str] = []
    summaries: list[str] = []
    noise = 0
    current: Diagnostic | None = None
    eslint_file: str | None = None
    context: list[str] = []

    def start(diagnostic: Diagnostic) -> Diagnostic:
        if context:
            diagnostic.lines[:0] = context
            context.clear()
        items.append(diagnostic)
        return diagnostic

    for index, line in enumerate(lines):
        if current is not None and current.ends_at_blank:
            if line.strip():
                if _ARROW.match(line) and current.location is None:
                    current.location = _ARROW.match(line)["location"]  # type: ignore[index]
                current.lines.append(line)
                continue
            current = None
            continue
        if not line.strip():
            current = None
            eslint_file = None
            continue
        if _SUMMARY.match(line):
            current = None
            summaries.append(line)
            continue
        if _NOISE.match(line):
            noise += 1
            continue
        if _CONTEXT.match(line):
            current = None
            context.append(line)
            continue
        rust = _RUST_HEAD.match(line)
        if rust:
            current = start(Diagnostic(rust["severity"], rust["message"], rust["rule"], None, [line], True))
            continue
        ruff = _RUFF_HEAD.match(line)
        if ruff and index + 1 < len(lines) and _ARROW.match(lines[index + 1]):
            current = start(Diagnostic("warning", ruff["message"], ruff["rule"], None, [line], True))
            continue
        located = _LOCATED.match(line)
        if located:
            if located["severity"] == "note" and current is not None:
                current.lines.append(line)
                continue
            current = start(_located(located))
            continue
        if _ESLINT_FILE.match(line):
            eslint_file = line.strip()
            current = None
            noise += 1
            continue
        eslint = _ESLINT_ITEM.match(line)
        if eslint and eslint_file is not None:
            location = f"{eslint_file}:{eslint['line']}:{eslint['col']}"
            rule = eslint["rule"]
            text = f"{location}: {eslint['severity']}: {eslint['message']}" + (f"  [{rule}]" if rule else "")
            current = start(Diagnostic(eslint["severity"], eslint["message"], rule, location, [text]))
            continue
        if current is not None and (line[:1].isspace() or line[:1] == "|"):
            current.lines.append(line)  # source excerpt, caret line or continuation of the message
            continue
        current = None
        items.append(line)
    items.extend(context)  # context with no diagnostic after it
    return items, summaries, noise


def _group_key(diagnostic: Diagnostic, rule_of_shape: dict[str, str]) -> str:
    if diagnostic.rule:
        return f"{diagnostic.severity}[{diagnostic.rule}]"
    shape = _shape(diagnostic.message)
    learnt = rule_of_shape.get(shape)
    return f"{diagnostic.severity}[{learnt}]" if learnt else f"{diagnostic.severity}: {shape}"


def _head(diagnostic: Diagnostic) -> str:
    """Return the line that states the diagnostic (after any gcc context lines)."""
    for line in diagnostic.lines:
        if not _CONTEXT.match(line):
            return line
    return diagnostic.lines[0]


def _other_members(first: Diagnostic, others: list[Diagnostic]) -> list[str]:
    """Render the rest of a group: every location, and the message where it differs from the example."""
    lines: list[str] = []
    if first.ends_at_blank:
        # block formats (rustc, clippy, ruff): "  --> location" per member, under its own head if it differs
        for other in others:
            if other.message != first.message:
                lines.append(_head(other))
            lines.append(f"  --> {other.location or '?'}")
        return lines
    # a big group of one-line findings: messages that differ only in numbers and quoted names count as the same
    shape = _shape(first.message)
    same_message = [other.location or _head(other) for other in others if _shape(other.message) == shape]
    if same_message:
        lines.append(f"   also at: {', '.join(same_message)}")
    lines.extend(_head(other) for other in others if _shape(other.message) != shape)
    return lines


#: a source excerpt under a diagnostic: rustc/ruff/gcc gutters ("12 |", "   |"), ruff's fix diffs, "..."
_EXCERPT = re.compile(r"^\s*\d*\s*[|│]|^\s*\d+\s+[+-] |^\s+[+-] |^\s*\.\.\.$|^\s*::: ")
#: an excerpt line that labels the code with words ("^^^ expected `String`, found `&str`")
_LABEL = re.compile(r"^\s*\d*\s*[|│][\s|/\\_]*[\^~\-][\^~\-\s|]*[A-Za-z`(]")
#: one-line diagnostics are grouped only when a rule repeats this often; fewer are kept verbatim
_GROUP_ONE_LINE_FROM = 25


#: clang's gutter-less excerpt: the code line, then a line of carets and tildes
_CARET = re.compile(r"^\s*[\^~][\s^~]*$")


#: a note that points into the compiler's or the system's headers ("candidate constructor not viable")
_SYSTEM_NOTE = re.compile(r"^(?:/usr/|/opt/|\S*/include/c\+\+/|\S*/lib/gcc/)\S*:\d+(?::\d+)?: note: ")
#: how many of those a diagnostic keeps; C++ overload and template errors print dozens
_SYSTEM_NOTES_KEPT = 2


def _compact(diagnostic: Diagnostic, is_error: bool) -> tuple[list[str], int, int]:
    """Return the diagnostic without its source excerpt (an error keeps the labelled lines).

    Also cut are the notes into system headers past the first two.  Returns the
    kept lines, the excerpt lines cut and the notes cut.
    """
    lines = diagnostic.lines
    carets = {index for index, line in enumerate(lines) if index and _CARET.match(line)}
    code = {index - 1 for index in carets if index > 1 and lines[index - 1][:1].isspace()}
    kept: list[str] = []
    cut = notes_cut = system_notes = 0
    for index, line in enumerate(lines):
        excerpt = index in carets or index in code or (
            _EXCERPT.match(line) and not _ARROW.match(line) and not (is_error and _LABEL.match(line))
        )
        if index and excerpt:
            cut += 1
            continue
        if index and _SYSTEM_NOTE.match(line):
            system_notes += 1
            if system_notes > _SYSTEM_NOTES_KEPT:
                notes_cut += 1
                continue
        kept.append(line)
    return kept, cut, notes_cut


def _render(items: list[Diagnostic | str], summaries: list[str], noise: int) -> list[str]:
    diagnostics = [item for item in items if isinstance(item, Diagnostic)]
    for diagnostic in diagnostics:
        if diagnostic.ends_at_blank and diagnostic.lines[0].startswith(("warning", "error")):
            diagnostic.rule = _rust_rule(diagnostic)
    # rustc prints the "#[warn(lint)]" note only once per lint: learn message shape -> lint.
    rule_of_shape = {_shape(d.message): d.rule for d in diagnostics if d.rule}
    groups: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.severity not in ("error", "fatal error"):
            groups.setdefault(_group_key(diagnostic, rule_of_shape), []).append(diagnostic)
    group_of = {id(member): members for members in groups.values() for member in members}
    out: list[str] = []
    excerpts = system_notes = 0
    for item in items:
        if isinstance(item, str):
            out.append(item)
            continue
        members = group_of.get(id(item))
        if members is None or (not item.ends_at_blank and len(members) < _GROUP_ONE_LINE_FROM):
            # errors are never grouped; a few one-line warnings read best as they came
            lines, cut, notes_cut = _compact(item, members is None)
            excerpts += cut
            system_notes += notes_cut
            out.extend(lines)
            if item.ends_at_blank:
                out.append("")
            continue
        if members[0] is not item:
            continue  # rendered with the first of its group
        first = members[0]
        if len(members) > 1 and first.ends_at_blank:
            # one-line formats name the rule on every line already; blocks get a header
            out.append(f"== {_group_key(first, rule_of_shape)} x{len(members)}: {first.message}")
        lines, cut, notes_cut = _compact(first, False)
        excerpts += cut + sum(len(_compact(other, False)[0]) - 1 for other in members[1:])
        system_notes += notes_cut
        out.extend(lines)
        out.extend(_other_members(first, members[1:]))
        if first.ends_at_blank or len(members) > 1:
            out.append("")
    if noise:
        out.append(omitted_marker(noise, "line", "of progress and context"))
    if excerpts:
        out.append(omitted_marker(excerpts, "line", "of source excerpts and repeats"))
    if system_notes:
        out.append(omitted_marker(system_notes, "note", "into system headers past the first two per diagnostic"))
    out.extend(summaries)
    cleaned: list[str] = []
    for line in out:
        if not line.strip() and (not cleaned or not cleaned[-1].strip()):
            continue
        cleaned.append(line)
    while cleaned and not cleaned[-1].strip():
        cleaned.pop()
    return cleaned


def _user_grouping(lines: list[str], location_source: str | None, rule_source: str) -> list[str] | None:
    """Group with the rule's own patterns: per rule, its example lines, then every other location.

    The group key is the rule pattern's first group (or its whole match).  When
    that group is optional and did not take part (``rg --heading`` prints
    ``12:text`` under a ``path`` line), the key is the last line that matched
    nothing: the heading.  A location is the location pattern's first group (or
    its whole match).  Each group keeps, besides its first line, the lines whose
    shape (numbers and quoted specifics blanked) is new, up to three; the other
    members are named by location.  Groups appear where their first line was.
    """
    location_pattern = user_pattern(location_source) if location_source else None
    rule_pattern = user_pattern(rule_source)
    groups: dict[str, list[tuple[str, str]]] = {}
    order: list[str | tuple[str]] = []  # a plain line, or (group key,) where the group goes
    heading = ""
    for line in lines:
        try:
            rule = rule_pattern.search(line, timeout=REGEX_TIMEOUT)
            located = location_pattern.search(line, timeout=REGEX_TIMEOUT) if location_pattern else None
        except TimeoutError:
            rule = located = None
        if rule is None:
            order.append(line)
            if line.strip():
                heading = line
            continue
        key = rule.group(0)
        if rule.re.groups:
            key = next((group for group in rule.groups() if group is not None), f"\0{heading}")
        location = ""
        if location_pattern is None:
            location = line
        elif located is not None:
            location = located.group(1) if located.re.groups and located.group(1) is not None else located.group(0)
        if key not in groups:
            groups[key] = []
            order.append((key,))
        groups[key].append((line, location))
    if not groups:
        return None
    out: list[str] = []
    for entry in order:
        if isinstance(entry, str):
            out.append(entry)
            continue
        members = groups[entry[0]]
        shown = {_shape(members[0][0])}
        out.append(members[0][0])
        rest: list[str] = []
        for line, location in members[1:]:
            shape = _shape(line)
            if shape not in shown and len(shown) < 3:
                shown.add(shape)
                out.append(line)
            else:
                rest.append(location)
        named = [location for location in rest if location]
        unnamed = len(rest) - len(named)
        if named:
            out.append(f"   also at: {', '.join(named)}" + (f" (+{unnamed} more)" if unnamed else ""))
        elif unnamed:
            out.append(f"   (+{unnamed} more)")
    return out


def _group_by_rule(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    lines, ends_with_newline = split_lines(text)
    location_source, rule_source = params.get("location_pattern"), params.get("rule_pattern")
    if rule_source:
        grouped = _user_grouping(lines, location_source, rule_source)
        if grouped is not None:
            return StrategyResult(join_lines(grouped, ends_with_newline), Confidence.FULL)
    if not text.strip():
        return StrategyResult(text, Confidence.FULL)
    items, summaries, noise = _parse(lines)
    if not any(isinstance(item, Diagnostic) for item in items):
        recognised = noise or (summaries and not any(item.strip() for item in items if isinstance(item, str)))
        if recognised and len(lines) <= 5:
            return StrategyResult(text, Confidence.FULL)  # a line or two of progress: nothing worth cutting
        if noise or (summaries and not any(item.strip() for item in items if isinstance(item, str))):
            # a clean build: only its progress lines go
            return StrategyResult(join_lines(_render(items, summaries, noise), ends_with_newline), Confidence.FULL)
        if params.get("require_diagnostics", True) is False:
            return StrategyResult(text, Confidence.FULL)  # the rule expects output with no diagnostics too
        return fallback(text)
    return StrategyResult(join_lines(_render(items, summaries, noise), ends_with_newline), Confidence.FULL)


group_by_rule = guarded(_group_by_rule)
