"""The file sandbox: ``deny_read`` / ``allow_read`` globs on canonical paths.

A path is canonicalised before any glob sees it: ``~`` expanded, made absolute
against the working directory, symlinks resolved.  For a path that does not
exist yet, ``os.path.realpath`` resolves the nearest existing ancestor and
applies the rest lexically, which is exact: a component that does not exist
cannot be a symlink.  So ``..``, a symlink out of the allowed tree and a file
about to be created all land where the operating system would put them.

The globs are canonicalised the same way (their literal directory part), so
``/tmp/**`` still matches on systems where ``/tmp`` is a symlink.  A glob
without a wildcard means the path and everything under it; a relative glob
(``*.env``) matches at any depth.

A shell command reads files too: ``read_paths`` finds the files the commands
of a normalised line read — the operands of the programs in ``FILE_READERS``
and every ``<`` redirection — so ``cat /etc/shadow`` meets the same globs as a
``read`` of ``/etc/shadow``.  An operand with a wildcard stands for what the
shell would expand it to, and for itself.
"""

from __future__ import annotations

import functools
import glob as globbing
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .patterns import glob_match
from .shellnorm import HOME, UNKNOWN, Segment

_WILDCARDS = "*?["


@dataclass(frozen=True)
class Reader:
    """How a program names the files it reads: every operand, after ``scripts`` leading ones that are not files.

    ``value_options`` take the next word as their value (``pair_options`` the
    next two); giving one of ``script_options`` (``grep -e PATTERN``, ``awk -f
    FILE``) means no leading operand is a script; the value of one of
    ``file_options`` (the second word of a pair) is a file read too.
    """

    value_options: frozenset[str] = frozenset()
    scripts: int = 0
    script_options: frozenset[str] = frozenset()
    file_options: frozenset[str] = frozenset()
    pair_options: frozenset[str] = frozenset()


def _reader(value_options: Iterable[str] = (), scripts: int = 0, script_options: Iterable[str] = (),
            file_options: Iterable[str] = (), pair_options: Iterable[str] = ()) -> Reader:
    return Reader(frozenset(value_options), scripts, frozenset(script_options), frozenset(file_options), frozenset(pair_options))


_PLAIN = _reader()
_HEAD_TAIL = _reader(("-n", "-c", "--lines", "--bytes", "-s", "--sleep-interval", "--pid", "--max-unchanged-stats"))
_GREP = _reader(("-A", "-B", "-C", "-m", "--max-count", "--context", "--after-context", "--before-context", "--label",
                 "--include", "--exclude", "--exclude-from", "--exclude-dir", "--color", "--colour", "-d", "-D",
                 "--binary-files", "--devices", "--directories", "--group-separator"),
                1, ("-e", "--regexp", "-f", "--file"), ("-f", "--file", "--exclude-from"))
_RG = _reader(("-A", "-B", "-C", "-m", "--max-count", "-g", "--glob", "--iglob", "-t", "--type", "-T", "--type-not", "-M",
               "--max-columns", "-j", "--threads", "-d", "--max-depth", "-E", "--encoding", "--color", "--colors", "-r",
               "--replace", "--context-separator", "--field-match-separator", "--path-separator", "--sort", "--sortr"),
              1, ("-e", "--regexp", "-f", "--file"), ("-f", "--file", "--ignore-file"))
_SCRIPTED = _reader(("-F", "-v", "--field-separator", "--assign", "-i", "-l", "--indent", "-s", "--line-length", "-E"),
                    1, ("-f", "--file", "-e", "--expression", "--from-file"),
                    ("-f", "--file", "--from-file", "--slurpfile", "--rawfile"), ("--arg", "--argjson", "--slurpfile", "--rawfile"))

#: Programs whose operands are files they read (casefolded base names, as ``Segment.program``), with the
#: options that take a value, so that a value is not taken for a file: data, not code.
FILE_READERS: Mapping[str, Reader] = {
    **dict.fromkeys(("cat", "tac", "less", "more", "most", "bat", "batcat", "rev", "strings", "md5sum", "sha1sum",
                     "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "zcat", "zless",
                     "zmore", "bzcat", "xzcat", "zstdcat", "lzcat", "view", "vi", "vim", "nvim", "nano", "emacs", "pico",
                     "ed", "wc"), _PLAIN),
    "head": _HEAD_TAIL,
    "tail": _HEAD_TAIL,
    "nl": _reader(("-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w", "--body-numbering", "--section-delimiter",
                   "--footer-numbering", "--header-numbering", "--line-increment", "--join-blank-lines", "--number-format",
                   "--number-separator", "--starting-line-number", "--number-width")),
    "sort": _reader(("-o", "--output", "-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "-T",
                     "--temporary-directory", "--parallel", "--batch-size", "--compress-program", "--files0-from")),
    "uniq": _reader(("-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated")),
    "cut": _reader(("-b", "-c", "-d", "-f", "--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter")),
    "paste": _reader(("-d", "--delimiters")),
    "fold": _reader(("-w", "--width")),
    "fmt": _reader(("-w", "-g", "-p", "--width", "--goal", "--prefix")),
    "expand": _reader(("-t", "--tabs")),
    "unexpand": _reader(("-t", "--tabs")),
    "column": _reader(("-s", "-c", "-o", "-N", "-R", "-E", "-H", "-W", "-d", "--separator", "--output-width",
                       "--output-separator", "--table-columns", "--table-right", "--table-noextreme", "--table-hide",
                       "--table-wrap", "--table-name")),
    "od": _reader(("-A", "-j", "-N", "-t", "-w", "-S", "--address-radix", "--skip-bytes", "--read-bytes", "--format",
                   "--width", "--strings")),
    "xxd": _reader(("-c", "-g", "-l", "-s", "-o", "-n", "-cols", "-groupsize", "-len", "-seek", "-offset", "-name")),
    "hexdump": _reader(("-e", "-n", "-s", "-L", "--color", "--length", "--skip"), 0, (), ("-f", "--format-file")),
    "hd": _reader(("-e", "-n", "-s", "-L", "--color", "--length", "--skip"), 0, (), ("-f", "--format-file")),
    "base64": _reader(("-w", "--wrap")),
    "base32": _reader(("-w", "--wrap")),
    "diff": _reader(("-C", "-U", "-F", "-I", "-L", "-W", "-x", "-D", "--context", "--unified", "--label",
                     "--show-function-line", "--ignore-matching-lines", "--width", "--exclude", "--ifdef", "--to-file",
                     "--from-file", "--line-format", "--color", "--palette", "--tabsize", "--horizon-lines"),
                    0, (), ("-X", "--exclude-from", "--from-file", "--to-file")),
    "cmp": _reader(("-i", "-n", "--ignore-initial", "--bytes")),
    "comm": _reader(("--output-delimiter",)),
    "join": _reader(("-a", "-e", "-j", "-o", "-t", "-v", "-1", "-2")),
    "iconv": _reader(("-f", "-t", "--from-code", "--to-code", "-o", "--output")),
    "file": _reader(("-e", "-F", "-P", "--exclude", "--separator", "--parameter"), 0, (), ("-m", "--magic-file", "-f", "--files-from")),
    **dict.fromkeys(("grep", "egrep", "fgrep", "zgrep", "ag", "ack"), _GREP),
    "rg": _RG,
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk", "sed", "jq", "yq"), _SCRIPTED),
}

#: Where a program reads from stdin or nowhere rather than from a file of that name.
_NOT_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
#: At most this many files a wildcard operand expands to are checked (beside the operand itself).
MAX_EXPANSION = 256


def read_paths(segments: Sequence[Segment], readers: Mapping[str, Reader] = FILE_READERS) -> tuple[tuple[str, str], ...]:
    """Return ``(program, path)`` for every file the commands read: reader operands and ``<`` redirections.

    Words the normaliser could not know (a ``$VAR``) are left out: the
    blocklist asks about those lines already.  ``~`` comes back as ``~``.
    """
    found: list[tuple[str, str]] = []
    for segment in segments:
        program = segment.program
        for operator, target in segment.redirects:
            if operator == "<":
                found.append((program or "<", target))
        reader = readers.get(program) if program else None
        if reader is None:
            continue
        operands: list[str] = []
        files: list[str] = []  # values of file options: read whatever the operands are
        scripted = False
        words = segment.argv[1:]
        i = 0
        while i < len(words):
            word = words[i]
            i += 1
            if word == "--":
                operands.extend(words[i:])
                break
            if word.startswith("-") and word not in _NOT_FILES:
                name, has_value, value = word.partition("=")
                if name in reader.script_options:
                    scripted = True
                if name in reader.pair_options:
                    value = words[i + 1] if i + 1 < len(words) else ""
                    i += 2
                elif not has_value and (name in reader.value_options or name in reader.script_options or name in reader.file_options):
                    value = words[i] if i < len(words) else ""
                    i += 1
                if name in reader.file_options and value:
                    files.append(value)
                continue
            operands.append(word)
        for word in files + operands[0 if scripted else reader.scripts:]:
            found.append((program, word))
    return tuple((program, path.replace(HOME, "~", 1) if path.startswith(HOME) else path) for program, path in found
                 if path and path not in _NOT_FILES and UNKNOWN not in path)


def expand(path: str, cwd: str | None = None) -> tuple[str, ...]:
    """Return ``path`` and, when it has a wildcard, what the shell would expand it to (absolute against ``cwd``)."""
    if not any(c in path for c in _WILDCARDS):
        return (path,)
    pattern = os.path.expanduser(path)
    if not os.path.isabs(pattern):
        pattern = os.path.join(cwd or os.getcwd(), pattern)
    matches = []
    for index, match in enumerate(globbing.iglob(pattern, recursive=False)):
        if index >= MAX_EXPANSION:
            break
        matches.append(match)
    return (path, *sorted(matches))


def canonical(path: str, cwd: str | None = None) -> str:
    """Return the canonical absolute form of ``path`` (symlinks resolved where they exist)."""
    expanded = os.path.expanduser(path)
    if not os.path.isabs(expanded):
        expanded = os.path.join(cwd or os.getcwd(), expanded)
    return os.path.realpath(expanded)


@functools.lru_cache(maxsize=1024)
def canonical_glob(glob: str) -> tuple[str, ...]:
    """Return the absolute globs a configured glob stands for."""
    expanded = os.path.expanduser(glob)
    if not expanded.startswith("/"):
        return (f"**/{expanded}", f"**/{expanded}/**")
    parts = expanded.split("/")
    literal = 0
    while literal < len(parts) and not any(c in parts[literal] for c in _WILDCARDS):
        literal += 1
    head = "/".join(parts[:literal]) or "/"
    resolved = os.path.realpath(head)
    rest = "/".join(parts[literal:])
    base = resolved if not rest else (resolved.rstrip("/") + "/" + rest)
    forms = [base]
    if not rest:  # a directory (or file) named exactly: it and everything under it
        forms.append(base.rstrip("/") + "/**")
    if head != resolved:  # also the spelling the user wrote
        forms.append(expanded)
    return tuple(dict.fromkeys(forms))


@dataclass(frozen=True)
class SandboxVerdict:
    """Why the sandbox refused a path; ``rule`` names the glob setting."""

    path: str
    canonical: str
    rule: str
    source: str
    reason: str


@dataclass(frozen=True)
class Sandbox:
    """The configured globs with where each was written."""

    deny: tuple[tuple[str, str], ...]  # (glob, file:line:col)
    allow: tuple[tuple[str, str], ...]

    @property
    def active(self) -> bool:
        return bool(self.deny or self.allow)

    def check(self, paths: Sequence[str], cwd: str | None = None) -> tuple[SandboxVerdict | None, list[str]]:
        """Return the first refusal for ``paths`` (or None) and the trace notes."""
        notes: list[str] = []
        for path in paths:
            real = canonical(path, cwd)
            for index, (glob, source) in enumerate(self.deny):
                if _matches(glob, real):
                    return SandboxVerdict(path, real, f"file.deny_read[{index}]", source,
                                          f"`{path}` resolves to `{real}`, which `deny_read` glob `{glob}` covers"), notes
            if self.allow:
                found = next((i for i, (glob, _) in enumerate(self.allow) if _matches(glob, real)), None)
                if found is None:
                    source = self.allow[0][1]
                    return SandboxVerdict(path, real, "file.allow_read", source,
                                          f"`{path}` resolves to `{real}`, outside every `allow_read` glob"), notes
                notes.append(f"`{path}` -> `{real}` is inside allow_read glob `{self.allow[found][0]}`")
            else:
                notes.append(f"`{path}` -> `{real}` matches no deny_read glob")
        return None, notes

    def check_reads(self, reads: Sequence[tuple[str, str]], cwd: str | None = None) -> tuple[SandboxVerdict | None, list[str]]:
        """Return the first refusal for the files shell commands read (``read_paths``), and the trace notes."""
        notes: list[str] = []
        for program, path in reads:
            for form in expand(path, cwd):
                refused, more = self.check((form,), cwd)
                notes.extend(f"`{program}` reads {note}" for note in more)
                if refused is not None:
                    expanded = f" (`{path}` expands to it)" if form != path else ""
                    return replace(refused, reason=f"`{program}` reads it{expanded}; {refused.reason}"), notes
        return None, notes


def _matches(glob: str, path: str) -> bool:
    return any(glob_match(form, path, path=True) for form in canonical_glob(glob))
