"""The ``filter`` command's cache of compiled regex programs (``zeph_rules._regex``).

A pattern built from a cached program must be the pattern ``re.compile``
builds: CPython's patterns compare equal only when their flags, source and
whole program are equal, so ``==`` against ``re.compile`` is the proof.
"""

from __future__ import annotations

import marshal
import re
from pathlib import Path
from typing import Any

import pytest

from zeph_rules import _regex

SAMPLES: list[tuple[Any, int]] = [
    (r"^test (?P<name>.+?) \.\.\. (?P<result>ok|FAILED)$", 0),
    (r"(?<![ \t])[ \t]++$", re.MULTILINE),
    (r"error|fail|panic", re.IGNORECASE | re.MULTILINE),
    ("\n    \\x1b\\[[0-?]*[ -/]*[@-~]   # CSI\n    | \\x9b[0-?]*[ -/]*[@-~]\n", re.VERBOSE),
    (r"(?P<a>x)(?P=a)\1|(?i:caseless)", 0),
    (r"[^\W\d_]+", 0),
    (r"é+\w", re.IGNORECASE),
    (rb"\x00+[\xff-\xff]", 0),
    (r".", re.DOTALL | re.ASCII),
]


@pytest.fixture
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Give each test its own (closed) cache state, as a new process has."""
    monkeypatch.setattr(_regex, "_programs", None)
    monkeypatch.setattr(_regex, "_used", set())
    monkeypatch.setattr(_regex, "_added", False)
    monkeypatch.setattr(_regex, "_location", None)
    return _regex


def test_flag_constants_are_re_s() -> None:
    assert (_regex.IGNORECASE, _regex.MULTILINE, _regex.DOTALL, _regex.VERBOSE, _regex.ASCII) == (
        re.IGNORECASE, re.MULTILINE, re.DOTALL, re.VERBOSE, re.ASCII)


@pytest.mark.parametrize(("pattern", "flags"), SAMPLES)
def test_a_program_builds_the_pattern_re_builds(pattern: Any, flags: int) -> None:
    import _sre

    assert _sre.compile(*_regex.program(pattern, flags)) == re.compile(pattern, flags)


def test_every_warm_path_pattern_round_trips(fresh_cache: Any, tmp_path: Path) -> None:
    """The patterns of the modules a ``filter`` run imports, through a save and a second process's load."""
    from zeph_rules.engine import sanitize, signals
    from zeph_rules.engine.strategies import _common
    from zeph_rules.engine.strategies.test_summary import cargo, gotest, javascript, pytest as pytest_summary

    compiled = [value for module in (sanitize, _common, cargo, gotest, javascript, pytest_summary)
                for value in vars(module).values() if isinstance(value, re.Pattern)]
    compiled.append(signals.SIGNAL)
    assert len(compiled) > 40
    fresh_cache.open_cache(str(tmp_path))
    first = [fresh_cache.compile(p.pattern, p.flags) for p in compiled]
    fresh_cache.save_cache()
    assert (tmp_path / "regex-{}.marshal".format(__import__("sys").implementation.cache_tag)).is_file()
    # a new process: the programs come from the file, not from re
    fresh_cache._programs = None
    fresh_cache.open_cache(str(tmp_path))
    assert len(fresh_cache._programs) >= len({(p.pattern, p.flags) for p in compiled})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fresh_cache, "program", lambda *args: pytest.fail(f"compiled again: {args}"))
        second = [fresh_cache.compile(p.pattern, p.flags) for p in compiled]
    assert first == compiled and second == compiled
    assert fresh_cache._added is False


@pytest.mark.parametrize("content", [
    b"",
    b"not marshal data",
    marshal.dumps((1, "another interpreter", {})),
    marshal.dumps((999, None, None)),
    marshal.dumps(["a list"]),
])
def test_a_damaged_or_foreign_file_is_ignored_and_rewritten(fresh_cache: Any, tmp_path: Path, content: bytes) -> None:
    path = tmp_path / f"regex-{__import__('sys').implementation.cache_tag}.marshal"
    path.write_bytes(content)
    fresh_cache.open_cache(str(tmp_path))
    assert fresh_cache._programs == {}
    pattern, flags = SAMPLES[0]
    assert fresh_cache.compile(pattern, flags) == re.compile(pattern, flags)
    fresh_cache.save_cache()
    fmt, identity, programs = marshal.loads(path.read_bytes())
    assert (fmt, identity) == (fresh_cache._FORMAT, fresh_cache._identity()) and (pattern, flags) in programs


def test_a_program_the_engine_refuses_is_compiled_again(fresh_cache: Any, tmp_path: Path) -> None:
    """``_sre`` validates what it is given: a tampered program costs a compile, never a wrong pattern."""
    pattern, flags = SAMPLES[0]
    fresh_cache.open_cache(str(tmp_path))
    good = fresh_cache.program(pattern, flags)
    fresh_cache._programs[(pattern, flags)] = (good[0], good[1], [99999] + good[2][1:], *good[3:])
    assert fresh_cache.compile(pattern, flags) == re.compile(pattern, flags)
    assert fresh_cache._programs[(pattern, flags)] == good and fresh_cache._added


def test_a_bad_pattern_raises_what_re_raises(fresh_cache: Any, tmp_path: Path) -> None:
    fresh_cache.open_cache(str(tmp_path))
    with pytest.raises(re.error, match="missing \\), unterminated subpattern"):
        fresh_cache.compile("(unclosed")
    assert fresh_cache._programs == {}


def test_an_interpreter_with_other_internals_still_compiles(fresh_cache: Any, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """If ``re``'s internals moved (a future CPython), patterns still compile, uncached."""
    def moved(pattern: Any, flags: int) -> tuple[Any, ...]:
        raise AttributeError("module 're._compiler' has no attribute '_code'")

    fresh_cache.open_cache(str(tmp_path))
    monkeypatch.setattr(fresh_cache, "program", moved)
    pattern, flags = SAMPLES[2]
    assert fresh_cache.compile(pattern, flags) == re.compile(pattern, flags)
    assert fresh_cache._programs == {} and not fresh_cache._added


def test_without_an_open_cache_compile_is_re_compile(fresh_cache: Any) -> None:
    pattern, flags = SAMPLES[1]
    assert fresh_cache.compile(pattern, flags) is re.compile(pattern, flags)  # re's own cache answered
    fresh_cache.save_cache()  # nothing to write, nowhere to write it


def test_a_switched_off_cache_stays_closed(fresh_cache: Any) -> None:
    fresh_cache.open_cache(None)
    assert fresh_cache._programs is None


def test_a_full_file_keeps_what_the_run_used(fresh_cache: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_regex, "MAX_PROGRAMS", 2)
    fresh_cache.open_cache(str(tmp_path))
    for pattern, flags in SAMPLES[:3]:
        fresh_cache.compile(pattern, flags)
    fresh_cache.save_cache()
    fresh_cache._programs, fresh_cache._used = None, set()
    fresh_cache.open_cache(str(tmp_path))
    assert len(fresh_cache._programs) == 3  # over the cap but all used: all kept
    fresh_cache.compile(*SAMPLES[3])
    fresh_cache.save_cache()
    fresh_cache._programs, fresh_cache._used = None, set()
    fresh_cache.open_cache(str(tmp_path))
    assert list(fresh_cache._programs) == [(SAMPLES[3][0], SAMPLES[3][1])]  # only what the last run used
