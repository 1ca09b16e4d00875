"""Pydantic models of the rule-file surface (validation only; never on the warm path).

Every model forbids unknown keys, so a typo becomes an error with a
did-you-mean instead of a silently ignored setting.  Validation happens per
rule (see ``desugar``), so one broken rule does not take its neighbours down.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from .patterns import MAX_PATTERN_CHARS, RegexProblem, compile_regex

Action = Literal["allow", "ask", "deny"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def check_regex(value: str) -> str:
    """Validate a regex string: length limit, then compilation."""
    if len(value) > MAX_PATTERN_CHARS:
        raise ValueError(f"pattern is {len(value)} characters; patterns are limited to {MAX_PATTERN_CHARS}")
    try:
        compile_regex(value)
    except RegexProblem as exc:
        where = f" at position {exc.offset}" if exc.offset is not None else ""
        raise ValueError(f"invalid regex{where}: {exc.message}") from None
    return value


def check_glob(value: str) -> str:
    if len(value) > MAX_PATTERN_CHARS:
        raise ValueError(f"pattern is {len(value)} characters; patterns are limited to {MAX_PATTERN_CHARS}")
    if not value:
        raise ValueError("pattern must not be empty")
    return value


RegexStr = Annotated[str, Field(min_length=1), AfterValidator(check_regex)]
OptionalRegex = Annotated[str | None, AfterValidator(lambda v: v if v is None else check_regex(v))]


# ------------------------------------------------------------ filter strategies


class StripNoise(Strict):
    type: Literal["strip_noise"]
    #: the lines to strip; none are needed when whole paragraphs go (``drop_paragraphs_with`` ...)
    patterns: list[RegexStr] = Field(default_factory=list)
    #: a line the patterns match stays when the line before it does not match this one: with a stack
    #: frame's pattern, each stack keeps its first frame (where it broke) whatever else goes
    keep_first_of_run: OptionalRegex = None
    #: a line the patterns match stays when the line after it matches this one: with the exception
    #: line's pattern, a traceback's innermost caret line (which part of the expression raised) stays
    keep_before: OptionalRegex = None
    #: a line the patterns match stays when the line before it matches this one: rustc's pointer into
    #: the standard library under "note: method defined here" (which method) stays, the rest go
    keep_after: OptionalRegex = None
    #: ``keep_before`` looks past the lines this matches to the next one: with a compiler's context lines
    #: (``x.c: In function 'f':``), a build's progress line stays above the error they lead to
    look_past: OptionalRegex = None
    #: output of fewer lines stays whole (0: strip whatever the length)
    min_lines: int = Field(0, ge=0)
    #: ``min_lines`` counts the lines from the first one this matches (none matches: output stays whole)
    count_from: OptionalRegex = None
    #: strip only when some line matches this: the result line that says what the stripped lines did
    when_present: OptionalRegex = None
    #: stripping starts at the first line this matches; the lines before it stay (none matches: all stay)
    since: OptionalRegex = None
    #: the first line this matches, and every line after it, stay
    until: OptionalRegex = None
    #: what one stripped line is, for the marker: ``... (237 passing tests stripped) ...``
    label: str = Field("noise line", min_length=1, max_length=60, pattern=r"^[A-Za-z][\w '-]*$")
    #: a stripped line this matches stays when a line that stays holds the text of each of its groups
    keep_when_named: OptionalRegex = None
    #: ``keep_when_named`` keeps lines only while no more than this many would stay (0: no limit): a
    #: longer list is one the output gives itself (each resource the plan changes has its header)
    keep_when_named_max: int = Field(0, ge=0)
    #: of the stripped lines this matches, each name's (its groups') last one stays unless a later line
    #: ``finished_by`` matches with the same name: an interrupted apply's last "Still creating..."
    keep_unfinished: OptionalRegex = None
    #: the line that says a ``keep_unfinished`` name finished (its groups: the same name)
    finished_by: OptionalRegex = None
    #: of the stripped lines this matches, each name's last stays (its groups: the name)
    keep_last_named: OptionalRegex = None
    #: a stripped line takes with it the non-blank lines right under it indented deeper than it
    take_indented: bool = False
    #: a block (a line this matches, the lines under it indented deeper) whose every line would go keeps them all
    spare_whole_blocks: OptionalRegex = None
    #: a block's first line this matches does not keep ``spare_whole_blocks`` from sparing it (``python -c``'s frame)
    spare_despite: OptionalRegex = None
    #: only runs of at least this many consecutive matched lines go (0: any run); shorter runs stay
    min_run: int = Field(0, ge=0)
    #: each run that goes keeps its first and last this many lines, the marker in its place (0: the run goes whole)
    keep_run_ends: int = Field(0, ge=0)
    #: each line the patterns strip takes this many lines after it (a heading and its value)
    take_next: int = Field(0, ge=0)
    #: a paragraph (a run of non-blank lines) with a line this matches goes whole, with the blank line after it
    drop_paragraphs_with: OptionalRegex = None
    #: a paragraph this matches whole (its lines joined by newlines) goes, with the blank line after it
    drop_paragraphs_matching: OptionalRegex = None
    #: a paragraph of two or more lines word for word an earlier one's goes, with the blank line after it
    drop_repeated_paragraphs: bool = False
    #: a repeated paragraph with a line this matches stays (terraform's ``on main.tf line 45``: a place)
    spare_paragraphs_with: OptionalRegex = None
    #: last, each block of 4+ lines (200+ characters) repeating one above word for word becomes a counted marker
    drop_repeated_blocks: bool = False
    #: a line the patterns match goes only when it says what the last line they matched said
    only_repeats: bool = False
    #: the patterns match only inside blocks: after a line this matches, up to a line ``block_end`` matches
    block_start: OptionalRegex = None
    #: the line that closes a ``block_start`` block (it stays, as the opening line does; an unclosed block stays)
    block_end: OptionalRegex = None

    @model_validator(mode="after")
    def _parameters_agree(self) -> StripNoise:
        if not self.patterns and not (self.drop_paragraphs_with or self.drop_paragraphs_matching or self.drop_repeated_paragraphs
                                      or self.drop_repeated_blocks):
            raise ValueError(
                "strip_noise needs `patterns` (the lines to strip), or paragraphs or blocks to strip: "
                "`drop_paragraphs_with`, `drop_paragraphs_matching`, `drop_repeated_paragraphs` or `drop_repeated_blocks`"
            )
        if self.keep_when_named is not None and compile_regex(self.keep_when_named).groups == 0:
            raise ValueError("`keep_when_named` needs a capturing group: the name a line that stays must hold")
        if (self.keep_unfinished is None) != (self.finished_by is None):
            raise ValueError("`keep_unfinished` and `finished_by` go together: what is under way and what ends it")
        for name in ("keep_unfinished", "finished_by", "keep_last_named"):
            source = getattr(self, name)
            if source is not None and compile_regex(source).groups == 0:
                raise ValueError(f"`{name}` needs a capturing group: the name of what is under way")
        if (self.block_start is None) != (self.block_end is None):
            raise ValueError("`block_start` and `block_end` go together: a block opens at one and closes at the other")
        return self



class KeepMatching(Strict):
    type: Literal["keep_matching"]
    patterns: list[RegexStr] = Field(min_length=1)



class StripAnnotated(Strict):
    type: Literal["strip_annotated"]
    patterns: list[RegexStr] = Field(min_length=1)
    summary_pattern: OptionalRegex = None
    long_output_threshold: int = Field(30, ge=1)
    keep_head: int = Field(10, ge=0)
    keep_tail: int = Field(5, ge=0)



class Truncate(Strict):
    type: Literal["truncate"]
    max_lines: int = Field(ge=1)
    head: int = Field(20, ge=0)
    tail: int = Field(20, ge=0)
    #: fold runs of similar lines from this many lines on (default: max_lines)
    fold_from: int | None = Field(None, ge=1)
    #: keep this many more lines, those whose leading size (``du``'s ``1.2M``, a byte count) is largest
    keep_largest: int = Field(0, ge=0)
    #: lines these match survive the cut, as error lines do (a build's warnings)
    keep_patterns: list[RegexStr] = Field(default_factory=list)

    @model_validator(mode="after")
    def _fits(self) -> Truncate:
        if self.head + self.tail > self.max_lines:
            raise ValueError(
                f"head + tail ({self.head} + {self.tail}) exceeds max_lines ({self.max_lines}); "
                "output between max_lines and head + tail lines would grow"
            )
        return self


class TestSummary(Strict):
    __test__ = False  # not a pytest class
    type: Literal["test_summary"]
    max_failures: int = Field(10, ge=1)
    truncate_stack_trace: int = Field(50, ge=1)


class GroupByRule(Strict):
    type: Literal["group_by_rule"]
    location_pattern: OptionalRegex = None
    rule_pattern: OptionalRegex = None
    #: false for commands that may print no diagnostics at all (make): such output passes through as Full
    require_diagnostics: bool = True
    #: the severity of a ``path:line:col: message`` line that names none when the command failed: go
    #: build's errors say no "error" (when it succeeded such lines are findings: ``-gcflags=-m``'s)
    unlabelled_severity: Literal["warning", "error"] = "warning"


class GitStatus(Strict):
    type: Literal["git_status"]


class GitDiff(Strict):
    type: Literal["git_diff"]
    max_diff_lines: int = Field(500, ge=1)


class Dedup(Strict):
    type: Literal["dedup"]
    normalize_patterns: list[RegexStr] | None = None
    max_unique_patterns: int = Field(10_000, ge=1)
    log_lines_only: bool = False
    #: records that carry an error word but are routine (an sshd login attempt) group like the rest
    routine_patterns: list[RegexStr] | None = None
    #: leave the output as it is unless at least this share of its non-blank lines are log records
    min_log_ratio: float = Field(0.0, ge=0.0, le=1.0)
    #: fold each run of at least this many consecutive similar lines (equal but for numbers) to its first
    #: and last, with a counted marker; 0 leaves runs alone.  Error and warning lines never fold.
    fold_runs: int = Field(0, ge=0)
    #: an error or warning record repeated word for word at another time groups with its first (the
    #: first with its count, the last as it is); off, only verbatim repeats do.  For logs, where each
    #: record carries its time: elsewhere an error line may need the line above it (wget's URL).
    errors_repeat_across_time: bool = False



Strategy = Annotated[
    StripNoise | KeepMatching | StripAnnotated | Truncate | TestSummary | GroupByRule | GitStatus | GitDiff | Dedup,
    Field(discriminator="type"),
]
#: the strategy settings that are regex lists: an item may also be ``{ use = "set" }``, a ``[pattern_sets]``
#: entry, which desugar replaces by the set's regexes before these models see the rule
PATTERN_LIST_FIELDS = ("patterns", "normalize_patterns", "routine_patterns", "keep_patterns")
STRATEGY_TYPES = (
    "strip_noise", "keep_matching", "strip_annotated", "truncate", "test_summary",
    "group_by_rule", "git_status", "git_diff", "dedup",
)


class MatchSpec(Strict):
    exact: str | None = Field(None, max_length=MAX_PATTERN_CHARS)
    prefix: str | None = Field(None, min_length=1, max_length=MAX_PATTERN_CHARS)
    regex: OptionalRegex = None

    @model_validator(mode="after")
    def _exactly_one(self) -> MatchSpec:
        given = [k for k in ("exact", "prefix", "regex") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "match needs exactly one of `exact`, `prefix` or `regex`"
                + (f" (found {', '.join(given)})" if given else "")
            )
        return self


class FilterRule(Strict):
    name: str = Field(min_length=1, max_length=200)
    match: str | MatchSpec
    strategy: Strategy
    enabled: bool = True
    description: str | None = None


# ------------------------------------------------------------ tools


class PermissionRule(Strict):
    pattern: Annotated[str, AfterValidator(check_glob)]
    action: Action


class ShellSettings(Strict):
    blocked_commands: list[str] = []
    confirm_patterns: list[str] = []
    allowed_commands: list[str] = []
    allow_network: bool | None = None  # legacy spelling of `tools.blocklist.allow_network`


class WrapperSpec(Strict):
    """How to find the real command behind a wrapper program (``timeout 5 CMD``)."""

    value_options: list[str] = []  # options that consume the next word (``-n 5``)
    positionals: int = 0  # words to skip before the command (``timeout DURATION``)
    script_options: list[str] = []  # options whose value is a shell script (``env -S``)
    no_exec_options: list[str] = []  # options that make it not run anything (``command -v``)
    joins_script: bool = False  # the rest is joined into one script (``watch``)
    reads_stdin_args: bool = False  # arguments come from stdin (``xargs``)
    applet: bool = False  # the next word names the program (``busybox rm``)


BlocklistCheck = Literal[
    "program", "subcommand", "recursive_delete", "recursive_mode", "device_write", "find_delete",
    "download_exec", "fork_bomb", "reverse_shell", "pattern", "regex",
]


class BlocklistEntry(Strict):
    id: str = Field(min_length=1, max_length=200)
    family: str = "custom"
    check: BlocklistCheck = "pattern"
    programs: list[str] = []
    program_prefixes: list[str] = []  # ``mkfs.`` matches ``mkfs.ext4``
    subcommands: list[str] = []
    targets: list[str] = []
    pattern: Annotated[str | None, AfterValidator(lambda v: v if v is None else check_glob(v))] = None
    regex: OptionalRegex = None
    effect: Literal["deny", "ask"] = "deny"
    reason: str | None = None

    @model_validator(mode="after")
    def _needs_what_it_checks(self) -> BlocklistEntry:
        if self.check == "pattern" and self.pattern is None:
            raise ValueError("a `pattern` check needs `pattern` (a glob over the normalised command)")
        if self.check == "regex" and self.regex is None:
            raise ValueError("a `regex` check needs `regex`")
        if self.check in ("program", "subcommand", "recursive_delete", "recursive_mode") and not (self.programs or self.program_prefixes):
            raise ValueError(f"a `{self.check}` check needs `programs`")
        return self


class BlocklistSettings(Strict):
    allow_network: bool | None = None
    disable: list[str] = []  # ids of built-in entries to remove, one by one
    wrappers: dict[str, WrapperSpec] = {}
    shells: list[str] = []
    interpreters: list[str] = []
    downloaders: list[str] = []
    decoders: list[str] = []
    network_programs: list[str] = []
    rules: list[Any] = []  # validated one by one


class ToolConstraint(Strict):
    deny_patterns: list[Annotated[str, AfterValidator(check_glob)]] = []
    allowed_paths: list[Annotated[str, AfterValidator(check_glob)]] = []


class Constraints(Strict):
    denied_tools: list[str] = []
    allowed_tools: list[str] | None = None
    max_tool_calls_per_session: int | None = Field(None, ge=0)
    tools: dict[str, ToolConstraint] = {}


class SequenceStep(Strict):
    tool: str = Field(min_length=1)
    pattern: Annotated[str, AfterValidator(check_glob)] = "*"


class BlockedSequence(Strict):
    id: str | None = None
    steps: list[SequenceStep] = Field(min_length=2)
    effect: Literal["deny", "ask"] = "deny"
    reason: str | None = None


class FileSettings(Strict):
    deny_read: list[str] = []
    allow_read: list[str] = []


class PolicyRule(Strict):
    id: str | None = None
    effect: Action
    tool: str | None = None
    when: str | None = None
    args_match: OptionalRegex = None
    paths: list[str] | None = None
    reason: str | None = None



class Policy(Strict):
    enabled: bool = True
    default_effect: Action = "deny"
    rules: list[Any] = []  # validated one by one


class Authorization(Strict):
    enabled: bool = True
    rules: list[Any] = []


def _check_keyword(value: str) -> str:
    if len(value.encode("utf-8")) < 2:
        raise ValueError("keywords must be at least two bytes long")
    return value.lower()


class ExtraPattern(Strict):
    """A user's credential pattern, validated like the built-ins."""

    id: str = Field(min_length=1, max_length=100)
    category: Literal["cloud", "platform", "private_key", "token", "password", "generic"] = "generic"
    description: str = ""
    regex: RegexStr
    secret_group: int = Field(0, ge=0)
    keywords: list[Annotated[str, AfterValidator(_check_keyword)]] = Field(min_length=1)
    entropy: float | None = Field(None, ge=0.0, le=8.0)
    allowlist: list[RegexStr] = []


class SecuritySettings(Strict):
    enabled: bool = True
    extra_patterns: list[ExtraPattern] = []
    disabled_patterns: list[str] = []
    redact: bool = False


class FilterSettings(Strict):
    enabled: bool = True
    filters_path: str | None = None
    builtin: bool = True
    security: SecuritySettings = SecuritySettings()


class DependencyRule(Strict):
    requires: list[str] = []
    prefers: list[str] = []


class Dependencies(Strict):
    enabled: bool = True
    boost_per_dep: float = Field(0.15, ge=0.0, le=1.0)
    max_total_boost: float = Field(0.20, ge=0.0, le=1.0)
    rules: dict[str, DependencyRule] = {}


# ------------------------------------------------------------ inline tests


class InlineTest(Strict):
    name: str | None = None
    # filter examples
    command: str | None = None
    output: str | None = None
    exit_code: int | None = None
    expect_contains: list[str] | None = None
    expect_not_contains: list[str] | None = None
    expect_output: str | None = None
    expect_confidence: Literal["full", "partial", "fallback", "Full", "Partial", "Fallback"] | None = None
    # decision examples
    tool: str | None = None
    input: str | None = None
    args: dict[str, Any] | None = None
    expect: Action | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> InlineTest:
        is_decision = self.expect is not None or self.tool is not None
        is_filter = self.output is not None or any(
            getattr(self, k) is not None for k in ("expect_contains", "expect_not_contains", "expect_output", "expect_confidence")
        )
        if is_decision and is_filter:
            raise ValueError("a test is either a filter example (command, output, expect_*) or a decision example (tool, input/args, expect), not both")
        if is_decision:
            if self.tool is None or self.expect is None:
                raise ValueError("a decision example needs `tool` and `expect`")
            if (self.input is None) == (self.args is None):
                raise ValueError("a decision example needs exactly one of `input` or `args`")
        elif self.command is None:
            raise ValueError("a filter example needs `command` (and `output`)")
        return self


#: Known top-level sections and the sub-sections of `[tools]`, for did-you-mean.
TOP_LEVEL_KEYS = ("rules", "pattern_sets", "tools", "tests", "settings")
TOOLS_KEYS = ("permissions", "shell", "file", "policy", "authorization", "filters", "dependencies",
              "blocklist", "constraints", "blocked_sequences")
