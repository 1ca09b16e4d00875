"""Undo the shell's tricks: find every command a line would really run.

``parse_command`` splits a line into simple commands; this module turns each of
them into what the shell would execute, the way the shell itself would:

* words are expanded statically: quotes and backslashes removed, ``$'\\x72'``
  decoded, ``$IFS`` split, ``{a,b}`` brace-expanded, ``$(echo rm)`` and
  variables assigned earlier in the same script substituted; whatever is only
  known at run time becomes ``UNKNOWN`` so a check can tell it apart;
* leading assignments, shell keywords (``then``, ``do``, ``!``) and wrappers
  (``env``, ``nice -n 5``, ``timeout 5``, ``xargs``, ``busybox`` — data from the
  rule files) are peeled off, and paths to the program are normalised;
* every script hidden in the line is analysed too, recursively: ``$(...)``,
  backticks, ``<(...)``, ``>(...)``, here-strings and here-documents fed to a
  shell, ``bash -c``, ``eval``, ``watch``, ``find -exec``, ``trap``, shell
  strings inside ``python -c "os.system(...)"``.

The result is data (``Analysis``); the blocklist and the permissions read it.
Code that cannot be known statically, and code fed from a download, is
reported as an ``Event`` rather than guessed at.
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .commands import Redirect, SimpleCommand, Word, _ansi_c, _Lexer, parse_command

#: Stands for text the shell only computes at run time.
UNKNOWN = "\x00"
#: Stands for the user's home directory (``~``, ``$HOME``) in expanded words.
HOME = "\x02"
#: Stands for run-time text that comes from a download (``$(curl ...)``, ``<(wget ...)``).
DOWNLOADED = UNKNOWN + "\x03"
_SPLIT = "\x01"  # where $IFS splits a word

MAX_DEPTH = 8  # nesting beyond this is itself suspicious: reported as dynamic
MAX_SEGMENTS = 512


@dataclass(frozen=True, slots=True)
class WrapperSpec:
    """How to find the command a wrapper runs (mirrors ``models.WrapperSpec``)."""

    value_options: frozenset[str] = frozenset()
    positionals: int = 0
    script_options: frozenset[str] = frozenset()
    no_exec_options: frozenset[str] = frozenset()
    joins_script: bool = False
    reads_stdin_args: bool = False
    applet: bool = False


@dataclass(frozen=True)
class ShellConfig:
    """The data the analysis needs: wrappers and the kinds of program."""

    wrappers: Mapping[str, WrapperSpec] = field(default_factory=dict)
    shells: frozenset[str] = frozenset()
    interpreters: frozenset[str] = frozenset()
    downloaders: frozenset[str] = frozenset()
    decoders: frozenset[str] = frozenset()
    known_programs: tuple[str, ...] = ()  # names a globbed program (``/???/?m``) is tried against


@dataclass(frozen=True, slots=True)
class Segment:
    """One command the line would run, after normalisation."""

    argv: tuple[str, ...]
    program: str  # casefolded base name of argv[0]; '' when dynamic
    wrappers: tuple[str, ...] = ()  # peeled wrappers, outermost first
    redirects: tuple[tuple[str, str], ...] = ()  # (operator, expanded target)
    dynamic: bool = False  # the program is not known statically
    depth: int = 0
    origin: str = ""  # how it was reached: '', '$(...)', 'bash -c', 'eval', ...

    @property
    def text(self) -> str:
        """The command as permissions see it: normalised words, single-spaced."""
        return _show(" ".join(self.argv))

    @property
    def shown(self) -> str:
        """The command with the wrappers it was found behind, for messages."""
        return _show(" ".join((*self.wrappers, *self.argv)))


@dataclass(frozen=True, slots=True)
class Event:
    """Something about the line that is not one command: code from a download, unknown code."""

    kind: str  # 'download_exec' | 'dynamic'
    detail: str  # one human phrase
    depth: int = 0


@dataclass(frozen=True)
class Analysis:
    """Every command a line would run, the scripts it contains, and the events found."""

    source: str
    segments: tuple[Segment, ...]
    scripts: tuple[str, ...]
    events: tuple[Event, ...]
    downloads: bool  # some command in it fetches from the network


_KEYWORDS_SKIP = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "coproc"})
_KEYWORDS_HEADER = frozenset({"for", "select", "case", "function", "fi", "done", "esac", "in", "}", "]]", "[["})
_STDIN_PATHS = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_SOURCE_PROGRAMS = frozenset({"source", "."})
_EVAL_PROGRAMS = frozenset({"eval"})
_SHELL_VALUE_OPTIONS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
_INTERP_VALUE_OPTIONS = frozenset({"-m", "-W", "-X", "-M", "-I", "-r", "--require", "-f", "-x", "-i", "--import"})
_INTERP_CODE_OPTIONS = frozenset({"-c", "-e", "-E", "--eval", "-p", "--print", "--command"})
_SYSTEM_CALL = re.compile(
    r"""(?:os\.system|os\.popen|subprocess\.[a-z_]+|commands\.getoutput|system|popen|exec|execSync|spawnSync|spawn|"""
    r"""shell_exec|passthru|proc_open|Runtime\.getRuntime\(\)\.exec|IO\.popen|Open3\.[a-z0-9_]+|qx)\s*\(?\s*"""
    r"""(?:\[\s*)?(?P<q>['"`])(?P<body>(?:\\.|(?!(?P=q)).)*)(?P=q)(?P<rest>(?:\s*,\s*(?P<q2>['"])(?:\\.|(?!(?P=q2)).)*(?P=q2))*)""",
    re.DOTALL,
)
_BACKTICK_CODE = re.compile(r"`([^`]+)`")
_STRING_LITERAL = re.compile(r"""(['"])((?:\\.|(?!\1).)*)\1""")
_BRACE = re.compile(r"""^(?P<pre>[^{}'"\\$`\s]*)\{(?P<body>[^{}'"\\$`\s]*,[^{}'"\\$`\s]*)\}(?P<post>[^{}'"\\$`\s]*)$""")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Walker:
    """One analysis: collects segments, scripts and events while recursing."""

    def __init__(self, config: ShellConfig) -> None:
        self.config = config
        self.segments: list[Segment] = []
        self.scripts: list[str] = []
        self.events: list[Event] = []
        self.downloads = False
        self.aliases: dict[str, str] = {}  # copies and links of known programs: `cp /bin/rm x`
        self.downloaded: set[str] = set()  # files a downloader wrote: running them is running a download

    # ------------------------------------------------------------ scripts

    def script(self, text: str, depth: int, origin: str, env: dict[str, str] | None = None) -> _ScriptInfo:
        """Analyse one script; return what its output is made of."""
        info = _ScriptInfo()
        if depth > MAX_DEPTH or len(self.segments) > MAX_SEGMENTS:
            self.events.append(Event("dynamic", "nesting too deep to follow", depth))
            info.dynamic = True
            return info
        if UNKNOWN in text:
            if DOWNLOADED in text:
                self.events.append(Event("download_exec", f"passes downloaded text to {origin or 'the shell'} as a script", depth))
            else:
                self.events.append(Event("dynamic", f"passes {origin or 'the shell'} a script that is only known at run time", depth))
            info.dynamic = True
            return info
        self.scripts.append(text)
        env = dict(env or {})
        parsed = parse_command(text)
        before = len(self.segments)
        for pipeline in parsed.pipelines:
            upstream: _Stream | None = None
            for command in pipeline:
                upstream = self.command(command, depth, origin, env, upstream)
            info.last = upstream
        info.downloads = any(s.program in self.config.downloaders for s in self.segments[before:])
        return info

    # ------------------------------------------------------------ commands

    def command(self, command: SimpleCommand, depth: int, origin: str, env: dict[str, str],
                upstream: _Stream | None) -> _Stream:
        """Analyse one simple command of a pipeline; return what it writes to stdout."""
        words = command.words
        index = 0
        assignments: list[tuple[str, str]] = []
        while index < len(words) and words[index].is_assignment:
            name, _, rest = words[index].raw.partition("=")
            value, _ = self.expand_raw(rest, depth, env)
            assignments.append((name, value))
            index += 1
        argv: list[str] = []
        globbed: list[bool] = []
        for word in words[index:]:
            for value, glob in self.expand_word(word, depth, env):
                argv.append(value)
                globbed.append(glob)
        redirects, stdin = self.redirections(command.redirections, depth, env)
        if not argv:
            env.update(assignments)  # `X=rm` sets X for the rest of the script
            if redirects:  # `> /dev/sda` alone still writes
                self.segments.append(Segment((), "", (), redirects, False, depth, origin))
            return stdin or _Stream("static", "")
        if upstream is not None and stdin is None:
            stdin = upstream
        return self.run(argv, globbed, redirects, stdin, depth, origin, env, ())

    def run(self, argv: list[str], globbed: list[bool], redirects: tuple[tuple[str, str], ...], stdin: _Stream | None,
            depth: int, origin: str, env: dict[str, str], wrappers: tuple[str, ...]) -> _Stream:
        """Peel keywords and wrappers off ``argv`` and record the command it runs."""
        config = self.config
        while argv:
            head = argv[0]
            if head in _KEYWORDS_SKIP:
                argv, globbed = argv[1:], globbed[1:]
                continue
            if head in _KEYWORDS_HEADER or head.endswith("(") or head == "((" or head.startswith("(("):
                return _Stream("static", "")  # `for x in ...`, `f() {`, `(( i++ ))`: no command runs here
            if head == "[" or head == "test":
                return _Stream("static", "")
            program, dynamic = self.program_of(head, globbed[0])
            if dynamic:
                self.segments.append(Segment(tuple(argv), "", wrappers, redirects, True, depth, origin))
                if DOWNLOADED in head:
                    self.events.append(Event("download_exec", f"runs a program named by a download (`{_show(head)}`)", depth))
                else:
                    self.events.append(Event("dynamic", f"runs a program that is only known at run time (`{_show(head)}`)", depth))
                return _Stream("dynamic", "")
            spec = config.wrappers.get(program)
            if spec is not None:
                peeled = self.unwrap(program, spec, argv, globbed, stdin, depth, env)
                if peeled is _RAN_SCRIPT:  # `su -c '...'`: the script was analysed; the wrapper still runs
                    self.segments.append(Segment(tuple(argv), program, wrappers, redirects, False, depth, origin))
                    return _Stream("dynamic", "")
                if peeled is None:
                    return _Stream("dynamic", "")
                if not peeled[0]:  # `sudo -i`, `exec 3>&1`: the wrapper itself is the command
                    return self.emit(program, argv, redirects, stdin, depth, origin, env, wrappers)
                argv, globbed, stdin = peeled
                wrappers = wrappers + (program,)
                continue
            return self.emit(program, argv, redirects, stdin, depth, origin, env, wrappers)
        return _Stream("static", "")

    def program_of(self, word: str, glob: bool) -> tuple[str, bool]:
        """Return the casefolded base name of a program word and whether it is dynamic."""
        if UNKNOWN in word or _SPLIT in word or not word:
            return "", True
        name = _basename(word).casefold()
        name = self.aliases.get(name, name)
        if glob and any(c in name for c in "*?["):
            matches = [p for p in self.config.known_programs if fnmatch.fnmatchcase(p, name)]
            return (matches[0], False) if len(matches) == 1 else ("", True)
        return name, False

    def unwrap(self, program: str, spec: WrapperSpec, argv: list[str], globbed: list[bool], stdin: _Stream | None,
               depth: int, env: dict[str, str]) -> Any:
        """Return the command a wrapper runs, or None when it runs a script (analysed here) or nothing."""
        i = 1
        if spec.applet:
            return argv[1:], globbed[1:], stdin
        replace: str | None = None
        while i < len(argv):
            word = argv[i]
            if word == "--":
                i += 1
                break
            if program == "env" and "=" in word and _NAME.fullmatch(word.partition("=")[0]):
                i += 1
                continue
            if word in spec.no_exec_options:
                return None
            script_option = next((o for o in spec.script_options if word == o or (word.startswith(o) and not o.startswith("--") and len(word) > len(o))), None)
            if script_option is not None:
                script = argv[i + 1] if word == script_option and i + 1 < len(argv) else word[len(script_option):]
                self.script(script, depth + 1, f"{program} {script_option}", env)
                return _RAN_SCRIPT
            if word in spec.value_options:
                if program == "xargs" and word == "-I" and i + 1 < len(argv):
                    replace = argv[i + 1]
                i += 2
                continue
            if word.startswith("--") and "=" in word:
                if program == "xargs" and word.startswith("--replace="):
                    replace = word.partition("=")[2]
                i += 1
                continue
            if word.startswith("-") and len(word) > 1 and not (spec.positionals and _looks_numeric(word)):
                if program == "xargs" and word.startswith("-I") and len(word) > 2:
                    replace = word[2:]
                i += 1
                continue
            break
        i += spec.positionals
        rest, rest_glob = argv[i:], globbed[i:]
        if spec.joins_script:
            if rest:
                self.script(" ".join(rest), depth + 1, program, env)
            return None
        if spec.reads_stdin_args:
            if not rest:
                rest, rest_glob = ["echo"], [False]  # xargs runs echo by default
            items = _static_text(stdin)
            if items is None:
                if stdin is not None and stdin.kind == "download":
                    self.events.append(Event("download_exec", "passes downloaded text as arguments to `xargs`", depth))
                rest = rest + [UNKNOWN] if replace is None else [w.replace(replace, UNKNOWN) for w in rest]
            else:
                values = items.split()
                if replace is None:
                    rest = rest + values
                else:
                    rest = [w.replace(replace, values[0] if values else "") for w in rest]
            rest_glob = rest_glob + [False] * (len(rest) - len(rest_glob))
            stdin = None
        return rest, rest_glob, stdin

    def emit(self, program: str, argv: list[str], redirects: tuple[tuple[str, str], ...], stdin: _Stream | None,
             depth: int, origin: str, env: dict[str, str], wrappers: tuple[str, ...]) -> _Stream:
        """Record one command, looking inside the scripts it runs; return its output stream."""
        config = self.config
        args = argv[1:]
        if program in config.shells:
            return self.shell(program, argv, redirects, stdin, depth, origin, env, wrappers)
        if program in _EVAL_PROGRAMS:
            self.code_from_words(args, "eval", depth, env, shell=True)
            return _Stream("dynamic", "")
        if program in _SOURCE_PROGRAMS:
            target = args[0] if args else "-"
            self.segments.append(Segment(tuple(argv), program, wrappers, redirects, False, depth, origin))
            if target in _STDIN_PATHS:
                self.stdin_code(stdin, program, depth, shell=True)
            else:
                self.script_operand(program, target, depth)
            return _Stream("dynamic", "")
        if argv[0] in self.downloaded or normalise_path(argv[0]) in self.downloaded:
            self.events.append(Event("download_exec", f"runs `{_show(argv[0])}`, a file it downloaded", depth))
        cwd = env.get(_CWD)
        if cwd:
            argv = [argv[0], *(_in_cwd(a, cwd) for a in args)]
            args = argv[1:]
        self.segments.append(Segment(tuple(argv), program, wrappers, redirects, False, depth, origin))
        if program == "cd":
            target = next((a for a in args if not a.startswith("-")), HOME)
            env[_CWD] = _in_cwd(target, cwd or "") if (target.startswith(("/", HOME)) or cwd) and UNKNOWN not in target else ""
        elif program in ("cp", "ln", "mv", "install") and len(args) >= 2:
            operands = [a for a in args if not a.startswith("-")]
            if len(operands) >= 2 and UNKNOWN not in operands[0]:
                source = _basename(operands[0]).casefold()
                source = self.aliases.get(source, source)
                if source in config.known_programs or source in config.shells or source in config.interpreters:
                    self.aliases[_basename(operands[-1]).casefold()] = source
            if operands and (operands[0] in self.downloaded):
                self.downloaded.add(operands[-1])
        if program in config.downloaders:
            self.downloaded.update(_download_outputs(program, args, redirects))
        if program in config.interpreters:
            self.interpreter(program, args, stdin, depth, env)
        elif program == "find":
            self.find_exec(args, depth, env)
        elif program == "trap" and args:
            self.script(args[0], depth + 1, "trap", env)
        if program in config.downloaders:
            self.downloads = True
            return _Stream("download", "")
        if stdin is not None and stdin.kind == "download":
            return _Stream("download", "")  # text from the network stays tainted through filters
        if program in ("echo", "printf"):
            text = _echo(program, args)
            return _Stream("static", text) if text is not None else _Stream("dynamic", "")
        if program in config.decoders:
            decoded = _decode(program, args, _static_text(stdin))
            if decoded is not None:
                return _Stream("static", decoded)
            return _Stream("opaque", "")
        if stdin is not None and (program == "tee" or (program == "cat" and not [a for a in args if not a.startswith("-")])):
            return stdin
        if program == "cat":
            return _Stream("file", "")
        return _Stream("dynamic", "")

    def shell(self, program: str, argv: list[str], redirects: tuple[tuple[str, str], ...], stdin: _Stream | None,
              depth: int, origin: str, env: dict[str, str], wrappers: tuple[str, ...]) -> _Stream:
        """A shell runs ``-c SCRIPT``, a script file, or what arrives on stdin."""
        args = argv[1:]
        i = 0
        reads_stdin = False
        while i < len(args):
            word = args[i]
            if word == "--" or word == "-":
                reads_stdin = reads_stdin or word == "-"
                i += 1
                break
            if word in _SHELL_VALUE_OPTIONS:
                i += 2
                continue
            if word.startswith(("-", "+")) and len(word) > 1:
                if not word.startswith("--") and "c" in word[1:]:
                    script = args[i + 1] if i + 1 < len(args) else ""
                    if redirects:  # `bash -c ... > /dev/sda`: the redirection is the shell's own
                        self.segments.append(Segment(tuple(argv), program, wrappers, redirects, False, depth, origin))
                    self.script(script, depth + 1, f"{program} -c", env)
                    return _Stream("dynamic", "")
                if not word.startswith("--") and "s" in word[1:]:
                    reads_stdin = True
                i += 1
                continue
            break
        operand = args[i] if i < len(args) else None
        if operand is None or reads_stdin or operand in _STDIN_PATHS:
            self.segments.append(Segment(tuple(argv), program, wrappers, redirects, False, depth, origin))
            self.stdin_code(stdin, program, depth, shell=True)
            return _Stream("dynamic", "")
        self.script_operand(program, operand, depth)
        self.segments.append(Segment(tuple(argv), program, wrappers, redirects, False, depth, origin))
        return _Stream("dynamic", "")

    def interpreter(self, program: str, args: list[str], stdin: _Stream | None, depth: int, env: dict[str, str]) -> None:
        """Look for shell commands inside inline code; code from stdin is classified."""
        i = 0
        while i < len(args):
            word = args[i]
            if word in _INTERP_CODE_OPTIONS or (program == "php" and word == "-r"):
                code = args[i + 1] if i + 1 < len(args) else ""
                self.inline_code(code, program, depth)
                return
            if word in _INTERP_VALUE_OPTIONS:
                i += 2
                continue
            if word == "-" or word == "--":
                break
            if word.startswith("-") and len(word) > 1:
                i += 1
                continue
            if program in ("awk", "gawk"):
                self.inline_code(word, program, depth)
            elif word not in _STDIN_PATHS:
                self.script_operand(program, word, depth)
            return  # a script file (or awk program): not ours to read
        operand = args[i] if i < len(args) else "-"
        if operand in _STDIN_PATHS or i >= len(args):
            if program not in ("awk", "gawk"):
                self.stdin_code(stdin, program, depth, shell=False)

    def script_operand(self, program: str, operand: str, depth: int) -> None:
        """A script file named by an operand: fine, unless it is a download or unknown."""
        if operand in self.downloaded or normalise_path(operand) in self.downloaded:
            self.events.append(Event("download_exec", f"makes `{program}` run `{_show(operand)}`, a file it downloaded", depth))
        elif DOWNLOADED in operand:
            self.events.append(Event("download_exec", f"makes `{program}` run a script read from a download", depth))
        elif UNKNOWN in operand:
            self.events.append(Event("dynamic", f"makes `{program}` run a script whose name is only known at run time", depth))

    def inline_code(self, code: str, program: str, depth: int) -> None:
        if DOWNLOADED in code:
            self.events.append(Event("download_exec", f"makes `{program}` run downloaded code", depth))
            return
        if UNKNOWN in code:
            self.events.append(Event("dynamic", f"makes `{program}` run code that is only known at run time", depth))
            return
        for found in _SYSTEM_CALL.finditer(code):
            body = _unescape_code(found.group("body"))
            rest = [_unescape_code(m.group(2)) for m in _STRING_LITERAL.finditer(found.group("rest") or "")]
            self.script(" ".join([body, *rest]) if rest else body, depth + 1, f"{program} system()")
        if program in ("perl", "ruby", "php"):
            for found in _BACKTICK_CODE.finditer(code):
                self.script(found.group(1), depth + 1, f"{program} backticks")

    def find_exec(self, args: list[str], depth: int, env: dict[str, str]) -> None:
        i = 0
        while i < len(args):
            if args[i] in ("-exec", "-execdir", "-ok", "-okdir"):
                j = i + 1
                while j < len(args) and args[j] not in (";", "+"):
                    j += 1
                inner = args[i + 1 : j]
                if inner:
                    self.run(list(inner), [False] * len(inner), (), None, depth + 1, "find -exec", env, ())
                i = j
            i += 1

    def code_from_words(self, words: list[str], origin: str, depth: int, env: dict[str, str], shell: bool) -> None:
        self.script(" ".join(words), depth + 1, origin, env)

    def stdin_code(self, stdin: _Stream | None, program: str, depth: int, shell: bool) -> None:
        """Classify code a shell or interpreter reads from stdin."""
        if stdin is None:
            return  # an interactive shell; nothing to read
        if stdin.kind == "download":
            self.events.append(Event("download_exec", f"pipes a download into `{program}`", depth))
        elif stdin.kind == "static":
            if shell:
                self.script(stdin.text, depth + 1, f"{program} stdin")
            else:
                self.inline_code(stdin.text, program, depth)
        elif stdin.kind == "opaque":
            self.events.append(Event("dynamic", f"feeds `{program}` encoded text that could not be decoded", depth))
        else:
            self.events.append(Event("dynamic", f"feeds `{program}` a script whose content is only known at run time", depth))

    # ------------------------------------------------------------ redirections

    def redirections(self, redirections: Iterable[Redirect], depth: int, env: dict[str, str]) -> tuple[tuple[tuple[str, str], ...], _Stream | None]:
        out: list[tuple[str, str]] = []
        stdin: _Stream | None = None
        for redirect in redirections:
            bare = redirect.op.lstrip("0123456789")
            target = redirect.target
            if bare in ("<<", "<<-"):
                body = redirect.body or ""
                quoted = target is not None and any(c in target.raw for c in "'\"\\")
                if not quoted:
                    body, _ = self.expand_double(body, depth, env)
                stdin = _Stream("dynamic" if UNKNOWN in body else "static", body)
                continue
            if target is None:
                continue
            values = self.expand_word(target, depth, env)
            value = values[0][0] if values else ""
            if bare == "<<<":
                info_download = self._word_downloads(target, depth, env)
                if info_download:
                    stdin = _Stream("download", "")
                else:
                    stdin = _Stream("dynamic" if UNKNOWN in value else "static", value + "\n")
                continue
            if bare == "<":
                if target.raw.startswith("<("):
                    stdin = _Stream("download", "") if self._word_downloads(target, depth, env) else _Stream("dynamic", "")
                else:
                    stdin = _Stream("file", "")
            out.append((redirect.op, value))
        return tuple(out), stdin

    def _word_downloads(self, word: Word, depth: int, env: dict[str, str]) -> bool:
        return any(self._sub_cache.get(body, _ScriptInfo()).downloads for body in _all_substitutions(word.raw))

    # ------------------------------------------------------------ words

    @property
    def _sub_cache(self) -> dict[str, _ScriptInfo]:
        cache = self.__dict__.get("_subs")
        if cache is None:
            cache = self.__dict__["_subs"] = {}
        return cache

    def substitution(self, body: str, depth: int, env: dict[str, str], origin: str) -> str:
        """Analyse a ``$(...)`` / backtick / ``<(...)`` body; return its static output or UNKNOWN."""
        info = self.script(body, depth + 1, origin, env)
        self._sub_cache[body] = info
        if info.last is not None and info.last.kind == "static" and not info.dynamic:
            return info.last.text.rstrip("\n")
        return DOWNLOADED if info.downloads else UNKNOWN

    def expand_word(self, word: Word, depth: int, env: dict[str, str]) -> list[tuple[str, bool]]:
        """Expand one shell word into the words the shell would pass (value, has unquoted glob)."""
        brace = _BRACE.match(word.raw)
        raws = [brace["pre"] + alt + brace["post"] for alt in brace["body"].split(",")] if brace else [word.raw]
        out: list[tuple[str, bool]] = []
        for raw in raws:
            value, glob = self.expand_raw(raw, depth, env)
            parts = value.split(_SPLIT) if _SPLIT in value else [value]
            out.extend((part, glob) for part in parts if part or len(parts) == 1)
        return out

    def expand_raw(self, raw: str, depth: int, env: dict[str, str]) -> tuple[str, bool]:
        """Expand the raw text of a word; return the value and whether it holds an unquoted glob."""
        out: list[str] = []
        glob = False
        i, n = 0, len(raw)
        if raw.startswith("~") and (n == 1 or raw[1] == "/"):
            out.append(HOME)
            i = 1
        lexer = _Lexer(raw)
        while i < n:
            ch = raw[i]
            if ch == "\\":
                if i + 1 < n and raw[i + 1] != "\n":
                    out.append(raw[i + 1])
                i += 2
            elif ch == "'":
                end = raw.find("'", i + 1)
                end = n if end == -1 else end
                out.append(raw[i + 1 : end])
                i = end + 1
            elif ch == "$" and raw.startswith("$'", i):
                end = i + 2
                while end < n and raw[end] != "'":
                    end += 2 if raw[end] == "\\" else 1
                out.append(_ansi_c(raw[i + 2 : min(end, n)]))
                i = end + 1
            elif ch == '"':
                end = lexer._end_of_double(i)
                inner = raw[i + 1 : end - 1 if raw[end - 1 : end] == '"' and end - 1 > i else end]
                value, _ = self.expand_double(inner, depth, env)
                out.append(value)
                i = end
            elif ch == "$" or ch == "`":
                text, i = self.expansion(raw, i, depth, env, quoted=False)
                out.append(text)
            elif ch in "<>" and raw.startswith("(", i + 1):
                lexer.pos = i + 1
                end = lexer._balanced("(", ")")
                info = self.script(raw[i + 2 : end - 1], depth + 1, "<(...)" if ch == "<" else ">(...)", env)
                self._sub_cache[raw[i + 2 : end - 1]] = info
                out.append(DOWNLOADED if info.downloads else UNKNOWN)  # a /dev/fd path
                i = end
            else:
                if ch in "*?[":
                    glob = True
                out.append(ch)
                i += 1
        return "".join(out), glob

    def expand_double(self, inner: str, depth: int, env: dict[str, str]) -> tuple[str, bool]:
        """Expand the inside of double quotes (or an unquoted here-document body)."""
        out: list[str] = []
        i, n = 0, len(inner)
        while i < n:
            ch = inner[i]
            if ch == "\\" and i + 1 < n and inner[i + 1] in '$`"\\\n':
                if inner[i + 1] != "\n":
                    out.append(inner[i + 1])
                i += 2
            elif ch == "$" or ch == "`":
                text, i = self.expansion(inner, i, depth, env, quoted=True)
                out.append(text.replace(_SPLIT, " "))
            else:
                out.append(ch)
                i += 1
        return "".join(out), False

    def expansion(self, text: str, i: int, depth: int, env: dict[str, str], quoted: bool) -> tuple[str, int]:
        """Expand the ``$...`` or backtick expression at ``i``; return (value, index after it)."""
        n = len(text)
        if text[i] == "`":
            end = i + 1
            while end < n and text[end] != "`":
                end += 2 if text[end] == "\\" else 1
            body = text[i + 1 : min(end, n)].replace("\\`", "`").replace("\\\\", "\\")
            return self.substitution(body, depth, env, "backticks"), end + 1
        nxt = text[i + 1 : i + 2]
        if nxt == "(":
            lexer = _Lexer(text)
            lexer.pos = i + 1
            end = lexer._balanced("(", ")")
            body = text[i + 2 : end - 1] if text[end - 1 : end] == ")" else text[i + 2 : end]
            if body.startswith("(") and body.endswith(")"):
                return UNKNOWN, end  # $(( arithmetic ))
            return self.substitution(body, depth, env, "$(...)"), end
        if nxt == "{":
            end = text.find("}", i)
            end = n - 1 if end == -1 else end
            name = text[i + 2 : end]
            return self.variable(name, env, quoted), end + 1
        found = _NAME.match(text, i + 1)
        if found:
            return self.variable(found.group(), env, quoted), found.end()
        if nxt and nxt in "@*#?$!-0123456789":
            return UNKNOWN, i + 2
        return "$", i + 1

    def variable(self, name: str, env: dict[str, str], quoted: bool) -> str:
        if name == "IFS":
            return " " if quoted else _SPLIT
        if name == "HOME":
            return HOME
        if name in env:
            return env[name]
        return UNKNOWN


class _ScriptInfo:
    __slots__ = ("downloads", "dynamic", "last")

    def __init__(self) -> None:
        self.downloads = False
        self.dynamic = False
        self.last: _Stream | None = None


@dataclass(frozen=True, slots=True)
class _Stream:
    """What a command writes to its stdout: 'static' text, a 'download', 'file', 'opaque', 'dynamic'."""

    kind: str
    text: str


def analyse(text: str, config: ShellConfig) -> Analysis:
    """Return every command ``text`` would run, with the events worth a decision."""
    walker = _Walker(config)
    walker.script(text, 0, "")
    downloads = walker.downloads
    return Analysis(text, tuple(walker.segments), tuple(walker.scripts), tuple(walker.events), downloads)


# ------------------------------------------------------------ helpers


def _basename(word: str) -> str:
    word = word.rstrip("/") or word
    return word.rsplit("/", 1)[-1] if "/" in word else word


def _show(word: str) -> str:
    return word.replace(DOWNLOADED, "$(download)").replace(UNKNOWN, "$?").replace(HOME, "~").replace(_SPLIT, " ")


_RAN_SCRIPT = object()  # unwrap(): the wrapper ran a script option (`su -c`, `env -S`)
_CWD = "\x00cwd"  # env key of the working directory, when a `cd` made it known


def _in_cwd(arg: str, cwd: str) -> str:
    """Resolve a relative path operand against a known working directory (options stay)."""
    if not cwd or arg.startswith(("-", "/", HOME)) or UNKNOWN in arg or "=" in arg:
        return arg
    resolved = normalise_path(cwd.rstrip("/") + "/" + arg) if arg != "." else cwd
    return HOME + resolved[2:] if resolved.startswith("/~") else resolved


def _download_outputs(program: str, args: list[str], redirects: tuple[tuple[str, str], ...]) -> set[str]:
    """Files a downloader writes: ``-o FILE``, ``-O FILE``, ``--output=FILE``, ``> FILE``."""
    found: set[str] = set()
    for i, arg in enumerate(args):
        if arg in ("-o", "-O", "--output", "--output-document") and i + 1 < len(args):
            found.add(args[i + 1])
        elif arg.startswith(("--output=", "--output-document=")):
            found.add(arg.partition("=")[2])
        elif arg.startswith("-o") and len(arg) > 2 and program == "curl":
            found.add(arg[2:])
        elif arg == "-O" and program == "curl" and i + 1 < len(args):
            found.add(args[i + 1].rstrip("/").rsplit("/", 1)[-1])
    if program in ("wget", "aria2c", "fetch") and not found:  # they save under the URL's name
        found |= {a.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] for a in args if "://" in a}
    for op, target in redirects:
        if ">" in op:
            found.add(target)
    found |= {normalise_path(f) for f in found} | {"./" + f for f in found if not f.startswith(("/", "."))}
    return found


def _looks_numeric(word: str) -> bool:
    return word[1:2].isdigit()


def _static_text(stream: _Stream | None) -> str | None:
    if stream is not None and stream.kind == "static":
        return stream.text
    return None


def _echo(program: str, args: list[str]) -> str | None:
    """The output of ``echo`` / ``printf`` with static arguments, or None."""
    if any(UNKNOWN in a for a in args):
        return None
    if program == "echo":
        newline, escapes = "\n", False
        while args and re.fullmatch(r"-[neE]+", args[0]):
            if "n" in args[0]:
                newline = ""
            escapes = "e" in args[0] or escapes
            args = args[1:]
        text = " ".join(args).replace(HOME, "~")
        return (_ansi_c(text) if escapes else text) + newline
    if not args:
        return None
    fmt, rest = args[0], args[1:]
    if fmt == "--" and rest:
        fmt, rest = rest[0], rest[1:]
    decoded = _ansi_c(fmt)
    if "%" not in decoded:
        return decoded
    try:
        specs = re.findall(r"%[-+ #0-9.]*[sbdc%]", decoded)
        if len(specs) != decoded.count("%") - decoded.count("%%"):
            return None
        values = [(_ansi_c(v) if "b" in s else v) for s, v in zip([s for s in specs if s != "%%"], rest)]
        return re.sub(r"%[-+ #0-9.]*[sbdc]", lambda m: values.pop(0) if values else "", decoded).replace("%%", "%")
    except (ValueError, IndexError):
        return None


def _decode(program: str, args: list[str], data: str | None) -> str | None:
    """Decode static text the way a decoder program would, or None when it cannot be known."""
    if data is None:
        return None
    flags = " ".join(args)
    try:
        if program == "base64" and re.search(r"(^|\s)(-d|--decode|-D)\b", flags):
            return base64.b64decode(re.sub(r"\s+", "", data) + "==", validate=False).decode("utf-8", "replace")
        if program == "base32" and re.search(r"(^|\s)(-d|--decode)\b", flags):
            cleaned = re.sub(r"\s+", "", data)
            return base64.b32decode(cleaned + "=" * (-len(cleaned) % 8)).decode("utf-8", "replace")
        if program == "xxd" and "-r" in flags and "-p" in flags:
            return binascii.unhexlify(re.sub(r"\s+", "", data)).decode("utf-8", "replace")
        if program == "rev":
            return "\n".join(line[::-1] for line in data.split("\n"))
    except (binascii.Error, ValueError):
        return None
    return None


def _unescape_code(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _all_substitutions(raw: str) -> list[str]:
    """Bodies of every ``$(...)``, backtick and process substitution in a raw word."""
    found: list[str] = []
    lexer = _Lexer(raw)
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "'" :
            end = raw.find("'", i + 1)
            i = n if end == -1 else end + 1
            continue
        if (ch == "$" or ch in "<>") and raw.startswith("(", i + 1) and not raw.startswith("((", i + 1):
            lexer.pos = i + 1
            end = lexer._balanced("(", ")")
            found.append(raw[i + 2 : end - 1] if raw[end - 1 : end] == ")" else raw[i + 2 : end])
            i = end
            continue
        if ch == "`":
            end = raw.find("`", i + 1)
            end = n if end == -1 else end
            found.append(raw[i + 1 : end].replace("\\`", "`").replace("\\\\", "\\"))
            i = end + 1
            continue
        i += 1
    return found


def normalise_path(value: str) -> str:
    """Normalise a path lexically; ``HOME`` becomes ``/~`` so ``~/..`` resolves to ``/``."""
    if value.startswith(HOME):
        value = "/~" + value[1:]
    if not value.startswith("/"):
        return value
    normal = posixpath.normpath(value)
    if normal.startswith("//"):
        normal = "/" + normal.lstrip("/")
    return normal


__all__ = ["HOME", "UNKNOWN", "Analysis", "Event", "Segment", "ShellConfig", "WrapperSpec", "analyse", "normalise_path"]
