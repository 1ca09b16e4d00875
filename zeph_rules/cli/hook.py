"""`zeph-rules hook claude-code`: answer a Claude Code ``PreToolUse`` hook.

Claude Code runs the hook with the event as JSON on stdin and reads
``hookSpecificOutput.permissionDecision`` (allow / ask / deny) and a reason
from stdout.  The hook must never block the agent by crashing: any internal
error becomes ``ask`` with the error named, and the exit code is always 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import click

from .options import RULES


@click.group()
def hook() -> None:
    """Answer agent hooks (PreToolUse) with decisions from the rules."""


@hook.command("claude-code")
@RULES
@click.option("--session-dir", type=click.Path(file_okay=False),
              help="Keep per-session call counts and history here (for quotas and blocked sequences).")
def claude_code(rules: Sequence[str], session_dir: str | None) -> None:
    """Read a PreToolUse event on stdin and write the hookSpecificOutput answer."""
    raw = sys.stdin.read()
    click.echo(json.dumps(answer(raw, rules, session_dir), ensure_ascii=False))


def answer(raw: str, rules: Sequence[str] = (), session_dir: str | None = None) -> dict[str, Any]:
    """Return the hook answer for one raw event; an internal error answers ``ask``."""
    try:
        event = json.loads(raw)
        if not isinstance(event, dict) or not isinstance(event.get("tool_name"), str):
            raise ValueError("the event has no `tool_name`")
        tool = event["tool_name"]
        tool_input = event.get("tool_input") or {}
        if not isinstance(tool_input, dict):
            tool_input = {"input": tool_input}
        from ..engine.loader import load
        from ..engine.policy import decide
        from ..engine.session import Session

        graph = load(rules)
        session = None
        session_path = None
        session_id = event.get("session_id")
        if session_dir and isinstance(session_id, str) and session_id.replace("-", "").isalnum():
            from pathlib import Path

            session_path = Path(session_dir) / f"{session_id}.json"
            session = Session.load(session_path)
        cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
        decision = decide(graph, tool, tool_input, session, cwd=cwd)
        if session is not None and session_path is not None and decision.decision != "deny":
            session.record(tool, tool_input)
            session.save(session_path)
        reason = decision.reason + (f" [{decision.rule} at {decision.source}]" if decision.source else "")
        return _output(decision.decision, f"zeph-rules: {reason}")
    except Exception as exc:  # noqa: BLE001 - a hook must answer, never crash
        return _output("ask", f"zeph-rules could not decide ({type(exc).__name__}: {exc}); asking instead")


def _output(decision: str, reason: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision,
                                   "permissionDecisionReason": reason}}


__all__ = ["answer", "hook"]
