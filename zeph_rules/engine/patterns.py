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


def _flag_bits(flags: str) -> int:
    """``re``'s flag bits for a rule regex's flag letters (``"im"``)."""
    bits = 0
    for flag in flags:
        bits |= _FLAG_BITS.get(flag, 0)
    return bits


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


if TYPE_CHECKING:
    #: (source, flags, required_literals, plain_re_line_limit, plain_re_reach)
    PatternFacts = tuple[str, str, tuple[tuple[str, ...], bool] | None, int, int]


def remember_pattern_facts(proven: Iterable[PatternFacts]) -> None:
    """Take ``pattern_facts`` answers worked out earlier by this version (a cached plan carries them)."""
    for source, flags, answer, limit, reach in proven:
        _PROVEN[source, flags] = answer
        _LIMITS[source, flags] = limit
        _REACH[source, flags] = reach


def pattern_facts(source: str, flags: str = "") -> PatternFacts:
    """What ``remember_pattern_facts`` takes for one pattern."""
    return (source, flags, required_literals(source, flags), plain_re_line_limit(source, flags),
            plain_re_reach(source, flags))


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


#: the backtracking steps one ``re`` call may be proven to need, at most, before it may run without a
#: timeout: at most about ``REGEX_TIMEOUT`` (5-10 ns a step here), what a ``regex`` call may take now
PLAIN_RE_STEP_BUDGET = 20_000_000

#: ``plain_re_line_limit`` and ``plain_re_reach`` answers worked out when a cached plan was
#: built (see ``remember_pattern_facts``)
_LIMITS: dict[tuple[str, str], int] = {}
_REACH: dict[tuple[str, str], int] = {}


@bounded_cache(maxsize=4096)
def plain_re_line_limit(source: str, flags: str = "") -> int:
    """Return the longest text on which ``re`` runs the rule regex within the step budget; 0: never.

    ``regex`` with a timeout costs about 2 µs a call, and importing the
    module about 30 ms a ``filter`` process.  ``re`` has no timeout, so it
    may only run a pattern whose worst case is proven small on the text at
    hand.  ``_backtracking_cost`` bounds the steps of a match from one start
    as ``factor * n ** degree``; a search not anchored at the start tries
    every start, one more ``n``.  A repeat of a part that can end several
    ways (the shape that backtracks exponentially), a backreference, a
    conditional, ``regex``-only syntax, a pattern ``re`` warns about or
    parses differently: 0, and the pattern keeps ``regex`` and its timeout.
    """
    known = _LIMITS.get((source, flags))
    if known is not None:
        return known
    from ._sre import sre_constants

    parsed = parse_as_re(source, _flag_bits(flags))
    if parsed is None:
        return 0
    cost = _backtracking_cost(list(parsed.data), sre_constants, parsed.state.flags)
    if cost is None:
        return 0
    factor, degree = cost[1]
    items: list[Any] = list(parsed.data)
    first_op, first_argument = items[0] if items else (None, None)
    anchored = first_op is sre_constants.AT and (
        first_argument is sre_constants.AT_BEGINNING_STRING
        or (first_argument is sre_constants.AT_BEGINNING and not parsed.state.flags & _regex.MULTILINE)
    )
    if not anchored:
        degree += 1  # a search tries every start
    if degree == 0:
        return max(PLAIN_RE_STEP_BUDGET - factor, 0)
    # the longest n with factor * (n + 1) ** degree + n within the budget
    low, high = 0, PLAIN_RE_STEP_BUDGET
    while low < high:
        middle = (low + high + 1) // 2
        if factor * (middle + 1) ** degree + middle <= PLAIN_RE_STEP_BUDGET:
            low = middle
        else:
            high = middle - 1
    return low


def parse_as_re(source: str, flags: int = 0) -> Any:
    """``re``'s parse of ``source``; None when ``re`` refuses it or may read it otherwise than ``regex`` does.

    ``regex``-only syntax (a POSIX class, a fuzzy count), a ``{`` that is not
    a counted repeat and anything ``re`` warns about (a nested set) mean the
    two engines may read different patterns: an analysis of ``re``'s parse
    would then prove things about a pattern that is never run.
    """
    if regex_only_syntax(source) or _loose_brace(source):
        return None
    import warnings

    from ._sre import sre_parse

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return sre_parse.parse(source, flags)
    except Exception:  # noqa: BLE001 - refused, or read with a warning
        return None


#: ``plain_re_reach``: ``re`` reads the pattern as ``regex`` does on no text, on ASCII text only (with its
#: ASCII flag), also on any text without the separators ``\\x1c``-``\\x1f``, or on any text at all
NO_TEXT, ASCII_TEXT, TEXT_WITHOUT_SEPARATORS, ANY_TEXT = -1, 0, 1, 2


@bounded_cache(maxsize=4096)
def plain_re_reach(source: str, flags: str = "") -> int:
    """On which texts ``re`` matches the rule regex as ``regex`` does: ``NO_TEXT``, ... ``ANY_TEXT``.

    The two engines differ only in what their classes take outside ASCII
    (``\\w`` and ``\\b`` take combining marks in ``regex`` only), in ``\\s``,
    which takes the separators ``\\x1c``-``\\x1f`` in ``re`` only, and in
    folding some letters' case (``İ``).  On an ASCII text ``re`` with its
    ASCII flag reads every pattern as ``regex`` does -- but one with a letter
    outside ASCII that may match ignoring case (``ſ`` and the Kelvin sign
    fold into ASCII under ``regex`` only), which it reads alike on no text.
    A pattern with no word class, no word boundary and no ignore-case reads
    alike on text without those separators, and with no space class either
    on any text.
    """
    known = _REACH.get((source, flags))
    if known is not None:
        return known
    from ._sre import sre_constants

    parsed = parse_as_re(source, _flag_bits(flags))
    if parsed is None:
        return NO_TEXT
    if parsed.state.flags & _regex.IGNORECASE or _scoped_ignore_case(parsed.data, sre_constants):
        return ASCII_TEXT if source.isascii() else NO_TEXT
    # category and anchor codes are small integers of two numberings (AT_BOUNDARY == CATEGORY_NOT_SPACE):
    # each is looked up among its own kind
    word_classes = (sre_constants.CATEGORY_WORD, sre_constants.CATEGORY_NOT_WORD)
    space_classes = (sre_constants.CATEGORY_SPACE, sre_constants.CATEGORY_NOT_SPACE)
    word_anchors = (sre_constants.AT_BOUNDARY, sre_constants.AT_NON_BOUNDARY)
    found_spaces = False

    def alike_class(category: Any) -> bool:
        nonlocal found_spaces
        if any(category is word for word in word_classes):
            return False
        found_spaces = found_spaces or any(category is space for space in space_classes)
        return True

    def alike(items: Any) -> bool:
        for op, argument in items:
            if op is sre_constants.IN:
                if not all(alike_class(value) for member, value in argument if member is sre_constants.CATEGORY):
                    return False
            elif op is sre_constants.CATEGORY:
                if not alike_class(argument):
                    return False
            elif op is sre_constants.AT:
                if any(argument is anchor for anchor in word_anchors):
                    return False
            elif op is sre_constants.SUBPATTERN:
                if not alike(argument[-1]):
                    return False
            elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
                if not alike(argument[1]):
                    return False
            elif op is sre_constants.ATOMIC_GROUP:
                if not alike(argument):
                    return False
            elif op is sre_constants.BRANCH:
                if not all(alike(branch) for branch in argument[1]):
                    return False
            elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT,
                        sre_constants.POSSESSIVE_REPEAT):
                if not alike(argument[2]):
                    return False
            elif op not in (sre_constants.LITERAL, sre_constants.NOT_LITERAL, sre_constants.ANY):
                return False  # anything not read here
        return True

    if not alike(parsed.data):
        return ASCII_TEXT
    return TEXT_WITHOUT_SEPARATORS if found_spaces else ANY_TEXT


def _scoped_ignore_case(items: Any, constants: Any) -> bool:
    """Whether a group of ``items`` turns ignore-case on (``(?i:...)``)."""
    for op, argument in items:
        if op is constants.SUBPATTERN:
            inner = [argument[-1]]
            if argument[1] & _regex.IGNORECASE:
                return True
        elif op is constants.BRANCH:
            inner = argument[1]
        elif op in (constants.MAX_REPEAT, constants.MIN_REPEAT, constants.POSSESSIVE_REPEAT):
            inner = [argument[2]]
        elif op in (constants.ASSERT, constants.ASSERT_NOT):
            inner = [argument[1]]
        elif op is constants.ATOMIC_GROUP:
            inner = [argument]
        else:
            continue
        if any(_scoped_ignore_case(part, constants) for part in inner):
            return True
    return False


def _loose_brace(source: str) -> bool:
    """Whether ``source`` holds a ``{`` that is not a counted repeat (``re`` reads it as text, ``regex`` may not)."""
    import re

    # an unescaped brace (after an even run of backslashes) that does not open {m}, {m,}, {,n} or {m,n}
    return re.search(r"(?<!\\)(?:\\\\)*\{(?!\d*(?:,\d*)?\})", source) is not None


#: a bound ``factor * n ** degree`` on a count of ways or of steps, for a text of ``n`` characters
if TYPE_CHECKING:
    Bound = tuple[int, int]


def _times(a: Bound, b: Bound) -> Bound:
    return a[0] * b[0], a[1] + b[1]


def _plus(a: Bound, b: Bound) -> Bound:
    return a[0] + b[0], max(a[1], b[1])  # f n^d + g n^e <= (f + g) n^max(d, e) for n >= 1


def _backtracking_cost(items: list[Any], constants: Any, flags: int) -> tuple[Bound, Bound] | None:
    """Bound matching ``items`` from one start: the ways it can end, and the steps it takes; None: no bound.

    Each part runs once for every way the parts before it can end, so a
    choice multiplies what follows by its options and a repeat by ``n`` --
    unless it is one that never gives a way back: a lookaround, an atomic
    group, or a repeat that cannot take the character that must follow it
    (``\\d+\\]``, ``\\S+ from``), whose backtracking is a walk back that
    fails at each step.  Those add their steps and leave one way.
    """
    ways: Bound = (1, 0)
    steps: Bound = (1, 0)
    simple = (constants.LITERAL, constants.NOT_LITERAL, constants.ANY, constants.IN, constants.AT,
              constants.CATEGORY)
    repeats = (constants.MAX_REPEAT, constants.MIN_REPEAT, constants.POSSESSIVE_REPEAT)
    for index, (op, argument) in enumerate(items):
        part: tuple[Bound, Bound] | None
        if op in simple:
            part = (1, 0), (1, 0)
        elif op is constants.SUBPATTERN:
            group_flags = (flags | argument[1]) & ~argument[2] if len(argument) == 4 else flags
            part = _backtracking_cost(list(argument[-1]), constants, group_flags)
        elif op in (constants.ATOMIC_GROUP, constants.ASSERT, constants.ASSERT_NOT):
            inner = _backtracking_cost(list(argument if op is constants.ATOMIC_GROUP else argument[1]),
                                       constants, flags)
            part = None if inner is None else ((1, 0), inner[1])  # never re-entered: one way on
        elif op is constants.BRANCH:
            options = [_backtracking_cost(list(branch), constants, flags) for branch in argument[1]]
            if any(option is None for option in options):
                return None
            known = [option for option in options if option is not None]
            part = ((sum(way[0] for way, _ in known), max(way[1] for way, _ in known)),
                    (sum(step[0] for _, step in known), max(step[1] for _, step in known)))
        elif op in repeats:
            low, high, body = argument
            inner = _backtracking_cost(list(body), constants, flags)
            if inner is None:
                return None
            body_ways, body_steps = inner
            if high is constants.MAXREPEAT:
                if body_ways != (1, 0):
                    return None  # a repeated part that can end several ways: exponential
                walk = _times((1, 1), body_steps)
                if op is constants.POSSESSIVE_REPEAT or _stops_before(list(body), items[index + 1 :], constants, flags):
                    part = (1, 0), walk  # possessive, or only its longest run can go on
                else:
                    part = (1, 1), walk
            else:
                # ways: one per count taken, each as many as its repeats can end; steps: each repeat runs
                # once per way the ones before it ended
                count = high - low + 1
                part = ((count * body_ways[0] ** high, body_ways[1] * high),
                        (max(high, 1) * body_ways[0] ** max(high - 1, 0) * body_steps[0],
                         body_ways[1] * max(high - 1, 0) + body_steps[1]))
        else:
            return None  # a backreference, a conditional, anything not read here
        if part is None:
            return None
        steps = _plus(steps, _times(ways, part[1]))
        ways = _times(ways, part[0])
        if steps[0] > PLAIN_RE_STEP_BUDGET or steps[1] > 8 or ways[0] > PLAIN_RE_STEP_BUDGET:
            return None
    return ways, steps


def _stops_before(body: list[Any], rest: list[Any], constants: Any, flags: int) -> bool:
    """Whether a one-character ``body`` can never match the character that must come right after it."""
    if len(body) != 1:
        return False
    followers = _first_items(rest, constants)
    if followers is None or followers[1]:
        return False  # what follows is unknown, or may be nothing (the rest lies outside this group)
    mine = _char_set(body[0], constants, flags)
    return mine is not None and all(
        (theirs := _char_set(item, constants, flags)) is not None and _disjoint(mine, theirs, constants, flags)
        for item in followers[0]
    )


def _first_items(items: list[Any], constants: Any) -> tuple[list[Any], bool] | None:
    """The one-character items a match of ``items`` may start with, and whether it may be empty; None: unknown."""
    found: list[Any] = []
    for op, argument in items:
        inner: tuple[list[Any], bool] | None
        if op is constants.AT:
            continue  # zero-width
        if op in (constants.LITERAL, constants.NOT_LITERAL, constants.IN, constants.ANY):
            return [*found, (op, argument)], False
        if op is constants.SUBPATTERN:
            inner = _first_items(list(argument[-1]), constants)
        elif op in (constants.MAX_REPEAT, constants.MIN_REPEAT, constants.POSSESSIVE_REPEAT):
            inner = _first_items(list(argument[2]), constants)
            if inner is not None and argument[0] == 0:
                inner = inner[0], True
        elif op is constants.BRANCH:
            options = [_first_items(list(branch), constants) for branch in argument[1]]
            known = [option for option in options if option is not None]
            if len(known) != len(options):
                return None
            inner = [item for option in known for item in option[0]], any(option[1] for option in known)
        else:
            return None
        if inner is None:
            return None
        found.extend(inner[0])
        if not inner[1]:
            return found, False
    return found, True


if TYPE_CHECKING:
    #: a one-character item as sets: (negated, characters, ranges, categories)
    CharSet = tuple[bool, frozenset[str], tuple[tuple[int, int], ...], frozenset[Any]]


def _char_set(item: tuple[Any, Any], constants: Any, flags: int) -> CharSet | None:
    """What a one-character item matches, as sets (case variants added under ignore-case); None: unknown."""
    op, argument = item
    fold = bool(flags & _regex.IGNORECASE)

    def variants(char: str) -> set[str]:
        return {char, char.lower(), char.upper()} if fold else {char}

    if op is constants.LITERAL:
        return False, frozenset(variants(chr(argument))), (), frozenset()
    if op is constants.NOT_LITERAL:
        return True, frozenset(variants(chr(argument))), (), frozenset()
    if op is constants.ANY:
        return True, frozenset() if flags & _regex.DOTALL else frozenset("\n"), (), frozenset()
    if op is not constants.IN:
        return None
    negated = False
    chars: set[str] = set()
    ranges: list[tuple[int, int]] = []
    categories: set[Any] = set()
    for member, value in argument:
        if member is constants.NEGATE:
            negated = True
        elif member is constants.LITERAL:
            chars |= variants(chr(value))
        elif member is constants.RANGE:
            if fold and value[1] - value[0] < 256:
                chars |= {variant for code in range(value[0], value[1] + 1) for variant in variants(chr(code))}
            elif fold:
                return None  # a wide range under ignore-case: its folds are not listed here
            else:
                ranges.append(value)
        elif member is constants.CATEGORY:
            categories.add(value)
        else:
            return None
    return negated, frozenset(chars), tuple(ranges), frozenset(categories)


def _disjoint(a: CharSet, b: CharSet, constants: Any, flags: int) -> bool:
    """Whether no character matches both one-character sets (False when unsure)."""
    if a[0] and b[0]:
        return False  # two complements always share something here
    if a[0] or b[0]:
        positive, negative = (b, a) if a[0] else (a, b)
        return _covers(negative, positive, constants, flags)
    for char in a[1]:
        if _in_set(char, b, constants, flags):
            return False
    for char in b[1]:
        if _in_set(char, a, constants, flags):
            return False
    for low, high in a[2]:
        if any(low <= other_high and other_low <= high for other_low, other_high in b[2]):
            return False
        if b[3] and not _range_outside(low, high, b[3], constants, flags):
            return False
    for low, high in b[2]:
        if a[3] and not _range_outside(low, high, a[3], constants, flags):
            return False
    apart = _apart_categories(constants)
    return all(frozenset((one, other)) in apart for one in a[3] for other in b[3])


def _apart_categories(constants: Any) -> set[frozenset[Any]]:
    """Pairs of categories no character is in both of (``\\d`` and ``\\s``, ``\\w`` and ``\\W``, ...)."""
    digit, not_digit = constants.CATEGORY_DIGIT, constants.CATEGORY_NOT_DIGIT
    space, not_space = constants.CATEGORY_SPACE, constants.CATEGORY_NOT_SPACE
    word, not_word = constants.CATEGORY_WORD, constants.CATEGORY_NOT_WORD
    return {frozenset(pair) for pair in ((digit, not_digit), (space, not_space), (word, not_word), (digit, space),
                                         (digit, not_word), (space, word))}


def _covers(negative: CharSet, positive: CharSet, constants: Any, flags: int) -> bool:
    """Whether every character of ``positive`` is among those ``negative`` excludes (its un-negated sets)."""
    excluded = (False, negative[1], negative[2], negative[3])
    if not all(_in_set(char, excluded, constants, flags) for char in positive[1]):
        return False
    for low, high in positive[2]:
        if high - low >= 256 or not all(_in_set(chr(code), excluded, constants, flags) for code in range(low, high + 1)):
            return False
    return all(category in negative[3] for category in positive[3])


def _in_set(char: str, charset: CharSet, constants: Any, flags: int) -> bool:
    """Whether ``char`` is in the (un-negated) sets of ``charset``."""
    if char in charset[1] or any(low <= ord(char) <= high for low, high in charset[2]):
        return True
    return any(_in_category(char, category, constants, flags) for category in charset[3])


def _range_outside(low: int, high: int, categories: frozenset[Any], constants: Any, flags: int) -> bool:
    """Whether no character of a small range is in any of ``categories`` (False for a wide range)."""
    if high - low >= 256:
        return False
    return not any(_in_category(chr(code), category, constants, flags)
                   for code in range(low, high + 1) for category in categories)


def _in_category(char: str, category: Any, constants: Any, flags: int) -> bool:
    import re

    sources = {
        constants.CATEGORY_DIGIT: r"\d", constants.CATEGORY_NOT_DIGIT: r"\D",
        constants.CATEGORY_SPACE: r"\s", constants.CATEGORY_NOT_SPACE: r"\S",
        constants.CATEGORY_WORD: r"\w", constants.CATEGORY_NOT_WORD: r"\W",
    }
    source = sources.get(category)
    # unknown: say yes, so that nothing is proven apart
    return True if source is None else re.match(source, char, flags & _regex.ASCII) is not None


class RulePattern:
    """A rule regex: run by ``re`` where its shape proves it fast on the text, else by ``regex`` with a timeout.

    ``re`` runs on texts up to ``limit`` characters: compiled with its ASCII
    flag on ASCII texts (where it then reads every pattern as ``regex``
    does), and as it is on the other texts ``plain_re_reach`` allows.
    ``search`` answers None and ``sub`` leaves the text as it is when a
    ``regex`` evaluation times out.
    """

    __slots__ = ("_any", "_ascii", "_exact", "_reach", "flags", "limit", "source")

    def __init__(self, source: str, flags: str = "") -> None:
        self.source, self.flags = source, flags
        #: the longest text ``re`` searches; -1: none, not even the empty line
        self.limit = -1
        self._ascii: Any = None
        self._any: Any = None
        self._exact: Any = None
        self._reach = NO_TEXT
        limit = plain_re_line_limit(source, flags)
        if not limit:
            return
        bits = _flag_bits(flags)
        try:
            self._reach = plain_re_reach(source, flags)
            if self._reach != NO_TEXT:
                self._ascii = _regex.compile(source, bits | _regex.ASCII)
            if self._reach > ASCII_TEXT:
                self._any = _regex.compile(source, bits)
        except Exception:  # noqa: BLE001 - re refuses what the analysis read: regex decides
            self._ascii = self._any = None
        if self._ascii is not None or self._any is not None:
            self.limit = limit

    def __repr__(self) -> str:
        return f"RulePattern({self.source!r}, {self.flags!r}, limit={self.limit})"

    def exact(self) -> Any:
        """The pattern compiled by the ``regex`` module (imported on first use)."""
        if self._exact is None:
            self._exact = compile_regex(self.source, self.flags)
        return self._exact

    def _plain(self, text: str) -> Any:
        """The ``re`` program for ``text``, or None when ``regex`` must answer."""
        if len(text) > self.limit:
            return None
        if text.isascii():  # a flag of the string: O(1)
            return self._ascii
        if self._reach == ANY_TEXT or (self._reach == TEXT_WITHOUT_SEPARATORS and _separators().search(text) is None):
            return self._any
        return None

    def search(self, text: str) -> Any:
        """The first match in ``text``, or None (also when the evaluation times out)."""
        plain = self._plain(text)
        if plain is not None:
            return plain.search(text)
        try:
            return self.exact().search(text, timeout=REGEX_TIMEOUT)
        except TimeoutError:
            return None

    def sub(self, replacement: str, text: str) -> str:
        """``text`` with every match replaced by ``replacement`` (unchanged when the evaluation times out)."""
        plain = self._plain(text)
        if plain is not None:
            return plain.sub(replacement, text)  # type: ignore[no-any-return]
        try:
            return self.exact().sub(replacement, text, timeout=REGEX_TIMEOUT)  # type: ignore[no-any-return]
        except TimeoutError:
            return text


@bounded_cache(maxsize=1)
def _separators() -> Any:
    """The ``re`` program that finds ``\\x1c``-``\\x1f``, compiled on first use."""
    return _regex.compile("[\x1c-\x1f]")


@bounded_cache(maxsize=4096)
def rule_pattern(source: str, flags: str = "") -> RulePattern:
    """The ``RulePattern`` of a rule regex (cached)."""
    return RulePattern(source, flags)


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


#: ``regex``-module syntax that ``re`` parses differently (fuzzy counts, POSIX classes such as ``[:alpha:]``
#: -- not ``[:-]``, a set of two characters to both).
_REGEX_ONLY_SYNTAX_SOURCE = r"\{[^}]*[eids]\s*[<=]|\[:\^?[A-Za-z_]+:\]|\\[pPNXLGKmM]|\(\?[|V]|\(\?[a-zA-Z]*[fbVwr]"


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

    parsed = parse_as_re(source, _flag_bits(flags))
    if parsed is None:
        return None  # a `regex`-only construct: no literals, still correct
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
