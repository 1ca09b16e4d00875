"""The on-disk cache of compiled graphs: the warm path.

A graph is keyed by a hash of the package version, the Python version and the
exact bytes (and names) of every rule file that went into it, so any change to
either invalidates it.  Files are written to a temporary name and renamed, so a
reader never sees half a cache file; a corrupt or unreadable entry is simply
rebuilt.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from .._version import __version__

if TYPE_CHECKING:
    from hashlib import sha256 as _sha256
else:  # the interpreter's own SHA-256: the warm path need not load OpenSSL through hashlib
    try:
        from _sha2 import sha256 as _sha256  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256 as _sha256
        except ImportError:  # pragma: no cover - a build without the built-in hashes
            from hashlib import sha256 as _sha256

#: 2: ``Span`` moved to ``engine.span``
_FORMAT = 2


def cache_dir() -> Path | None:
    """Return the user cache directory, or None when caching is switched off."""
    override = os.environ.get("ZEPH_RULES_CACHE_DIR")
    if override is not None:
        return Path(override) if override not in ("", "0", "off", "none") else None
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
        return base / "zeph-rules" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "zeph-rules"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "zeph-rules"


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
        with open(directory / f"{key}.pickle", "rb") as handle:
            return pickle.load(handle)
    except Exception:  # noqa: BLE001 - any problem means "not cached"
        return None


def store_cached(key: str, value: Any) -> None:
    """Write ``value`` under ``key`` atomically; failures are silent (it is a cache)."""
    directory = cache_dir()
    if directory is None:
        return
    import tempfile

    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{key[:16]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, directory / f"{key}.pickle")
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except Exception:  # noqa: BLE001
        return
