"""``check --fix``: apply the safe fixes to TOML rule files, in place.

Two kinds of fix are safe, because their meaning is certain:

* a did-you-mean rename — an unknown key, section, strategy type or allowed
  value with exactly one suggestion, when the suggested key is not already
  there — done as a text edit at the exact source position, so comments and
  layout are untouched;
* the legacy ``[tools.shell]`` lists, migrated with tomlkit into ``deny`` /
  ``ask`` / ``allow`` entries at the *front* of ``[tools.permissions] bash``
  (where the legacy rules sit in the rule order today, so no decision changes).

The result must parse before it is written (atomically, via a temporary file
in the same directory).  Running ``--fix`` twice changes nothing the second time.
YAML files are left alone.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import Diagnostic

_SUGGESTION = re.compile(r"^did you mean `([^`]+)`\?$")
_RENAMED_CODES = ("ZR020", "ZR024", "ZR025")
_LEGACY = (("blocked_commands", "deny"), ("confirm_patterns", "ask"), ("allowed_commands", "allow"))
#: Top-level sections that must be arrays of tables: rename into them only when the value is one.
_ARRAY_SECTIONS = ("rules", "tests")
MAX_ROUNDS = 4


@dataclass(frozen=True)
class Fix:
    """One change ``--fix`` made (or, with ``applied=False``, could not make)."""

    file: str
    line: int
    col: int
    description: str
    applied: bool = True

    def render(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {'fixed' if self.applied else 'not fixed'}: {self.description}"


def fix_file(path: str | Path, write: bool = True) -> list[Fix]:
    """Apply the safe fixes to one rule file and return what was done."""
    name = str(path)
    if name.endswith((".yaml", ".yml")):
        return [Fix(name, 1, 1, "fix not supported for YAML files (fix them by hand)", applied=False)]
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [Fix(name, 1, 1, f"cannot read the file: {exc}", applied=False)]
    from .desugar import desugar
    from .source import parse_toml_text

    fixes: list[Fix] = []
    # a renamed section exposes what is inside it to validation: go round until nothing changes
    for _ in range(MAX_ROUNDS):
        src = parse_toml_text(text, name)
        if any(d.code == "ZR010" for d in src.diagnostics):
            return fixes + [Fix(name, 1, 1, "the file has TOML syntax errors; fix those first", applied=False)]
        before = len(fixes)
        text = _renames(text, src, desugar([src]).diagnostics, fixes)
        if len(fixes) == before:
            break
        fixes[before:] = sorted(fixes[before:], key=lambda f: (f.line, f.col))
    text = _migrate_legacy(text, name, fixes)
    if fixes and write and any(f.applied for f in fixes):
        _write_atomically(Path(path), text)
    return fixes


# ------------------------------------------------------------------ renames


def _renames(text: str, src: Any, diagnostics: tuple[Diagnostic, ...], fixes: list[Fix]) -> str:
    lines = text.split("\n")
    key_at = {(s.line, s.col): p for p, s in src.key_spans.items()}
    value_at = {(s.line, s.col): p for p, s in src.spans.items()}
    edits: list[tuple[int, int, str, str, str]] = []  # line, col, old, new, description
    for diagnostic in diagnostics:
        match = _SUGGESTION.match(diagnostic.hint or "")
        if diagnostic.code not in _RENAMED_CODES or match is None:
            continue
        new = match.group(1)
        where = (diagnostic.line, diagnostic.col)
        if diagnostic.code == "ZR020":
            path = key_at.get(where)
            if path is None or not isinstance(path[-1], str):
                continue
            old = path[-1]
            parent = _get(src.data, path[:-1])
            if not isinstance(parent, dict) or new in parent:
                continue  # the target key exists: renaming would clash
            if len(path) == 1 and new in _ARRAY_SECTIONS and not isinstance(parent.get(old), list):
                continue
            edits.append((diagnostic.line, diagnostic.col, old, new, f"renamed `{old}` to `{new}`"))
        else:
            path = value_at.get(where)
            old_value = _get(src.data, path) if path is not None else None
            if not isinstance(old_value, str):
                continue
            edits.append((diagnostic.line, diagnostic.col, old_value, new, f"replaced `{old_value}` with `{new}`"))
    # right to left, so earlier columns on the same line stay valid
    for line, col, old, new, description in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        row = lines[line - 1]
        found = re.compile(r"(?<![A-Za-z0-9_\-])" + re.escape(old) + r"(?![A-Za-z0-9_\-])").search(row, col - 1)
        if found is None:
            fixes.append(Fix(src.path, line, col, f"could not rename `{old}` to `{new}`", applied=False))
            continue
        lines[line - 1] = row[: found.start()] + new + row[found.end() :]
        fixes.append(Fix(src.path, line, col, description))
    return "\n".join(lines)


def _get(data: Any, path: Any) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


# ------------------------------------------------------------------ legacy sections


def _migrate_legacy(text: str, name: str, fixes: list[Fix]) -> str:
    import tomlkit

    doc = tomlkit.parse(text)
    tools = doc.get("tools")
    if not isinstance(tools, dict):
        return text
    shell = tools.get("shell")
    if not isinstance(shell, dict) or not any(key in shell for key, _ in _LEGACY):
        return text
    line = _line_of(text, r"^\s*\[\s*tools\s*\.\s*shell\s*\]") or 1
    entries = []
    for key, action in _LEGACY:
        values = shell.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            fixes.append(Fix(name, line, 1, f"`tools.shell.{key}` is not a list of strings; not migrated", applied=False))
            return text
        for value in values:
            # the legacy form matched anywhere in the command; keep that meaning
            glob = value if any(c in value for c in "*?[") else f"*{value}*"
            entries.append((glob, action))
    permissions = tools.get("permissions")
    if permissions is None:
        permissions = tomlkit.table()
        tools["permissions"] = permissions
    if not isinstance(permissions, dict):
        fixes.append(Fix(name, line, 1, "`tools.permissions` is not a table; legacy lists not migrated", applied=False))
        return text
    bash = permissions.get("bash")
    if bash is None:
        bash = tomlkit.array()
        bash.multiline(True)
        permissions["bash"] = bash
    for position, (glob, action) in enumerate(entries):
        entry: tomlkit.items.Table | tomlkit.items.InlineTable
        if isinstance(bash, tomlkit.items.AoT):
            entry = tomlkit.table()
        elif isinstance(bash, list):
            entry = tomlkit.inline_table()
        else:
            fixes.append(Fix(name, line, 1, "`tools.permissions.bash` is not a list; legacy lists not migrated", applied=False))
            return text
        entry["pattern"] = glob
        entry["action"] = action
        bash.insert(position, entry)
    for key, _ in _LEGACY:
        if key in shell:
            del shell[key]
    if not shell:
        del tools["shell"]
    fixes.append(Fix(name, line, 1, f"migrated {len(entries)} legacy `[tools.shell]` entr{'y' if len(entries) == 1 else 'ies'} to the front of `[tools.permissions] bash`"))
    return tomlkit.dumps(doc)


def _line_of(text: str, pattern: str) -> int | None:
    found = re.search(pattern, text, re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _write_atomically(path: Path, text: str) -> None:
    import tomllib

    tomllib.loads(text)  # never write a file that no longer parses
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        try:
            os.chmod(temp, path.stat().st_mode & 0o7777)
        except OSError:
            pass
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
