"""The on-disk cache of compiled graphs: the warm path.

A graph is keyed by a hash of the package version, the Python version and the
exact bytes (and names) of every rule file that went into it, so any change to
either invalidates it.  Files are written to a temporary name and renamed, so a
reader never sees half a cache file; a corrupt or unreadable entry is simply
rebuilt.

Filter plans (see ``pipeline.FilterPlan``) live beside the graphs, under
``plans/<graph key>/``: one small file per (command line, exit code), named by
a hash of both and holding both (so a name collision is a miss, never a wrong
plan), and the graph's security scanner once in ``scanner.marshal``.  A plan
hit spares the ``filter`` command loading the graph at all.  Each graph keeps
at most ``MAX_PLANS`` plans (least recently used go first) and at most
``MAX_PLAN_SETS`` graphs keep plans.  Plans and the scanner are stored with
``marshal`` (built-in values only, see ``Scanner.to_plain``): it is built into
the interpreter, where the C unpickler would import ``copyreg``,
``_compat_pickle`` and ``functools`` into every ``filter`` process.
"""

from __future__ import annotations

# The warm ``filter`` path runs this module on every tool call, so it reads
# plans with ``marshal`` and joins paths as strings: ``pickle``, ``pathlib`` and
# ``typing`` cost a short-lived process a few milliseconds each.
import marshal
import os
import sys

from .._version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from hashlib import sha256 as _sha256
    from typing import Any
else:
    # the interpreter's own SHA-256: the warm path need not load OpenSSL through hashlib
    try:
        from _sha2 import sha256 as _sha256  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256 as _sha256
        except ImportError:  # pragma: no cover - a build without the built-in hashes
            from hashlib import sha256 as _sha256

#: 2: ``Span`` moved to ``engine.span``; 3: the scanner's records are named tuples; 4: it marks signal lines;
#: 5: its keyword index has one prefilter table, 6: a pattern ``re`` reads otherwise than ``regex`` is guarded
_FORMAT = 6
#: the layout of a plan file: (format, command, exit code, rules, redact, has scanner, pattern facts);
#: 2: named-tuple records, 3: line words, 4: the proven literals of its patterns, 5: marshal, not pickle,
#: 6: every pattern's facts (literals and plain-``re`` line limit), 7: and whether ``re`` reads it alike on
#: any text, 8: on which texts (``patterns.plain_re_reach``), 9: NO_TEXT among them, 10: a task runner's
#: plan opens with the rules of the tools it may run (``pipeline.DELEGATE``), 11: and so does a chain's
_PLAN_FORMAT = 11
#: plans kept per graph key, and graph keys that keep plans
MAX_PLANS = 256
MAX_PLAN_SETS = 8
_SCANNER = "scanner.marshal"
_PLAN_SUFFIX = ".plan"


def cache_dir() -> str | None:
    """Return the user cache directory, or None when caching is switched off."""
    override = os.environ.get("ZEPH_RULES_CACHE_DIR")
    if override is not None:
        return override if override not in ("", "0", "off", "none") else None
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return os.path.join(base, "zeph-rules", "Cache")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "zeph-rules")
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "zeph-rules")


def fingerprint(parts: Sequence[tuple[str, bytes]], options: str = "") -> str:
    """Hash the inputs of a compilation: (name, bytes) pairs plus options."""
    digest = _sha256()
    digest.update(f"zeph-rules {__version__} format {_FORMAT} py {sys.version_info[:2]} {options}".encode())
    for name, data in parts:
        digest.update(len(name).to_bytes(4, "little") + name.encode("utf-8", "surrogatepass"))
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


def load_cached(key: str) -> Any | None:
    """Return the cached value for ``key``, or None when absent or unreadable."""
    directory = cache_dir()
    if directory is None:
        return None
    try:
        try:  # the C unpickler, imported here: a plan hit (the warm ``filter`` path) never needs it
            from _pickle import load
        except ImportError:  # pragma: no cover - an interpreter without the C pickle
            from pickle import load

        with open(os.path.join(directory, f"{key}.pickle"), "rb") as handle:
            return load(handle)
    except Exception:  # noqa: BLE001 - any problem means "not cached"
        return None


def store_cached(key: str, value: Any) -> None:
    """Write ``value`` under ``key`` atomically; failures are silent (it is a cache)."""
    directory = cache_dir()
    if directory is None:
        return
    try:
        _write_atomic(directory, f"{key}.pickle", value)
    except Exception:  # noqa: BLE001
        return


def _write_atomic(directory: str, name: str, value: Any) -> None:
    """Pickle ``value`` to ``directory/name`` through a temporary file and a rename."""
    import pickle

    write_bytes_atomic(directory, name, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def write_bytes_atomic(directory: str, name: str, data: bytes) -> None:
    """Write ``data`` to ``directory/name`` through a temporary file and a rename (a reader never sees half)."""
    import tempfile

    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name[:16]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, os.path.join(directory, name))
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# ------------------------------------------------------------------ filter plans


def _plan_name(command: str, exit_code: int | None) -> str:
    digest = _sha256(f"plan {_PLAN_FORMAT} exit {exit_code!r}\0".encode())
    digest.update(command.encode("utf-8", "surrogatepass"))
    return f"{digest.hexdigest()[:32]}{_PLAN_SUFFIX}"


def load_cached_plan(key: str, command: str, exit_code: int | None) -> tuple[tuple[Any, ...], bool, Any, tuple[Any, ...]] | None:
    """Return ``(rules, redact, scanner, pattern facts)`` cached for graph ``key`` and the command, or None (a miss)."""
    directory = cache_dir()
    if directory is None:
        return None
    folder = os.path.join(directory, "plans", key)
    path = os.path.join(folder, _plan_name(command, exit_code))
    try:
        with open(path, "rb") as handle:
            # loads(read()): load() on a file reads item by item, several times slower
            fmt, cached_command, cached_exit, rules, redact, has_scanner, facts = marshal.loads(handle.read())
        if (fmt != _PLAN_FORMAT or cached_command != command or cached_exit != exit_code
                or type(rules) is not tuple or type(redact) is not bool or type(facts) is not tuple):
            return None
    except Exception:  # noqa: BLE001 - any problem means "not cached"
        return None
    scanner = None
    if has_scanner:
        try:
            from .security import Scanner

            with open(os.path.join(folder, _SCANNER), "rb") as handle:
                scanner = Scanner.from_plain(marshal.loads(handle.read()))
        except Exception:  # noqa: BLE001
            scanner = None
        if scanner is None:  # unreadable: remove it, so that the miss writes it again
            try:
                os.unlink(os.path.join(folder, _SCANNER))
            except OSError:
                pass
            return None
    try:
        os.utime(path)  # the pruning below keeps the most recently used plans
    except OSError:
        pass
    return rules, redact, scanner, facts


def store_cached_plan(key: str, command: str, exit_code: int | None, rules: tuple[Any, ...], redact: bool,
                      scanner: Any, facts: tuple[Any, ...] = ()) -> None:
    """Write the plan for graph ``key`` and the command (and the graph's scanner, once); failures are silent."""
    directory = cache_dir()
    if directory is None:
        return
    plans = os.path.join(directory, "plans")
    folder = os.path.join(plans, key)
    try:
        new_set = not os.path.isdir(folder)
        if scanner is not None and not os.path.isfile(os.path.join(folder, _SCANNER)):
            write_bytes_atomic(folder, _SCANNER, marshal.dumps(scanner.to_plain()))
        write_bytes_atomic(folder, _plan_name(command, exit_code),
                           marshal.dumps((_PLAN_FORMAT, command, exit_code, rules, redact, scanner is not None, facts)))
        _prune(folder, MAX_PLANS, lambda entry: entry.is_file() and entry.name.endswith(_PLAN_SUFFIX))
        if new_set:
            _prune(plans, MAX_PLAN_SETS - 1, lambda entry: entry.is_dir() and entry.name != key)
    except Exception:  # noqa: BLE001
        return


def _prune(directory: str, keep: int, counted: Any) -> None:
    """Remove the least recently modified entries ``counted`` selects, when there are more than ``keep``.

    A full store is cut to seven eighths of ``keep``, so that the stores after
    it do not each pay a stat() per entry to remove one.
    """
    with os.scandir(directory) as found:
        # counted() reads the entry's type from the directory listing; only a
        # store that is over its bound pays a stat() per entry for the ages
        candidates = [entry for entry in found if counted(entry)]
    if len(candidates) <= keep:
        return
    entries: list[tuple[float, os.DirEntry[str]]] = []
    for entry in candidates:
        try:
            entries.append((entry.stat().st_mtime, entry))
        except OSError:
            continue
    if len(entries) <= keep:  # some went away meanwhile (and a negative slice below would remove the newest)
        return
    entries.sort(key=lambda pair: pair[0])
    for _, entry in entries[: len(entries) - (keep - keep // 8)]:
        try:
            if entry.is_dir():
                import shutil

                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except OSError:
            pass
