"""Regenerate the golden outputs of the real-output fixtures and report the savings.

Runs every ``tests/fixtures/<tool>/<case>/raw.txt`` through the full filter
pipeline with the built-in rules (``zeph_rules.load(builtin=True, cache=False)``
then ``graph.filter(command, raw, exit_code)``), writes the result next to it as
``expected.txt`` and prints, per case, the rules that ran, the confidence, the
bytes before and after, the savings and any lost ``must_survive`` entry; then
the total and mean savings and the cases that save least.

    python scripts/regenerate_goldens.py            # rewrite expected.txt, print the summary
    python scripts/regenerate_goldens.py --check    # write nothing; exit 1 if a golden differs
    python scripts/regenerate_goldens.py --summary-only

A reviewer reads ``git diff tests/fixtures`` after a rule or strategy change.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


@dataclass(frozen=True)
class Case:
    """One fixture: where it lives, the command, the exit code, the raw output and what must survive."""

    path: Path
    command: str
    exit_code: int | None
    raw: str
    must_survive: tuple[str, ...]
    #: must_survive entries the filters are known to lose, with the reason (``known_lost_reason``):
    #: reported as lost, and the tests fail when the lost entries differ from these
    known_lost: tuple[str, ...] = ()
    #: why the rules that match this output are expected to fall back (``fallback_reason``): an
    #: output their parser must not pretend to understand, such as a run that crashed mid-way
    fallback_reason: str = ""

    @property
    def name(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"


@dataclass(frozen=True)
class Outcome:
    """What the pipeline made of one case."""

    case: Case
    output: str
    confidence: str
    rules: tuple[str, ...]
    raw_bytes: int
    out_bytes: int
    lost: tuple[str, ...]

    @property
    def saved(self) -> float:
        return 1 - self.out_bytes / self.raw_bytes if self.raw_bytes else 0.0


def read_raw(path: Path) -> str:
    """Return ``raw.txt`` as the CLI would see it (invalid UTF-8 kept by surrogateescape)."""
    return path.read_bytes().decode("utf-8", "surrogateescape")


def load_cases(root: Path = FIXTURES) -> list[Case]:
    """Return every fixture case under ``root``, sorted by tool and case name."""
    cases = []
    for case_file in sorted(root.glob("*/*/case.toml")):
        raw_file = case_file.with_name("raw.txt")
        if not raw_file.exists():
            continue
        meta = tomllib.loads(case_file.read_text(encoding="utf-8"))
        cases.append(Case(
            path=case_file.parent,
            command=str(meta.get("command", "")),
            exit_code=meta.get("exit_code"),
            raw=read_raw(raw_file),
            must_survive=tuple(meta.get("must_survive", ())),
            known_lost=tuple(meta.get("known_lost", ())),
            fallback_reason=str(meta.get("fallback_reason", "")),
        ))
    return cases


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def lost_lines(output: str, must_survive: tuple[str, ...]) -> tuple[str, ...]:
    """Return the ``must_survive`` entries that are a substring of no (ANSI-stripped) output line.

    An entry's trailing blanks do not count: sanitising removes them from every
    line (pytest's ``file.py:4: `` location lines end in a space).
    """
    lines = _ANSI.sub("", output).split("\n")
    return tuple(entry for entry in must_survive if not any(entry.rstrip(" \t") in line for line in lines))


def run(cases: list[Case]) -> list[Outcome]:
    """Filter every case with the built-in rules."""
    import zeph_rules

    graph = zeph_rules.load(builtin=True, cache=False)
    outcomes = []
    for case in cases:
        result = graph.filter(case.command, case.raw, case.exit_code)
        outcomes.append(Outcome(
            case=case,
            output=result.output,
            confidence=result.confidence.label,
            rules=tuple(result.rules),
            raw_bytes=utf8_len(case.raw),
            out_bytes=utf8_len(result.output),
            lost=lost_lines(result.output, case.must_survive),
        ))
    return outcomes


def summary(outcomes: list[Outcome], least: int = 10) -> str:
    """Return the report: one line per case, then totals and the least-saving cases."""
    lines = []
    for outcome in outcomes:
        rules = ",".join(outcome.rules) or "-"
        lines.append(
            f"{outcome.case.name:42} {outcome.confidence:8} {outcome.raw_bytes:8} -> {outcome.out_bytes:7}"
            f" {outcome.saved:6.1%}  {rules}"
        )
        lines.extend(f"    LOST{' (known)' if entry in outcome.case.known_lost else ''}: {entry}"
                     for entry in outcome.lost)
    raw_total = sum(outcome.raw_bytes for outcome in outcomes)
    out_total = sum(outcome.out_bytes for outcome in outcomes)
    mean = sum(outcome.saved for outcome in outcomes) / len(outcomes) if outcomes else 0.0
    confidences: dict[str, int] = {}
    for outcome in outcomes:
        confidences[outcome.confidence] = confidences.get(outcome.confidence, 0) + 1
    lost = sum(len(outcome.lost) for outcome in outcomes)
    lost_cases = sum(1 for outcome in outcomes if outcome.lost)
    known = sum(1 for outcome in outcomes for entry in outcome.lost if entry in outcome.case.known_lost)
    lines += [
        "",
        f"cases: {len(outcomes)}   confidence: "
        + ", ".join(f"{label} {count}" for label, count in sorted(confidences.items())),
        f"total: {raw_total} -> {out_total} bytes, {1 - out_total / raw_total if raw_total else 0:.1%} saved",
        f"mean per case: {mean:.1%} saved",
        f"must_survive lost: {lost} entries in {lost_cases} cases"
        + (f" ({known} of them known losses, see known_lost in case.toml)" if known else ""),
        f"{least} least-saving cases:",
    ]
    for outcome in sorted(outcomes, key=lambda o: o.saved)[:least]:
        lines.append(f"  {outcome.saved:6.1%}  {outcome.case.name} ({outcome.raw_bytes} bytes, {outcome.confidence})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a golden is out of date")
    parser.add_argument("--summary-only", action="store_true", help="write nothing; print the summary")
    parser.add_argument("cases", nargs="*", help="only cases whose tool/case name contains one of these")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    cases = load_cases()
    if args.cases:
        cases = [case for case in cases if any(part in case.name for part in args.cases)]
    outcomes = run(cases)
    stale = []
    for outcome in outcomes:
        golden = outcome.case.path / "expected.txt"
        data = outcome.output.encode("utf-8", "surrogateescape")
        if golden.exists() and golden.read_bytes() == data:
            continue
        stale.append(outcome.case.name)
        if not (args.check or args.summary_only):
            golden.write_bytes(data)
    print(summary(outcomes))
    if args.check:
        print(f"\n{len(stale)} golden(s) out of date" + (": " + ", ".join(stale) if stale else ""))
        return 1 if stale else 0
    if not args.summary_only:
        print(f"\n{len(stale)} golden(s) written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
