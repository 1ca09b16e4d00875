"""Pure-Python twin of line normalisation and grouping for the ``dedup`` strategy.

``normalize_line`` is a hand-written single-pass scanner (no regex) so that it
ports one-to-one to Cython.  It replaces the parts of a log line that vary
between otherwise identical messages with placeholders:

* dates, times and timestamps (ISO 8601, syslog ``Jan  2 15:04:05``, ``15:04:05.123``) -> ``<TS>``
* UUIDs -> ``<UUID>``
* hex ids of 8 or more hex digits with at least one digit and one letter, or any ``0x``-prefixed run -> ``<HEX>``
* IPv4 addresses with an optional ``:port`` -> ``<IP>``
* a record's id or code, one to three capital letters then four or more digits
  (``P0000002``, ``INC0012345``) -> ``<ID>``
* any other standalone decimal number, with a unit suffix such as ``ms`` -> ``<N>``

Only runs that stand alone (not glued to letters or ``_`` on either side) are
replaced, so ``utf8``, ``sha256``, ``x86_64`` and ``PR123`` stay as they are.
"""

from __future__ import annotations

_MONTHS = frozenset(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
)
#: suffixes that make a number a quantity (``12ms``, ``3.5s``, ``10KB``) rather than part of a word
_UNITS = frozenset(
    (
        "ns", "us", "µs", "ms", "s", "m", "h", "d", "b", "B", "k", "K", "kb", "KB", "KiB",
        "mb", "MB", "MiB", "gb", "GB", "GiB", "%",
    )
)


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def _is_hex(ch: str) -> bool:
    return "0" <= ch <= "9" or "a" <= ch <= "f" or "A" <= ch <= "F"


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _digits(line: str, start: int) -> int:
    """Return the end of the run of ASCII digits starting at ``start``."""
    end = start
    while end < len(line) and _is_digit(line[end]):
        end += 1
    return end


def _match_time(line: str, pos: int, need_seconds: bool = True) -> int:
    """Return the end of ``HH:MM[:SS[.frac]][Z|±HH[:MM]]`` at ``pos``, or -1.

    Seconds are required unless the time follows a date: a bare ``27:38`` is
    more often a ``line:column`` than a clock.
    """
    n = len(line)
    end = _digits(line, pos)
    if not 1 <= end - pos <= 2 or end >= n or line[end] != ":":
        return -1
    minute_end = _digits(line, end + 1)
    if minute_end - end - 1 != 2:
        return -1
    end = minute_end
    has_seconds = False
    if end < n and line[end] == ":":
        second_end = _digits(line, end + 1)
        if second_end - end - 1 == 2:
            end = second_end
            has_seconds = True
            if end + 1 < n and line[end] in ".," and _is_digit(line[end + 1]):
                end = _digits(line, end + 1)
    if need_seconds and not has_seconds:
        return -1
    if end < n and line[end] == "Z":
        end += 1
    elif end + 2 < n and line[end] in "+-" and _is_digit(line[end + 1]) and _is_digit(line[end + 2]):
        zone_end = end + 3
        if zone_end < n and line[zone_end] == ":" and _digits(line, zone_end + 1) - zone_end - 1 == 2:
            zone_end += 3
        elif _digits(line, zone_end) - zone_end == 2:
            zone_end += 2
        end = zone_end
    return end


def _match_date(line: str, pos: int) -> int:
    """Return the end of ``YYYY-MM-DD`` / ``YYYY/MM/DD`` (+ optional ``T``/space time) at ``pos``, or -1."""
    n = len(line)
    if _digits(line, pos) - pos != 4 or pos + 10 > n:
        return -1
    sep = line[pos + 4]
    if sep not in "-/" or line[pos + 7] != sep:
        return -1
    if _digits(line, pos + 5) != pos + 7 or _digits(line, pos + 8) != pos + 10:
        return -1
    end = pos + 10
    if end + 1 < n and line[end] in "T " and _is_digit(line[end + 1]):
        time_end = _match_time(line, end + 1, need_seconds=False)
        if time_end != -1:
            end = time_end
    return end


def _match_syslog(line: str, pos: int) -> int:
    """Return the end of ``Mon  D HH:MM:SS`` at ``pos``, or -1."""
    if line[pos : pos + 3] not in _MONTHS:
        return -1
    n = len(line)
    i = pos + 3
    if i >= n or line[i] != " ":
        return -1
    while i < n and line[i] == " ":
        i += 1
    day_end = _digits(line, i)
    if not 1 <= day_end - i <= 2 or day_end >= n or line[day_end] != " ":
        return -1
    return _match_time(line, day_end + 1)


def _match_uuid(line: str, pos: int) -> int:
    """Return the end of an 8-4-4-4-12 hex UUID at ``pos``, or -1."""
    end = pos
    for group, length in enumerate((8, 4, 4, 4, 12)):
        if group:
            if end >= len(line) or line[end] != "-":
                return -1
            end += 1
        for _ in range(length):
            if end >= len(line) or not _is_hex(line[end]):
                return -1
            end += 1
    return end


def _match_ipv4(line: str, pos: int) -> int:
    """Return the end of ``a.b.c.d[:port]`` at ``pos``, or -1."""
    end = pos
    for octet in range(4):
        if octet:
            if end >= len(line) or line[end] != ".":
                return -1
            end += 1
        octet_end = _digits(line, end)
        if not 1 <= octet_end - end <= 3:
            return -1
        end = octet_end
    if end + 1 < len(line) and line[end] == ":" and _is_digit(line[end + 1]):
        end = _digits(line, end + 1)
    return end


def _match_hex(line: str, pos: int) -> int:
    """Return the end of a hex id (``0x`` optional, >= 8 hex digits, one a digit) at ``pos``, or -1."""
    start = pos + 2 if line[pos : pos + 2] in ("0x", "0X") else pos
    end = start
    has_digit = has_letter = False
    while end < len(line) and _is_hex(line[end]):
        if _is_digit(line[end]):
            has_digit = True
        else:
            has_letter = True
        end += 1
    if start != pos and end - start >= 1:
        return end  # an explicit 0x prefix is always an id
    # Digits only is a number (<N>); letters only is a word such as "deadbeef" or "accepted".
    if end - start >= 8 and has_digit and has_letter:
        return end
    return -1


def _match_code(line: str, pos: int) -> int:
    """Return the end of a record's id or code, one to three capital letters then 4+ digits (``P0000002``), or -1."""
    end = pos
    while end < len(line) and end - pos < 3 and "A" <= line[end] <= "Z":
        end += 1
    if end == pos:
        return -1
    digits_end = _digits(line, end)
    return digits_end if digits_end - end >= 4 else -1


def _match_number(line: str, pos: int) -> int:
    """Return the end of a decimal number (with fraction and unit) at ``pos``, or -1."""
    end = _digits(line, pos)
    if end == pos:
        return -1
    if end + 1 < len(line) and line[end] == "." and _is_digit(line[end + 1]):
        end = _digits(line, end + 1)
    unit_end = end
    while unit_end < len(line) and (line[unit_end].isalpha() or line[unit_end] in "%µ"):
        unit_end += 1
    if unit_end > end and line[end:unit_end] in _UNITS:
        return unit_end
    return end


#: the matchers tried at a token's start, in order; a capital that starts nothing else tries the code only
_MATCHERS = (
    (_match_date, "<TS>"),
    (_match_syslog, "<TS>"),
    (_match_uuid, "<UUID>"),
    (_match_ipv4, "<IP>"),
    (_match_time, "<TS>"),
    (_match_hex, "<HEX>"),
    (_match_code, "<ID>"),
    (_match_number, "<N>"),
)
_CODE_ONLY = ((_match_code, "<ID>"),)


def normalize_line(line: str) -> str:
    """Return ``line`` with timestamps, ids, addresses and numbers replaced by placeholders."""
    if not isinstance(line, str):
        raise TypeError(f"line must be str, not {type(line).__name__}")
    out: list[str] = []
    n = len(line)
    i = 0
    copied = 0  # line[copied:i] is pending verbatim text
    while i < n:
        ch = line[i]
        starts_token = i == 0 or not _is_word(line[i - 1])
        if not starts_token or not (_is_hex(ch) or "A" <= ch <= "Z"):
            i += 1
            continue
        placeholder = ""
        end = -1
        # a capital that starts no date, month, hex id or number ("GET", "P0000002") can only start a code
        candidates = _CODE_ONLY if not _is_hex(ch) and ch not in "JFMASOND" else _MATCHERS
        for matcher, name in candidates:
            end = matcher(line, i)
            if end != -1 and (end >= n or not _is_word(line[end])):
                placeholder = name
                break
            end = -1
        if end == -1:
            i += 1
            continue
        out.append(line[copied:i])
        out.append(placeholder)
        i = copied = end
    out.append(line[copied:])
    return "".join(out)


def dedup_lines(lines: list[str], max_unique: int) -> list[tuple[int, int]]:
    """Group ``lines`` by normalised key: ``(first index, count)`` per group, in first-seen order."""
    if max_unique < 0:
        raise ValueError("max_unique must be >= 0")
    groups: list[list[int]] = []
    slot_of_key: dict[str, int] = {}
    for index, line in enumerate(lines):
        key = normalize_line(line)
        slot = slot_of_key.get(key)
        if slot is not None:
            groups[slot][1] += 1
            continue
        if len(slot_of_key) < max_unique:
            slot_of_key[key] = len(groups)
        # Past the limit a new key is not remembered, so it stays a group of its own.
        groups.append([index, 1])
    return [(first, count) for first, count in groups]
