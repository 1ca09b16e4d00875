"""Read rule files into plain data plus the source position of every key and value.

``tomllib`` gives correct values but no positions, so a small scanner walks the
same text and records where each key and value starts and ends, keyed by its
path (``("rules", 3, "match", "regex")``).  For string values it also keeps the
raw token so a column *inside* the decoded string (a DSL parse error, a bad
regex) can be mapped back to the file's line and column, escapes included.

A TOML syntax error must not take the good rules of the file down with it: the
broken chunk (from one table header to the next) is reported and blanked out,
keeping line numbers, and the rest of the file is parsed again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomllib

from .errors import ERROR, Diagnostic
from .span import Span

MAX_FILE_BYTES = 1024 * 1024

PathKey = tuple[Any, ...]


@dataclass(frozen=True)
class StringToken:
    """The raw source of one string value, to map decoded offsets back to the file."""

    raw: str  # the whole token, delimiters included
    line: int
    col: int
    style: str  # basic, literal, ml_basic, ml_literal, plain (YAML), yaml_single, yaml_double

    def position_of(self, offset: int) -> tuple[int, int]:
        """Return the file (line, col) of character ``offset`` of the decoded value."""
        raw_index = _raw_index(self.raw, self.style, offset)
        before = self.raw[:raw_index]
        newlines = before.count("\n")
        if newlines:
            return self.line + newlines, raw_index - before.rfind("\n")
        return self.line, self.col + raw_index


def _raw_index(raw: str, style: str, offset: int) -> int:
    if style == "literal":
        return min(1 + offset, len(raw))
    if style == "plain":
        return min(offset, len(raw))
    if style == "ml_literal":
        start = 3 + (1 if raw[3:4] == "\n" else 2 if raw[3:5] == "\r\n" else 0)
        return min(start + offset, len(raw))
    multiline = style == "ml_basic"
    i = 3 if multiline else 1
    if multiline and raw[i : i + 1] == "\n":
        i += 1
    end = len(raw) - (3 if multiline else 1)
    decoded = 0
    while i < end and decoded < offset:
        ch = raw[i]
        if ch == "\\" and i + 1 < end:
            nxt = raw[i + 1]
            if multiline and nxt in " \t\r\n":
                j = i + 1
                while j < end and raw[j] in " \t\r\n":
                    j += 1
                i = j
                continue
            if nxt == "u":
                i += 6
            elif nxt == "U":
                i += 10
            elif nxt == "x" and style == "yaml_double":
                i += 4
            else:
                i += 2
        elif style == "yaml_single" and ch == "'" and raw[i + 1 : i + 2] == "'":
            i += 2
        else:
            i += 1
        decoded += 1
    return i


@dataclass
class SourceFile:
    """A loaded rule file: its data, its text and the positions of its parts."""

    path: str
    text: str
    data: dict[str, Any]
    spans: dict[PathKey, Span] = field(default_factory=dict)
    key_spans: dict[PathKey, Span] = field(default_factory=dict)
    strings: dict[PathKey, StringToken] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def span_of(self, path: PathKey) -> Span:
        """Return the span of the value at ``path``, or of its nearest ancestor."""
        probe = tuple(path)
        while probe:
            if probe in self.spans:
                return self.spans[probe]
            probe = probe[:-1]
        return Span(self.path, 1, 1, 1, 1)

    def key_span_of(self, path: PathKey) -> Span:
        """Return the span of the key at ``path`` (falls back to the value)."""
        return self.key_spans.get(tuple(path)) or self.span_of(path)

    def position_in_string(self, path: PathKey, offset: int) -> tuple[int, int]:
        """Map a character offset inside the string value at ``path`` to (line, col)."""
        token = self.strings.get(tuple(path))
        if token is None:
            span = self.span_of(path)
            return span.line, span.col
        return token.position_of(offset)


def diagnostic(
    path: str, line: int, col: int, code: str, message: str, *, end_col: int = 0, hint: str | None = None,
    severity: str = ERROR, rule: str | None = None,
) -> Diagnostic:
    return Diagnostic(path, line, col, severity, code, message, line, end_col or col + 1, rule, hint)


def read_rule_file(path: str | Path, display: str | None = None) -> SourceFile:
    """Read and parse one TOML or YAML rule file; problems become diagnostics."""
    name = display or str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        src = SourceFile(name, "", {})
        src.diagnostics.append(diagnostic(name, 1, 1, "ZR001", f"cannot read file: {exc.strerror or exc}"))
        return src
    return parse_rule_bytes(raw, name, yaml=str(path).endswith((".yaml", ".yml")))


def parse_rule_bytes(raw: bytes, name: str, yaml: bool = False) -> SourceFile:
    """Parse the bytes of a rule file (the size and encoding limits are checked here)."""
    if len(raw) > MAX_FILE_BYTES:
        src = SourceFile(name, "", {})
        src.diagnostics.append(
            diagnostic(name, 1, 1, "ZR002", f"file is {len(raw):,} bytes; rule files are limited to 1 MiB ({MAX_FILE_BYTES:,} bytes)")
        )
        return src
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        src = SourceFile(name, raw.decode("utf-8", "replace"), {})
        src.diagnostics.append(diagnostic(name, line, col, "ZR003", f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})"))
        return src
    text = text.removeprefix("\ufeff")
    return parse_yaml_text(text, name) if yaml else parse_toml_text(text, name)


# --------------------------------------------------------------------- TOML

_TOML_ERROR = re.compile(r"^(?P<msg>.*?) \(at (?:line (?P<line>\d+), column (?P<col>\d+)|end of document)\)$")
_HEADER = re.compile(r"^[ \t]*\[\[?[ \t]*[A-Za-z0-9_\-\"'. \t]+\]\]?[ \t]*(#.*)?$")


def parse_toml_text(text: str, name: str) -> SourceFile:
    """Parse TOML text, recovering from syntax errors chunk by chunk."""
    lines = text.split("\n")
    diagnostics: list[Diagnostic] = []
    blanked: set[int] = set()
    current = text
    for _ in range(len(lines) + 1):
        try:
            data = tomllib.loads(current)
            break
        except tomllib.TOMLDecodeError as exc:
            match = _TOML_ERROR.match(str(exc))
            message = match.group("msg") if match else str(exc)
            if match and match.group("line"):
                line, col = int(match.group("line")), int(match.group("col"))
            else:
                line, col = _end_of_document_culprit(current)
            diagnostics.append(diagnostic(name, line, col, "ZR010", f"TOML syntax error: {_friendly_toml(message)}"))
            chunk = _chunk_around(lines, line, blanked)
            if not chunk:
                data = {}
                break
            blanked.update(chunk)
            current = "\n".join("" if i + 1 in blanked else ln for i, ln in enumerate(lines))
    else:  # pragma: no cover - the loop always breaks
        data = {}
    src = SourceFile(name, text, data, diagnostics=diagnostics)
    try:
        _TomlScanner(current, name, src).scan()
    except Exception:  # noqa: BLE001 - positions are best effort; values come from tomllib
        pass
    return src


def _friendly_toml(message: str) -> str:
    hints = {
        "Cannot overwrite a value": "a key is defined twice",
        "Unclosed inline table": "an inline table `{ ... }` is not closed on its line",
        "Unterminated string": "a string is not closed",
    }
    for needle, hint in hints.items():
        if message.startswith(needle):
            return f"{message[0].lower()}{message[1:]} ({hint})"
    return f"{message[0].lower()}{message[1:]}" if message else message


def _end_of_document_culprit(text: str) -> tuple[int, int]:
    """Find the opening of an unterminated multi-line string for an end-of-document error."""
    best = (max(1, text.count("\n") + 1), 1)
    for match in re.finditer(r'"""|\'\'\'', text):
        delimiter = match.group()
        if text.count(delimiter, match.end()) % 2 == 0:
            line = text.count("\n", 0, match.start()) + 1
            col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
            best = (line, col)
            break
    return best


def _chunk_around(lines: list[str], line: int, blanked: set[int]) -> list[int]:
    """Return the 1-based line numbers of the table chunk containing ``line``."""
    line = max(1, min(line, len(lines)))
    start = line
    while start > 1 and not _HEADER.match(lines[start - 1]):
        start -= 1
    end = line + 1
    while end <= len(lines) and not _HEADER.match(lines[end - 1]):
        end += 1
    chunk = [n for n in range(start, end) if n not in blanked]
    if not chunk:  # the culprit lies before: blank the previous non-blank chunk
        previous = [n for n in range(1, start) if n not in blanked]
        if previous:
            return _chunk_around(lines, previous[-1], blanked)
    return chunk


class _TomlScanner:
    """Walks TOML text recording the spans of keys and values by path."""

    def __init__(self, text: str, name: str, src: SourceFile) -> None:
        self.text = text
        self.name = name
        self.src = src
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.aot_counts: dict[PathKey, int] = {}

    # -- low level
    def _col(self, pos: int) -> int:
        return pos - self.line_start + 1

    def _advance(self, count: int = 1) -> None:
        for _ in range(count):
            if self.pos < len(self.text) and self.text[self.pos] == "\n":
                self.line += 1
                self.line_start = self.pos + 1
            self.pos += 1

    def _peek(self, n: int = 1) -> str:
        return self.text[self.pos : self.pos + n]

    def _skip_ws(self, newlines: bool) -> None:
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch in " \t\r" or (newlines and ch == "\n"):
                self._advance()
            elif ch == "#":
                while self.pos < len(self.text) and self.text[self.pos] != "\n":
                    self._advance()
            else:
                return

    def _span(self, line: int, col: int) -> Span:
        return Span(self.name, line, col, self.line, self._col(self.pos))

    # -- keys
    def _key_part(self) -> str:
        ch = self._peek()
        if ch in "\"'":
            start = self.pos
            self._string_token()
            return tomllib.loads(f"k = {self.text[start:self.pos]}")["k"]  # type: ignore[no-any-return]
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalnum() or self.text[self.pos] in "_-"):
            self._advance()
        if self.pos == start:
            raise ValueError("bad key")
        return self.text[start : self.pos]

    def _dotted_key(self) -> list[str]:
        parts = [self._key_part()]
        while True:
            self._skip_ws(False)
            if self._peek() == ".":
                self._advance()
                self._skip_ws(False)
                parts.append(self._key_part())
            else:
                return parts

    # -- values
    def _string_token(self) -> str:
        for delim, style in (('"""', "ml_basic"), ("'''", "ml_literal"), ('"', "basic"), ("'", "literal")):
            if self._peek(len(delim)) == delim:
                break
        start = self.pos
        self._advance(len(delim))
        while self.pos < len(self.text):
            if style in ("basic", "ml_basic") and self.text[self.pos] == "\\":
                self._advance(2)
                continue
            if self._peek(len(delim)) == delim:
                self._advance(len(delim))
                # TOML allows up to two extra quotes right before a multi-line closing delimiter
                while len(delim) == 3 and self._peek() == delim[0] and self.pos - start < len(self.text):
                    self._advance()
                return style
            self._advance()
        raise ValueError("unterminated string")

    def _value(self, path: PathKey) -> None:
        line, col, start = self.line, self._col(self.pos), self.pos
        ch = self._peek()
        if ch in "\"'":
            style = self._string_token()
            self.src.strings[path] = StringToken(self.text[start : self.pos], line, col, style)
        elif ch == "[":
            self._advance()
            index = 0
            while True:
                self._skip_ws(True)
                if self._peek() == "]":
                    self._advance()
                    break
                self._value(path + (index,))
                index += 1
                self._skip_ws(True)
                if self._peek() == ",":
                    self._advance()
        elif ch == "{":
            self._advance()
            while True:
                self._skip_ws(False)
                if self._peek() == "}":
                    self._advance()
                    break
                self._key_value(path)
                self._skip_ws(False)
                if self._peek() == ",":
                    self._advance()
                elif self._peek() != "}":
                    raise ValueError("bad inline table")
        else:
            while self.pos < len(self.text) and self.text[self.pos] not in ",]}#\n":
                self._advance()
        self.src.spans[path] = self._span(line, col)

    def _key_value(self, table: PathKey) -> None:
        line, col = self.line, self._col(self.pos)
        parts = self._dotted_key()
        path = table + tuple(parts)
        self.src.key_spans[path] = Span(self.name, line, col, line, col + len(parts[-1]))
        self._skip_ws(False)
        if self._peek() != "=":
            raise ValueError("expected =")
        self._advance()
        self._skip_ws(False)
        self._value(path)

    def _resolve(self, parts: list[str]) -> PathKey:
        resolved: PathKey = ()
        for part in parts:
            resolved += (part,)
            if resolved in self.aot_counts:
                resolved += (self.aot_counts[resolved] - 1,)
        return resolved

    def scan(self) -> None:
        table: PathKey = ()
        while True:
            self._skip_ws(True)
            if self.pos >= len(self.text):
                return
            line, col = self.line, self._col(self.pos)
            if self._peek(2) == "[[":
                self._advance(2)
                self._skip_ws(False)
                parts = self._dotted_key()
                parent = self._resolve(parts[:-1])
                base = parent + (parts[-1],)
                self.aot_counts[base] = self.aot_counts.get(base, 0) + 1
                table = base + (self.aot_counts[base] - 1,)
                self._skip_ws(False)
                self._advance(2)
                self.src.spans[table] = self._span(line, col)
                self.src.key_spans.setdefault(base, self.src.spans[table])
            elif self._peek() == "[":
                self._advance()
                self._skip_ws(False)
                parts = self._dotted_key()
                table = self._resolve(parts)
                self._skip_ws(False)
                self._advance()
                self.src.spans[table] = self._span(line, col)
                self.src.key_spans[table] = self.src.spans[table]
            else:
                self._key_value(table)


# --------------------------------------------------------------------- YAML


def parse_yaml_text(text: str, name: str) -> SourceFile:
    """Parse YAML with PyYAML's safe composer, keeping node marks as spans."""
    import yaml  # imported lazily: the warm path never loads YAML

    src = SourceFile(name, text, {})
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        src.diagnostics.append(diagnostic(name, line, col, "ZR011", f"YAML syntax error: {exc.problem or exc.context}"))
        return src
    except yaml.YAMLError as exc:
        src.diagnostics.append(diagnostic(name, 1, 1, "ZR011", f"YAML syntax error: {exc}"))
        return src
    if node is None:
        return src
    try:
        data = _yaml_value(node, (), src, text.split("\n"))
    except (ValueError, yaml.YAMLError) as exc:
        src.diagnostics.append(diagnostic(name, 1, 1, "ZR011", f"YAML error: {exc}"))
        return src
    if not isinstance(data, dict):
        span = src.span_of(())
        src.diagnostics.append(diagnostic(name, span.line, span.col, "ZR012", "the top level of a rule file must be a mapping"))
        return src
    src.data = data
    return src


def _yaml_value(node: Any, path: PathKey, src: SourceFile, lines: list[str]) -> Any:
    import yaml

    start, end = node.start_mark, node.end_mark
    src.spans[path] = Span(src.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value if isinstance(key_node, yaml.ScalarNode) else _construct(key_node))
            child = path + (key,)
            km = key_node.start_mark
            src.key_spans[child] = Span(src.path, km.line + 1, km.column + 1, km.line + 1, km.column + 1 + len(key))
            if key in result:
                raise ValueError(f"duplicate key `{key}` at line {km.line + 1}")
            result[key] = _yaml_value(value_node, child, src, lines)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_yaml_value(item, path + (i,), src, lines) for i, item in enumerate(node.value)]
    style = {None: "plain", "'": "yaml_single", '"': "yaml_double"}.get(node.style)
    if style and start.line == end.line:
        raw = lines[start.line][start.column : end.column]
        src.strings[path] = StringToken(raw, start.line + 1, start.column + 1, style)
    return _construct(node)


def _construct(node: Any) -> Any:
    """Build the Python value of one composed YAML node, as yaml.safe_load would."""
    import yaml

    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()
