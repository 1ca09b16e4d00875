"""Security-signal lines: what must reach the model whatever a filter cuts.

A panic, an authentication failure, ``permission denied``, a RUSTSEC / CVE /
GHSA advisory or a vulnerability summary says something about safety that no
noise filter may drop.  After filtering, any such line of the sanitised output
that did not survive is put back, under a marker.
"""

from __future__ import annotations

import re

SIGNAL = re.compile(
    r"panicked at|^panic: |\bfatal error: |Segmentation fault|\bcore dumped\b"
    r"|authentication (?:failed|failure|required|error)|\bunauthori[sz]ed\b|\b401 Unauthorized\b|\b403 Forbidden\b"
    r"|permission denied|access denied|operation not permitted"
    r"|\bRUSTSEC-\d{4}-\d{4}\b|\bCVE-\d{4}-\d{4,}\b|\bGHSA(?:-[23456789cfghjmpqrvwx]{4}){3}\b"
    r"|\b\d+ (?:\w+ )?(?:severity )?vulnerabilit(?:y|ies)\b|\bvulnerabilit(?:y|ies) found\b"
    r"|\b(?:critical|high) severity\b|\bsecurity (?:advisory|vulnerability)\b",
    re.IGNORECASE | re.MULTILINE,
)

MARKER = "--- security-relevant lines kept from the full output ---"


def signal_lines(text: str) -> list[str]:
    """Return the lines of ``text`` that carry a security signal, in order, once each."""
    seen: set[str] = set()
    lines = []
    for match in SIGNAL.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = text[start : len(text) if end == -1 else end]
        if line not in seen:
            seen.add(line)
            lines.append(line)
    return lines


def restore_signals(original: str, filtered: str) -> str:
    """Append the signal lines of ``original`` that ``filtered`` lost, under a marker."""
    lines = signal_lines(original)
    if not lines:
        return filtered
    kept = set(filtered.split("\n"))
    missing = [line for line in lines if line not in kept]
    if not missing:
        return filtered
    base = filtered if filtered.endswith("\n") or not filtered else filtered + "\n"
    return base + MARKER + "\n" + "\n".join(missing) + "\n"
