"""Security-signal lines: what must reach the model whatever a filter cuts.

A panic, an authentication failure, ``permission denied``, a RUSTSEC / CVE /
GHSA advisory or a vulnerability summary says something about safety that no
noise filter may drop.  After filtering, any such line of the sanitised output
that did not survive is put back, under a marker.
"""

from __future__ import annotations

from .. import _regex

TYPE_CHECKING = False  # not typing's: the warm ``filter`` path does not import ``typing`` (see _records)
if TYPE_CHECKING:
    import re

#: what makes a line a security signal; compiled on first use (``SIGNAL`` is resolved lazily below)
_SIGNAL_SOURCE = (
    r"panicked at|^panic: |\bfatal error: |Segmentation fault|\bcore dumped\b"
    r"|authentication (?:failed|failure|required|error)|\bunauthori[sz]ed\b|\b401 Unauthorized\b|\b403 Forbidden\b"
    r"|permission denied|access denied|operation not permitted"
    r"|\bRUSTSEC-\d{4}-\d{4}\b|\bCVE-\d{4}-\d{4,}\b|\bGHSA(?:-[23456789cfghjmpqrvwx]{4}){3}\b"
    r"|\b\d+ (?:\w+ )?(?:severity )?vulnerabilit(?:y|ies)\b|\bvulnerabilit(?:y|ies) found\b"
    r"|\b(?:critical|high) severity\b|\bsecurity (?:advisory|vulnerability)\b"
)


#: a literal every alternative of ``SIGNAL`` contains, case-folded: a line without one cannot match it,
#: so a search for these finds every candidate line (they are plain ASCII, as the security scan needs)
SIGNAL_WORDS = (
    "panic", "fatal error: ", "segmentation fault", "core dumped", "authentication ", "unauthori", "403 forbidden",
    "permission denied", "access denied", "operation not permitted", "rustsec-", "cve-", "ghsa", "vulnerabilit",
    " severity", "security ",
)

SIGNAL: re.Pattern[str]  # declared for type checkers; bound by ``__getattr__`` on first use


def _signal_pattern() -> re.Pattern[str]:
    pattern: re.Pattern[str] | None = globals().get("SIGNAL")
    return pattern if pattern is not None else __getattr__("SIGNAL")


def __getattr__(name: str) -> re.Pattern[str]:
    """Compile ``SIGNAL`` when first used (PEP 562).

    Compiling the alternation takes about a millisecond, and most ``filter``
    runs never need it: the pipeline passes only lines holding one of its
    words, and none when those lines all survived.
    """
    if name != "SIGNAL":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    pattern = _regex.compile(_SIGNAL_SOURCE, _regex.IGNORECASE | _regex.MULTILINE)
    globals()["SIGNAL"] = pattern
    return pattern


MARKER = "--- security-relevant lines kept from the full output ---"


def signal_lines(text: str) -> list[str]:
    """Return the lines of ``text`` that carry a security signal, in order, once each."""
    seen: set[str] = set()
    lines = []
    for match in _signal_pattern().finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = text[start : len(text) if end == -1 else end]
        if line not in seen:
            seen.add(line)
            lines.append(line)
    return lines


def restore_signals(original: str, filtered: str) -> str:
    """Append the signal lines of ``original`` that ``filtered`` lost, under a marker."""
    if not original:
        return filtered
    kept = set(filtered.split("\n"))
    if kept.issuperset(original.split("\n")):
        return filtered  # nothing was lost, whatever the signal lines are
    lines = signal_lines(original)
    missing = [line for line in lines if line not in kept]
    if not missing:
        return filtered
    base = filtered if filtered.endswith("\n") or not filtered else filtered + "\n"
    return base + MARKER + "\n" + "\n".join(missing) + "\n"
