"""Types and small helpers shared by every output-filter strategy."""

from __future__ import annotations

# _collections_abc, not collections.abc: the same classes, from the module every interpreter has
# loaded at start-up; importing collections.abc imports collections, 3 ms of every ``filter`` run
from _collections_abc import Callable

from ... import _regex, _speedups
from ..._records import NamedTuple
from ..patterns import RulePattern, rule_pattern

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from typing import Any

#: git refusing before it prints anything of its own (``fatal: bad config line 9 in file .git/config``,
#: ``fatal: not a git repository``): understood, and nothing to cut
GIT_MESSAGE = _regex.compile(r"^(?:fatal|error|warning|usage): ")
#: what a compiler diagnostic's block (rustc's, ruff's full format) may have at the margin: a numbered
#: gutter or a fix's numbered line, ``...``, a bare gutter, ``= note``, ``help:``/``note:``, the rule between
#: two fixes.  Any other line at the margin (gcc's next diagnostic, make's ``make: *** ... Error 1``) is no
#: part of the block, blank line or not.
BLOCK_MARGIN = _regex.compile(r"^(?:\d+\s*[|│+~-]|\.\.\.|[|│=]|(?:note|help|suggestion)(?:\[\w+\])?:|-{10,}$)")
#: a whole run of hex characters holding a digit (a number, a hex id, ``sha256`` not, ``7f3a`` yes);
#: anchored at the run's start, so a run without a digit ("deadbeef", "aaaa...") costs one scan
#: instead of one per position -- unanchored, a 5 MB line of letters took minutes
NUMBERISH = _regex.compile(r"(?<![0-9A-Fa-f])[0-9A-Fa-f]*[0-9][0-9A-Fa-f]*")


_DOTLESS_I = str.maketrans({"\u0131": "i"})


def lines_with_words(text: str, words: tuple[str, ...]) -> list[int]:
    """Return the start offsets of the lines of ``text`` holding one of ``words`` (case-folded), ascending.

    A case-insensitive regex over megabytes of output is slow; this finds the
    few lines it can match with one substring search over the case-folded
    text.  The words must be case-folded; the dotless i and the dotted capital
    I are folded to ``i`` as the regex engines' ignore-case equates them.
    """
    folded = text.casefold()
    if "\u0131" in folded:  # instant on ASCII and Latin-1 text: the character cannot be there
        folded = folded.translate(_DOTLESS_I)
    if "\u0307" in folded:  # "İ" folds to "i" and a combining dot; the regexes equate it with "i"
        folded = folded.replace("i\u0307", "i")
    found = _speedups.lines_containing(folded, words)
    if len(folded) == len(text) or not found:
        return found
    # A character folded to several (a German ß, a ligature) moved the offsets, but each line
    # still folds to one line: a line found is found again by its number.  (Every line used to
    # be a candidate then: a 600 KB diff with one ß ran the security regex over all of it.)
    starts = []
    folded_at = text_at = 0
    for start in found:
        while folded_at < start:
            folded_at = folded.index("\n", folded_at) + 1
            text_at = text.index("\n", text_at) + 1
        starts.append(text_at)
    return starts


def line_indices(starts: Iterable[int], lines: list[str]) -> set[int]:
    """Return the indices in ``lines`` (``text.split("\\n")``) of the lines starting at ``starts`` (ascending)."""
    found: set[int] = set()
    wanted = iter(starts)
    next_start = next(wanted, -1)
    offset = 0
    for index, line in enumerate(lines):
        if next_start == -1:
            break
        if offset == next_start:
            found.add(index)
            next_start = next(wanted, -1)
        offset += len(line) + 1
    return found


class _ConfidenceLevels(type):
    """Lets the ``Confidence`` class be iterated and indexed by name, as an enum's can."""

    _members: tuple[Confidence, ...]

    def __iter__(cls) -> Iterator[Confidence]:
        return iter(cls._members)

    def __len__(cls) -> int:
        return len(cls._members)

    def __getitem__(cls, name: str) -> Confidence:
        for member in cls._members:
            if member.name == name:
                return member
        raise KeyError(name)


class Confidence(int, metaclass=_ConfidenceLevels):
    """How sure a strategy is that its output kept everything that matters (worst wins).

    Three ordered levels, ``FULL`` < ``PARTIAL`` < ``FALLBACK``, each an ``int``
    (0, 1, 2) with a ``name`` and a ``label``; ``Confidence(1)`` is
    ``Confidence.PARTIAL`` and ``Confidence["PARTIAL"]`` too.  It behaves as an
    ``IntEnum`` would, without being one: importing ``enum`` cost every
    ``filter`` process about 2.5 ms, a tenth of its own work.
    """

    __slots__ = ()
    FULL: Confidence
    PARTIAL: Confidence
    FALLBACK: Confidence
    _NAMES = ("FULL", "PARTIAL", "FALLBACK")

    def __new__(cls, value: int) -> Confidence:
        members = cls.__dict__.get("_members")
        if members is None:  # building the members themselves
            return super().__new__(cls, value)
        if type(value) is cls:
            return value
        if isinstance(value, int) and 0 <= value < len(members):
            return members[value]  # type: ignore[no-any-return]
        raise ValueError(f"{value!r} is not a valid Confidence")

    @property
    def name(self) -> str:
        """``FULL``, ``PARTIAL`` or ``FALLBACK``."""
        return self._NAMES[self]

    @property
    def value(self) -> int:
        """The level as a plain ``int``: 0, 1 or 2."""
        return int(self)

    @property
    def label(self) -> str:
        """Return the user-facing name: ``Full``, ``Partial`` or ``Fallback``."""
        return self.name.capitalize()

    def __repr__(self) -> str:
        return f"<Confidence.{self.name}: {int(self)}>"

    # str() and format() give the number, as an IntEnum's do
    __str__ = int.__repr__
    __format__ = int.__format__

    def __reduce__(self) -> tuple[type[Confidence], tuple[int]]:
        return Confidence, (int(self),)  # unpickles to the member itself

    def __copy__(self) -> Confidence:
        return self

    def __deepcopy__(self, memo: object) -> Confidence:
        return self


Confidence._members = tuple(Confidence(level) for level in range(len(Confidence._NAMES)))
Confidence.FULL, Confidence.PARTIAL, Confidence.FALLBACK = Confidence._members


class StrategyResult(NamedTuple):
    """The filtered text and the confidence the strategy has in it."""

    text: str
    confidence: Confidence


#: (sanitised text, parameters with defaults filled in, exit code or None) -> result
StrategyFn = Callable[[str, "Mapping[str, Any]", "int | None"], StrategyResult]


def fallback(text: str) -> StrategyResult:
    """Return the input unchanged, flagged as not understood."""
    return StrategyResult(text, Confidence.FALLBACK)


def guarded(strategy: Callable[[str, Mapping[str, Any], int | None], StrategyResult]) -> StrategyFn:
    """Wrap a strategy so that it never raises and never returns more than it was given."""

    def run(text: str, params: Mapping[str, Any], exit_code: int | None) -> StrategyResult:
        if not isinstance(text, str):
            return StrategyResult("" if text is None else str(text), Confidence.FALLBACK)
        try:
            result = strategy(text, params, exit_code)
        except Exception:  # noqa: BLE001 - a strategy bug must cost compression, not output
            return fallback(text)
        if len(result.text) > len(text):
            # The summary would be longer than what it summarises: the input itself loses nothing.
            return StrategyResult(text, result.confidence)
        return result

    run.__name__ = strategy.__name__
    run.__qualname__ = strategy.__qualname__
    run.__doc__ = strategy.__doc__
    run.__wrapped__ = strategy  # type: ignore[attr-defined]
    return run


def split_lines(text: str) -> tuple[list[str], bool]:
    """Split ``text`` into lines; also return whether it ended with a newline."""
    if not text:
        return [], False
    ends_with_newline = text.endswith("\n")
    body = text[:-1] if ends_with_newline else text
    return body.split("\n"), ends_with_newline


def indent_of(line: str) -> int:
    """Return how many whitespace characters ``line`` starts with."""
    return len(line) - len(line.lstrip())


def join_lines(lines: Iterable[str], ends_with_newline: bool) -> str:
    """Join lines back into text, restoring a final newline if the input had one."""
    text = "\n".join(lines)
    return text + "\n" if ends_with_newline and text else text


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """Return ``"1 line"`` / ``"3 lines"``."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count} {word}"


def omitted_marker(count: int, what: str = "line", where: str = "") -> str:
    """Return the marker for ``count`` cut lines: ``... (12 lines omitted) ...``, ``... (3 lines of X omitted) ...``."""
    qualifier = f" {where}" if where else ""
    return f"... ({plural(count, what)}{qualifier} omitted) ..."


#: a listing of many places (a fold's "also at") puts this many on a line: the pipeline cuts a line
#: of 10,000 characters, and every place must stay readable
PLACES_PER_LINE = 50


def listed_places(locations: list[str]) -> tuple[str, list[str]]:
    """Return the directory every location lies in ("" when none) and the locations below it, joined.

    ``a/b/x.js:6:9, a/b/y.js:7:1`` is ``("a/b/", ["x.js:6:9, y.js:7:1"])``: a fold of
    hundreds of places in one tree names the tree once.  The joined text comes
    in lines of ``PLACES_PER_LINE`` places.
    """
    paths = [location.rpartition("/")[0] + "/" if "/" in location else "" for location in locations]
    common = min(paths, key=len) if all(paths) else ""
    while common and not all(path.startswith(common) for path in paths):
        common = common[:-1].rpartition("/")[0] + "/" if "/" in common[:-1] else ""
    return common, [", ".join(chunk) for chunk in per_line([location[len(common):] for location in locations])]


def per_line(places: list[str]) -> list[list[str]]:
    """Return ``places`` in runs of ``PLACES_PER_LINE``, one run to a printed line."""
    return [places[start : start + PLACES_PER_LINE] for start in range(0, len(places), PLACES_PER_LINE)]


def user_pattern(source: str) -> RulePattern:
    """The ``RulePattern`` of a user-supplied regex (cached): ``re`` where proven fast, else ``regex``."""
    return rule_pattern(source)


def matches_any(patterns: list[RulePattern], line: str) -> bool:
    """Return whether any user pattern matches ``line``; a timeout counts as no match."""
    for pattern in patterns:
        if pattern.search(line) is not None:
            return True
    return False


def cut_block(lines: list[str], limit: int, is_signal: Callable[[str], bool], what: str = "line") -> list[str]:
    """Return ``lines`` cut to about ``limit`` lines, preferring signal lines, with a marker per gap.

    Signal lines are kept first (when there are more than ``limit``, the first
    ones and the very last one); the budget left goes to the earliest other lines.
    """
    if len(lines) <= limit:
        return lines
    limit = max(limit, 2)
    signals = [index for index, line in enumerate(lines) if is_signal(line)]
    if len(signals) > limit - 1:
        keep = set(signals[: limit - 2]) | {signals[-1]}
    else:
        keep = set(signals)
        budget = limit - 1 - len(signals)
        for index in range(len(lines)):
            if budget <= 0:
                break
            if index not in keep:
                keep.add(index)
                budget -= 1
    kept: list[str] = []
    gap = 0
    for index, line in enumerate(lines):
        if index in keep:
            if gap:
                kept.append(omitted_marker(gap, what))
                gap = 0
            kept.append(line)
        else:
            gap += 1
    if gap:
        kept.append(omitted_marker(gap, what))
    return kept


def int_param(params: Mapping[str, Any], name: str, default: int) -> int:
    """Return an integer parameter, ``default`` when it is missing or None."""
    value = params.get(name)
    return default if value is None else int(value)
