"""``re.compile`` for the ``filter`` command's warm path, from a cache of compiled programs.

A ``filter`` process lives for one tool call.  Compiling its regular
expressions cost it about 6 ms: CPython parses a pattern and generates its
program in pure Python (``re._parser``, ``re._compiler``).  The program -- a
list of integers that ``_sre.compile`` turns into a pattern object -- depends
only on the pattern, the flags and the interpreter, so the command keeps the
programs it compiled in one file beside its plans and builds its patterns from
there.  A warm run then never parses a pattern, and never imports ``re``
(another 5 ms here): ``_sre`` is built into the interpreter.

The file is keyed by the interpreter's version and ``_sre``'s magic number,
and ``_sre.compile`` validates every program it is given, so a stale or
damaged file costs a recompile, never a wrong pattern.  Without an open cache
(library use, another interpreter, the cache switched off) ``compile`` is
``re.compile``.

The flag constants are ``re``'s values as plain integers, so modules on the
warm path need not import ``re`` for them.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    from re import Pattern
    from typing import Any, AnyStr

    _sre: Any  # CPython's regex engine has no stubs
else:
    try:
        import _sre
    except ImportError:  # pragma: no cover - an interpreter without CPython's regex engine
        _sre = None

# re.IGNORECASE, re.MULTILINE, ... (tests check they equal re's)
IGNORECASE = 2
MULTILINE = 8
DOTALL = 16
VERBOSE = 64
ASCII = 256

#: the cache file's layout; a file of another format is ignored
_FORMAT = 1
#: programs kept in the file; past this, a save keeps only those the process used
MAX_PROGRAMS = 4096

#: (pattern, flags) -> the arguments of ``_sre.compile``; None while no cache is open
_programs: dict[tuple[Any, int], tuple[Any, ...]] | None = None
_used: set[tuple[Any, int]] = set()
_added = False
_location: tuple[str, str] | None = None  # (directory, file name)


def _identity() -> str:
    """What the programs depend on: the interpreter and its regex engine."""
    return f"{sys.implementation.cache_tag} {sys.version} sre {_sre.MAGIC} {_sre.CODESIZE}"


def open_cache(directory: str | None) -> None:
    """Build patterns from the programs cached in ``directory`` (None: switched off), and cache new ones there."""
    global _programs, _location, _added
    if directory is None or _sre is None or sys.implementation.name != "cpython":
        return
    import marshal

    name = f"regex-{sys.implementation.cache_tag}.marshal"
    _location = (directory, name)
    _programs, _added = {}, False
    try:
        with open(os.path.join(directory, name), "rb") as handle:
            fmt, identity, programs = marshal.loads(handle.read())  # load() reads item by item
        if fmt == _FORMAT and identity == _identity() and type(programs) is dict:
            _programs = programs
    except Exception:  # noqa: BLE001 - missing, damaged or foreign: start empty
        pass


def save_cache() -> None:
    """Write the programs compiled since ``open_cache`` (if any) for the next process; failures are silent."""
    global _added
    if _programs is None or _location is None or not _added:
        return
    import marshal

    from .engine.cache import write_bytes_atomic

    programs = _programs
    if len(programs) > MAX_PROGRAMS:  # rule files come and go: keep what this run needed
        programs = {key: value for key, value in programs.items() if key in _used}
    try:
        write_bytes_atomic(_location[0], _location[1], marshal.dumps((_FORMAT, _identity(), programs)))
        _added = False
    except Exception:  # noqa: BLE001 - it is a cache
        return


def compile(pattern: AnyStr, flags: int = 0) -> Pattern[AnyStr]:  # noqa: A001 - the name says what it replaces
    """``re.compile(pattern, flags)``, built from the cached program when a cache is open."""
    global _added
    if _programs is None or type(pattern) not in (str, bytes):
        import re

        return re.compile(pattern, flags)
    key = (pattern, int(flags))
    arguments = _programs.get(key)
    if arguments is not None:
        try:
            compiled = _sre.compile(*arguments)
            _used.add(key)
            return compiled  # type: ignore[no-any-return]
        except Exception:  # noqa: BLE001 - a program this engine refuses: compile it afresh
            del _programs[key]
    try:
        arguments = program(pattern, key[1])
        compiled = _sre.compile(*arguments)
    except Exception:  # noqa: BLE001 - re says what is wrong with a bad pattern; an interpreter whose
        import re  # internals differ from 3.11-3.13's still compiles, uncached

        return re.compile(pattern, flags)
    _programs[key] = arguments
    _used.add(key)
    _added = True
    return compiled  # type: ignore[no-any-return]


def program(pattern: str | bytes, flags: int) -> tuple[Any, ...]:
    """The arguments ``re.compile`` hands ``_sre.compile`` for ``pattern`` (what ``re._compiler.compile`` does).

    Raises ``re.error`` for a bad pattern, as ``re.compile`` does.
    """
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for group_name, index in groupindex.items():
        indexgroup[index] = group_name
    # the program holds named opcode constants (an int subclass): plain ints marshal
    return (pattern, int(flags | parsed.state.flags), [int(op) for op in code], parsed.state.groups - 1,
            dict(groupindex), tuple(indexgroup))
