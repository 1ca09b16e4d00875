"""Pure-Python reference scanner for credential-shaped strings.

This is the slow, obviously-correct twin of the compiled security pass: it
reads the built-in patterns from ``builtin_rules/security.toml`` and reports
*where* a credential-shaped string is, never *what* it is.  A :class:`Finding`
carries a rule id, a category and a position; it has no field that could hold
the secret value, so nothing built from findings (reprs, logs, JSON reports)
can leak one.

Dependencies: the ``regex`` module (for per-call timeouts) and the standard
library (``tomllib`` on Python 3.11+, ``tomli`` as a fallback on 3.10).
"""

from __future__ import annotations

from .._records import NamedTuple

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from pathlib import Path
    from typing import Any

    import regex  # imported where a pattern is compiled: the warm filter path mostly needs neither

    #: The built-in pattern file shipped with the package (a ``Path``, made on first use).
    DEFAULT_PATTERNS_PATH: Path

__all__ = [
    "CATEGORIES",
    "DEFAULT_PATTERNS_PATH",
    "Finding",
    "SecretPattern",
    "load_patterns",
    "scan_text",
    "shannon_entropy",
]

#: Categories a pattern may declare, most specific first.
CATEGORIES = ("cloud", "platform", "private_key", "token", "password", "generic")

def __getattr__(name: str) -> Path:
    if name != "DEFAULT_PATTERNS_PATH":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from pathlib import Path

    path = globals()[name] = Path(__file__).resolve().parents[1] / "builtin_rules" / "security.toml"
    return path

#: Seconds one ``finditer`` pass of one pattern may take before it is abandoned.
DEFAULT_TIMEOUT = 0.5

_MAX_REGEX_LEN = 512


class SecretPattern(NamedTuple):
    """One credential pattern, as declared in ``security.toml``."""

    id: str
    category: str
    description: str
    regex: str
    secret_group: int = 0
    keywords: tuple[str, ...] = ()
    entropy: float | None = None
    allowlist: tuple[str, ...] = ()


class Finding(NamedTuple):
    """Where a credential-shaped string was seen.  Deliberately has no value field."""

    rule: str
    category: str
    line: int  # 1-based
    column: int  # 1-based, in characters
    length: int  # in characters


def shannon_entropy(s: str) -> float:
    """Shannon entropy of ``s`` in bits per character (0.0 for the empty string)."""
    if not s:
        return 0.0
    # imported here: the production scanner imports this module on every ``filter`` run
    from math import log2

    n = len(s)
    counts = dict.fromkeys(s, 0)  # Counter's order (first occurrence), so the same sum; no collections import
    for character in s:
        counts[character] += 1
    return -sum((c / n) * log2(c / n) for c in counts.values())


def _pattern_from_table(table: dict[str, object], source: str) -> SecretPattern:
    try:
        pid = str(table["id"])
        category = str(table["category"])
        rx = str(table["regex"])
        keywords = tuple(str(k) for k in table["keywords"])  # type: ignore[attr-defined]
    except KeyError as exc:
        raise ValueError(f"{source}: pattern is missing required key {exc}") from None
    if category not in CATEGORIES:
        raise ValueError(f"{source}: pattern {pid!r} has unknown category {category!r}")
    if not keywords:
        raise ValueError(f"{source}: pattern {pid!r} has no keywords")
    if len(rx) > _MAX_REGEX_LEN:
        raise ValueError(f"{source}: pattern {pid!r} regex is longer than {_MAX_REGEX_LEN}")
    entropy = table.get("entropy")
    return SecretPattern(
        id=pid,
        category=category,
        description=str(table.get("description", "")),
        regex=rx,
        secret_group=int(table.get("secret_group", 0)),  # type: ignore[call-overload]
        keywords=keywords,
        entropy=float(entropy) if entropy is not None else None,  # type: ignore[arg-type]
        allowlist=tuple(str(a) for a in table.get("allowlist", ())),  # type: ignore[attr-defined]
    )


def load_patterns(path: str | Path | None = None) -> tuple[SecretPattern, ...]:
    """Load patterns from a TOML file (default: the built-in ``security.toml``)."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib as _toml
    else:  # pragma: no cover - Python 3.10
        import tomli as _toml

    from pathlib import Path

    p = Path(path) if path is not None else __getattr__("DEFAULT_PATTERNS_PATH")
    with p.open("rb") as fh:
        data = _toml.load(fh)
    patterns = tuple(_pattern_from_table(t, str(p)) for t in data.get("patterns", ()))
    seen: set[str] = set()
    for pat in patterns:
        if pat.id in seen:
            raise ValueError(f"{p}: duplicate pattern id {pat.id!r}")
        seen.add(pat.id)
    return patterns


class _Compiled:
    __slots__ = ("allow", "keywords", "order", "pattern", "rx")

    def __init__(self, pattern: SecretPattern, order: int, compiler: Callable[[str], Any] | None = None) -> None:
        """Compile the pattern and its allowlist with ``compiler``, by default the ``regex`` module's."""
        if compiler is None:
            import regex

            compiler = regex.compile
        self.pattern = pattern
        self.rx: Any = compiler(pattern.regex)  # a regex pattern, or an re one (see security._Verifier)
        self.allow = tuple(compiler(a) for a in pattern.allowlist)
        self.keywords = tuple(k.lower() for k in pattern.keywords)
        self.order = order


_CACHE: dict[tuple[SecretPattern, ...], tuple[_Compiled, ...]] = {}


def _compile_all(patterns: Sequence[SecretPattern]) -> tuple[_Compiled, ...]:
    key = tuple(patterns)
    compiled = _CACHE.get(key)
    if compiled is None:
        compiled = tuple(_Compiled(p, i) for i, p in enumerate(key))
        if len(_CACHE) > 16:
            _CACHE.clear()
        _CACHE[key] = compiled
    return compiled


def _secret_span(m: regex.Match[str], group: int) -> tuple[int, int]:
    """Span of the secret in a match: the declared group, else the first group that took part."""
    if group and m.start(group) >= 0:
        return m.span(group)
    if group:
        for g in range(1, (m.re.groups or 0) + 1):
            if m.start(g) >= 0 and m.end(g) > m.start(g):
                return m.span(g)
    return m.span(0)


def _secret_of(m: regex.Match[str], c: _Compiled) -> tuple[int, int] | None:
    """Return the span of a match's secret, or None when it is empty, too random-poor or allowlisted."""
    start, end = _secret_span(m, c.pattern.secret_group)
    if end <= start:
        return None
    value = m.string[start:end]
    if c.pattern.entropy is not None and shannon_entropy(value) < c.pattern.entropy:
        return None
    if any(a.search(value) for a in c.allow):
        return None
    return start, end


def _raw_findings(
    text: str, compiled: Iterable[_Compiled], timeout: float
) -> list[tuple[int, int, _Compiled]]:
    lowered = text.lower()
    out: list[tuple[int, int, _Compiled]] = []
    for c in compiled:
        if not any(k in lowered for k in c.keywords):
            continue
        hits: list[tuple[int, int, _Compiled]] = []
        try:
            for m in c.rx.finditer(text, overlapped=False, timeout=timeout):
                span = _secret_of(m, c)
                if span is not None:
                    hits.append((span[0], span[1], c))
        except TimeoutError:
            continue  # a pathological input for this pattern: skip the pattern, not the scan
        out.extend(hits)
    return out


def _dedupe(raw: list[tuple[int, int, _Compiled]]) -> list[tuple[int, int, _Compiled]]:
    """Drop redundant findings.

    * the same rule overlapping itself: keep the longest span;
    * a generic finding overlapping a specific (non-generic) one: keep the specific one;
    * two rules on exactly the same span: keep the more specific (non-generic, then the
      one declared first in the pattern file).
    """

    def rank(item: tuple[int, int, _Compiled]) -> tuple[int, int, int]:
        s, e, c = item
        return (1 if c.pattern.category == "generic" else 0, c.order, -(e - s))

    kept: list[tuple[int, int, _Compiled]] = []
    for item in sorted(raw, key=rank):
        s, e, c = item
        generic = c.pattern.category == "generic"
        redundant = False
        for ks, ke, kc in kept:
            if ks >= e or s >= ke:
                continue  # no overlap
            if kc is c or (ks, ke) == (s, e):
                redundant = True
                break
            if generic and kc.pattern.category != "generic":
                redundant = True
                break
            if generic and kc.pattern.category == "generic" and ks <= s and e <= ke:
                redundant = True
                break
        if not redundant:
            kept.append(item)
    return kept


def scan_text(
    text: str,
    patterns: Sequence[SecretPattern] | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> list[Finding]:
    """Find credential-shaped strings in ``text``.

    Returns findings sorted by (line, column, rule).  Only positions are reported.
    """
    if patterns is None:
        patterns = load_patterns()
    if not text:
        return []
    from bisect import bisect_right

    compiled = _compile_all(patterns)
    kept = _dedupe(_raw_findings(text, compiled, timeout))
    line_starts = [0]
    pos = text.find("\n")
    while pos >= 0:
        line_starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    findings = []
    for start, end, c in kept:
        idx = bisect_right(line_starts, start) - 1
        findings.append(
            Finding(
                rule=c.pattern.id,
                category=c.pattern.category,
                line=idx + 1,
                column=start - line_starts[idx] + 1,
                length=end - start,
            )
        )
    findings.sort(key=lambda f: (f.line, f.column, f.rule))
    return findings
