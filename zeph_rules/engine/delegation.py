"""Output of a command that runs another tool, filtered as that tool's.

Agents type ``make test``, ``just check``, ``./scripts/test.sh``, ``npm run
ci``: the command line names a task runner or a script, and the output is
cargo's, pytest's or go's.  Rules are keyed on commands, so such output met
the runner's rules (``make``'s cut to its head and tail lost the failures in
the middle of 104 of the 453 test runs among the fixtures) or none.

A plan for a runner therefore carries, beside the runner's own rules, the
rules of each tool below for the command that tool would be run by; the
pipeline picks them when the output shows exactly one tool's signature (two
tools, or none, and the runner's own rules run).  A signature is a line only
the tool prints: a result or summary line, which ``| tail`` keeps.  What the
runner adds (the recipe it echoes, ``make: *** [Makefile:4: test] Error 1``)
the tools' strategies keep as lines they do not know.

Runners whose own rules already summarise tests (``npm test``, ``tox``,
``uv run pytest``) are left to them.

A runner that echoes each command above its output (``make ci``, ``npm run
ci``, ``tox``) and shows two tools is filtered part by part (``sections``), each
part as the tool it shows.

A chain (``cargo fmt --check && cargo clippy && cargo test``) is filtered by
the rules of its last command, which may never have run: when they fall back,
the rules of the one tool whose output shows are tried (the fmt check's).
"""

from __future__ import annotations

from .. import _regex

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from re import Pattern

#: task runners and shells that run a recipe or a script (a script run by its path is one too)
RUNNERS = frozenset({
    "make", "gmake", "just", "task", "mage", "rake", "invoke", "doit", "bash", "sh", "zsh", "dash",
    "npm", "yarn", "pnpm", "bun", "tox", "nox", "hatch", "poetry", "pdm", "uv", "pipenv", "earthly",
    "npx", "pnpx", "bunx", "nx", "lerna", "turbo", "rush", "parallel", "xargs", "pre-commit",
    # an interpreter running a script: `python runtests.py`, `node scripts/test.js`
    "python", "python3", "node", "ruby", "deno",
})

#: (the command the tool's rules are matched for, its family, whether it runs tests or reports findings,
#: a text its signature needs, the line that shows its output), in the order tried.  Tools of one family
#: print each other's lines (cargo test prints rustc's warnings first): the first of a family whose
#: signature shows is the one.  Where the output lacks the needed text the signature is not run: a
#: literal is found at C speed, a regex over 128 KB is not
TOOLS: tuple[tuple[str, str, str, str | None, str], ...] = (
    # libtest: one result line per test binary, doctests included
    ("cargo test", "cargo", "tests", "test result: ", r"^test result: (?:ok|FAILED)\. \d+ passed; \d+ failed"),
    # rustc and clippy: a diagnostic's head, then its location under an arrow
    ("cargo build", "cargo", "findings", "--> ", r"^(?:warning|error)(?:\[[\w:-]+\])?: .+\n\s*--> \S+:\d+:\d+$"),
    ("cargo fmt --check", "cargo", "findings", "Diff in ", r"^Diff in \S+(?: at line \d+)?:(?:\d+:)?$"),
    # a build script that failed (its C compiler's errors are in its captured stderr, below)
    ("cargo build", "cargo", "findings", "custom build command", r"^error: failed to run custom build command for `"),
    # linters' findings (ruff, flake8 and pylint; mypy; eslint's stylish): the linters rule reads them all
    ("ruff check", "lint", "findings", None, r"^[^\s:]+:\d+:\d+: (?:[A-Z]{1,4}\d{2,4} |[CRWEFI]\d{4}: )"
                                             r"|^[^\s:]+:\d+: error: .*  \[[\w-]+\]$|^Found \d+ errors? in \d+ files? \(checked"
                                             r"|^\s+\d+:\d+\s+(?:error|warning)\s+\S.*\s{2}[\w@/-]+$"
                                             r"|^[A-Z]{1,4}\d{2,4} (?:\[\*\] )?.+\n\s*--> \S+:\d+:\d+$"),
    # shellcheck's default format: left whole, as shellcheck's own output is
    ("shellcheck", "shellcheck", "findings", " line ", r"^In \S+ line \d+:$"),
    # a formatter's diff (black --diff, ruff format --diff, isort --diff): a file header, then a hunk
    ("black --diff", "format", "findings", "\n@@ -", r"^\+\+\+ \S.*\n@@ -\d"),
    # the session header, or the closing "==== 3 failed, 12 passed in 0.52s ====" (and -q's bare form), or a conftest
    # that failed to load (pytest stops before its session header)
    ("pytest", "pytest", "tests", None, r"^=+ (?:test session starts|FAILURES|ERRORS|short test summary info) =+$"
                                        r"|^!+ stopping after \d+ failures? !+$|^ImportError while loading conftest '"
                                        r"|^=* ?(?:\d+ (?:failed|passed|errors?|skipped|xfailed|xpassed|deselected|warnings?)(?:, )?)+ in [\d.]+s(?: \(\d+:\d\d:\d\d\))?(?: =+)?$"),
    # go test -json: one event per line (the verdicts are inside its strings)
    ("go test -json", "go", "tests", '{"Time":', r'^\{"Time":"[^"]*","Action":"\w+","Package":"'),
    # go test: a package's verdict line, or a test's
    ("go test", "go", "tests", "\t", r"^(?:ok  \t\S+\t|FAIL\t\S+\t[\d.]+s$|FAIL\t\S+ \[(?:build|setup) failed\]$"
                                     r"|--- (?:FAIL|PASS): \S+ \([\d.]+s\)$)"),
    # go build's errors, located as go vet's findings are, in the type checker's words (`undefined: x`);
    # before go vet, whose rules fold them, and after go test, whose failed builds print the same lines
    ("go build", "go", "findings", ".go:", r"^\S+\.go:\d+:\d+: (?:undefined: |cannot use |declared and not used|"
                                           r"declared but not used|imported and not used|syntax error: |missing return|"
                                           r"(?:not enough|too many) arguments in call|assignment mismatch|too many errors$)"),
    # go vet: a package's "# path" line, then a finding located in one of its files; after go test, whose
    # failed builds print the same lines above their verdicts
    ("go vet", "go", "findings", ".go:", r"^# \S+\n\S+\.go:\d+:\d+: "),
    ("npx jest", "jest", "tests", "Tests:", r"^Tests:\s+(?:\d+ \w+, )*\d+ total$"),
    ("npx vitest run", "vitest", "tests", "Test Files", r"^\s*Test Files\s+(?:\d+ \w+ \| )*\d+ \w+ \(\d+\)$"),
    ("npx mocha", "mocha", "tests", " passing (", r"^\s+\d+ passing \(\d+(?:ms|s|m)\)$"),
    ("node --test", "node", "tests", "tests ", r"^(?:# |ℹ )tests \d+$"),
    # TAP from any test program (a C project's `make test`, prove, a shell suite): a failing result
    # with its plan; bats' rules read TAP whoever wrote it.  node's TAP is the same family: node's
    # signature, tried first, is the one when both show
    ("bats tests", "node", "tests", "not ok ", r"^not ok \d+ .*(?:\n.*)*?\n1\.\.\d+$|^1\.\.\d+\n(?:.*\n)*?not ok \d+ "),
    # Django's runner is unittest's, with its test databases around it
    ("python manage.py test", "unittest", "tests", "test database for alias", r"^(?:Creating|Destroying|Using existing) test database for alias '\w+'"),
    ("python -m unittest", "unittest", "tests", "Ran ", r"^Ran \d+ tests? in [\d.]+s$"),
    # a rendered manifest (`make render` over kubectl kustomize or helm template): its answer is on any
    # line, which the runner's head-and-tail cut would lose
    ("kubectl kustomize", "kubectl", "findings", "\nkind: ", r"^apiVersion: (?:v1|[\w.-]+/v\d\w*)$"),
    # Sphinx's first line (`make html` in a docs folder)
    ("sphinx-build", "sphinx", "findings", "Running Sphinx v", r"^Running Sphinx v\d"),
    # ctest's totals, or a GoogleTest binary's first test (the one that crashed may be its last)
    ("ctest", "ctest", "tests", "tests passed, ", r"^\d+% tests passed, \d+ tests? failed out of \d+$"),
    ("ctest", "ctest", "tests", "[ RUN      ] ", r"^(?:\d+: )?\[ RUN      \] \S"),
)

#: the programs whose output each family's signature shows; a section of a runner's output headed by one
#: of these programs (see ``sections``) shows no other family's, unless lines of jobs run in parallel mix
FAMILY_PROGRAMS = {
    "cargo": {"cargo"}, "lint": {"ruff", "flake8", "pylint", "mypy", "eslint"}, "shellcheck": {"shellcheck"},
    "format": {"black", "isort", "ruff", "prettier"}, "pytest": {"pytest", "py.test"}, "go": {"go"},
    "jest": {"jest", "node"}, "vitest": {"vitest", "node"}, "mocha": {"mocha", "node"}, "node": {"node"},
    "unittest": {"unittest"}, "sphinx": {"sphinx-build"}, "ctest": {"ctest"},
    "kubectl": {"kubectl", "kustomize", "helm", "oc"},
}
TOOL_PROGRAMS = frozenset(program for programs in FAMILY_PROGRAMS.values() for program in programs)
_FAMILIES = {command: family for command, family, *_ in TOOLS}


def could_show(program: str, tool: str) -> bool:
    """Whether output of ``program`` may show the signature of ``tool`` (a command of ``TOOLS``)."""
    return program not in TOOL_PROGRAMS or program in FAMILY_PROGRAMS[_FAMILIES[tool]]


_SIGNATURES: list[Pattern[str]] = []
#: a long output is looked at in its first and last this many characters: a test runner's summary is at
#: its end (pytest's header at its start), and sixteen searches over megabytes cost more than filtering
_WINDOW = 64 * 1024


#: cargo's own subcommands and the plugins that print their own kind of output; any other word is an
#: alias of the project's (`cargo lint` for clippy with its flags) or an xtask (`cargo xtask ci`), a
#: runner of cargo's tools whose output shows which ran (cargo-make's `cargo make` is one too)
CARGO_SUBCOMMANDS = frozenset({
    "add", "b", "bench", "build", "c", "check", "clean", "clippy", "config", "d", "doc", "fetch", "fix", "fmt",
    "generate-lockfile", "help", "info", "init", "install", "locate-project", "login", "logout", "metadata",
    "miri", "new", "owner", "package", "pkgid", "publish", "r", "remove", "report", "rm", "run", "rustc",
    "rustdoc", "search", "t", "test", "tree", "uninstall", "update", "vendor", "verify-project", "version",
    "yank", "nextest", "llvm-cov", "audit", "deny", "outdated", "udeps", "expand", "watch", "tarpaulin",
    "insta", "machete", "hack", "msrv", "semver-checks", "binstall", "upgrade", "set-version", "bloat",
})


def is_runner(program: str, arguments: str = "") -> bool:
    """Whether a command whose program is ``program`` (with ``arguments``) may be running another tool."""
    if program == "cargo":
        subcommand = next((word for word in arguments.split() if not word.startswith(("-", "+"))), None)
        return subcommand is not None and subcommand not in CARGO_SUBCOMMANDS
    return program in RUNNERS or "/" in program or program.endswith((".sh", ".bash"))


def is_chain(command: str) -> bool:
    """Whether ``command`` runs two commands or more one after the other (``&&``, ``||``, ``;``).

    Only commands that print what a filter reads count: ``cd app && cargo test``
    is one, and so are ``pytest -q || true`` and ``cargo test 2>&1 | tail -40``.
    """
    from .commands import TRIVIAL_PROGRAMS, parse_command

    printing = 0
    for pipeline in parse_command(command).pipelines:
        first = next((cmd for cmd in pipeline if cmd.argv), None)
        if first is not None and first.program not in TRIVIAL_PROGRAMS:
            printing += 1
            if printing > 1:
                return True
    return False


def shown_tool(text: str) -> str | None:
    """Return the command of the tool whose output ``text`` shows, or None.

    One test runner among linters (``tox`` over a lint and a test
    environment, ``make check``) is the one: the test summarisers keep the
    lines they do not know, the findings among them.  Two test runners, or
    findings of two kinds and no tests, are no one tool's.  Output longer
    than two windows is read in its first and last (``_WINDOW``).
    """
    if not _SIGNATURES:
        _SIGNATURES.extend(_regex.compile(signature, _regex.MULTILINE) for *_, signature in TOOLS)
    if len(text) > 2 * _WINDOW:
        head_end = text.rfind("\n", 0, _WINDOW) + 1 or _WINDOW
        tail_start = text.find("\n", len(text) - _WINDOW) + 1 or len(text) - _WINDOW
        text = text[:head_end] + text[tail_start:]
    shown: dict[str, tuple[str, str]] = {}
    for (command, family, kind, needs, _), signature in zip(TOOLS, _SIGNATURES):
        if family not in shown and (needs is None or needs in text) and signature.search(text):
            shown[family] = (command, kind)
    tests = [command for command, kind in shown.values() if kind == "tests"]
    if tests:
        return tests[0] if len(tests) == 1 else None
    return next(iter(shown.values()))[0] if len(shown) == 1 else None
