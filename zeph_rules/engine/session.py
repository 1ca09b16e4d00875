"""Per-session state the policy engine reads: how many calls, and which ones, in order.

The engine never changes a session while deciding; the caller records a call
once it has been let through (``record``), so a decision is a pure function of
(rules, call, session).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Older calls are forgotten beyond this; blocked sequences look back this far.
MAX_HISTORY = 1000


@dataclass
class Session:
    """The calls made so far in one agent session (tool name and input text)."""

    calls: int = 0
    history: list[tuple[str, str]] = field(default_factory=list)

    def record(self, tool: str, input_or_args: str | Mapping[str, Any]) -> None:
        """Count one call and remember it for blocked sequences."""
        self.calls += 1
        self.history.append((tool, call_text(tool, input_or_args)))
        if len(self.history) > MAX_HISTORY:
            del self.history[: len(self.history) - MAX_HISTORY]

    def as_json(self) -> dict[str, Any]:
        return {"calls": self.calls, "history": [{"tool": t, "input": i} for t, i in self.history]}

    @classmethod
    def from_json(cls, data: Any) -> Session:
        """Build a session from ``{"calls": N, "history": [{"tool", "input" | "args"}]}``; raise ValueError if malformed."""
        if not isinstance(data, dict):
            raise ValueError("a session must be a JSON object with `calls` and `history`")
        history: list[tuple[str, str]] = []
        for entry in data.get("history", []) or []:
            if not isinstance(entry, dict) or not isinstance(entry.get("tool"), str):
                raise ValueError("each history entry needs a `tool` and an `input` or `args`")
            payload = entry.get("input", entry.get("args", ""))
            history.append((entry["tool"], call_text(entry["tool"], payload if isinstance(payload, (str, dict)) else str(payload))))
        calls = data.get("calls", len(history))
        if not isinstance(calls, int) or isinstance(calls, bool) or calls < 0:
            raise ValueError("`calls` must be a non-negative integer")
        return cls(calls=max(calls, len(history)), history=history)

    @classmethod
    def load(cls, path: str | Path) -> Session:
        """Read a session file; a missing file is an empty session."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        return cls.from_json(json.loads(text) if text.strip() else {})

    def save(self, path: str | Path) -> None:
        """Write the session file atomically."""
        import os
        import tempfile

        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".session-")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(self.as_json(), handle)
        os.replace(tmp, target)


_TEXT_KEYS = ("command", "cmd", "script", "path", "file_path", "filepath", "file", "filename", "notebook_path", "url", "pattern", "query")


def call_text(tool: str, input_or_args: str | Mapping[str, Any]) -> str:
    """Return the text a pattern about a call is matched against (command, path, or JSON)."""
    if isinstance(input_or_args, str):
        return input_or_args
    for key in _TEXT_KEYS:
        value = input_or_args.get(key)
        if isinstance(value, str):
            return value
    try:
        return json.dumps(input_or_args, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(input_or_args)
