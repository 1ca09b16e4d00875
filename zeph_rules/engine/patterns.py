"""Regexes, globs and the literals the matcher graph indexes them by.

Two glob flavours, decided by the field being matched:

* command globs (``command ~ "git push *"``, permission patterns for shell
  tools): ``*`` matches any run of characters, ``/`` included;
* path globs (``path ~ "/etc/**"``, the file sandbox, permission patterns for
  file tools): ``*`` and ``?`` stop at ``/``; ``**`` crosses directories.

``~i`` compares ``casefold()``-ed text with the ``casefold()``-ed glob.

Regexes use the ``regex`` module (a time-bounded match never hangs the engine).
Literal extraction is conservative: it may return nothing (the rule is then
checked for every query), but whatever it returns must occur in every match.
"""

from __future__ import annotations

from .. import _regex
from .._memo import bounded_cache

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    import re
    from collections.abc import Iterable
    from typing import Any

MAX_PATTERN_CHARS = 512
#: Seconds one regex evaluation may take before it counts as "no match".
REGEX_TIMEOUT = 0.25

_FLAG_BITS = {"i": _regex.IGNORECASE, "m": _regex.MULTILINE, "s": _regex.DOTALL, "x": _regex.VERBOSE}


class RegexProblem(ValueError):
    """A regex does not compile; ``offset`` points into the pattern when known."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@bounded_cache(maxsize=65536)
def compile_regex(source: str, flags: str = "") -> Any:
    """Compile a rule regex with the ``regex`` module, raising ``RegexProblem``."""
    import regex

    bits = 0
    for flag in flags:
        bits |= {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}[flag]
    try:
        return regex.compile(source, bits | regex.V0)
    except regex.error as exc:
        message = str(exc.msg if hasattr(exc, "msg") else exc)
        raise RegexProblem(message, getattr(exc, "pos", None)) from None


#: ``required_literals`` answers proven in another process: a cached filter plan carries those of its
#: patterns, so a ``filter`` run does not parse them again (about 0.2 ms a pattern)
_PROVEN: dict[tuple[str, str], tuple[tuple[str, ...], bool] | None] = {}


def remember_required_literals(proven: Iterable[tuple[str, str, tuple[tuple[str, ...], bool] | None]]) -> None:
    """Take ``(source, flags, required_literals(source, flags))`` answers worked out earlier by this version."""
    for source, flags, answer in proven:
        _PROVEN[source, flags] = answer


@bounded_cache(maxsize=4096)
def required_literals(source: str, flags: str = "") -> tuple[tuple[str, ...], bool] | None:
    """Return literals one of which occurs in every match, and whether to look in folded text; None: unknown.

    The same proof the matcher graph indexes ``=~`` by; case-insensitive
    literals are kept only when all are ASCII (then they are casefolded).
    """
    if (source, flags) in _PROVEN:
        return _PROVEN[source, flags]
    found = regex_literal_alternatives(source, flags)
    if found is None:
        return None
    literals, fold = found
    if fold:
        if not all(literal.isascii() for literal in literals):
            return None
        literals = [literal.casefold() for literal in literals]
    return tuple(literals), fold


def regex_may_match(source: str, flags: str, text: str, folded: str | None = None) -> bool:
    """Return False only when the regex cannot match in ``text``: none of its required literals is there.

    Cheap enough to run before compiling, so a rule whose patterns cannot
    apply never costs a compilation (nor, on the warm path, the ``regex``
    import).  ``folded`` is ``fold_for_prefilter(text)`` when the caller has it.
    """
    required = required_literals(source, flags)
    if required is None:
        return True
    literals, fold = required
    if fold:
        haystack = folded if folded is not None else fold_for_prefilter(text)
    else:
        haystack = text
    return any(literal in haystack for literal in literals)


def regex_search(source: str, flags: str, text: str) -> bool:
    """Return whether the regex matches anywhere in ``text``; a timeout is no match."""
    try:
        return compile_regex(source, flags).search(text, timeout=REGEX_TIMEOUT) is not None
    except TimeoutError:
        return False


# ---------------------------------------------------------------- globs


def glob_to_regex(glob: str, path: bool = False) -> str:
    """Translate a glob into an anchored regex source string."""
    from re import escape

    out: list[str] = []
    i, n = 0, len(glob)
    star = "[^/]*" if path else ".*"
    one = "[^/]" if path else "."
    while i < n:
        ch = glob[i]
        if ch == "*":
            j = i
            while j < n and glob[j] == "*":
                j += 1
            if path and j - i >= 2:
                if j < n and glob[j] == "/":  # "**/" matches zero or more directories
                    out.append("(?:.*/)?")
                    j += 1
                else:
                    out.append(".*")
            else:
                out.append(star)
            i = j
            continue
        if ch == "?":
            out.append(one)
        elif ch == "[":
            j = glob.find("]", i + 2 if glob[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
            if j == -1:
                out.append(escape(ch))
            else:
                body = glob[i + 1 : j]
                negate = body[:1] in ("!", "^")
                if negate:
                    body = body[1:]
                body = body.replace("\\", "\\\\")
                out.append(f"[{'^' if negate else ''}{body}]")
                i = j
        elif ch == "\\" and i + 1 < n:
            i += 1
            out.append(escape(glob[i]))
        else:
            out.append(escape(ch))
        i += 1
    return "(?s:" + "".join(out) + r")\Z"


@bounded_cache(maxsize=65536)
def compiled_glob(glob: str, path: bool, fold: bool) -> re.Pattern[str]:
    """Compile a glob (casefolded when ``fold``) into an anchored ``re`` pattern."""
    return _regex.compile(glob_to_regex(glob.casefold() if fold else glob, path))


_PREFILTER_FOLD = {0x131: "i", 0x17F: "s", 0x212A: "k", 0x212B: "\u00e5"}


def fold_for_prefilter(text: str) -> str:
    """Casefold ``text`` and map the few characters regex case-folding equates with ASCII."""
    return text.casefold().translate(_PREFILTER_FOLD)


def glob_match(glob: str, text: str, path: bool = False, fold: bool = False) -> bool:
    """Return whether ``text`` matches ``glob`` as a whole."""
    return compiled_glob(glob, path, fold).match(text.casefold() if fold else text) is not None


def glob_literals(glob: str) -> list[str]:
    """Return the literal runs of a glob (every one occurs in every match)."""
    runs: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(glob):
        ch = glob[i]
        if ch in "*?[":
            if ch == "[" and glob.find("]", i + 1) == -1:
                current.append(ch)
                i += 1
                continue
            if current:
                runs.append("".join(current))
                current = []
            if ch == "[":
                i = glob.find("]", i + 2 if glob[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
        elif ch == "\\" and i + 1 < len(glob):
            i += 1
            current.append(glob[i])
        else:
            current.append(ch)
        i += 1
    if current:
        runs.append("".join(current))
    return runs


def glob_prefix(glob: str) -> str:
    """Return the literal text every match must start with ('' after a leading wildcard)."""
    if glob[:1] in ("*", "?") or (glob[:1] == "[" and "]" in glob[1:]):
        return ""
    runs = glob_literals(glob)
    return runs[0] if runs else ""


# ---------------------------------------------------------------- regex literals


#: ``regex``-module syntax that ``re`` parses differently (fuzzy counts, POSIX classes).
_REGEX_ONLY_SYNTAX_SOURCE = r"\{[^}]*[eids]\s*[<=]|\[:|\\[pPNXLGKmM]|\(\?[|V]|\(\?[a-zA-Z]*[fbVwr]"


def regex_only_syntax(source: str) -> bool:
    """Whether ``source`` uses ``regex``-module syntax that ``re`` parses differently."""
    import re

    return re.search(_REGEX_ONLY_SYNTAX_SOURCE, source) is not None  # compiled on first use, then re's cache


def regex_literal_alternatives(source: str, flags: str = "") -> tuple[list[str], bool] | None:
    """Return literals of which at least one occurs in every match, and whether case is ignored.

    ``None`` means no such set could be proven; the caller must then treat the
    rule as a candidate for every input.
    """
    from ._sre import sre_parse

    if regex_only_syntax(source):
        return None  # the stdlib parser would read these as literal text
    bits = 0
    for flag in flags:
        bits |= _FLAG_BITS.get(flag, 0)
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            parsed = sre_parse.parse(source, bits)
    except Exception:  # noqa: BLE001 - a `regex`-only construct: no literals, still correct
        return None
    ignore_case = bool(parsed.state.flags & _regex.IGNORECASE)
    alternatives = _required(list(parsed.data), sre_parse)
    if not alternatives:
        return None
    return alternatives, ignore_case


def _required(items: list[Any], sre_parse: Any) -> list[str] | None:
    """Best set of alternatives (any one must occur) for a sequence of parsed items."""
    best: list[str] | None = None
    run: list[str] = []

    def consider(candidate: list[str] | None) -> None:
        nonlocal best
        if candidate and all(candidate) and (best is None or _score(candidate) > _score(best)):
            best = candidate

    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            run.append(chr(arg))
            continue
        consider(["".join(run)] if run else None)
        run = []
        if name == "SUBPATTERN":
            sub = arg[-1]
            group_flags = arg[1] if len(arg) > 2 else 0
            if group_flags & _regex.IGNORECASE:
                continue
            consider(_required(list(sub), sre_parse))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, sub = arg
            if low >= 1:
                consider(_required(list(sub), sre_parse))
        elif name == "ATOMIC_GROUP":
            consider(_required(list(arg), sre_parse))
        elif name == "BRANCH":
            branches = [_required(list(branch), sre_parse) for branch in arg[1]]
            if all(branches):
                merged = [lit for branch in branches for lit in branch]  # type: ignore[union-attr]
                consider(sorted(set(merged)))
        elif name == "IN":
            chars = [chr(a) for o, a in arg if str(o) == "LITERAL"]
            if len(chars) == len(arg) and 1 < len(chars) <= 4:
                consider(chars)
    consider(["".join(run)] if run else None)
    return best


def _score(alternatives: Iterable[str]) -> float:
    """Prefer few, long alternatives: the shortest one bounds selectivity."""
    alts = list(alternatives)
    return min(len(a) for a in alts) - 0.1 * len(alts)
