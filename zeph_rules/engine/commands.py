"""Split shell command lines into simple commands, quote- and substitution-aware.

Why not ``shlex``: even in punctuation mode it does not know ``$(...)``,
backticks, ``${...}``, ANSI-C ``$'...'`` quoting or that ``2>&1`` is one
redirection, and it raises on unbalanced quotes.  ``bashlex`` parses more but
is GPL-licensed, unmaintained and outside the dependency list.  This lexer does
the part the engine needs, never raises, and keeps the raw text of every
substitution so the policy engine can look inside it.

Filter rules match the *target*: the first command of the last pipeline, so in
``cd /p && RUST_LOG=1 cargo test 2>&1 | tail -80`` the target is ``cargo test``
(leading assignments and redirections dropped), unless a later member is ``xargs CMD``,
whose output is CMD's (``go list ./... | xargs go test`` is filtered as ``go test``).  Wrappers whose output is the
wrapped command's (``time``, ``timeout 60``, ``env CI=1``, ``nice``, ``sudo``
...), ``bash -c 'script'`` and the commands run elsewhere (``docker compose exec
web``, ``docker run IMAGE``, ``kubectl exec POD --``, ``ssh host``, ``nix develop
-c``) are looked through, so ``timeout 60 go test`` is filtered as ``go test``,
and a program run from a ``bin`` directory is matched by its name
(``.venv/bin/pytest`` as ``pytest``).  All commands, pipeline members included, are kept for
the policy engine, which has its own, configurable wrapper analysis.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

_LIST_OPERATORS = ("&&", "||", ";;", ";", "&", "\n")
_PIPE_OPERATORS = ("|&", "|")
_REDIRECT_CHARS = "<>"


@dataclass(frozen=True, slots=True)
class Word:
    """One shell word: ``raw`` as written, ``value`` with quotes and escapes removed."""

    raw: str
    value: str
    substitutions: tuple[str, ...] = ()

    @property
    def is_assignment(self) -> bool:
        name, eq, _ = self.raw.partition("=")
        return bool(eq) and bool(name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name)


@dataclass(frozen=True, slots=True)
class Redirect:
    """A redirection: ``op`` (``2>``, ``>>``, ``<<<``, ``<<``), its word, a here-doc body."""

    op: str
    target: Word | None = None
    body: str | None = None


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    """One command of a pipeline: its words and its redirections."""

    words: tuple[Word, ...]
    redirections: tuple[Redirect, ...] = ()

    @property
    def argv(self) -> tuple[Word, ...]:
        """The words after leading ``NAME=value`` assignments."""
        index = 0
        while index < len(self.words) and self.words[index].is_assignment:
            index += 1
        return self.words[index:]

    @property
    def text(self) -> str:
        """The command as matched by rules: raw words after assignments, single-spaced."""
        return " ".join(word.raw for word in self.argv)

    @property
    def program(self) -> str:
        """The program's base name (``/usr/bin/git`` -> ``git``), or ''."""
        argv = self.argv
        return argv[0].value.rsplit("/", 1)[-1] if argv else ""

    @property
    def filter_text(self) -> str:
        """``text`` with a program run from a ``bin`` directory named by its base name.

        ``.venv/bin/pytest``, ``node_modules/.bin/jest``, ``/usr/bin/git`` and
        ``~/.cargo/bin/cargo`` are the tools themselves, and filter rules name
        tools; a script run by its path (``./app``, ``scripts/run.sh``) keeps it.
        """
        argv = self.argv
        if not argv:
            return ""
        directory, slash, name = argv[0].value.rpartition("/")
        if not slash or not name or directory.rsplit("/", 1)[-1] not in ("bin", ".bin"):
            return self.text
        return " ".join([name] + [word.raw for word in argv[1:]])


@dataclass(frozen=True, slots=True)
class ParsedCommand:
    """A whole command line: pipelines in order, each a tuple of simple commands."""

    source: str
    pipelines: tuple[tuple[SimpleCommand, ...], ...]

    @property
    def commands(self) -> tuple[SimpleCommand, ...]:
        return tuple(cmd for pipeline in self.pipelines for cmd in pipeline)

    @property
    def target(self) -> SimpleCommand | None:
        """The command whose output a filter sees: first of the last pipeline (or its ``xargs CMD``).

        Trailing bookkeeping (``|| true``, ``; echo $?``) is skipped, so
        ``pytest -q || true`` is filtered as ``pytest -q``.
        """
        fallback = None
        for pipeline in reversed(self.pipelines):
            for cmd in pipeline:
                if cmd.argv:
                    cmd = _argument_runner(pipeline) or cmd
                    if cmd.program not in TRIVIAL_PROGRAMS:
                        return cmd
                    fallback = fallback or cmd
                    break
        return fallback

    @property
    def target_text(self) -> str:
        target = self.target
        return target.text if target is not None else self.source.strip()

    @property
    def filter_target(self) -> SimpleCommand | None:
        """The target with wrappers and ``sh -c`` scripts looked through (see the module docstring)."""
        target = self.target
        for _ in range(_MAX_UNWRAP):
            if target is None:
                return None
            inner = _unwrapped(target)
            if inner is target:
                return target
            target = inner
        return target


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def _balanced(self, open_ch: str, close_ch: str) -> int:
        """Return the index just past the matching ``close_ch``, quote-aware (or len)."""
        depth = 0
        i = self.pos
        text = self.text
        while i < len(text):
            ch = text[i]
            if ch == "\\":
                i += 2
                continue
            if ch == "'" and open_ch != "`":
                end = text.find("'", i + 1)
                i = len(text) if end == -1 else end + 1
                continue
            if ch == '"' and open_ch != "`":
                i = self._end_of_double(i)
                continue
            if ch == open_ch and open_ch != close_ch:
                depth += 1
            elif ch == close_ch:
                depth -= 1
                if depth <= 0 or open_ch == close_ch:
                    return i + 1
            i += 1
        return len(text)

    def _end_of_double(self, start: int) -> int:
        i = start + 1
        text = self.text
        while i < len(text):
            ch = text[i]
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                return i + 1
            if ch == "$" and text[i + 1 : i + 2] == "(":
                saved = self.pos
                self.pos = i + 1
                i = self._balanced("(", ")")
                self.pos = saved
                continue
            if ch == "`":
                end = text.find("`", i + 1)
                i = len(text) if end == -1 else end + 1
                continue
            i += 1
        return len(text)

    def word(self) -> Word:
        """Read one word starting at ``pos``."""
        text = self.text
        raw_start = self.pos
        value: list[str] = []
        subs: list[str] = []
        while self.pos < len(text):
            ch = text[self.pos]
            if ch in " \t\r\n;&|" or (ch in "()" and self.pos == raw_start) or (ch in _REDIRECT_CHARS and not _is_process_sub(text, self.pos)):
                break
            if ch == ")":
                break
            if ch == "\\":
                if text[self.pos + 1 : self.pos + 2] == "\n":
                    self.pos += 2
                    continue
                value.append(text[self.pos + 1 : self.pos + 2])
                self.pos += 2
            elif ch == "'":
                end = text.find("'", self.pos + 1)
                end = len(text) if end == -1 else end
                value.append(text[self.pos + 1 : end])
                self.pos = end + 1
            elif ch == "$" and text[self.pos + 1 : self.pos + 2] == "'":
                end = self.pos + 2
                while end < len(text) and text[end] != "'":
                    end += 2 if text[end] == "\\" else 1
                value.append(_ansi_c(text[self.pos + 2 : min(end, len(text))]))
                self.pos = end + 1
            elif ch == '"':
                end = self._end_of_double(self.pos)
                inner = text[self.pos + 1 : end - 1 if end <= len(text) and text[end - 1 : end] == '"' else end]
                value.append(_unescape_double(inner))
                subs.extend(_substitutions_in(inner))
                self.pos = end
            elif ch == "$" and text[self.pos + 1 : self.pos + 2] == "(":
                self.pos += 1
                end = self._balanced("(", ")")
                body = text[self.pos + 1 : end - 1] if text[end - 1 : end] == ")" else text[self.pos + 1 : end]
                if body.startswith("(") and body.endswith(")"):  # $(( arithmetic ))
                    value.append(text[self.pos - 1 : end])
                else:
                    subs.append(body)
                    value.append(text[self.pos - 1 : end])
                self.pos = end
            elif ch in "<>" and _is_process_sub(text, self.pos):
                self.pos += 1
                end = self._balanced("(", ")")
                subs.append(text[self.pos + 1 : end - 1])
                value.append(text[self.pos - 1 : end])
                self.pos = end
            elif ch == "`":
                end = text.find("`", self.pos + 1)
                end = len(text) if end == -1 else end
                subs.append(text[self.pos + 1 : end])
                value.append(text[self.pos : end + 1])
                self.pos = end + 1
            elif ch == "$" and text[self.pos + 1 : self.pos + 2] == "{":
                end = text.find("}", self.pos)
                end = len(text) - 1 if end == -1 else end
                value.append(text[self.pos : end + 1])
                self.pos = end + 1
            else:
                value.append(ch)
                self.pos += 1
        return Word(text[raw_start : self.pos], "".join(value), tuple(subs))


def _is_process_sub(text: str, pos: int) -> bool:
    return text[pos] in "<>" and text[pos + 1 : pos + 2] == "("


def _unescape_double(inner: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(inner):
        if inner[i] == "\\" and i + 1 < len(inner) and inner[i + 1] in '$`"\\\n':
            if inner[i + 1] != "\n":
                out.append(inner[i + 1])
            i += 2
        else:
            out.append(inner[i])
            i += 1
    return "".join(out)


def _substitutions_in(inner: str) -> list[str]:
    subs: list[str] = []
    lexer = _Lexer(inner)
    i = 0
    while i < len(inner):
        if inner[i] == "\\":
            i += 2
            continue
        if inner[i] == "$" and inner[i + 1 : i + 2] == "(":
            lexer.pos = i + 1
            end = lexer._balanced("(", ")")
            subs.append(inner[i + 2 : end - 1])
            i = end
            continue
        if inner[i] == "`":
            end = inner.find("`", i + 1)
            end = len(inner) if end == -1 else end
            subs.append(inner[i + 1 : end])
            i = end + 1
            continue
        i += 1
    return subs


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _ansi_c(body: str) -> str:
    """Decode the body of ``$'...'`` the way bash does (hex, octal, unicode escapes)."""
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 >= len(body):
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
        elif nxt == "x":
            digits = _take(body, i + 2, 2, "0123456789abcdefABCDEF")
            out.append(chr(int(digits, 16)) if digits else "\\x")
            i += 2 + len(digits)
        elif nxt in "uU":
            digits = _take(body, i + 2, 4 if nxt == "u" else 8, "0123456789abcdefABCDEF")
            try:
                out.append(chr(int(digits, 16)) if digits else "\\" + nxt)
            except (ValueError, OverflowError):
                out.append("\ufffd")
            i += 2 + len(digits)
        elif nxt in "01234567":
            digits = _take(body, i + 1, 3, "01234567")
            out.append(chr(int(digits, 8) & 0xFF))
            i += 1 + len(digits)
        elif nxt == "c" and i + 2 < len(body):
            out.append(chr(ord(body[i + 2]) & 0x1F))
            i += 3
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


def _take(text: str, start: int, limit: int, allowed: str) -> str:
    end = start
    while end < len(text) and end - start < limit and text[end] in allowed:
        end += 1
    return text[start:end]


#: Commands that only report or tidy up; a target is chosen before them
#: (``pytest -q || true``, ``cargo test; echo $?``).
#: wrapper -> (options that take a value, words to skip before the command, options that run nothing)
#: for the filter target only: what each prints is the output of the command it runs
FILTER_WRAPPERS: dict[str, tuple[frozenset[str], int, frozenset[str]]] = {
    "time": (frozenset({"-f", "--format", "-o", "--output"}), 0, frozenset()),
    "timeout": (frozenset({"-s", "--signal", "-k", "--kill-after"}), 1, frozenset()),
    "env": (frozenset({"-u", "--unset", "-C", "--chdir"}), 0, frozenset({"-0", "--null"})),
    "nice": (frozenset({"-n", "--adjustment"}), 0, frozenset()),
    "nohup": (frozenset(), 0, frozenset()),
    "stdbuf": (frozenset({"-i", "--input", "-o", "--output", "-e", "--error"}), 0, frozenset()),
    "unbuffer": (frozenset(), 0, frozenset()),
    "command": (frozenset(), 0, frozenset({"-v", "-V"})),
    "exec": (frozenset({"-a"}), 0, frozenset()),
    "ionice": (frozenset({"-c", "--class", "-n", "--classdata"}), 0, frozenset()),
    "setsid": (frozenset(), 0, frozenset()),
    "sudo": (frozenset({"-u", "--user", "-g", "--group", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"}), 0,
             frozenset({"-l", "--list", "-v", "--validate", "-k", "-K", "-e", "--edit", "-V"})),
    "doas": (frozenset({"-u", "-C"}), 0, frozenset()),
    # without -P the output is the command's, once per batch of arguments; with -P the batches'
    # lines interleave, which the strategies read as they read one run or give up on (Fallback)
    "xargs": (frozenset({"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args", "-P",
                         "--max-procs", "-s", "--max-chars", "--process-slot-var"}), 0,
              frozenset({"--help", "--version"})),
    "xvfb-run": (frozenset({"-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file"}), 0,
                 frozenset()),
}
#: shells whose ``-c SCRIPT`` is looked into
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_MAX_UNWRAP = 8


def _script_target(script: str, cmd: SimpleCommand) -> SimpleCommand:
    """Return the command a script given as one word runs (``bash -c``, ssh's, ``script -c``); else ``cmd``."""
    inner = parse_command(script).target
    return inner if inner is not None else cmd


def _unwrapped(cmd: SimpleCommand) -> SimpleCommand:
    """Return the command ``cmd`` runs when it is a wrapper or a shell's ``-c`` script; else ``cmd`` itself."""
    argv = cmd.argv
    program = cmd.program
    if program in _SHELLS:
        for index, word in enumerate(argv[1:-1], start=1):
            value = word.value
            if value.startswith("-") and not value.startswith("--") and value.endswith("c"):
                return _script_target(argv[index + 1].value, cmd)
            if not value.startswith("-"):
                break
        return cmd
    spec = FILTER_WRAPPERS.get(program)
    if spec is None:
        return _run_elsewhere(cmd)
    value_options, positionals, no_exec = spec
    index = 1
    while index < len(argv):
        value = argv[index].value
        if value == "--":
            index += 1
            break
        if value in no_exec:
            return cmd
        if value.startswith("-") and len(value) > 1:
            index += 2 if value in value_options else 1
            continue
        if program == "env" and argv[index].is_assignment:
            index += 1
            continue
        break
    index += positionals
    if index >= len(argv):
        return cmd
    return SimpleCommand(argv[index:], cmd.redirections)


def _argument_runner(pipeline: tuple[SimpleCommand, ...]) -> SimpleCommand | None:
    """The last ``xargs CMD`` of a pipeline: what it prints is CMD's output, not the list fed to it.

    ``find . -name '*.py' | xargs wc -l`` prints ``wc``'s counts, ``go list ./... | xargs go test``
    prints ``go test``'s run; a bare ``xargs`` (it echoes) leaves the first command the target.
    """
    for cmd in reversed(pipeline[1:]):
        if cmd.program == "xargs" and _unwrapped(cmd) is not cmd:
            return cmd
    return None


def _after_options(argv: tuple[Word, ...], index: int, value_options: frozenset[str]) -> int:
    """Return the index of the first word at or after ``index`` that is not an option (nor an option's value)."""
    while index < len(argv):
        value = argv[index].value
        if value == "--":
            return index + 1
        if not value.startswith("-") or len(value) == 1:
            return index
        index += 2 if value in value_options else 1
    return index


#: options of docker/podman (and of their ``compose``) before the subcommand that take a value
_CONTAINER_GLOBAL_OPTIONS = frozenset({
    "-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "-f", "--file", "-p", "--project-name",
    "--project-directory", "--env-file", "--profile", "--ansi", "--parallel",
})
#: options of ``docker exec``/``run`` and ``docker compose exec``/``run`` that take a value
_CONTAINER_RUN_OPTIONS = frozenset({
    "-a", "--attach", "--add-host", "--cap-add", "--cap-drop", "--cgroupns", "--cidfile", "--cpus", "-c",
    "--cpu-shares", "--detach-keys", "--device", "--dns", "-e", "--env", "--env-file", "--entrypoint", "--expose",
    "--gpus", "-h", "--hostname", "--index", "--ip", "--ipc", "-l", "--label", "--label-file", "--log-driver",
    "--log-opt", "-m", "--memory", "--mount", "--name", "--network", "--net", "--pid", "--platform", "-p",
    "--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal",
    "--stop-timeout", "--tmpfs", "-u", "--user", "--ulimit", "--userns", "-v", "--volume", "--volumes-from", "-w",
    "--workdir",
})
#: options of ssh that take a value
_SSH_OPTIONS = frozenset("-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w".split())


def _run_elsewhere(cmd: SimpleCommand) -> SimpleCommand:
    """Return the command run in a container, a pod, over ssh or in a dev shell; else ``cmd`` itself.

    ``docker compose exec web pytest -x`` prints what ``pytest -x`` prints.  An
    option these tables do not know that takes a value shifts the words read as
    the command; the target then names no tool a rule knows, and the output
    passes unfiltered rather than through the wrong rule.
    """
    argv = cmd.argv
    words = [word.value for word in argv]
    program = cmd.program
    index: int | None = None
    if program in ("docker", "podman", "docker-compose", "podman-compose"):
        at = _after_options(argv, 1, _CONTAINER_GLOBAL_OPTIONS)
        if not program.endswith("compose") and at < len(words) and words[at] == "compose":
            at = _after_options(argv, at + 1, _CONTAINER_GLOBAL_OPTIONS)
        if at < len(words) and words[at] in ("exec", "run"):
            index = _after_options(argv, at + 1, _CONTAINER_RUN_OPTIONS) + 1  # past the container, service or image
    elif program == "kubectl" and "exec" in words and "--" in words:
        index = words.index("--") + 1
    elif program == "nix" and words[1:2] in (["develop"], ["shell"]):
        index = next((k + 1 for k, word in enumerate(words) if word in ("-c", "--command")), None)
    elif program == "script":
        return _script_command(cmd)
    elif program == "direnv" and words[1:2] == ["exec"]:
        index = 3  # past the directory
    elif program == "ssh":
        host = _after_options(argv, 1, _SSH_OPTIONS)
        if host + 1 < len(words):
            # ssh joins its words into one line for the remote shell
            return _script_target(" ".join(words[host + 1 :]), cmd)
    if index is None or index >= len(argv):
        return cmd
    return SimpleCommand(argv[index:], cmd.redirections)


#: util-linux script's options that take a value (the log files, the timing format)
_SCRIPT_VALUE_OPTIONS = frozenset({"-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io",
                                   "-T", "--log-timing", "-m", "--logging-format", "-o", "--output-limit"})


def _script_command(cmd: SimpleCommand) -> SimpleCommand:
    """Return the command ``script`` runs on a pseudo-terminal: ``script -qc "pytest -x" /dev/null``
    (util-linux), ``script -q /dev/null pytest -x`` (BSD); else ``cmd`` itself."""
    words = [word.value for word in cmd.argv]
    index = 1
    while index < len(words) and words[index].startswith("-") and words[index] != "--":
        word = words[index]
        if word.startswith("--command="):
            return _script_target(word.split("=", 1)[1], cmd)
        if word == "--command" or (not word.startswith("--") and word.endswith("c")):
            return _script_target(words[index + 1], cmd) if index + 1 < len(words) else cmd
        index += 2 if word in _SCRIPT_VALUE_OPTIONS else 1
    index += 1 + (index < len(words) and words[index] == "--")  # the typescript file (BSD: the command follows)
    if index >= len(words):
        return cmd
    return SimpleCommand(cmd.argv[index:], cmd.redirections)


TRIVIAL_PROGRAMS = frozenset({"true", "false", ":", "echo", "printf", "exit", "sleep", "wait", "cd", "pushd", "popd", "set", "export", "unset"})


@functools.lru_cache(maxsize=2048)
def parse_command(text: str) -> ParsedCommand:
    """Split a command line into pipelines of simple commands; never raises."""
    lexer = _Lexer(text)
    pipelines: list[tuple[SimpleCommand, ...]] = []
    pipeline: list[SimpleCommand] = []
    words: list[Word] = []
    redirections: list[Redirect] = []
    pending_heredocs: list[tuple[list[Redirect], int, str, str]] = []

    def end_command() -> None:
        nonlocal words, redirections
        if words or redirections:
            pipeline.append(SimpleCommand(tuple(words), tuple(redirections)))
        words, redirections = [], []

    def end_pipeline() -> None:
        nonlocal pipeline
        end_command()
        if pipeline:
            pipelines.append(tuple(pipeline))
        pipeline = []

    n = len(text)
    while lexer.pos < n:
        ch = text[lexer.pos]
        if ch in " \t\r":
            lexer.pos += 1
            continue
        if ch == "\\" and text[lexer.pos + 1 : lexer.pos + 2] == "\n":
            lexer.pos += 2
            continue
        if ch == "#" and (lexer.pos == 0 or text[lexer.pos - 1] in " \t\n;&|("):
            end = text.find("\n", lexer.pos)
            lexer.pos = n if end == -1 else end
            continue
        if ch == "\n" and pending_heredocs:
            # the bodies belong to commands of this line; finish them first
            owners = pending_heredocs
            pending_heredocs = []
            lexer.pos = _read_heredocs(text, lexer.pos + 1, owners)
            end_pipeline()
            continue
        if text.startswith("|&", lexer.pos) or (ch == "|" and not text.startswith("||", lexer.pos)):
            end_command()
            lexer.pos += 2 if text.startswith("|&", lexer.pos) else 1
            continue
        operator = next((op for op in _LIST_OPERATORS if text.startswith(op, lexer.pos)), None)
        if operator and not (operator == "&" and text[lexer.pos + 1 : lexer.pos + 2] == ">"):
            end_pipeline()
            lexer.pos += len(operator)
            continue
        if ch in "()":  # subshell and group boundaries separate commands
            end_pipeline()
            lexer.pos += 1
            continue
        if ch in "{}" and not words and (lexer.pos + 1 >= n or text[lexer.pos + 1] in " \t\n;&|)"):
            lexer.pos += 1
            continue
        redirect = _redirection_at(text, lexer.pos)
        if redirect is not None:
            op_start = lexer.pos
            op, lexer.pos = redirect
            if words and words[-1].raw.isdigit() and op_start > 0 and text[op_start - 1].isdigit():
                op = words.pop().raw + op  # "2>" is one operator
            bare = op.lstrip("0123456789")
            target: Word | None = None
            if not (bare.startswith((">&", "<&")) and len(bare) > 2):
                while lexer.pos < n and text[lexer.pos] in " \t":
                    lexer.pos += 1
                if lexer.pos < n and text[lexer.pos] not in "\n;&|()":
                    target = lexer.word()
            redirections.append(Redirect(op, target))
            if bare in ("<<", "<<-") and target is not None:
                pending_heredocs.append((redirections, len(redirections) - 1, target.value.strip(), bare))
            continue
        start = lexer.pos
        word = lexer.word()
        if lexer.pos == start:  # a character the word reader will not consume
            lexer.pos += 1
            continue
        words.append(word)
    end_pipeline()
    return ParsedCommand(text, tuple(pipelines))


def _redirection_at(text: str, pos: int) -> tuple[str, int] | None:
    """Return (operator, position after it) if a redirection operator starts at ``pos``."""
    for op in ("&>>", "&>", "<<<", "<<-", "<<", ">>", ">&", "<&", ">|", "<>", ">", "<"):
        if text.startswith(op, pos):
            if op in ("<", ">") and text[pos + 1 : pos + 2] == "(":
                return None  # process substitution, read as a word
            end = pos + len(op)
            if op in (">&", "<&"):
                j = end
                while j < len(text) and (text[j].isdigit() or text[j] == "-"):
                    j += 1
                return text[pos:j], j
            return op, end
    return None


def _read_heredocs(text: str, pos: int, pending: list[tuple[list[Redirect], int, str, str]]) -> int:
    """Consume here-document bodies starting at ``pos``; store each on its redirect."""
    for owner, index, delimiter, op in pending:
        body: list[str] = []
        while pos < len(text):
            end = text.find("\n", pos)
            line = text[pos:] if end == -1 else text[pos:end]
            pos = len(text) if end == -1 else end + 1
            check = line.lstrip("\t") if op == "<<-" else line
            if check == delimiter:
                break
            body.append(line)
        redirect = owner[index]
        owner[index] = Redirect(redirect.op, redirect.target, "\n".join(body))
    return pos
