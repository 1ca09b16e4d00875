"""Helpers for the secret-scanner conformance suite.

The samples live in ``shared/conformance/secrets/*.jsonl.gz`` beside the repository (they are the test
cases of gitleaks and detect-secrets, extracted as data).  They stay gzip-compressed and are only ever
decoded in memory: nothing here writes, prints or returns a sample's secret value in a message.
Reports name records by ``rule_id`` and index only.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

#: ``shared/`` sits beside the repository checkout (``/work/shared`` when the repo is ``/work/main``).
DATA_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "secrets"

GITLEAKS_SAMPLES = "gitleaks_samples.jsonl.gz"
GITLEAKS_RULES = "gitleaks_rules.jsonl.gz"
DETECT_SECRETS_SAMPLES = "detect_secrets_samples.jsonl.gz"

#: zeph-rules pattern category -> conformance-data category
CATEGORY_MAP = {
    "cloud": "cloud",
    "platform": "vcs_platform",
    "private_key": "private_key",
    "token": "token_jwt_bearer",
    "password": "password_url_assignment",
    "generic": "generic_api_key",
}
DATA_CATEGORIES = tuple(CATEGORY_MAP.values())


def data_available() -> bool:
    return (DATA_DIR / GITLEAKS_SAMPLES).is_file() and (DATA_DIR / DETECT_SECRETS_SAMPLES).is_file()


def load_samples(name: str) -> list[dict[str, Any]]:
    """Decode one ``*.jsonl.gz`` file in memory; each record gets an ``index`` (its line number)."""
    records = []
    with gzip.open(DATA_DIR / name, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if line.strip():
                rec = json.loads(line)
                rec["index"] = i
                records.append(rec)
    return records


def _line_starts(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def finding_spans(text: str, findings: Iterable[Any]) -> list[tuple[int, int, str]]:
    """(start, end, category) character offsets of findings (line/column are 1-based)."""
    starts = _line_starts(text)
    out = []
    for f in findings:
        start = starts[f.line - 1] + f.column - 1
        out.append((start, start + f.length, f.category))
    return out


def expected_spans(rec: dict[str, Any]) -> list[tuple[int, int]]:
    """Where the record's secret sits in its text (every occurrence of every recorded form)."""
    text = rec["text"]
    values = list(rec.get("expected_secrets") or []) + list(rec.get("expected_matches") or [])
    if rec.get("sample_secret"):
        values.append(rec["sample_secret"])
    spans = []
    for v in values:
        if not v:
            continue
        pos = text.find(v)
        while pos >= 0:
            spans.append((pos, pos + len(v)))
            pos = text.find(v, pos + 1)
    return spans


def detects(rec: dict[str, Any], spans: Sequence[tuple[int, int, str]]) -> bool:
    """A tp counts as found when some finding overlaps where its secret is.

    When the secret cannot be located in the text (detect-secrets records without a recorded value),
    any finding counts.
    """
    want = expected_spans(rec)
    if not want:
        return bool(spans)
    return any(s < we and ws < e for s, e, _ in spans for ws, we in want)


def false_alarm(rec: dict[str, Any], spans: Sequence[tuple[int, int, str]]) -> bool:
    """A fp fails when the scanner reports anything in the fp's own category."""
    return any(CATEGORY_MAP.get(cat) == rec["category"] for _, _, cat in spans)


# Path-bound gitleaks rules (pkcs12-file, nuget-config-password, hashicorp-tf-password,
# kubernetes-secret-yaml, freemius-secret-key) fire only for files with a matching name; the scanner looks
# at command output, which has no file name, so their gitleaks samples (tp and fp: the ones whose ``path``
# is set) are left out.
def known_value_literals() -> dict[str, tuple[str, ...]]:
    """Per gitleaks rule, the exact secret-shaped values its allowlists suppress (read at run time).

    Some gitleaks fps are not near-misses but real-format values that gitleaks silences by listing the value
    itself (published GCP browser keys, a stopword hash).  A pattern file may not carry those values, so
    such fps are scored apart from the near-misses.  Only literal entries count: 16+ characters of
    ``[A-Za-z0-9_-]`` (no regex syntax), from ``regexes`` and ``stopwords``.
    """
    out: dict[str, tuple[str, ...]] = {}
    literal = re.compile(r"[A-Za-z0-9_-]{16,}")
    for rule in load_samples(GITLEAKS_RULES):
        found = []
        for allow in rule.get("allowlists") or ():
            for entry in list(allow.get("regexes") or ()) + list(allow.get("stopwords") or ()):
                if literal.fullmatch(entry):
                    found.append(entry)
        if found and "id" in rule:
            out[rule["id"]] = tuple(found)
    return out


def gitleaks_tps_per_secret(records: Iterable[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """gitleaks tps grouped per distinct secret: key (rule_id, sample_secret), or (rule_id, '#<index>')
    for literal samples that have no sample_secret.  Each group holds all syntax variants of the secret."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for rec in records:
        if rec["kind"] != "tp" or rec.get("path") is not None:
            continue
        key = (rec["rule_id"], rec["sample_secret"] or f"#{rec['index']}")
        groups[key].append(rec)
    return groups


@dataclass
class Tally:
    hit: int = 0
    total: int = 0
    misses: list[str] = field(default_factory=list)  # "rule_id#index" of failures, never values

    def add(self, ok: bool, label: str) -> None:
        self.total += 1
        if ok:
            self.hit += 1
        else:
            self.misses.append(label)

    @property
    def rate(self) -> float:
        return self.hit / self.total if self.total else 1.0


@dataclass
class Report:
    recall_per_secret: dict[str, Tally]  # gitleaks, a secret counts only if found in every variant
    recall_per_sample: dict[str, Tally]  # gitleaks, every tp record
    ds_recall: dict[str, Tally]  # detect-secrets tps
    fp_clean: dict[str, Tally]  # gitleaks near-miss fps (no rule fires, not value-allowlisted); hit = quiet
    fp_known_value: Tally  # gitleaks fps silenced only by gitleaks' exact-value allowlist; hit = quiet
    ds_fp: dict[str, Tally]  # detect-secrets fps; hit = stayed quiet

    def lines(self) -> list[str]:
        def rec(t: Tally | None) -> str:
            return f"{t.hit:5d}/{t.total:<5d} {100 * t.rate:5.1f}%" if t else " " * 18

        def alarm(t: Tally | None) -> str:
            return f"{t.total - t.hit:5d}/{t.total:<5d} {100 * (1 - t.rate):5.1f}%" if t else " " * 18

        out = [f"{'category':24s} {'gitleaks per secret':20s} {'gitleaks per sample':20s} "
               f"{'detect-secrets tp':20s} {'alarms: gitleaks fp':20s} {'alarms: d-s fp':20s}"]
        for cat in DATA_CATEGORIES + ("other",):
            cells = [rec(self.recall_per_secret.get(cat)), rec(self.recall_per_sample.get(cat)),
                     rec(self.ds_recall.get(cat)), alarm(self.fp_clean.get(cat)), alarm(self.ds_fp.get(cat))]
            out.append(f"{cat:24s} " + "  ".join(cells))
        out.append(f"{'all gitleaks near-misses':24s} false alarms {alarm(self.clean_fp_total)}")
        out.append(f"{'value-allowlisted fps':24s} false alarms {alarm(self.fp_known_value)}"
                   "  (real-format values gitleaks silences by listing them; not near-misses)")
        return out

    @property
    def clean_fp_total(self) -> Tally:
        return Tally(sum(t.hit for t in self.fp_clean.values()), sum(t.total for t in self.fp_clean.values()))

    @property
    def false_alarm_rate(self) -> float:
        return 1 - self.clean_fp_total.rate


def evaluate(scan: Callable[[str], list[Any]]) -> Report:
    """Run ``scan`` (text -> findings) over both corpora and tally recall and false alarms."""
    gl = load_samples(GITLEAKS_SAMPLES)
    ds = load_samples(DETECT_SECRETS_SAMPLES)
    spans_of: dict[tuple[str, int], list[tuple[int, int, str]]] = {}

    def spans(corpus: str, rec: dict[str, Any]) -> list[tuple[int, int, str]]:
        key = (corpus, rec["index"])
        if key not in spans_of:
            spans_of[key] = finding_spans(rec["text"], scan(rec["text"]))
        return spans_of[key]

    per_secret: dict[str, Tally] = defaultdict(Tally)
    per_sample: dict[str, Tally] = defaultdict(Tally)
    for (rule, _), recs in gitleaks_tps_per_secret(gl).items():
        oks = [detects(r, spans("gl", r)) for r in recs]
        for r, ok in zip(recs, oks):
            per_sample[r["category"]].add(ok, f"{rule}#{r['index']}")
        per_secret[recs[0]["category"]].add(all(oks), f"{rule}#{recs[0]['index']}")

    literals = known_value_literals()
    fp_clean: dict[str, Tally] = defaultdict(Tally)
    fp_known = Tally()
    for r in gl:
        if r["kind"] == "fp" and r.get("path") is None and not r.get("all_rules_fired"):
            quiet = not false_alarm(r, spans("gl", r))
            if any(v in r["text"] for v in literals.get(r["rule_id"], ())):
                fp_known.add(quiet, f"{r['rule_id']}#{r['index']}")
            else:
                fp_clean[r["category"]].add(quiet, f"{r['rule_id']}#{r['index']}")

    ds_recall: dict[str, Tally] = defaultdict(Tally)
    ds_fp: dict[str, Tally] = defaultdict(Tally)
    for r in ds:
        if r["kind"] == "tp":
            ds_recall[r["category"]].add(detects(r, spans("ds", r)), f"{r['rule_id']}#{r['index']}")
        else:
            ds_fp[r["category"]].add(not false_alarm(r, spans("ds", r)), f"{r['rule_id']}#{r['index']}")
    return Report(dict(per_secret), dict(per_sample), dict(ds_recall), dict(fp_clean), fp_known, dict(ds_fp))
