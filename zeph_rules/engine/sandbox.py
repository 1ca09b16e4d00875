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
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Sequence

from .patterns import glob_match

_WILDCARDS = "*?["


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


def _matches(glob: str, path: str) -> bool:
    return any(glob_match(form, path, path=True) for form in canonical_glob(glob))
