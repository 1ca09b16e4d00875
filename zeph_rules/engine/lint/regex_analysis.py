"""Find regex shapes that backtrack catastrophically, on the stdlib parse tree.

Exponential backtracking needs a loop whose body can match the same text in
two ways.  Two shapes cover nearly every case seen in the wild, and both are
checked *with* the character sets involved, so harmless nesting such as
``(-\\S+\\s+)*`` (the inner pieces cannot trade characters) is not flagged:

* **nested quantifier** — a loop whose body ends (or starts) with a variable
  repetition that can also match the body's first (last) character:
  ``(a+)+``, ``(\\w+\\s?)*``, ``(\\s?\\w+)+``; or whose body holds two adjacent
  variable repetitions that can trade characters: ``(\\d+\\d+)+``;
* **overlapping alternation** — a loop over alternatives that can match the
  same text: ``(a|a)*``, ``(\\w|\\d)+``, ``(.|\\s)*``.

Possessive loops are safe and skipped.  Positions come from a light scan of
the source that pairs each quantifier with the atom it applies to.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .._sre import sre_constants, sre_parse
from . import charsets
from .automata import Unsupported, category_ranges, in_ranges
from .charsets import Ranges

#: A loop repeats more than this many times before it counts as a loop.
LOOP_MIN = 1

_REPEATS = (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT)
_POSSESSIVE = getattr(sre_constants, "POSSESSIVE_REPEAT", None)
_ZERO_WIDTH = (sre_constants.AT, sre_constants.ASSERT, sre_constants.ASSERT_NOT)


@dataclass(frozen=True)
class Shape:
    """A risky shape: which kind, where in the pattern (offset, length), and the part's text."""

    code: str
    offset: int
    length: int
    fragment: str
    detail: str


def parse(source: str, flags: str = "") -> Any | None:
    """Parse with the stdlib parser, or None for `regex`-only syntax it cannot read."""
    from ..patterns import _FLAG_BITS, regex_only_syntax

    if regex_only_syntax(source):
        return None
    bits = 0
    for flag in flags:
        bits |= _FLAG_BITS.get(flag, 0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return sre_parse.parse(source, bits)
    except Exception:  # noqa: BLE001 - not analysable; validation reports real errors
        return None


def risky_shapes(source: str, flags: str = "") -> list[Shape]:
    """Return the catastrophic-backtracking shapes of a regex (empty when none or unknown)."""
    parsed = parse(source, flags)
    if parsed is None:
        return []
    analyser = _Analyser(parsed.state.flags)
    repeats = list(_repeat_nodes(list(parsed)))
    positions = quantifier_positions(source) if not parsed.state.flags & sre_constants.SRE_FLAG_VERBOSE else []
    found: list[Shape] = []
    for number, (node, flags_here) in enumerate(repeats):
        analyser.flags = flags_here
        problem = analyser.check_loop(node)
        if problem is None:
            continue
        code, detail = problem
        if len(positions) == len(repeats):
            start, _, end = positions[number]
        else:  # the parser reshaped the tree; point at the pattern as a whole
            start, end = 0, len(source)
        found.append(Shape(code, start, end - start, source[start:end], detail))
    seen = {shape.offset for shape in found}
    for shape in _alternation_shapes(source, positions, analyser):
        if shape.offset not in seen:
            found.append(shape)
    return sorted(found, key=lambda s: s.offset)


def _alternation_shapes(source: str, positions: list[tuple[int, int, int]], analyser: _Analyser) -> Iterator[Shape]:
    """Check looped groups' alternatives as written (the parser folds `(a|b)` into a class)."""
    import re

    for start, quant, end in positions:
        if source[start] != "(" or quant < 1 or source[quant - 1] != ")":
            continue
        quantifier = source[quant:end].rstrip("?")
        if quantifier.endswith("+") and len(quantifier) > 1:
            continue  # possessive
        bounds = re.fullmatch(r"\{(\d*)(?:,(\d*))?\}", quantifier)
        if bounds is not None:
            low = int(bounds.group(1) or 0)
            high = bounds.group(2)
            if high is not None and high != "" and int(high) - low < 2:
                continue
            if high is None:
                continue  # {n}: a fixed count
        head = re.match(r"\((\?(:|P<\w+>|<\w+>|[aiLmsux-]+:))?", source[start:quant])
        body = source[start + (head.end() if head else 1) : quant - 1]
        if source.startswith("(?", start) and head is not None and head.group(1) is None:
            continue  # a lookaround or other extension
        alternatives = _split_alternatives(body)
        if len(alternatives) < 2:
            continue
        parsed = [parse(alt) for alt in alternatives]
        if any(p is None for p in parsed):
            continue
        flat = [analyser._flatten(list(p)) for p in parsed]  # type: ignore[arg-type]
        if any(analyser._branches_overlap(a, b) for i, a in enumerate(flat) for b in flat[i + 1 :]):
            yield Shape("ZR202", start, end - start, source[start:end], "alternatives of the repeated group can match the same text")


def _split_alternatives(body: str) -> list[str]:
    """Split a group body at its top-level `|` (outside nested groups, classes and escapes)."""
    parts: list[str] = []
    depth, i, last = 0, 0, 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i = _class_end(body, i)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(body[last:i])
            last = i + 1
        i += 1
    parts.append(body[last:])
    return parts


def _repeat_nodes(items: Sequence[Any], flags: int = 0) -> Iterator[tuple[Any, int]]:
    """Yield every repeat node in pre-order (the order of their operands in the source)."""
    for op, arg in items:
        if op in _REPEATS or op is _POSSESSIVE:
            yield (op, arg), flags
            yield from _repeat_nodes(list(arg[2]), flags)
        elif op is sre_constants.SUBPATTERN:
            yield from _repeat_nodes(list(arg[3]), (flags | arg[1]) & ~arg[2])
        elif op is sre_constants.BRANCH:
            for branch in arg[1]:
                yield from _repeat_nodes(list(branch), flags)
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            yield from _repeat_nodes(list(arg[1]), flags)
        elif op is getattr(sre_constants, "ATOMIC_GROUP", None):
            yield from _repeat_nodes(list(arg), flags)
        elif op is sre_constants.GROUPREF_EXISTS:
            for branch in arg[1:]:
                if branch is not None:
                    yield from _repeat_nodes(list(branch), flags)


class _Analyser:
    def __init__(self, flags: int) -> None:
        self.flags = flags

    # ---------------------------------------------------------- character facts

    def chars(self, items: Sequence[Any]) -> Ranges:
        """Every character the sequence may consume."""
        out: list[Ranges] = []
        for op, arg in items:
            out.append(self._item_chars(op, arg))
        return charsets.union(*out)

    def _atom(self, op: Any, arg: Any) -> Ranges | None:
        try:
            if op is sre_constants.LITERAL:
                ranges: Ranges = ((arg, arg),)
            elif op is sre_constants.NOT_LITERAL:
                ranges = charsets.complement(((arg, arg),))
            elif op is sre_constants.ANY:
                ranges = charsets.ALL if self.flags & sre_constants.SRE_FLAG_DOTALL else charsets.complement(((10, 10),))
            elif op is sre_constants.IN:
                ranges = in_ranges(arg)
            elif op is sre_constants.CATEGORY:
                ranges = category_ranges(arg)
            else:
                return None
        except Unsupported:
            return charsets.ALL
        if self.flags & sre_constants.SRE_FLAG_IGNORECASE:
            ranges = charsets.with_case_variants(ranges)
        return ranges

    def _item_chars(self, op: Any, arg: Any) -> Ranges:
        atom = self._atom(op, arg)
        if atom is not None:
            return atom
        if op in _REPEATS or op is _POSSESSIVE:
            return self.chars(list(arg[2])) if arg[1] > 0 else charsets.EMPTY
        if op is sre_constants.SUBPATTERN:
            return self.chars(list(arg[3]))
        if op is sre_constants.BRANCH:
            return charsets.union(*(self.chars(list(b)) for b in arg[1]))
        if op is getattr(sre_constants, "ATOMIC_GROUP", None):
            return self.chars(list(arg))
        if op in _ZERO_WIDTH:
            return charsets.EMPTY
        return charsets.ALL  # back-references and the like: anything

    def nullable(self, items: Sequence[Any]) -> bool:
        return all(self._item_nullable(op, arg) for op, arg in items)

    def _item_nullable(self, op: Any, arg: Any) -> bool:
        if self._atom(op, arg) is not None:
            return False
        if op in _REPEATS or op is _POSSESSIVE:
            return arg[0] == 0 or self.nullable(list(arg[2]))
        if op is sre_constants.SUBPATTERN:
            return self.nullable(list(arg[3]))
        if op is sre_constants.BRANCH:
            return any(self.nullable(list(b)) for b in arg[1])
        if op is getattr(sre_constants, "ATOMIC_GROUP", None):
            return self.nullable(list(arg))
        return True

    def first(self, items: Sequence[Any], reverse: bool = False) -> Ranges:
        """Characters that can start (or, reversed, end) a match of the sequence."""
        out: list[Ranges] = []
        for op, arg in (reversed(items) if reverse else items):
            out.append(self._item_first(op, arg, reverse))
            if not self._item_nullable(op, arg):
                break
        return charsets.union(*out)

    def _item_first(self, op: Any, arg: Any, reverse: bool) -> Ranges:
        atom = self._atom(op, arg)
        if atom is not None:
            return atom
        if op in _REPEATS or op is _POSSESSIVE:
            return self.first(list(arg[2]), reverse) if arg[1] > 0 else charsets.EMPTY
        if op is sre_constants.SUBPATTERN:
            return self.first(list(arg[3]), reverse)
        if op is sre_constants.BRANCH:
            return charsets.union(*(self.first(list(b), reverse) for b in arg[1]))
        if op is getattr(sre_constants, "ATOMIC_GROUP", None):
            return self.first(list(arg), reverse)
        if op in _ZERO_WIDTH:
            return charsets.EMPTY
        return charsets.ALL

    # ---------------------------------------------------------- the checks

    def check_loop(self, node: tuple[Any, Any]) -> tuple[str, str] | None:
        op, (low, high, body) = node
        if op is _POSSESSIVE or not (high == sre_constants.MAXREPEAT or high > LOOP_MIN):
            return None
        body = list(body)
        if high == sre_constants.MAXREPEAT or high - low >= 2:
            starts, ends = self.first(body), self.first(body, reverse=True)
            for inner in self._edge_repeats(body, reverse=False):
                if charsets.intersect(self.chars(list(inner[1][2])), starts):
                    return "ZR201", "a repetition at the end of the repeated group can also match the group's start"
            for inner in self._edge_repeats(body, reverse=True):
                mine = self.chars(list(inner[1][2]))
                # a leading repetition can take characters from the previous iteration's end only
                # when it can also trade them with what follows it (`(a?a)+`); `(x+:y)+` is safe
                if charsets.intersect(mine, ends) and self._trades_forward(body, inner, mine):
                    return "ZR201", "a repetition at the start of the repeated group can also match the group's end"
            if self._adjacent_overlap(body):
                return "ZR201", "two repetitions side by side in the repeated group can trade characters"
            if self._overlapping_branches(body):
                return "ZR202", "alternatives of the repeated group can match the same text"
        return None

    def _variable(self, node: tuple[Any, Any]) -> bool:
        op, (low, high, body) = node
        return op in _REPEATS and (high == sre_constants.MAXREPEAT or high > low) and bool(charsets.intersect(self.chars(list(body)), charsets.ALL))

    def _edge_repeats(self, items: Sequence[Any], reverse: bool) -> Iterator[tuple[Any, Any]]:
        """Yield variable repetitions that can end (start) the sequence: all after (before) them is optional."""
        for op, arg in (items if reverse else reversed(items)):
            if (op in _REPEATS) and self._variable((op, arg)):
                yield (op, arg)
            elif op is sre_constants.SUBPATTERN:
                yield from self._edge_repeats(list(arg[3]), reverse)
            elif op is sre_constants.BRANCH:
                for branch in arg[1]:
                    yield from self._edge_repeats(list(branch), reverse)
            if not self._item_nullable(op, arg):
                return

    def _trades_forward(self, body: Sequence[Any], inner: tuple[Any, Any], mine: Ranges) -> bool:
        flat = self._flatten(body)
        for index, item in enumerate(flat):
            if item is inner or item == inner:
                rest = flat[index + 1 :]
                return self.nullable(rest) or bool(charsets.intersect(mine, self.first(rest)))
        return True  # nested deeper: stay cautious

    def _adjacent_overlap(self, items: Sequence[Any]) -> bool:
        flat = self._flatten(items)
        for i, (op, arg) in enumerate(flat):
            if not (op in _REPEATS and self._variable((op, arg))):
                continue
            mine = self.chars(list(arg[2]))
            for op2, arg2 in flat[i + 1 :]:
                if op2 in _REPEATS and self._variable((op2, arg2)) and charsets.intersect(mine, self.chars(list(arg2[2]))):
                    return True
                if not self._item_nullable(op2, arg2):
                    break
        return False

    def _flatten(self, items: Sequence[Any]) -> list[tuple[Any, Any]]:
        out: list[tuple[Any, Any]] = []
        for op, arg in items:
            if op is sre_constants.SUBPATTERN and not arg[1] and not arg[2]:
                out.extend(self._flatten(list(arg[3])))
            else:
                out.append((op, arg))
        return out

    def _overlapping_branches(self, items: Sequence[Any]) -> bool:
        flat = self._flatten(items)
        for op, arg in flat:
            if op is not sre_constants.BRANCH:
                continue
            branches = [self._flatten(list(b)) for b in arg[1]]
            for i, a in enumerate(branches):
                for b in branches[i + 1 :]:
                    if self._branches_overlap(a, b):
                        return True
        return False

    def _simple(self, items: list[tuple[Any, Any]]) -> tuple[Ranges, int, float, bool] | None:
        """(chars, min length, max length, free) for a sequence of atoms and repeated atoms.

        ``free`` means it matches *every* string over its characters within the
        length range (a single atom, or a single repeated atom).
        """
        chars: list[Ranges] = []
        low, high = 0, 0.0
        for op, arg in items:
            atom = self._atom(op, arg)
            if atom is not None:
                chars.append(atom)
                low, high = low + 1, high + 1
                continue
            if op in _REPEATS and len(arg[2]) == 1:
                inner = self._atom(*list(arg[2])[0])
                if inner is None:
                    return None
                chars.append(inner)
                low += arg[0]
                high += float("inf") if arg[1] == sre_constants.MAXREPEAT else arg[1]
                continue
            return None
        if not chars:
            return None
        return charsets.union(*chars), low, high, len(items) == 1

    def _branches_overlap(self, a: list[tuple[Any, Any]], b: list[tuple[Any, Any]]) -> bool:
        if a == b and a:
            return True
        sa, sb = self._simple(a), self._simple(b)
        if sa is None or sb is None:
            return False
        for x, y in ((sa, sb), (sb, sa)):
            if x[3] and charsets.subset(y[0], x[0]) and max(x[1], y[1]) <= min(x[2], y[2]) and y[0]:
                return True
        both_single = sa[1] == sa[2] == 1 and sb[1] == sb[2] == 1
        return both_single and bool(charsets.intersect(sa[0], sb[0]))


# ------------------------------------------------------------------ positions


def quantifier_positions(source: str) -> list[tuple[int, int, int]]:
    """Return (operand start, quantifier start, quantifier end) for every quantifier, by operand start."""
    found: list[tuple[int, int, int]] = []
    stack: list[int] = []
    atom: int | None = None  # where the last quantifiable atom started
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            atom = i
            i += 2
            continue
        if ch == "[":
            atom = i
            i = _class_end(source, i)
            continue
        if ch == "(":
            if source.startswith("(?#", i):
                close = source.find(")", i)
                i = n if close < 0 else close + 1
                continue
            stack.append(i)
            atom = None
            i += 1
            if source.startswith("?", i):
                i += 1  # `(?` is a group extension, not a quantifier
            continue
        if ch == ")":
            start = stack.pop() if stack else 0
            inline_flags = source[start : i + 1]
            atom = None if _is_flag_group(inline_flags) else start
            i += 1
            continue
        if ch in "*+?" or (ch == "{" and _brace_end(source, i) is not None):
            end = i + 1 if ch != "{" else _brace_end(source, i)
            assert end is not None
            if end < n and source[end] in "?+":
                end += 1  # lazy or possessive
            if atom is not None:
                found.append((atom, i, end))
            atom = None
            i = end
            continue
        atom = None if ch in "|^$" else i
        i += 1
    return sorted(found)


def _is_flag_group(text: str) -> bool:
    import re

    return re.fullmatch(r"\(\?[aiLmsux-]+\)", text) is not None


def _class_end(source: str, i: int) -> int:
    j = i + 1
    if source.startswith("^", j):
        j += 1
    if source.startswith("]", j):
        j += 1
    while j < len(source):
        if source[j] == "\\":
            j += 2
            continue
        if source[j] == "]":
            return j + 1
        j += 1
    return len(source)


def _brace_end(source: str, i: int) -> int | None:
    import re

    match = re.compile(r"\{(\d*)(,(\d*))?\}").match(source, i)
    if match is None or (match.group(1) == "" and match.group(2) is None):
        return None
    return match.end()


def matches_everything(source: str, flags: str = "") -> bool:
    """Return whether the regex matches the empty string and every probe line (so every line)."""
    from ..patterns import RegexProblem, compile_regex

    try:
        compiled = compile_regex(source, flags)
    except RegexProblem:
        return False
    probes = ("", "x", "error: build failed", "  at src/main.rs:12:5", "PASSED test_one", "#", "\t")
    try:
        return all(compiled.search(p, timeout=0.05) is not None for p in probes)
    except TimeoutError:
        return False
