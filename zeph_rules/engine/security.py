"""The security pass: find credential-shaped strings fast, report them without values.

Two stages.  The compiled prefilter (``_speedups.windows_and_marked_lines``)
runs one case-insensitive keyword automaton over the raw bytes and returns, per
pattern, the byte windows where a match could lie (and, from the same pass, the
lines holding the filter pipeline's signal words).  Only those windows are decoded and
verified with the pattern's regex (the ``regex`` module, time-bounded, so no
pattern and no input can hang the scan).  A ``Finding`` has no value field:
nothing built from findings can leak a secret.

Patterns come from ``builtin_rules/security.toml`` (and users' extra patterns);
the pure reference scanner in ``security_reference`` applies every regex to the
whole text and is what the conformance tests measure recall against.
"""

from __future__ import annotations

import sys

from .. import _regex, _speedups
from .._records import NamedTuple
from .security_reference import (
    DEFAULT_TIMEOUT,
    Finding,
    SecretPattern,
    _Compiled,
    _dedupe,
    _secret_of,
    load_patterns,
    shannon_entropy,  # noqa: F401 - re-exported for callers of this module
)
from .signals import SIGNAL_WORDS

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

#: Upper bound on a window's reach for patterns whose width is unbounded.
MAX_RADIUS = 64 * 1024
#: Assertions (\b, lookbehind) need a little context outside a window.
CONTEXT = 64
#: Patterns wider than this (characters) that can cross newlines are block-shaped.
BLOCK_WIDTH = 1024
#: Try at most this many start positions before a keyword hit.
MAX_LEAD = 32
#: Follow conditions reaching further than this many characters are not used.
MAX_FOLLOW = 64
#: Windows larger than this (bytes) are always verified under the timeout.
LARGE_WINDOW = 4096

__all__ = ["Finding", "Scanner", "SecretPattern", "default_scanner", "load_patterns"]


def _width_and_multiline(source: str) -> tuple[int, bool]:
    """Return (max match width in characters or -1 when unbounded, can it cross a newline)."""
    from ._sre import sre_parse
    from .patterns import parse_as_re

    parsed = parse_as_re(source)
    if parsed is None:  # regex-only syntax: be conservative
        return -1, True
    low, high = parsed.getwidth()
    width = -1 if high >= sre_parse.MAXREPEAT or high > MAX_RADIUS else int(high)
    dotall = bool(parsed.state.flags & _regex.DOTALL)
    return width, _can_match_newline(list(parsed.data), dotall)


def _can_match_newline(items: list[Any], dotall: bool) -> bool:
    for op, arg in items:
        name = str(op)
        if name == "LITERAL" and arg == 10:
            return True
        if name == "ANY" and dotall:
            return True
        if name in ("NOT_LITERAL",) and arg != 10:
            return True
        if name == "IN":
            for sub_op, sub_arg in arg:
                sub = str(sub_op)
                if sub == "NEGATE":
                    return True
                if sub == "LITERAL" and sub_arg == 10:
                    return True
                if sub == "RANGE" and sub_arg[0] <= 10 <= sub_arg[1]:
                    return True
                if sub == "CATEGORY" and str(sub_arg) in ("CATEGORY_SPACE", "CATEGORY_NOT_WORD", "CATEGORY_NOT_DIGIT", "CATEGORY_NOT_LINEBREAK"):
                    return True
        if name == "SUBPATTERN":
            sub_flags = arg[1] if len(arg) > 2 else 0
            if _can_match_newline(list(arg[-1]), dotall or bool(sub_flags & _regex.DOTALL)):
                return True
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if _can_match_newline(list(arg[2]), dotall):
                return True
        elif name == "ATOMIC_GROUP":
            if _can_match_newline(list(arg), dotall):
                return True
        elif name in ("ASSERT", "ASSERT_NOT"):
            continue  # lookarounds consume nothing
        elif name == "BRANCH":
            if any(_can_match_newline(list(b), dotall) for b in arg[1]):
                return True
        elif name == "GROUPREF_EXISTS":
            return True
    return False


def _literal_run(items: list[Any], index: int) -> tuple[str, int]:
    """Return the text of the run of LITERAL items starting at ``index`` and the index after it."""
    run = []
    while index < len(items) and str(items[index][0]) == "LITERAL":
        run.append(chr(items[index][1]))
        index += 1
    return "".join(run), index


def _max_lead(items: list[Any], keywords: Sequence[str], acc: int = 0) -> int | None:
    """Return how many characters a match can consume before a keyword must start.

    Walks the sequence from the front, adding each item's maximum width until a
    mandatory literal run contains a keyword; alternations take the worst
    branch.  ``None`` means no bound could be proven (the pattern is then
    verified by searching its windows).
    """
    from ._sre import sre_parse

    index = 0
    while index < len(items):
        op, arg = items[index]
        name = str(op)
        if name == "LITERAL":
            text, index = _literal_run(items, index)
            text = text.lower()
            offsets = [text.find(k) for k in keywords if k in text]
            if offsets:
                return acc + min(offsets)
            acc += len(text)
            continue
        rest = list(items[index + 1 :])
        if name == "SUBPATTERN":
            return _max_lead(list(arg[-1]) + rest, keywords, acc)
        if name == "ATOMIC_GROUP":
            return _max_lead(list(arg) + rest, keywords, acc)
        if name == "BRANCH":
            leads = [_max_lead(list(branch) + rest, keywords, acc) for branch in arg[1]]
            return None if any(lead is None for lead in leads) else max(leads)  # type: ignore[type-var]
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and arg[0] >= 1 and arg[1] == 1:
            return _max_lead(list(arg[2]) + rest, keywords, acc)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            index += 1
            continue
        width = sre_parse.SubPattern(sre_parse.State(), [(op, arg)]).getwidth()[1]
        if width >= sre_parse.MAXREPEAT or width > MAX_LEAD:
            return None
        acc += int(width)
        if acc > MAX_LEAD:
            return None
        index += 1
    return None


#: (max characters skipped, first characters of the next mandatory item, can the skipped part hold a
#: newline, the characters the skipped part can hold or None for any)
Follow = tuple[int, frozenset[str], bool, "frozenset[str] | None"]


def _item_chars(items: list[Any]) -> frozenset[str] | None:
    """Every character a sequence of items can consume (None: any, or unknown)."""
    import string  # building the tables only; never on a cached scanner's path

    chars: set[str] = set()
    for op, arg in items:
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        if name == "LITERAL":
            chars.add(chr(arg))
        elif name == "IN":
            for sub_op, sub_arg in arg:
                sub = str(sub_op)
                if sub == "LITERAL":
                    chars.add(chr(sub_arg))
                elif sub == "RANGE" and sub_arg[1] - sub_arg[0] < 256:
                    chars.update(chr(c) for c in range(sub_arg[0], sub_arg[1] + 1))
                elif sub == "CATEGORY" and str(sub_arg) == "CATEGORY_WORD":
                    chars.update(string.ascii_letters + string.digits + "_" + _NON_ASCII)
                elif sub == "CATEGORY" and str(sub_arg) == "CATEGORY_DIGIT":
                    chars.update(string.digits + _NON_ASCII)
                elif sub == "CATEGORY" and str(sub_arg) == "CATEGORY_SPACE":
                    chars.update(" \t\n\r\f\v" + _NON_ASCII)
                else:
                    return None
        elif name == "SUBPATTERN":
            inner = _item_chars(list(arg[-1]))
            if inner is None:
                return None
            chars |= inner
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            inner = _item_chars(list(arg[2]))
            if inner is None:
                return None
            chars |= inner
        elif name == "BRANCH":
            for branch in arg[1]:
                inner = _item_chars(list(branch))
                if inner is None:
                    return None
                chars |= inner
        else:
            return None
    return frozenset(chars)


#: Stands for "some non-ASCII character" in character sets (Unicode \w, \s, \d).
_NON_ASCII = "\u0080"


def _width(op: Any, arg: Any) -> tuple[int, int]:
    from ._sre import sre_parse

    low, high = sre_parse.SubPattern(sre_parse.State(), [(op, arg)]).getwidth()
    return int(low), int(high)


def _char_set(op: Any, arg: Any) -> frozenset[str] | None:
    """Characters one consuming item can start with, when that set is small and known."""
    name = str(op)
    if name == "LITERAL":
        return frozenset(chr(arg))
    if name == "IN":
        chars: set[str] = set()
        for sub_op, sub_arg in arg:
            sub = str(sub_op)
            if sub == "LITERAL":
                chars.add(chr(sub_arg))
            elif sub == "RANGE" and sub_arg[1] - sub_arg[0] < 64:
                chars.update(chr(c) for c in range(sub_arg[0], sub_arg[1] + 1))
            else:
                return None
        return frozenset(chars)
    return None


def _after(items: list[Any], acc: int = 0, crosses: bool = False,
           filler: frozenset[str] | None = frozenset()) -> list[Follow] | None:
    """Where the next mandatory item of ``items`` can start, with what, and what may come before."""
    index = 0
    while index < len(items):
        op, arg = items[index]
        name = str(op)
        rest = list(items[index + 1 :])
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            index += 1
            continue
        low, high = _width(op, arg)
        if low == 0:  # optional: skip over it, counting its width and its characters
            if high > MAX_FOLLOW:
                return None
            acc += high
            crosses = crosses or _can_match_newline([(op, arg)], False)
            if acc > MAX_FOLLOW:
                return None
            skipped = _item_chars([(op, arg)])
            filler = None if filler is None or skipped is None else filler | skipped
            index += 1
            continue
        if name == "SUBPATTERN":
            return _after(list(arg[-1]) + rest, acc, crosses, filler)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            return _after(list(arg[2]), acc, crosses, filler)
        if name == "BRANCH":
            found: list[Follow] = []
            for branch in arg[1]:
                options = _after(list(branch) + rest, acc, crosses, filler)
                if options is None:
                    return None
                found.extend(options)
            return found
        chars = _char_set(op, arg)
        return None if chars is None else [(acc, chars, crosses, filler)]
    return None


def _follow_walk(items: list[Any], keywords: Sequence[str]) -> list[tuple[str, Follow]] | None:
    """For each path, its anchor (the first literal run holding a keyword) and what must follow.

    Returns ``(keyword, follow)`` for every keyword occurrence in every path's
    anchor run, or None when some path has no such run or its continuation is
    unknown (then no hit may be skipped).
    """
    index = 0
    while index < len(items):
        op, arg = items[index]
        name = str(op)
        if name == "LITERAL":
            text, index = _literal_run(items, index)
            lowered = text.lower()
            occurrences = [(k, start + len(k)) for k in keywords
                           for start in range(len(lowered)) if lowered.startswith(k, start)]
            if not occurrences:
                continue
            found: list[tuple[str, Follow]] = []
            for keyword, end in occurrences:
                if end < len(text):
                    found.append((keyword, (0, frozenset(text[end]), False, frozenset())))
                    continue
                options = _after(list(items[index:]))
                if options is None:
                    return None
                found.extend((keyword, option) for option in options)
            return found
        rest = list(items[index + 1 :])
        if name == "SUBPATTERN":
            return _follow_walk(list(arg[-1]) + rest, keywords)
        if name == "BRANCH":
            found = []
            for branch in arg[1]:
                walked = _follow_walk(list(branch) + rest, keywords)
                if walked is None:
                    return None
                found.extend(walked)
            return found
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and arg[0] >= 1 and arg[1] == 1:
            return _follow_walk(list(arg[2]) + rest, keywords)
        index += 1
    return None


FollowRule = tuple[int, bool, bytes]
#: A keyword that anchors no path of its pattern: its hits open no window.
NEVER = (0, False, bytes(256))


def _follow(source: str, keywords: Sequence[str]) -> dict[str, FollowRule] | None:
    """Return, per keyword, (bytes to look at after a hit, stop at a newline, 256-byte table).

    A hit of keyword ``k`` can anchor a match only if, within that many bytes
    after it and past only bytes the skipped optional items can hold, comes a
    first character of the pattern's next mandatory item after ``k``.  ``generic-api-key`` needs an
    assignment operator after ``token``, so ``Using token cache at ...`` is
    rejected without running the regex.  Every match has an anchor hit that
    passes its own rule, so skipping the others loses nothing.  None when the
    analysis cannot prove this for every path.
    """
    if sys.version_info < (3, 11):  # pragma: no cover - proven only with the parser of Python 3.11+ (re._parser)
        return None
    from .patterns import parse_as_re

    try:
        parsed = parse_as_re(source)
        if parsed is None:
            return None  # re would read another pattern (a POSIX class, say): nothing is proven
        lowered = [k.lower() for k in keywords]
        entries = _follow_walk(list(parsed.data), lowered)
    except Exception:  # noqa: BLE001
        return None
    if not entries:
        return None
    fold = bool(parsed.state.flags & _regex.IGNORECASE)
    rules: dict[str, FollowRule] = {}
    for keyword in lowered:
        options = [option for k, option in entries if k == keyword]
        if not options:
            rules[keyword] = NEVER
            continue
        # 1: the awaited character (the hit may anchor a match); 2: a character
        # the skipped part may hold (keep looking); 0: impossible here (reject)
        table = bytearray(256)
        for _, _, _, filler in options:
            if filler is None:
                table = bytearray(b"\x02" * 256)
                break
            for ch in filler:
                for variant in {ch, ch.lower(), ch.upper()} if fold else {ch}:
                    if variant == _NON_ASCII:
                        table[0x80:] = b"\x02" * 128
                    elif len(variant) == 1 and ord(variant) < 128:
                        table[ord(variant)] = 2
        for _, chars, _, _ in options:
            for ch in chars:
                for variant in {ch, ch.lower(), ch.upper()} if fold else {ch}:
                    if len(variant) != 1 or ord(variant) > 127:
                        return None  # non-ASCII: keep it simple and exact
                    table[ord(variant)] = 1
        distance = max(option[0] for option in options)
        crosses = any(option[2] for option in options)
        # characters of the skipped part may be multi-byte: count bytes generously
        rules[keyword] = (4 * distance + 1, not crosses, bytes(table))
    return rules


def _lead(source: str, keywords: Sequence[str]) -> int:
    """Return the proven lead of a pattern (see ``_max_lead``), or -1 when unknown."""
    if sys.version_info < (3, 11):  # pragma: no cover - proven only with the parser of Python 3.11+ (re._parser)
        return -1
    from .patterns import parse_as_re

    try:
        parsed = parse_as_re(source)
        if parsed is None:
            return -1
        lead = _max_lead(list(parsed.data), [k.lower() for k in keywords])
    except Exception:  # noqa: BLE001
        return -1
    return -1 if lead is None else lead


def _needs_timeout(pattern: SecretPattern) -> bool:
    """Whether a pattern must be verified by the ``regex`` module, under a timeout.

    A timeout costs about 2 µs a call, four times a typical anchored match.
    Windows are bounded (a line or a pattern's reach), so a pattern without
    the shapes that backtrack catastrophically (nested or overlapping
    quantifiers, per the linter's analysis) cannot hang on one; every other
    pattern, and any the analysis cannot read, keeps the timeout.  So does a
    pattern that ``re`` would read otherwise than ``regex`` (its regex or an
    allowlist entry: a fuzzy count ``re`` takes for text, say), which the
    verifier may otherwise match with ``re`` (see ``_Verifier``).
    """
    from .patterns import parse_as_re

    if any(parse_as_re(source) is None for source in (pattern.regex, *pattern.allowlist)):
        return True
    try:
        from .lint.regex_analysis import risky_shapes

        return bool(risky_shapes(pattern.regex))
    except Exception:  # noqa: BLE001 - unknown means guarded
        return True


#: the layout of ``Scanner.to_plain``
_PLAIN_FORMAT = 1


class ScanTables(NamedTuple):
    """The plain-value tables the compiled prefilter reads (picklable)."""

    keywords: Any  # BigramIndex
    keyword_patterns: tuple[tuple[int, ...], ...]
    radius: tuple[int, ...]
    line_reach: tuple[int, ...]  # 0: own line, 1: +-1 line, 2: unbounded (PEM blocks)
    anchored: tuple[bool, ...]  # a match starts within ``lead`` characters before a keyword hit
    lead: tuple[int, ...]  # -1: unbounded, verify by searching the window
    guarded: tuple[bool, ...]  # verify with ``regex`` and a timeout (see _needs_timeout)
    follow: tuple[tuple[FollowRule | None, ...], ...]  # per keyword, per owning pattern (see _follow)
    #: per keyword: whether a hit marks its line (the scanner's ``line_words``); empty when none does
    marked: tuple[bool, ...] = ()


class Scanner:
    """Scan bytes or text for credential-shaped strings with a fixed pattern set."""

    def __init__(self, patterns: Sequence[SecretPattern], timeout: float = DEFAULT_TIMEOUT,
                 line_words: Sequence[str] = ()) -> None:
        """``line_words`` (lower-case ASCII, two characters or more): ``scan_marking_lines`` also
        reports the lines holding one, from the same pass over the bytes."""
        self.patterns = tuple(patterns)
        self.timeout = timeout
        self.tables = self._build_tables(self.patterns, line_words)
        self._compiled: dict[int, _Verifier] = {}

    @property
    def marks_lines(self) -> bool:
        """Whether ``scan_marking_lines`` reports lines (the scanner was built with line words)."""
        return any(self.tables.marked)

    @staticmethod
    def _build_tables(patterns: Sequence[SecretPattern], line_words: Sequence[str] = ()) -> ScanTables:
        keyword_ids: dict[bytes, int] = {}
        owners: list[list[int]] = []
        radius: list[int] = []
        reach: list[int] = []
        leads: list[int] = []
        guarded: list[bool] = []
        for index, pattern in enumerate(patterns):
            for keyword in pattern.keywords:
                key = keyword.lower().encode("utf-8")
                if key not in keyword_ids:
                    keyword_ids[key] = len(owners)
                    owners.append([])
                owners[keyword_ids[key]].append(index)
            width, crosses = _width_and_multiline(pattern.regex)
            # UTF-8 needs up to 4 bytes a character; the context covers assertions
            radius.append(MAX_RADIUS if width < 0 else min(MAX_RADIUS, 4 * width + CONTEXT))
            # A pattern that can cross a newline in a small gap (`key:\n  value`)
            # sees the neighbouring lines; only block-sized shapes (PEM) reach further.
            reach.append(0 if not crosses else 2 if width < 0 or width > BLOCK_WIDTH else 1)
            leads.append(_lead(pattern.regex, pattern.keywords))
            guarded.append(_needs_timeout(pattern))
        marked_ids = set()
        for word in line_words:
            if not (word.isascii() and word == word.lower() and len(word) >= 2):
                raise ValueError(f"a line word must be lower-case ASCII of two characters or more: {word!r}")
            key = word.encode("ascii")
            if key not in keyword_ids:
                keyword_ids[key] = len(owners)
                owners.append([])  # it opens no window: it only marks its line
            marked_ids.add(keyword_ids[key])
        bigrams = _speedups.build_bigram_index(list(keyword_ids), ignore_case=True)
        per_pattern = [_follow(p.regex, p.keywords) for p in patterns]
        follow = tuple(
            tuple((per_pattern[owner] or {}).get(keyword.decode(), None) if per_pattern[owner] is not None else None
                  for owner in owners[literal_id])
            for keyword, literal_id in keyword_ids.items()
        )
        marked = tuple(literal_id in marked_ids for literal_id in range(len(owners))) if marked_ids else ()
        return ScanTables(bigrams, tuple(tuple(o) for o in owners), tuple(radius), tuple(reach),
                          tuple(lead >= 0 for lead in leads), tuple(leads), tuple(guarded), follow, marked)

    def _compiled_pattern(self, index: int) -> _Verifier:
        compiled = self._compiled.get(index)
        if compiled is None:
            compiled = self._compiled[index] = _Verifier(self.patterns[index], index)
        return compiled

    def scan(self, data: bytes | str) -> list[Finding]:
        """Return findings sorted by (line, column, rule); never a value."""
        raw = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else bytes(data)
        if not raw:
            return []
        windows, _ = self._search(raw)
        return self._findings_in(raw, windows)

    def scan_marking_lines(self, data: bytes) -> tuple[list[Finding], list[int]]:
        """Return ``scan(data)`` and the sorted byte offsets of the lines of ``data`` holding a line word.

        The words are found case-insensitively (ASCII letters) by the pass that
        finds the keywords, so the lines cost next to nothing more.
        """
        if not data:
            return [], []
        windows, lines = self._search(data, self.tables.marked)
        return self._findings_in(data, windows), lines

    def _search(self, raw: bytes, marked: tuple[bool, ...] = ()) -> tuple[list[tuple[int, int, int, bool]], list[int]]:
        """Return the prefilter's candidate windows over ``raw`` and the starts of the lines ``marked`` keywords hit."""
        tables = self.tables
        return _speedups.windows_and_marked_lines(tables.keywords, raw, tables.keyword_patterns, tables.radius,
                                                  tables.line_reach, tables.anchored, tables.follow, marked)

    def _findings_in(self, raw: bytes, windows: list[tuple[int, int, int, bool]]) -> list[Finding]:
        spans = self._verify_all(raw, windows)
        if not spans:
            return []
        return self._findings(raw, _dedupe(spans))

    def _verify_all(self, raw: bytes, windows: list[tuple[int, int, int, bool]]) -> list[tuple[int, int, _Compiled]]:
        """Verify every candidate window (anchored ones at their hit only)."""
        spans: list[tuple[int, int, _Compiled]] = []
        for pattern_index, low, high, at_hit in windows:
            spans.extend(self._verify(raw, pattern_index, low, high, search=not at_hit))
        return spans

    def _verify(self, raw: bytes, pattern_index: int, low: int, high: int,
                search: bool = False) -> Iterable[tuple[int, int, _Compiled]]:
        """Run one pattern over one window; yield absolute byte spans of its secrets.

        For an anchored pattern the window starts at a keyword hit and only a
        match starting exactly there is tried.
        """
        verifier = self._compiled_pattern(pattern_index)
        lead = -1 if search or not self.tables.anchored[pattern_index] else self.tables.lead[pattern_index]
        start = max(0, low - CONTEXT - 4 * max(self.tables.lead[pattern_index], 0))
        end = min(len(raw), high + CONTEXT)
        window = raw[start:end].decode("utf-8", "surrogateescape")
        hit = len(raw[start:low].decode("utf-8", "surrogateescape"))
        # large windows (hostile lines, merged clusters) always run under the
        # timeout: its fixed cost is noise there, and nothing may hang the scan
        timeout = self.timeout if self.tables.guarded[pattern_index] or end - start > LARGE_WINDOW else None
        # without a timeout, the pattern as ``re`` compiled it (see _Verifier), else as ``regex`` did
        keywords: dict[str, float | None] = {}
        if timeout is None and verifier.fast is not None:
            compiled = verifier.fast
        else:
            compiled, keywords = verifier.exact(), {"timeout": timeout}
        try:
            if lead >= 0:
                # the match starts at most `lead` characters before the hit: the
                # leftmost of those few anchored attempts is the match
                matches: Iterable[Any] = ()
                for position in range(max(0, hit - lead), hit + 1):
                    single = compiled.rx.match(window, position, **keywords)
                    if single is not None:
                        matches = (single,)
                        break
            else:
                matches = compiled.rx.finditer(window, hit, **keywords)
            for match in matches:
                span = _secret_of(match, compiled)
                if span is None:
                    continue
                absolute = start + len(window[: span[0]].encode("utf-8", "surrogateescape"))
                length = len(window[span[0] : span[1]].encode("utf-8", "surrogateescape"))
                yield absolute, absolute + length, compiled
        except TimeoutError:
            return  # a pathological window for this pattern: skip it, never hang

    @staticmethod
    def _findings(raw: bytes, kept: list[tuple[int, int, _Compiled]]) -> list[Finding]:
        """Turn byte spans into findings; line numbers are counted once, in order."""
        findings = []
        line, counted_to = 1, 0
        for start, end, compiled in sorted(kept, key=lambda item: item[0]):
            line += raw.count(b"\n", counted_to, start)
            counted_to = start
            line_start = raw.rfind(b"\n", 0, start) + 1
            column = len(raw[line_start:start].decode("utf-8", "surrogateescape")) + 1
            length = len(raw[start:end].decode("utf-8", "surrogateescape"))
            findings.append(Finding(compiled.pattern.id, compiled.pattern.category, line, column, length))
        findings.sort(key=lambda f: (f.line, f.column, f.rule))
        return findings

    def spans(self, data: bytes) -> list[tuple[int, int, str]]:
        """Return (start, end, pattern id) byte spans, for redaction inside the engine only."""
        windows, _ = self._search(data)
        return sorted((s, e, c.pattern.id) for s, e, c in _dedupe(self._verify_all(data, windows)))

    def __getstate__(self) -> dict[str, Any]:
        tables = self.tables
        index = tables.keywords
        if isinstance(index.bucket_of, memoryview):  # read back by from_plain: pickle takes arrays, not views
            from array import array

            index = index._replace(**{name: array(view.format, view.tobytes()) for name, view in
                                      (("bucket_of", index.bucket_of), ("bucket_start", index.bucket_start),
                                       ("bucket_ids", index.bucket_ids))})
            tables = tables._replace(keywords=index)
        return {"patterns": self.patterns, "timeout": self.timeout, "tables": tables}

    def to_plain(self) -> tuple[Any, ...]:
        """The scanner as nested built-in values, for ``marshal`` (see ``from_plain``).

        The ``filter`` command loads the scanner on every call: ``marshal`` is
        built into the interpreter, where unpickling would import ``pickle``'s
        machinery (and ``functools``) into every process.
        """
        index = self.tables.keywords
        keywords = (index.literals, index.fold, index.prefilter, index.bucket_of.tobytes(),
                    index.bucket_start.tobytes(), index.bucket_ids.tobytes(), index.ignore_case)
        return (_PLAIN_FORMAT, tuple(tuple(pattern) for pattern in self.patterns), self.timeout,
                (keywords, *self.tables[1:]))

    @classmethod
    def from_plain(cls, plain: tuple[Any, ...]) -> Scanner:
        """Rebuild a scanner from ``to_plain``'s values; ``ValueError`` when they are not such values.

        The bucket tables become memoryviews of the bytes, cast to their item
        type: both twins read them as they read arrays, and importing ``array``
        would import ``collections`` into every ``filter`` process (3 ms).
        """
        try:
            fmt, patterns, timeout, (keywords, *tables) = plain
            if fmt != _PLAIN_FORMAT:
                raise ValueError(f"scanner format {fmt!r}")
            literals, fold, prefilter, bucket_of, bucket_start, bucket_ids, ignore_case = keywords
            index = _speedups.BigramIndex(literals, fold, prefilter, memoryview(bucket_of).cast("H"),
                                          memoryview(bucket_start).cast("i"), memoryview(bucket_ids).cast("i"),
                                          ignore_case)
            state = {"patterns": tuple(SecretPattern(*pattern) for pattern in patterns), "timeout": timeout,
                     "tables": ScanTables(index, *tables)}
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a plain scanner: {exc}") from None
        scanner = cls.__new__(cls)
        scanner.__setstate__(state)
        return scanner

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.patterns = state["patterns"]
        self.timeout = state["timeout"]
        self.tables = state["tables"]
        self._compiled = {}


class _Verifier:
    """A secret pattern as the production scan verifies a candidate window with it.

    Importing ``regex`` costs a ``filter`` run 32 ms here, and a window of
    ordinary output (a file named ``tokens.py``) is verified often.  So a
    pattern that needs no timeout is matched with ``re``, built from the
    programs the regex cache keeps, when ``re`` compiles it without a warning;
    the ``regex`` module's pattern (``exact``) is built only for a pattern
    ``re`` refuses and for the windows verified under a timeout (guarded
    patterns, among them every one ``re`` would read otherwise, and long
    windows).  Version 0 of ``regex``, the one the patterns use,
    is ``re``'s syntax and semantics; the conformance tests run both ways.
    """

    __slots__ = ("_exact", "fast", "order", "pattern")

    def __init__(self, pattern: SecretPattern, order: int) -> None:
        self.pattern = pattern
        self.order = order
        self._exact: _Compiled | None = None
        self.fast: _Compiled | None
        try:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("error")  # re's FutureWarning marks syntax regex reads otherwise
                self.fast = _Compiled(pattern, order, _regex.compile)
        except Exception:  # noqa: BLE001 - any refusal: the regex module's pattern
            self.fast = None

    def exact(self) -> _Compiled:
        """The pattern as the ``regex`` module compiles it (with timeouts), built on first use."""
        if self._exact is None:
            self._exact = _Compiled(self.pattern, self.order)
        return self._exact


def scanner_from_settings(settings: dict[str, Any] | None) -> Scanner | None:
    """Build the scanner a rule set asks for: built-ins minus disabled ids, plus extras.

    ``None`` when the security pass is switched off.
    """
    settings = settings or {}
    if not settings.get("enabled", True):
        return None
    disabled = set(settings.get("disabled_patterns") or ())
    extras = tuple(settings.get("extra_patterns") or ())
    if not disabled and not extras:
        return default_scanner()
    patterns = [p for p in load_patterns() if p.id not in disabled]
    for extra in extras:
        patterns.append(SecretPattern(
            id=extra["id"], category=extra.get("category", "generic"), description=extra.get("description", ""),
            regex=extra["regex"], secret_group=int(extra.get("secret_group", 0)),
            keywords=tuple(k.lower() for k in extra["keywords"]), entropy=extra.get("entropy"),
            allowlist=tuple(extra.get("allowlist") or ()),
        ))
    return Scanner(patterns, line_words=SIGNAL_WORDS)


def notice(findings: Sequence[Finding], limit: int = 10) -> str:
    """Return the one-line warning appended to filtered output (no values).

    Findings of one pattern share one entry listing their lines, so the notice stays short
    next to the output it annotates; past ``limit`` lines the rest are counted.
    """
    groups: dict[tuple[str, str], list[int]] = {}
    for finding in findings[:limit]:
        groups.setdefault((finding.rule, finding.category), []).append(finding.line)
    parts = [f"{rule} ({category}) line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"
             for (rule, category), lines in groups.items()]
    more = f", and {len(findings) - limit} more" if len(findings) > limit else ""
    noun = "string" if len(findings) == 1 else "strings"
    return f"[security] {len(findings)} credential-shaped {noun} (values not shown): " + "; ".join(parts) + more


_DEFAULT: Scanner | None = None


def default_scanner() -> Scanner:
    """Return a scanner over the built-in patterns (built once per process).

    It also marks the lines holding a security-signal word, which the filter
    pipeline reads from the same pass (``scan_marking_lines``).
    """
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Scanner(load_patterns(), line_words=SIGNAL_WORDS)
    return _DEFAULT
