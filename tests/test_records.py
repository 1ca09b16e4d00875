"""``_records.NamedTuple`` behaves as ``typing.NamedTuple`` without importing ``collections``."""

from __future__ import annotations

import pickle
import subprocess
import sys
import typing

import pytest

from zeph_rules import _records


class Mine(_records.NamedTuple):
    """A record with defaults, a method and a property."""

    name: str
    count: int = 0
    tags: tuple[str, ...] = ()

    def doubled(self) -> int:
        return 2 * self.count

    @property
    def label(self) -> str:
        return f"{self.name}#{self.count}"


class Theirs(typing.NamedTuple):
    """A record with defaults, a method and a property."""

    name: str
    count: int = 0
    tags: tuple[str, ...] = ()

    def doubled(self) -> int:
        return 2 * self.count

    @property
    def label(self) -> str:
        return f"{self.name}#{self.count}"


def _both(build: typing.Callable[[type], object]) -> tuple[object, object]:
    """What ``build`` gives (or raises) for each class, with the class names made equal."""
    answers = []
    for cls in (Mine, Theirs):
        try:
            answer: object = build(cls)
        except Exception as exc:  # noqa: BLE001 - the exception is the answer compared
            answer = (type(exc), str(exc).replace(cls.__name__, "R"))
        answers.append(answer if not isinstance(answer, str) else answer.replace(cls.__name__, "R"))
    return answers[0], answers[1]


@pytest.mark.parametrize("build", [
    lambda c: tuple(c("a")),
    lambda c: tuple(c("a", 2, ("x",))),
    lambda c: tuple(c(name="a", tags=("y",))),
    lambda c: repr(c("a", 3)),
    lambda c: c("a", 3).doubled(),
    lambda c: c("a", 3).label,
    lambda c: c("a", 3)._asdict(),
    lambda c: tuple(c("a", 3)._replace(count=5)),
    lambda c: tuple(c._make(["b", 1, ()])),
    lambda c: (c._fields, c._field_defaults, c.__match_args__, c.__doc__),
    lambda c: c("a", 3) == ("a", 3, ()) and hash(c("a", 3)) == hash(("a", 3, ())),
    lambda c: tuple(pickle.loads(pickle.dumps(c("a", 3)))),
    lambda c: c("a", 3).__getnewargs__(),
    lambda c: c.count.__doc__,
    lambda c: c(),
    lambda c: c("a", 1, (), 4),
    lambda c: c("a", bogus=1),
    lambda c: c._make(["a"]),
    lambda c: c("a")._replace(bogus=1),
    lambda c: setattr(c("a"), "count", 1),
    lambda c: hasattr(c("a"), "__dict__"),
], ids=["one", "all", "keywords", "repr", "method", "property", "asdict", "replace", "make", "fields", "tuple-equal",
        "pickle", "newargs", "getter-doc", "missing", "too-many", "unknown", "make-short", "replace-unknown",
        "read-only", "slots"])
def test_a_record_answers_as_typing_namedtuple(build: typing.Callable[[type], object]) -> None:
    mine, theirs = _both(build)
    assert mine == theirs


def test_a_record_matches_by_position_and_keyword() -> None:
    match Mine("a", 3):
        case Mine(name, count=3):
            assert name == "a"
        case _:
            pytest.fail("no match")


def test_records_refuse_what_typing_refuses() -> None:
    with pytest.raises(TypeError, match="non-default field 'b' follows a default field"):
        class Bad(_records.NamedTuple):
            a: int = 0
            b: int
    with pytest.raises(AttributeError, match="cannot overwrite NamedTuple attribute _replace"):
        class Worse(_records.NamedTuple):
            a: int

            def _replace(self) -> None: ...
    with pytest.raises(ValueError, match="underscore"):
        class Private(_records.NamedTuple):
            _a: int


def test_importing_records_imports_no_collections() -> None:
    # -S: without site, whose editable-install finder imports collections itself; the
    # package is found from its own directory's parent, for a checkout and an install
    import os
    from pathlib import Path

    import zeph_rules

    code = ("import sys; from zeph_rules import _records; "
            "print(*sorted(m for m in ('collections', 'typing', 'functools') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(Path(zeph_rules.__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.split() == []
