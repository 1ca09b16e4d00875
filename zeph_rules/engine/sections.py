"""Output of a runner that ran several tools one after the other, each below the command it echoed.

``make ci`` echoes each recipe line before it runs it, ``npm run ci`` prints
``> shop@1.0.0 lint`` and ``> eslint .`` above each script, a ``set -x``
script prints ``+ cargo test``, tox prints ``py: commands[0]> pytest -q`` and
nox ``nox > ruff check .``.  When the sections below those lines show
different tools (clippy's 120 warnings, then cargo test's run; go test's
packages, then pytest's session), no one tool's rules read the whole output:
``split`` cuts it at the echoed commands, and the pipeline filters each
section as the output of the tool it shows (``delegation.shown_tool``).  The
echoed lines, and the runner's own lines at a section's end (``make: ***
[Makefile:12: test] Error 101``, ``npm error code 1``), stay as they were.
"""

from __future__ import annotations

from .. import _regex

#: the programs a recipe line echoed by make or just starts with (after ``cd dir &&`` and variables)
_RECIPE_PROGRAMS = (
    r"cargo|go|gofmt|pytest|py\.test|python[\d.]*|ruff|mypy|flake8|pylint|black|isort|eslint|tsc|npx|pnpx"
    r"|bunx|jest|vitest|mocha|node|ctest|shellcheck|prettier|uv|poetry|tox|nox|golangci-lint|staticcheck"
    r"|make|gmake|\./[\w./-]+"
    r"|(?:npm|pnpm|yarn|bun)(?= (?:run|test|t|ci|install|exec|x|dlx|build|lint)\b)"
)
#: a line that echoes the command run next; group ``two`` marks the first of npm's two lines, and the
#: last group that matched holds the command itself, past what the runner puts before it
_HEAD = _regex.compile(
    r"^(?:"
    r"(?P<two>> [^\s>]\S* [\w:.@/-]+(?: /\S+)?)\n> (?P<npm>\S.*)"  # npm and pnpm: "> pkg@1.0.0 lint", "> eslint ."
    r"|\+ (?P<xtrace>[\w./-]+(?: .*)?)"  # set -x
    r"|[\w.-]+: commands\[\d+\]> (?P<tox>\S.*)"  # tox 4
    r"|[\w.-]+ run-test: commands\[\d+\] \| (?P<tox3>\S.*)"  # tox 3
    r"|nox > (?P<nox>\S.*)"
    r"|(?P<recipe>(?:cd \S+ && )?(?:[A-Z_][A-Z0-9_]*=\S* )*(?:" + _RECIPE_PROGRAMS + r")(?: [^\n:]*(?::[^\s\n][^\n]*)?)?)"
    r")$",
    _regex.MULTILINE,
)
#: what a runner prints after a tool it ran ends (a failed recipe, a failed script): not the tool's
_RUNNER_LINE = _regex.compile(
    r"^(?:make(?:\[\d+\])?: (?:\*\*\*|Target .* not remade|Leaving directory|Entering directory)"
    r"|npm (?:error|ERR!) |error: Recipe `|ELIFECYCLE|ERR_PNPM_|error Command failed with exit code"
    r"|info Visit https://yarnpkg\.com/"
    # tox's steps and verdicts: "lint: exit 1 (0.04 seconds) ...", "py: install_deps> ...", "  py: FAIL code 1"
    r"|\s*[\w.-]+: (?:\w+(?:\[\d+\])?> |exit -?\d+ \(|(?:FAIL|OK|SKIP)\b)"
    r"|\s*(?:evaluation failed|congratulations) )"
)
_MAKE_ERROR = _regex.compile(r"^make(?:\[\d+\])?: \*\*\* \[[^\]]*\] Error (\d+)")
#: an output with more echoed commands than this is no recipe's (a long ``set -x`` loop): left to the tools
MAX_SECTIONS = 200


class Section:
    """One command's part of a runner's output: its echoed lines and the command they echo, the tool's
    lines, the runner's lines after."""

    __slots__ = ("head", "command", "body", "tail", "exit_code")

    def __init__(self, head: list[str], command: str, body: list[str], tail: list[str], exit_code: int | None) -> None:
        self.head, self.command, self.body, self.tail, self.exit_code = head, command, body, tail, exit_code


def split(text: str, exit_code: int | None) -> tuple[list[str], list[Section]] | None:
    """Return the lines before the first echoed command and each command's section, or None.

    None unless two echoed commands at least are found, and at most ``MAX_SECTIONS``.  A
    section's exit code is the one make reports after it, else, for the last one, the run's.
    """
    starts: list[tuple[int, int, str]] = []  # (offset, how many lines the echo takes, the command)
    for found in _HEAD.finditer(text):
        starts.append((found.start(), 2 if found["two"] else 1, found[found.lastgroup or 0]))
        if len(starts) > MAX_SECTIONS:
            return None
    if len(starts) < 2:
        return None
    lines = text.split("\n")
    # offsets to line numbers, in one pass over the line lengths
    numbers: list[int] = []
    offset = 0
    at = 0
    for number, line in enumerate(lines):
        while at < len(starts) and starts[at][0] == offset:
            numbers.append(number)
            at += 1
        offset += len(line) + 1
    if len(numbers) != len(starts):
        return None
    sections: list[Section] = []
    for index, (number, (_, size, command)) in enumerate(zip(numbers, starts)):
        end = numbers[index + 1] if index + 1 < len(numbers) else len(lines)
        body = lines[number + size : end]
        cut = len(body)
        while cut and (not body[cut - 1].strip() or _RUNNER_LINE.match(body[cut - 1])):
            cut -= 1
        tail = body[cut:]
        code = next((int(m[1]) for m in map(_MAKE_ERROR.match, tail) if m), None)
        if code is None and end == len(lines):
            code = exit_code
        sections.append(Section(lines[number : number + size], command, body[:cut], tail, code))
    return lines[: numbers[0]], sections


#: programs that run the program named after them (``npx jest``, ``uv run pytest``, ``python -m mypy``)
_LAUNCHERS = frozenset({"npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "uv", "poetry", "pdm", "hatch", "pipenv"})
_LAUNCH_WORDS = frozenset({"exec", "run", "dlx", "x"})


_ASSIGNMENT = _regex.compile(r"^[A-Za-z_]\w*=\S*$")


def head_program(command: str) -> str:
    """Return the program an echoed command runs: ``cd api && npx jest -i`` runs ``jest``.

    Read by words, not by the shell parser: an echoed line need not be shell (pre-commit's
    ``mypy (src)......Failed`` reads as a recipe line, and its program is ``mypy``).
    """
    words = command.rsplit("&&", 1)[-1].split()
    while words and _ASSIGNMENT.match(words[0]):
        words = words[1:]
    if not words:
        return ""
    program = words[0].rsplit("/", 1)[-1]
    rest = words[1:]
    if program in _LAUNCHERS:
        rest = [word for word in rest if not word.startswith("-")]
        if rest and rest[0] in _LAUNCH_WORDS:
            rest = rest[1:]
        return rest[0].rsplit("/", 1)[-1] if rest else program
    if program.startswith("python") and rest[:1] == ["-m"] and len(rest) > 1:
        return rest[1]
    return program

