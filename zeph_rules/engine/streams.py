"""Output of several tools run at once, each line tagged with the one it came from.

Monorepo task runners and job runners print their jobs' lines with a tag:
turbo's ``@shop/api:test: ``, lerna's ``@shop/api: ``, pnpm's ``packages/api
test: ``, ``parallel --tag``'s ``ruff check src<TAB>``, a script's ``[mypy] ``.
The lines of the jobs interleave, and no tool's rules read them with the tag
in front.  ``split`` finds the tag when nearly every line carries one of a few;
the pipeline then filters each job's lines, untagged, as that job's tool's
output (``delegation``), tags what stays again, and prints the jobs one after
the other, as ``turbo --log-order=grouped`` does, each where its first line
was; the runner's own lines stay where they were among them (its summary
after the jobs, npm's ``> pkg@1.0.0 postinstall`` above each install script).
"""

from __future__ import annotations

from .. import _regex
from .prefixes import first_lines, restore, take_off

#: the tag syntaxes tried, each a regex whose group ``tag`` is the job and which matches the separator too
_SYNTAXES = (
    _regex.compile(r"^(?P<tag>[^\t]{1,80})\t"),  # parallel --tag
    _regex.compile(r"^(?P<tag>\[[^\]\s][^\]]{0,58}\])(?: |$)"),  # [job]
    _regex.compile(r"^(?P<tag>@?[\w.-]+(?:[/:][\w.-]+)*(?: [\w:.-]+)?):(?: |$)"),  # job: / pkg:task: / dir task:
)
#: words that open a line as its level or kind, not its job
_NOT_JOBS = frozenset({
    "info", "warn", "warning", "warnings", "error", "errors", "err", "debug", "trace", "fatal", "note", "help",
    "notice", "hint", "critical", "caused by", "stdout", "stderr", "fail", "pass", "ok", "failed", "panic",
})
_NAMED = _regex.compile(r"[A-Za-z]")
#: share of the non-blank lines that must carry a tag, and how many jobs there may be
MIN_SHARE = 0.6
MAX_JOBS = 30


def split(text: str) -> tuple[list[str], list[str], dict[str, list[int]]] | None:
    """Return each line's tag prefix ("" for none), the lines without it and each job's line numbers.

    None unless one syntax tags at least ``MIN_SHARE`` of the non-blank lines
    with two to ``MAX_JOBS`` jobs (a tag on two lines or more, with a letter in it), none a level word.
    """
    # a syntax that tags too few of the output's first lines is not read further
    sample = first_lines(text)
    if len(sample) < 6:
        return None
    lines: list[str] = []
    non_blank = 0
    for syntax in _SYNTAXES:
        if sum(1 for line in sample if syntax.match(line)) < MIN_SHARE / 2 * len(sample):
            continue
        if not lines:
            lines = text.split("\n")
            non_blank = sum(1 for line in lines if line.strip())
        prefixes, bare, found = take_off(lines, syntax)
        jobs: dict[str, list[int]] = {}
        for number, match in enumerate(found):
            if match is not None:
                jobs.setdefault(match["tag"], []).append(number)
        # a job's blank line is its tag alone once sanitising took the separator after it (``parallel
        # --tag``'s "ledger<TAB>"): it is that job's
        for number, line in enumerate(lines):
            if found[number] is None and line in jobs:
                jobs[line].append(number)
                prefixes[number], bare[number] = line, ""
        for numbers in jobs.values():
            numbers.sort()
        # a tag on one line is no job's (turbo's closing "Failed:    @shop/api#test"): the line is the runner's
        for tag in [tag for tag, numbers in jobs.items() if len(numbers) < 2]:
            number = jobs.pop(tag)[0]
            prefixes[number], bare[number] = "", lines[number]
        tagged = sum(len(numbers) for numbers in jobs.values())
        if (
            tagged >= MIN_SHARE * non_blank and 2 <= len(jobs) <= MAX_JOBS
            # a job has a name: "[ 10%]" and "[3/20]" are a build's progress, "INFO" a level
            and all(_NAMED.search(tag) and tag.strip("[]").lower() not in _NOT_JOBS for tag in jobs)
        ):
            return prefixes, bare, jobs
    return None


def retag(prefixes: list[str], bare: list[str], numbers: list[int], kept: str) -> list[str]:
    """Tag again each line of ``kept`` (what the rules kept of one job's ``numbers``) as it was tagged."""
    tag = prefixes[numbers[0]].rstrip("\t ")
    # a line the rules wrote (a marker) gets the job's tag, so it says whose lines it stands for
    return restore(((prefixes[number], bare[number]) for number in numbers), kept.split("\n"),
                   lambda line: f"{tag} {line}" if line else tag)
