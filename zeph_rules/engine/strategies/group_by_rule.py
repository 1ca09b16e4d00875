"""``group_by_rule``: fold repeated lint findings, keeping every distinct message and every location.

Understands, without configuration, the formats of rustc / clippy, ruff (full
and concise), eslint (stylish), mypy, flake8, pylint, go vet, gcc / clang, tsc
(plain and --pretty) and javac.  Source excerpts and code frames go, but a
compiler's errors are kept whole (bare gutter lines aside).  Block formats
(rustc, ruff full) group by rule under one full example.  One-line findings
fold only when they say the same thing (message, rule, notes: all but the
location) into the first and an ``also at`` list; a compiler's errors,
pylint's warnings and errors, eslint's findings and a type checker's type
errors never fold (a type checker's missing-annotation codes do, and pyright's
attribute findings, which untyped code raises by the hundred).
pyright (and basedpyright) print a file's path on a line of its own, then
``  path:line:col - error: message`` with the message's continuation indented
below and the rule ``(reportX)`` at the end of its last line; the path lines go.  The tools' summary lines are kept, last.

With a ``rule_pattern`` (grep, user rules) lines group by the pattern instead:
see ``_user_grouping``.
"""

from __future__ import annotations

from ... import _regex
from ._common import (
    BLOCK_MARGIN,
    Confidence,
    StrategyResult,
    fallback,
    guarded,
    join_lines,
    omitted_marker,
    per_line,
    split_lines,
    user_pattern,
)

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    import re
    from collections.abc import Mapping
    from typing import Any

# rustc / clippy / ruff-full heads: the location follows on a "  --> path:line:col" line
#: rustc's note under the first report of a warning made an error: "`-D clippy::x` implied by `-D warnings`"
_PROMOTED = _regex.compile(r"^\s*= note: `(?:-D |#\[deny\()[\w:-]+\)?\]?` implied by `")
#: the note under the first report of a lint that is an error whatever the flags: "`#[deny(clippy::x)]` on by default"
_DENIED_BY_DEFAULT = _regex.compile(r"^\s*= note: `#\[deny\([\w:-]+\)\]` on by default")
_RUST_HEAD = _regex.compile(r"^(?P<severity>warning|error)(?:\[(?P<rule>[\w:-]+)\])?: (?P<message>.+)$")
_RUFF_HEAD = _regex.compile(r"^(?P<rule>[A-Z]{1,4}\d{2,4}) (?:\[\*\] )?(?P<message>.+)$")
_ARROW = _regex.compile(r"^\s*--> (?P<location>\S+)")
#: rustc's note under a diagnostic (`= note: this warning originates in the macro ...`, a lint's reason)
_NOTE = _regex.compile(r"^\s*= note: ")
_RUST_RULE_NOTE = _regex.compile(r"#\[(?:warn|deny|forbid)\((?P<rule>[\w:]+)\)\]")
_CLIPPY_URL = _regex.compile(r"rust-clippy/.*#(?P<lint>\w+)")
#: clippy's "= help: for further information visit https://rust-lang.github.io/rust-clippy/.../index.html#len_zero"
_CLIPPY_LINK = _regex.compile(r"^\s*= help: for further information visit https://\S*rust-clippy/\S*#(?P<lint>\w+)$")

# one-line heads: "path:line[:col]: [severity[code]: ]message" (go vet may say "vet: " first)
_LOCATED = _regex.compile(
    r"^(?:vet: )?(?P<location>[^\s:][^:]*:\d+(?::\d+)?): (?:(?P<severity>fatal error|error|warning|note|remark|info)"
    r"(?:\[(?P<code>[\w-]+)\])?: )?(?P<message>.*)$"
)
# tsc: "path(line,col): error TS2322: message", and with --pretty "path:line:col - error TS2322: message"
# followed by the message's continuation, blank lines and code frames up to the next head
_TSC = _regex.compile(
    r"^(?P<location>[^\s(][^(]*\(\d+,\d+\)): (?P<severity>error|warning|message) (?P<code>TS\d+): (?P<message>.*)$"
)
_TSC_PRETTY = _regex.compile(
    r"^(?P<location>[^\s:][^:]*:\d+:\d+) - (?P<severity>error|warning|message) (?P<code>TS\d+): (?P<message>.*)$"
)
# pyright / basedpyright: "  path:line:col - error: message", continuation lines indented deeper,
# "(reportRule)" closing the last line; each file's path first on a line of its own
_PYRIGHT = _regex.compile(
    r"^ {2}(?P<location>\S.*?:\d+:\d+) - (?P<severity>error|warning|information): (?P<message>.*)$"
)
_PYRIGHT_RULE = _regex.compile(r"\((?P<rule>report\w+)\)\s*$")
#: type checkers call every finding an error; these codes are about missing annotations, not bugs, and
#: come by the hundred under --strict / noImplicitAny: their repeats fold (mypy, then tsc).  mypy's
#: import-untyped / import-not-found are not among them: each names a module one file imports, once
_ANNOTATION_CODES = frozenset({
    "no-untyped-def", "no-untyped-call", "var-annotated", "type-arg", "no-any-return", "no-any-unimported",
    "no-any-explicit", "no-any-expr", "unused-ignore",
    "TS7005", "TS7006", "TS7008", "TS7010", "TS7019", "TS7031", "TS7034",
    # pyright: unknown and missing types, missing stubs, and attributes it cannot see in untyped code
    # (set dynamically, on a class it infers partially): the same access is reported at every use
    "reportAttributeAccessIssue", "reportUnknownMemberType", "reportUnknownVariableType",
    "reportUnknownArgumentType", "reportUnknownParameterType", "reportUnknownLambdaType",
    "reportMissingParameterType", "reportMissingTypeArgument", "reportMissingTypeStubs",
    "reportMissingModuleSource", "reportUntypedFunctionDecorator", "reportUntypedClassDecorator",
    "reportUntypedBaseClass", "reportUntypedNamedTuple", "reportUnnecessaryTypeIgnoreComment", "reportAny",
    "reportExplicitAny", "reportImplicitOverride", "reportMissingSuperCall",
})
#: javac names its lint category first: "warning: [unchecked] unchecked call ..."
_JAVAC_LINT = _regex.compile(r"^\[(?P<rule>[\w-]+)\] (?P<message>.*)$")
_GCC_FLAG = _regex.compile(r" \[(?P<rule>-W[\w=+-]+)\]$")
_MYPY_CODE = _regex.compile(r"  \[(?P<rule>[\w-]+)\]$")
_LINT_CODE = _regex.compile(r"^(?P<rule>[A-Z]{1,4}\d{2,4}) (?:\[\*\] )?(?P<message>.*)$")
_PYLINT = _regex.compile(r"^(?P<code>[CRWEFI]\d{4}): (?P<message>.*) \((?P<rule>[\w-]+)\)$")

# eslint stylish: a file name, then "  line:col  severity  message  rule"
_ESLINT_FILE = _regex.compile(r"^(?:/|\.{1,2}/|[A-Za-z]:\\|\w)\S*\.(?:[cm]?[jt]sx?|vue|svelte|astro)$")
_ESLINT_ITEM = _regex.compile(
    r"^\s+(?P<line>\d+):(?P<col>\d+)\s+(?P<severity>error|warning)\s+(?P<message>.+?)(?:\s{2,}(?P<rule>[\w@/-]+))?$"
)

_SUMMARY = _regex.compile(
    r"^(?:warning|error): .*generated \d+ warnings?|^error: could not compile|^(?:error|warning): aborting due to"
    r"|^Found \d+ (?:errors?|problems?)|^\d+ (?:errors?|warnings?)(?: and \d+ (?:errors?|warnings?))? generated\."
    r"|^✖ \d+ problems?|^Success: no issues|^Your code has been rated|^\[\*\] \d+ fixable|^All checks passed"
    r"|^\d+ files? (?:would be )?(?:reformatted|left unchanged)|^No fixes available|^\d+\s+\S+\s+\[[ *]\] "
    r"|^\s*Finished \S+ |^\s*Finished [`'\"]"
    r"|^\d+ (?:errors?|warnings?)$|^\s*\d+ errors? and \d+ warnings? potentially fixable"
    r"|^Errors\s+Files$|^\s+\d+\s+\S+:\d+$"
    r"|^\d+ errors?, \d+ warnings?, \d+ informations?\s*$"
)
_NOISE = _regex.compile(
    r"^\s*(?:Compiling|Checking|Finished|Blocking|Downloading|Downloaded|Updating|Locking|Fresh|Building) "
    r"(?!\S+ v\S+ \((?:/|[A-Za-z]:\\|\.))"  # the workspace's own crates (named with their path) stay
    r"|^-{10,}$"
    # pyright's start-up lines
    r"|^(?:No configuration file found\.|No pyproject\.toml file found\.|Searching for source files$"
    r"|Found \d+ source files?$|Loading configuration file at |Assuming Python (?:version|platform) "
    r"|Auto-excluding |Loading pyproject\.toml file at |pyproject\.toml file found at )"
)
#: cargo -v's echo of each command it runs (rustc, a build script): what -v was asked for, so it stays
_CARGO_COMMAND = _regex.compile(r"^\s+Running `")
#: what `cargo clippy --fix` (and `cargo fix`) did to each file: it stays, where it was printed
_CARGO_FIXED = _regex.compile(r"^\s+Fixed \S+ \(\d+ fix(?:es)?\)$")
#: the linker's lines: ``/usr/bin/ld: x.o: in function `main':``, ``x.c:(.text+0x14): undefined reference
#: to `f'``, ``collect2: error: ld returned 1 exit status`` (French puts a space before each colon)
_LINKER = _regex.compile(
    r"^(?:(?:\S*/)?(?:ld(?:\.\w+)?|ld64\.lld|collect2)\s?: |[^\s:]+:\(\.[\w.$]*\+0x[0-9a-f]+\)\s?: )"
)
#: cargo's line for one of the workspace's own crates: progress, but it says which crate the diagnostics are of
_OWN_CRATE = _regex.compile(r"^\s*(?:Compiling|Checking) \S+ v\S+ \((?:/|[A-Za-z]:\\|\.)")
#: a code frame's opening line, a bare gutter ("   |"), and its numbered lines at column 0 ("14 | code")
_FRAME_OPEN = _regex.compile(r"^\s+\|\s*$")
_NUMBERED_GUTTER = _regex.compile(r"^\d+ +[|│]")
# gcc names the enclosing function before its diagnostics; the line travels with the next one
_CONTEXT = _regex.compile(
    r"^\S+: In (?:function|member function|constructor|destructor|instantiation of|static member function) .*:$"
    r"|^In file included from |^\s+from \S+:\d+[:,]$"
)


class Diagnostic:
    """One diagnostic: its head, the lines that belong to it, and what it is grouped by.

    A plain class rather than a dataclass: this runs in every ``filter``
    process, where importing ``dataclasses`` costs more than grouping a report.
    """

    __slots__ = ("ends_at_blank", "ends_at_head", "foldable", "folds_when_many", "lines", "location", "message", "rule",
                 "rule_at_end", "severity")

    def __init__(self, severity: str, message: str, rule: str | None, location: str | None,
                 lines: list[str] | None = None, ends_at_blank: bool = False, foldable: bool | None = None,
                 ends_at_head: bool = False, rule_at_end: bool = False, folds_when_many: bool = False) -> None:
        self.severity = severity
        self.message = message
        self.rule = rule
        self.location = location
        self.lines: list[str] = [] if lines is None else lines
        self.ends_at_blank = ends_at_blank
        #: whether repeats may fold into "also at"; errors of compilers never do (see _located)
        self.foldable = severity not in ("error", "fatal error") if foldable is None else foldable
        #: tsc --pretty: blank lines and code frames belong to the diagnostic until the next head
        self.ends_at_head = ends_at_head
        #: pyright: the rule closes the diagnostic's last line, after its continuation
        self.rule_at_end = rule_at_end
        #: not foldable, but folds in a report of hundreds like it (eslint's warnings, pylint's W codes)
        self.folds_when_many = folds_when_many


_SPECIFICS = _regex.compile(r"`[^`]*`|'[^']*'|‘[^’]*’|\"[^\"]*\"|\d+")


def _shape(message: str) -> str:
    """Return the message with its quoted specifics blanked, to group rule-less repeats."""
    return _SPECIFICS.sub("_", message)


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
    """Build a diagnostic from a ``path:line: ...`` head, finding the rule wherever the tool puts it.

    Whether repeats may fold follows the tool's own grading: a compiler's errors
    (gcc, javac, rustc) never fold, nor pylint's warnings (but by the hundred) and errors; a type
    checker calls every finding an error (mypy) and grades by its error code,
    so its errors fold like any linter finding.
    """
    severity = match["severity"] or "warning"
    message = match["message"]
    rule: str | None = match["code"]
    foldable: bool | None = None
    folds_when_many = False
    mypy = _MYPY_CODE.search(message)
    gcc = _GCC_FLAG.search(message)
    if mypy or gcc:
        found = mypy or gcc
        assert found is not None
        rule = found["rule"]
        message = message[: found.start()]
        if mypy and rule in _ANNOTATION_CODES:
            foldable = True
    else:
        pylint = _PYLINT.match(message)
        lint = _LINT_CODE.match(message)
        javac = _JAVAC_LINT.match(message)
        if pylint:
            rule, message = f"{pylint['code']} {pylint['rule']}", pylint["message"]
            foldable = pylint["code"][0] not in "WEF"
            folds_when_many = pylint["code"][0] == "W"
        elif lint:
            rule, message = lint["rule"], lint["message"]
        elif javac and match["severity"]:
            rule, message = javac["rule"], javac["message"]
    return Diagnostic(severity, message, rule, match["location"], [match.group(0)], foldable=foldable,
                      folds_when_many=folds_when_many)


def _starts_block(lines: list[str], index: int) -> bool:
    """Whether ``lines[index]`` opens a block diagnostic (rustc/clippy or ruff's full format) or is a summary.

    Inside a block every line but the head is indented or starts with a gutter,
    a line number or ``help:``/``note:``, so a severity head at the margin is
    the next diagnostic.
    """
    line = lines[index]
    if line[:1].isspace():
        return False
    if _RUST_HEAD.match(line) or _SUMMARY.match(line):
        return True
    return bool(_RUFF_HEAD.match(line)) and index + 1 < len(lines) and bool(_ARROW.match(lines[index + 1]))


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
            if not line.strip():
                current = None
                continue
            if not _starts_block(lines, index) and (line[:1].isspace() or BLOCK_MARGIN.match(line)):
                if _ARROW.match(line) and current.location is None:
                    current.location = _ARROW.match(line)["location"]  # type: ignore[index]
                current.lines.append(line)
                continue
            # a head where the blank line should have been (a trimmed or interleaved output), or a line no
            # block has at its margin (gcc's next diagnostic, make's verdict, where no blank line ever
            # comes): the block ends, and the line is read for what it is, never as an excerpt line of
            # the block, which would be cut with it
            current = None
        if current is not None and current.ends_at_head:
            if not line.strip() or not (_TSC_PRETTY.match(line) or _SUMMARY.match(line)):
                current.lines.append(line)
                continue
            current = None
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
            # a block (rustc) goes on with indented lines; a head followed by another head is a line of its own
            # (ruff's "warning: rules are incompatible" before its findings)
            follows = lines[index + 1] if index + 1 < len(lines) else ""
            block = not follows.strip() or follows[:1].isspace() or follows[:1] in "|="
            current = start(Diagnostic(rust["severity"], rust["message"], rust["rule"], None, [line], block))
            continue
        ruff = _RUFF_HEAD.match(line)
        if ruff and index + 1 < len(lines) and _ARROW.match(lines[index + 1]):
            current = start(Diagnostic("warning", ruff["message"], ruff["rule"], None, [line], True))
            continue
        pyright = _PYRIGHT.match(line)
        if pyright:
            current = start(Diagnostic(pyright["severity"], pyright["message"], None, pyright["location"], [line],
                                       rule_at_end=True))
            continue
        following = _PYRIGHT.match(lines[index + 1]) if index + 1 < len(lines) else None
        if following and following["location"].startswith(line.strip() + ":"):
            noise += 1  # pyright's file line: every finding under it names the file again
            current = None
            continue
        tsc = _TSC.match(line) or _TSC_PRETTY.match(line)
        if tsc:
            diagnostic = Diagnostic(tsc["severity"], tsc["message"], tsc["code"], tsc["location"], [line],
                                    foldable=tsc["code"] in _ANNOTATION_CODES or tsc["severity"] != "error")
            diagnostic.ends_at_head = tsc.re is _TSC_PRETTY
            current = start(diagnostic)
            continue
        if _LINKER.match(line):
            # every line of the linker's report stays: each names a symbol or an object file
            current = start(Diagnostic("error", line, None, None, [line], foldable=False))
            continue
        located = _LOCATED.match(line)
        if located:
            if located["severity"] == "note" and current is not None:
                current.lines.append(line)
                continue
            current = start(_located(located))
            if current.rule and index + 1 < len(lines) and _FRAME_OPEN.match(lines[index + 1]):
                # ruff < 0.7 prints its full format as "path:line:col: CODE message" over a code frame:
                # the frame goes, every head stays (it is the finding's only line that says where)
                current.foldable = False
            continue
        if _ESLINT_FILE.match(line):
            eslint_file = line.strip()
            current = None
            items.append(line)
            continue
        eslint = _ESLINT_ITEM.match(line)
        if eslint and eslint_file is not None:
            # stylish prints the path once and each finding on a short line of its own, graded by the
            # project's config: every finding stays as printed (but see _render: in a report of hundreds)
            location = f"{eslint_file}:{eslint['line']}:{eslint['col']}"
            current = start(Diagnostic(eslint["severity"], eslint["message"], eslint["rule"], location, [line],
                                       foldable=False, folds_when_many=eslint["severity"] == "warning"))
            continue
        if current is not None and (line[:1].isspace() or line[:1] == "|" or _NUMBERED_GUTTER.match(line)):
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
        # block formats (rustc, clippy, ruff): "  --> location" per member, under its own head if it differs.
        # A member keeps a note no member above said: which macro's expansion it was raised in (the place
        # is in the macro's body, the note says which invocation to mend: batch 96b), the reason an
        # unfulfilled `#[expect(..., reason = "...")]` gave (98b).  Notes alike in every member stay once
        notes_said = {line.strip() for line in first.lines if _NOTE.match(line)}
        for other in others:
            if other.message != first.message:
                lines.append(_head(other))
            # its own arrow line as printed: rustc indents it by the width of the line numbers ("   --> " past 99)
            arrow = next((line for line in other.lines if _ARROW.match(line)), None)
            lines.append(arrow if arrow is not None else f"  --> {other.location or '?'}")
            for line in other.lines:
                if _NOTE.match(line) and line.strip() not in notes_said:
                    notes_said.add(line.strip())
                    lines.append(line)
        return lines
    if _ESLINT_ITEM.match(_head(first)):
        # stylish: a finding's line names no file (its file is the header above it): every place is listed
        # with its file's path in full, as the header printed it (a reader quotes it back), 50 to a line
        chunks = [_locations(chunk) for chunk in per_line([other.location or "?" for other in others])]
        return [f"   also at: {chunks[0]}", *(f"            {chunk}" for chunk in chunks[1:])]
    # one-line findings group only when they say the same thing: what differs is where.  The last
    # stays as printed too: where a reader looks for the end of a list (gcc's u63.c after u00.c ... u62.c)
    *between, last = others
    lines = [f"   also at: {_locations([other.location or _head(other) for other in between])}"] if between else []
    return [*lines, _head(last)]


_PATH_AND_PLACE = _regex.compile(r"^(?P<path>.*?)(?P<place>(?::\d+)+|\(\d+,\d+\))$")


def _locations(locations: list[str]) -> str:
    """Join locations, naming each path once per run: ``a.py:3, 9, 12; b.py:4``."""
    out: list[str] = []
    path: str | None = None
    for location in locations:
        split = _PATH_AND_PLACE.match(location)
        if split and split["path"] and split["path"] == path:
            out.append(", " + split["place"].lstrip(":"))
            continue
        path = split["path"] if split else None
        out.append(("; " if out else "") + location)
    return "".join(out)


def _one_line_key(diagnostic: Diagnostic) -> str:
    """Return what a one-line finding must share with another to fold: all it says but where.

    That is its severity, rule and message, and its other lines (notes, the
    message's continuation, gcc's "In function" context) with their locations cut.
    """
    head = _head(diagnostic)
    said = [diagnostic.severity, diagnostic.rule or "", diagnostic.message]
    for line in _compact(diagnostic, False)[0]:
        if line is head:
            continue
        located = _LOCATED.match(line)
        said.append(line[located.end("location") :] if located else line.strip())
    return "\0".join(said)


#: a source excerpt under a diagnostic: rustc/ruff/gcc gutters ("12 |", "   |"), ruff's fix diffs, "..."
_EXCERPT = _regex.compile(r"^\s*\d*\s*[|│]|^\s*\d+\s+[+-] |^\s+[+-] |^\s*\.\.\.$|^\s*::: ")
#: an excerpt line that labels the code with words ("^^^ expected `String`, found `&str`")
_LABEL = _regex.compile(r"^\s*\d*\s*[|│][\s|/\\_]*[\^~\-][\^~\-\s|]*[A-Za-z`(]")
#: one-line findings that say the same thing fold when this many repeat; fewer are kept verbatim.
#: 25 until batch 101b: clippy's 34 `indexing may panic` in `--message-format=short` folded, and its
#: reviewer quoted the tenth as its line; two screenfuls of one finding still read best as printed
#: (19 reports of 25 to 59 alike findings keep them, 0.04 points of the corpus' per-case mean)
_GROUP_ONE_LINE_FROM = 60
#: ... or, in a report of this many findings, when three or more repeat: a few screenfuls read best as
#: printed (a reader quotes a finding back by its line: at 150, a held-out ruff run of 269 findings
#: lost the one its reviewer asked for), many hundreds are mostly repetition.  A pair stays as
#: printed: folding it saves a few bytes and costs the second finding its own line
_MANY_FINDINGS = 300
_GROUP_MANY_FROM = 3


#: a step of gcc -fanalyzer's path under its excerpt gutters: "    |      |    (2) 'o' could be NULL: unchecked value from (1)";
#: the steps are the explanation of the warning, so they stay whatever the severity
_ANALYZER_EVENT = _regex.compile(r"^[\s|│]*\(\d+\) \S")


#: clang's gutter-less excerpt: the code line, then a line of carets and tildes
_CARET = _regex.compile(r"^\s*[\^~][\s^~]*$")
#: the code line above a caret line: indented (clang, javac) or after its line number (tsc --pretty)
_CODE_LINE = _regex.compile(r"^\s|^\d+ ")


#: a note that points into the compiler's or the system's headers ("candidate constructor not viable")
_SYSTEM_NOTE = _regex.compile(r"^(?:/usr/|/opt/|\S*/include/c\+\+/|\S*/lib/gcc/)\S*:\d+(?::\d+)?: note: ")
#: how many of those a diagnostic keeps; C++ overload and template errors print dozens
_SYSTEM_NOTES_KEPT = 2


#: rustc's "help: try" / "help: consider ..." above a suggested fix, and a line its fix adds or changes
_HELP = _regex.compile(r"^\s*(?:= )?help: ")
_SUGGESTED = _regex.compile(r"^\s*\d+\s+[+~] ")
#: a label that suggests the fix at the code it points at ("^^^^ help: if this is intentional, prefix it
#: with an underscore: `_verbose`"): rustc's help, inline
_INLINE_HELP = _regex.compile(r"^\s*\d*\s*[|│][\s|]*[\^~\-]+\s+help: ")
#: an excerpt's gutter with nothing on it: the one line of an error's excerpt that says nothing
_BARE_GUTTER = _regex.compile(r"^\s*\d*\s*[|│]\s*$")


#: the location's line number, at the end of a diagnostic's location ("src/lib.rs:31:9", "x.c:12")
_LOCATION_LINE = _regex.compile(r":(\d+)(?::\d+)?$")
#: an excerpt line quoting the code at a line number ("31 |         \"fn\" => ...", " 12 |   printf(msg);")
_NUMBERED_CODE = _regex.compile(r"^\s*(\d+)\s*[|│]")


def _primary_code_line(diagnostic: Diagnostic) -> int | None:
    """Return the index of the excerpt line quoting the code at the diagnostic's location, if there is one."""
    located = _LOCATION_LINE.search(diagnostic.location or "")
    if located is None:
        return None
    for index, line in enumerate(diagnostic.lines):
        numbered = _NUMBERED_CODE.match(line)
        if index and numbered and numbered.group(1) == located.group(1):
            return index
    return None


def _compact(diagnostic: Diagnostic, is_error: bool, keep_primary: bool = False) -> tuple[list[str], int, int, int]:
    """Return the diagnostic without its source excerpt; a compiler's error is kept whole.

    An error (``is_error``, not one a linter repeats) keeps every excerpt line
    but its bare gutters: the code it quotes and the carets (``expected ';'
    before 's'``), and the code under its ``help:`` (rustc's suggested fix,
    ``2 | use std::fs::read_to_string;``, is what a reader applies; batch 22
    asked for it three times).  Another diagnostic keeps its labelled lines
    only if it is an error a linter may repeat.  Also cut are the notes into
    system headers past the first two, and clippy's link to a lint's documentation where a note names
    the lint (``= note: `#[warn(clippy::len_zero)]` on by default``): the name is what a reader looks
    up.  Returns the kept lines, the excerpt lines cut, the notes cut and the links cut.
    """
    lines = diagnostic.lines
    quoted: set[int] = set()
    if is_error and diagnostic.severity in ("error", "fatal error") and not diagnostic.foldable:
        quoted = {index for index, line in enumerate(lines) if index and not _BARE_GUTTER.match(line)}
    if keep_primary:
        primary = _primary_code_line(diagnostic)
        if primary is not None:
            quoted.add(primary)
    carets = {index for index, line in enumerate(lines) if index and _CARET.match(line)}
    code = {index - 1 for index in carets if index > 1 and _CODE_LINE.match(lines[index - 1])}
    # the code a "help:" suggests, in rustc's diff form ("36 +     v.sort_by_key(|b| Reverse(b.kg));"): the fix
    helped = next((index for index, line in enumerate(lines) if index and _HELP.match(line)), len(lines))
    quoted.update(index for index in range(helped, len(lines)) if _SUGGESTED.match(lines[index]))
    quoted.update(index for index, line in enumerate(lines) if index and _INLINE_HELP.match(line))
    kept: list[str] = []
    cut = notes_cut = system_notes = links_cut = 0
    for index, line in enumerate(lines):
        if not line.strip():
            continue  # tsc --pretty spaces its code frames with blank lines
        link = _CLIPPY_LINK.match(line) if index else None
        if link is not None and _names_lint(lines, index, link["lint"]):
            links_cut += 1
            continue
        excerpt = index in carets or index in code or (
            _EXCERPT.match(line) and not _ARROW.match(line) and not (is_error and _LABEL.match(line))
            and not _ANALYZER_EVENT.match(line)
        )
        if index and excerpt and index not in quoted:
            cut += 1
            continue
        if index and _SYSTEM_NOTE.match(line):
            system_notes += 1
            if system_notes > _SYSTEM_NOTES_KEPT:
                notes_cut += 1
                continue
        kept.append(line)
    return kept, cut, notes_cut, links_cut


def _names_lint(lines: list[str], link_row: int, lint: str) -> bool:
    """Whether a line of the diagnostic but its documentation link names ``lint`` (``-D clippy::len-zero`` too)."""
    names = (f"clippy::{lint}", f"clippy::{lint.replace('_', '-')}")
    return any(row != link_row and any(name in line for name in names) for row, line in enumerate(lines))


def _without_repeats(items: list[Diagnostic | str]) -> tuple[list[Diagnostic | str], int]:
    """Drop the one-line diagnostics that repeat an earlier one word for word; return the rest and their count.

    gcc and clang report a header's warning again in every file that includes
    the header (``In file included from x.c``): the same location, the same
    message.  The first report stays.  A repeat's context lines (the including
    file, ``In function``) go with it, unless a new diagnostic of the same
    function follows it: then they stay, on that one.
    """
    seen: set[tuple[str, str]] = set()  # location and head: eslint's head names no file
    kept: list[Diagnostic | str] = []
    repeats = 0
    context: list[str] = []  # a dropped repeat's context, for the diagnostic after it in the same function
    for item in items:
        if not isinstance(item, Diagnostic) or item.ends_at_blank or item.location is None:
            context = []
            kept.append(item)
            continue
        head = _head(item)
        own_context = item.lines[: item.lines.index(head)] if head is not item.lines[0] else []
        if (item.location, head) in seen:
            repeats += 1
            context = own_context or context
            continue
        seen.add((item.location, head))
        if context and not own_context:
            item.lines[:0] = context
        context = []
        kept.append(item)
    return kept, repeats


def _repeated_lint_errors(diagnostics: list[Diagnostic]) -> set[str]:
    """Return the shapes of the codeless errors that repeat, in a run whose warnings are errors.

    rustc names a promoted lint once, under its first report, and a lint's messages differ (``use of
    deprecated function `a`: renamed``, then ``use of deprecated method `b`: use `c```): in such a
    run an error without a code that repeats, located in the source, is a lint too (batch 60's 50
    deprecated uses), unless it is a lint denied by default, whose every site a reader fixes (its
    first report says so).  cargo's own ``error: test failed, to rerun pass `--lib``` has no place.
    """
    denied = [d for d in diagnostics if d.severity == "error" and any(_DENIED_BY_DEFAULT.search(line) for line in d.lines)]
    denied_rules = {d.rule for d in denied if d.rule}
    denied_shapes = {_shape(d.message) for d in denied}
    counts: dict[str, int] = {}
    for diagnostic in diagnostics:
        if (diagnostic.ends_at_blank and diagnostic.severity == "error" and diagnostic.lines[0].startswith("error: ")
                and len(diagnostic.lines) > 1 and _ARROW.match(diagnostic.lines[1])
                and not (diagnostic.rule and diagnostic.rule in denied_rules)):
            shape = _shape(diagnostic.message)
            counts[shape] = counts.get(shape, 0) + 1
    return {shape for shape, count in counts.items() if count > 1 and shape not in denied_shapes}


def _render(items: list[Diagnostic | str], summaries: list[str], noise: int) -> list[str]:
    items, repeats = _without_repeats(items)
    diagnostics = [item for item in items if isinstance(item, Diagnostic)]
    for diagnostic in diagnostics:
        if diagnostic.rule_at_end:
            found = _PYRIGHT_RULE.search(diagnostic.lines[-1])
            diagnostic.rule = found["rule"] if found else None
            if diagnostic.severity == "error":
                diagnostic.foldable = diagnostic.rule in _ANNOTATION_CODES
        if diagnostic.ends_at_blank and diagnostic.lines[0].startswith(("warning", "error")):
            diagnostic.rule = _rust_rule(diagnostic)
    # rustc prints the "#[warn(lint)]" note only once per lint: learn message shape -> lint.
    rule_of_shape = {_shape(d.message): d.rule for d in diagnostics if d.rule}
    # a warning made an error (`-D warnings`, `#![deny(warnings)]`: its first report says "implied by")
    # is the finding it was as a warning, and its repeats fold alike (clippy's 153 findings under -D
    # warnings were kept whole, 4 % saved); a compiler's own error never folds, nor a lint that is an
    # error by default (clippy's correctness lints: batch 53's reviewer quoted each macro site)
    promoted = {_shape(d.message) for d in diagnostics if d.severity == "error" and any(_PROMOTED.search(line) for line in d.lines)}
    if promoted:
        promoted |= _repeated_lint_errors(diagnostics)
    for diagnostic in diagnostics:
        if diagnostic.ends_at_blank and diagnostic.severity == "error" and _shape(diagnostic.message) in promoted:
            diagnostic.foldable = True
    one_line = sum(not diagnostic.ends_at_blank for diagnostic in diagnostics)
    fold_from = _GROUP_MANY_FROM if one_line >= _MANY_FINDINGS else _GROUP_ONE_LINE_FROM
    # eslint's warnings and pylint's by the hundred (a rule turned on across a codebase) fold like any
    # one-line finding, every place listed; fewer stay as printed, among errors too (a reviewer of a
    # vendored tree's 380 errors and 22 warnings quoted sixteen of the warnings)
    many = [diagnostic for diagnostic in diagnostics if diagnostic.folds_when_many]
    folds_many = len(many) >= _MANY_FINDINGS
    if folds_many:
        for diagnostic in many:
            diagnostic.foldable = True
    folds_stylish = folds_many and any(_ESLINT_ITEM.match(diagnostic.lines[0]) for diagnostic in many)
    groups: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.foldable:
            key = _group_key(diagnostic, rule_of_shape) if diagnostic.ends_at_blank else _one_line_key(diagnostic)
            groups.setdefault(key, []).append(diagnostic)
    group_of = {id(member): members for members in groups.values() for member in members}
    out: list[str] = []
    excerpts = system_notes = links = 0
    for item in items:
        if isinstance(item, str):
            out.append(item)
            continue
        members = group_of.get(id(item))
        if members is None or (not item.ends_at_blank and len(members) < fold_from):
            # errors are never grouped; a few one-line warnings read best as they came
            # an error keeps the lines that label its code; a finding that never folds (ruff's) need not
            lines, cut, notes_cut, links_cut = _compact(
                item, members is None and item.severity in ("error", "fatal error"), keep_primary=True)
            excerpts += cut
            system_notes += notes_cut
            links += links_cut
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
        lines, cut, notes_cut, links_cut = _compact(first, False, keep_primary=True)
        # the group's other members stand as their places: the rest of each is counted as cut
        excerpts += cut + sum(len(kept) - 1 + linked for kept, _, _, linked in (_compact(other, False) for other in members[1:]))
        system_notes += notes_cut
        links += links_cut
        out.extend(lines)
        out.extend(_other_members(first, members[1:]))
        if first.ends_at_blank:
            out.append("")
    if folds_stylish:
        # a stylish file header whose findings all went into another's "also at" list says nothing more
        out = [line for index, line in enumerate(out)
               if not (_ESLINT_FILE.match(line) and not (index + 1 < len(out) and _ESLINT_ITEM.match(out[index + 1])))]
    if noise:
        out.append(omitted_marker(noise, "line", "of progress and context"))
    if excerpts:
        out.append(omitted_marker(excerpts, "line", "of source excerpts and repeats"))
    if repeats:
        out.append(omitted_marker(repeats, "diagnostic", "repeating one above word for word"))
    if system_notes:
        out.append(omitted_marker(system_notes, "note", "into system headers past the first two per diagnostic"))
    if links:
        out.append(omitted_marker(links, "link", "to lints' documentation"))  # each lint stays named in its note
    out.extend(summaries)
    cleaned: list[str] = []
    for line in out:
        if not line.strip() and (not cleaned or not cleaned[-1].strip()):
            continue
        cleaned.append(line)
    while cleaned and not cleaned[-1].strip():
        cleaned.pop()
    return cleaned


#: user groupings (grep) leave outputs shorter than this as they are: they read best as printed
_FOLD_LINES_FROM = 40
#: ... and fold a file's hits with the same text only when more than this many repeat in the file
_FOLD_REPEATS_OVER = 10
#: ... or when the output is this long: past a few screenfuls, repeats are what makes it long
_FOLD_ALL_REPEATS_FROM = 200
#: ... though a text found only twice in a file stays twice: folding a pair saves nothing
_FOLD_ALL_REPEATS_OVER = 2
#: in output with no locations, a family of near-identical lines this big keeps its first and last
_FAMILY_FROM = 5

#: words that say something went wrong; a line carrying one folds only with its exact repeats
#: searched in the lower-cased line: ignoring case costs a fold of every character at every position
_TROUBLE = _regex.compile(r"error|fatal|killed|panic|fail|exception|denied|refused|\boom\b|oom.?kill")
_DIGITS = _regex.compile(r"[0-9A-Fa-f]*\d[0-9A-Fa-f]*")
#: what changes between repeats of one event and says nothing about it: dates and times, long hex
#: ids, and the numbers of threads, processes and workers ("item 42" and "item 43" stay apart)
_INCIDENTAL = _regex.compile(
    r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)?"
    r"|\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b"
    r"|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b"
    r"|(?<=Thread-)\d+|(?<=\bpid[ =:#-])\d+|(?<=\btid[ =:#-])\d+|(?<=\bworker[ =:#-])\d+",
    _regex.IGNORECASE,
)
_BLANKS = _regex.compile(r"\s+")


def _trouble(line: str) -> set[str]:
    """Return the trouble words of ``line`` (lower case, ``oom-kill`` as ``oom``)."""
    return {"oom" if word.startswith("oom") else word for word in _TROUBLE.findall(line.lower())}


def _searched_words(lines: list[str]) -> set[str]:
    """Return the trouble words that at least half of ``lines`` carry: what was searched for, not news."""
    counts: dict[str, int] = {}
    for line in lines:
        for word in _trouble(line):
            counts[word] = counts.get(word, 0) + 1
    return {word for word, count in counts.items() if 2 * count >= len(lines)}


def _fold_key(text: str, searched: set[str], loose: bool = False) -> str:
    """Return what a line must share with another to fold into it.

    A line that reports trouble (beyond the words every hit carries) folds only
    with its exact repeats; any other line also with lines that differ only in
    when it happened and in which thread or process (``_INCIDENTAL``): other
    numbers (an item id, a count, a port) tell hits apart.  ``loose`` (for
    output too long to read otherwise) lets every number and hex id differ.
    """
    text = _BLANKS.sub(" ", text).strip()
    if _trouble(text) - searched:
        return "=" + text
    return "~" + (_DIGITS if loose else _INCIDENTAL).sub("0", text)


def _also_at(locations: list[str]) -> str:
    """Render the members folded into the lines above: their locations, and how many had none."""
    named = [location for location in locations if location]
    unnamed = len(locations) - len(named)
    if not named:
        return f"   (+{unnamed} more)"
    return f"   also at: {', '.join(named)}" + (f" (+{unnamed} more)" if unnamed else "")


def _fold_families(lines: list[str]) -> list[str]:
    """Fold each big family of near-identical lines to its first and last, with a counted marker.

    For output where no line names a location (``grep pattern file``): a line
    cannot be pointed at, so a family must be big before it folds, and the last
    member stays too (it says when the repeats stopped).
    """
    if len(lines) < _FOLD_LINES_FROM:
        return lines
    searched = _searched_words([line for line in lines if line.strip()])
    families: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        if line.strip():
            families.setdefault(_fold_key(line, searched, loose=True), []).append(index)
    dropped: set[int] = set()
    markers: dict[int, int] = {}
    for members in families.values():
        if len(members) >= _FAMILY_FROM:
            dropped.update(members[1:-1])
            markers[members[0]] = len(members) - 2
    out: list[str] = []
    for index, line in enumerate(lines):
        if index in dropped:
            continue
        out.append(line)
        if index in markers:
            out.append(omitted_marker(markers[index], "line", "like the one above"))
    return out


def _user_grouping(lines: list[str], location_source: str | None, rule_source: str) -> list[str]:
    """Group with the rule's own patterns: a member folds into ``also at`` when it says nothing new.

    The group key is the rule pattern's first group (or its whole match).  When
    that group is optional and did not take part (``rg --heading`` prints
    ``12:text`` under a ``path`` line), the key is the last line that matched
    nothing: the heading.  A location is the location pattern's first group (or
    its whole match); what is left of the line is its text.  Within a group, a
    member whose text repeats a text shown before (exactly when it reports
    trouble, else but for its numbers) folds into one ``also at`` line after the
    group's last member, but only where hits come by the dozen: when more than
    ``_FOLD_REPEATS_OVER`` share the text in one group, or the output is
    ``_FOLD_ALL_REPEATS_FROM`` lines or longer (an agent wants every hit verbatim
    until then); every other line stays where it was.  Short output is
    left alone, and output in which no line matches the rule pattern only has
    its big families of near-identical lines folded.
    """
    location_pattern = user_pattern(location_source) if location_source else None
    rule_pattern = user_pattern(rule_source)
    members: list[tuple[str, str, str] | None] = []  # per line: (group key, location, text), None for a plain line
    heading = ""
    for line in lines:
        rule = rule_pattern.search(line)
        located = location_pattern.search(line) if location_pattern and rule is not None else None
        if rule is None:
            members.append(None)
            if line.strip():
                heading = line
            continue
        key = rule.group(0)
        if rule.re.groups:
            key = next((group for group in rule.groups() if group is not None), f"\0{heading}")
        location, text = "", line
        if located is not None:
            location = located.group(1) if located.re.groups and located.group(1) is not None else located.group(0)
            text = line[: located.start()] + line[located.end() :]
        members.append((key, location, text))
    if all(member is None for member in members):
        return _fold_families(lines)
    if len(lines) < _FOLD_LINES_FROM:
        return lines
    searched = _searched_words([line for line, member in zip(lines, members) if member is not None])
    folded_lines = _fold_repeats(lines, members, searched, loose=False)
    if len(folded_lines) >= _FOLD_ALL_REPEATS_FROM:
        # still too long to read: hits that differ only in their numbers fold too, so that every
        # file keeps a line (a later cut of the output would drop whole files instead)
        folded_lines = _fold_repeats(lines, members, searched, loose=True)
    return folded_lines


def _fold_repeats(lines: list[str], members: list[tuple[str, str, str] | None], searched: set[str],
                  loose: bool) -> list[str]:
    """Fold each group's repeated texts into one ``also at`` line (see ``_user_grouping``)."""
    # each member's key once: the two passes below both need it, and it costs two regex passes
    fold_keys = [_fold_key(member[2], searched, loose) if member is not None else "" for member in members]
    repeats: dict[tuple[str, str], int] = {}
    for member, fold_key in zip(members, fold_keys):
        if member is not None:
            pair = (member[0], fold_key)
            repeats[pair] = repeats.get(pair, 0) + 1
    # every hit is an answer to the search: identical text in one file folds only when it comes by the
    # dozen there, or when the output is too long to read as printed
    fold_any = len(lines) >= _FOLD_ALL_REPEATS_FROM
    shown: dict[str, set[str]] = {}
    folded: dict[str, list[str]] = {}
    last_of: dict[str, int] = {}
    kept = [True] * len(lines)
    for index, member in enumerate(members):
        if member is None:
            continue
        key, location, _ = member
        last_of[key] = index
        fold_key = fold_keys[index]
        seen = shown.setdefault(key, set())
        if fold_key in seen and repeats[key, fold_key] > (_FOLD_ALL_REPEATS_OVER if fold_any else _FOLD_REPEATS_OVER):
            kept[index] = False
            folded.setdefault(key, []).append(location)
        else:
            seen.add(fold_key)
    also_at = {index: _also_at(folded[key]) for key, index in last_of.items() if key in folded}
    out: list[str] = []
    for index, line in enumerate(lines):
        if kept[index]:
            out.append(line)
        if index in also_at:
            out.append(also_at[index])
    return out


def _unlabelled_are_errors(items: list[Diagnostic | str]) -> None:
    """Make each one-line finding whose line names no severity an error, which never folds.

    go build prints a compile error as ``internal/x.go:6:23: undefined: model.Message``, as go vet
    prints a finding: under a build's command it is an error, each of which a reader fixes where it
    is (batch 61b's reviewer quoted the first of each package's ten).
    """
    for item in items:
        if isinstance(item, Diagnostic) and not item.ends_at_blank:
            head = _LOCATED.match(item.lines[0])
            if head is not None and head["severity"] is None:
                item.severity, item.foldable, item.folds_when_many = "error", False, False


def _group_by_rule(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
    lines, ends_with_newline = split_lines(text)
    location_source, rule_source = params.get("location_pattern"), params.get("rule_pattern")
    if rule_source:
        return StrategyResult(join_lines(_user_grouping(lines, location_source, rule_source), ends_with_newline),
                              Confidence.FULL)
    if not text.strip():
        return StrategyResult(text, Confidence.FULL)
    items, summaries, noise = _parse(lines)
    if params.get("unlabelled_severity") == "error" and exit_code != 0:
        _unlabelled_are_errors(items)  # a build that succeeded printed no error (`-gcflags=-m`'s decisions)
    if not any(isinstance(item, Diagnostic) for item in items):
        other = any(
            item.strip() and not _OWN_CRATE.match(item) and not _CARGO_COMMAND.match(item)
            and not _CARGO_FIXED.match(item)  # (batch 104: a fix that left nothing to report fell back)
            for item in items if isinstance(item, str)
        )
        recognised = noise or (summaries and not other)
        if recognised and len(lines) <= 5:
            return StrategyResult(text, Confidence.FULL)  # a line or two of progress: nothing worth cutting
        if recognised:
            # a clean build: only its progress lines go
            return StrategyResult(join_lines(_render(items, summaries, noise), ends_with_newline), Confidence.FULL)
        if params.get("require_diagnostics", True) is False:
            return StrategyResult(text, Confidence.FULL)  # the rule expects output with no diagnostics too
        return fallback(text)
    return StrategyResult(join_lines(_render(items, summaries, noise), ends_with_newline), Confidence.FULL)


group_by_rule = guarded(_group_by_rule)
