"""Small automata over globs: emptiness, inclusion in a union, and witnesses.

A glob is turned into the anchored regex the engine really matches with
(``patterns.glob_to_regex``), parsed by the stdlib regex parser and built into
a Thompson NFA whose edges carry character ranges — so the linter and the
matcher cannot disagree about what a glob means.  Inclusion of one language
in the union of others is decided by an on-the-fly subset construction over
the product, on the coarsest alphabet partition the automata induce; when it
fails, a breadth-first search yields the shortest counterexample.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._sre import sre_constants, sre_parse
from ..patterns import glob_to_regex
from . import charsets
from .charsets import Ranges

#: Bounded repetitions are unrolled up to this many copies; beyond, give up.
MAX_UNROLL = 64
#: Product states explored before an inclusion check gives up (undecided).
MAX_PRODUCT_STATES = 200_000


class Unsupported(Exception):
    """The pattern uses a construct the automaton builder does not model."""


class GlobProblem(ValueError):
    """The glob does not compile (a bad character range, ...)."""


@dataclass
class NFA:
    """A Thompson NFA: epsilon edges and edges labelled by character ranges."""

    eps: list[list[int]] = field(default_factory=list)
    moves: list[list[tuple[Ranges, int]]] = field(default_factory=list)
    start: int = 0
    accept: int = 0
    _closures: dict[frozenset[int], frozenset[int]] = field(default_factory=dict, repr=False)
    _steps: dict[tuple[frozenset[int], int], frozenset[int]] = field(default_factory=dict, repr=False)

    def state(self) -> int:
        self.eps.append([])
        self.moves.append([])
        return len(self.eps) - 1

    def labels(self) -> list[Ranges]:
        return [ranges for edges in self.moves for ranges, _ in edges]

    def closure(self, states: frozenset[int]) -> frozenset[int]:
        cached = self._closures.get(states)
        if cached is not None:
            return cached
        seen = set(states)
        stack = list(states)
        while stack:
            for nxt in self.eps[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        result = frozenset(seen)
        self._closures[states] = result
        return result

    def initial(self) -> frozenset[int]:
        return self.closure(frozenset((self.start,)))

    def step(self, states: frozenset[int], code: int) -> frozenset[int]:
        key = (states, code)
        found = self._steps.get(key)
        if found is None:
            nxt = {target for s in states for ranges, target in self.moves[s]
                   if (ranges[0][0] <= code <= ranges[0][1] if len(ranges) == 1 else charsets.contains(ranges, code))}
            found = self.closure(frozenset(nxt)) if nxt else frozenset()
            self._steps[key] = found
        return found

    def accepts(self, states: frozenset[int]) -> bool:
        return self.accept in states


# ------------------------------------------------------------------ building


def glob_nfa(glob: str, path: bool = False, fold: bool = False) -> NFA:
    """Build the NFA of a glob exactly as the engine matches it (whole string)."""
    return _glob_nfa_cached(glob, path, fold)


@functools.lru_cache(maxsize=65536)
def _glob_nfa_cached(glob: str, path: bool, fold: bool) -> NFA:
    source = glob_to_regex(glob.casefold() if fold else glob, path)
    try:
        parsed = sre_parse.parse(source)
    except Exception as exc:  # noqa: BLE001 - re.error, or a FutureWarning turned error
        raise GlobProblem(str(getattr(exc, "msg", exc))) from None
    nfa = NFA()
    start = nfa.state()
    end = _build(nfa, list(parsed.data), start, parsed.state.flags)
    nfa.start, nfa.accept = start, end
    return nfa


def _build(nfa: NFA, items: Sequence[Any], state: int, flags: int) -> int:
    for op, arg in items:
        state = _build_one(nfa, op, arg, state, flags)
    return state


def _char_ranges(op: Any, arg: Any, flags: int) -> Ranges:
    if op is sre_constants.LITERAL:
        ranges: Ranges = ((arg, arg),)
    elif op is sre_constants.NOT_LITERAL:
        ranges = charsets.complement(((arg, arg),))
    elif op is sre_constants.ANY:
        ranges = charsets.ALL if flags & sre_constants.SRE_FLAG_DOTALL else charsets.complement(((10, 10),))
    elif op is sre_constants.IN:
        ranges = in_ranges(arg)
    else:
        raise Unsupported(str(op))
    if flags & sre_constants.SRE_FLAG_IGNORECASE:
        ranges = charsets.with_case_variants(ranges)
    return ranges


def in_ranges(items: Sequence[Any]) -> Ranges:
    """Return the ranges of an ``IN`` (character class) node."""
    negate = False
    parts: list[Ranges] = []
    for op, arg in items:
        if op is sre_constants.NEGATE:
            negate = True
        elif op is sre_constants.LITERAL:
            parts.append(((arg, arg),))
        elif op is sre_constants.RANGE:
            parts.append(((arg[0], arg[1]),))
        elif op is sre_constants.CATEGORY:
            parts.append(category_ranges(arg))
        else:
            raise Unsupported(str(op))
    ranges = charsets.union(*parts)
    return charsets.complement(ranges) if negate else ranges


def category_ranges(category: Any) -> Ranges:
    name = str(category)
    base = charsets.DIGIT if "DIGIT" in name else charsets.SPACE if "SPACE" in name else charsets.WORD if "WORD" in name else None
    if base is None:
        raise Unsupported(name)
    return charsets.complement(base) if "_NOT_" in name else base


def _build_one(nfa: NFA, op: Any, arg: Any, state: int, flags: int) -> int:
    if op in (sre_constants.LITERAL, sre_constants.NOT_LITERAL, sre_constants.ANY, sre_constants.IN):
        nxt = nfa.state()
        nfa.moves[state].append((_char_ranges(op, arg, flags), nxt))
        return nxt
    if op is sre_constants.SUBPATTERN:
        _group, add, remove, body = arg
        return _build(nfa, list(body), state, (flags | add) & ~remove)
    if op is sre_constants.BRANCH:
        end = nfa.state()
        for branch in arg[1]:
            start = nfa.state()
            nfa.eps[state].append(start)
            nfa.eps[_build(nfa, list(branch), start, flags)].append(end)
        return end
    if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, getattr(sre_constants, "POSSESSIVE_REPEAT", None)):
        low, high, body = arg
        if low > MAX_UNROLL or (high != sre_constants.MAXREPEAT and high > MAX_UNROLL):
            raise Unsupported("large repetition")
        for _ in range(low):
            state = _build(nfa, list(body), state, flags)
        if high == sre_constants.MAXREPEAT:
            loop = nfa.state()
            nfa.eps[state].append(loop)
            nfa.eps[_build(nfa, list(body), loop, flags)].append(loop)
            return loop
        end = nfa.state()
        nfa.eps[state].append(end)
        for _ in range(high - low):
            state = _build(nfa, list(body), state, flags)
            nfa.eps[state].append(end)
        return end
    if op is sre_constants.AT and arg in (sre_constants.AT_END_STRING, sre_constants.AT_BEGINNING_STRING):
        return state  # matching is anchored at both ends already
    raise Unsupported(str(op))


# ------------------------------------------------------------------ questions


@dataclass(frozen=True)
class Inclusion:
    """The answer to "is L(target) inside the union of L(others)?".

    ``included`` is None when the search gave up.  ``witness`` is the shortest
    string of the target no other matches (when not included).
    """

    included: bool | None
    witness: str | None = None


def _alphabet(nfas: Sequence[NFA]) -> list[str]:
    return charsets.partition(label for nfa in nfas for label in nfa.labels())


def shortest(nfa: NFA) -> str | None:
    """Return a shortest string the NFA accepts, or None when its language is empty.

    A 0-1 breadth-first search over single NFA states (epsilon edges cost
    nothing, character edges one) — linear in the automaton, no subsets.
    """
    parents: dict[int, tuple[int, str] | None] = {nfa.start: None}
    dist = {nfa.start: 0}
    queue = deque([nfa.start])
    done: set[int] = set()
    while queue:
        state = queue.popleft()
        if state in done:
            continue
        done.add(state)
        if state == nfa.accept:
            return _path(parents, state)
        here = dist[state]
        for nxt in nfa.eps[state]:
            if here < dist.get(nxt, here + 2):
                dist[nxt], parents[nxt] = here, (state, "")
                queue.appendleft(nxt)
        for ranges, nxt in nfa.moves[state]:
            if ranges and here + 1 < dist.get(nxt, here + 2):
                dist[nxt], parents[nxt] = here + 1, (state, charsets.pick(ranges))
                queue.append(nxt)
    return None


def _path(parents: dict[Any, Any], node: Any) -> str:
    out: list[str] = []
    while parents[node] is not None:
        node, char = parents[node]
        out.append(char)
    return "".join(reversed(out))


def intersects(a: NFA, b: NFA) -> bool:
    """Return whether some string is accepted by both automata."""
    alphabet = [ord(c) for c in _alphabet([a, b])]
    start = (a.initial(), b.initial())
    seen = {start}
    queue = deque([start])
    while queue:
        sa, sb = queue.popleft()
        if a.accepts(sa) and b.accepts(sb):
            return True
        for code in alphabet:
            na = a.step(sa, code)
            if not na:
                continue
            nb = b.step(sb, code)
            if not nb:
                continue
            if (na, nb) not in seen:
                if len(seen) > MAX_PRODUCT_STATES:
                    return True  # undecided: assume they may meet (the caller stays sound)
                seen.add((na, nb))
                queue.append((na, nb))
    return False


def included(target: NFA, others: Sequence[NFA]) -> Inclusion:
    """Decide whether every string ``target`` accepts is accepted by one of ``others``."""
    alphabet = [ord(c) for c in _alphabet([target, *others])]
    start = (target.initial(), tuple(o.initial() for o in others))
    parents: dict[Any, Any] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        mine, theirs = node
        if target.accepts(mine) and not any(o.accepts(s) for o, s in zip(others, theirs)):
            return Inclusion(False, _path(parents, node))
        for code in alphabet:
            nxt_mine = target.step(mine, code)
            if not nxt_mine:
                continue
            nxt = (nxt_mine, tuple(o.step(s, code) if s else s for o, s in zip(others, theirs)))
            if nxt not in parents:
                if len(parents) > MAX_PRODUCT_STATES:
                    return Inclusion(None)
                parents[nxt] = (node, chr(code))
                queue.append(nxt)
    return Inclusion(True)
