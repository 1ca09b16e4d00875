"""Conformance of the built-in credential patterns against gitleaks' and detect-secrets' own test cases.

The corpus is read at test time from ``shared/conformance/secrets`` beside the repository and is never
copied into it.  Messages and reports name samples by ``rule_id#index`` only: no assertion message,
report line or finding ever carries a secret value.

Targets (gitleaks samples, path-bound rules excluded, see ``conformance.py``):
  * recall >= 95 % in each of the six categories, counting a secret as found only when it is found in
    every syntax variant (INI, JSON, YAML, Go, ...) it is written in;
  * false alarms <= 5 % on the clean near-misses (fps for which no gitleaks rule fires).
"""

from __future__ import annotations

import importlib.util
import random
import string
import sys
import time
import warnings
from pathlib import Path

import pytest
import regex

from zeph_rules import _speedups
from zeph_rules._speedups import build_literal_table

try:  # pytest puts tests/ on sys.path (rootdir-relative import mode)
    import conformance as conf
except ImportError:  # pragma: no cover - tests/ turned into a package
    from tests import conformance as conf  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parents[1]
PATTERNS_FILE = REPO / "zeph_rules" / "builtin_rules" / "security.toml"


def _load_reference():
    try:
        from zeph_rules.engine import security_reference

        return security_reference
    except ImportError:
        # The package skeleton (zeph_rules/__init__.py, zeph_rules/engine/__init__.py) may not exist yet:
        # load the module by path.
        name = "zeph_rules_security_reference"
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, REPO / "zeph_rules" / "engine" / "security_reference.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module


ref = _load_reference()

needs_data = pytest.mark.skipif(not conf.data_available(), reason=f"conformance data not found at {conf.DATA_DIR}")

RECALL_TARGET = 0.95
FALSE_ALARM_TARGET = 0.05


@pytest.fixture(scope="module")
def patterns():
    return ref.load_patterns()


@pytest.fixture(scope="module")
def report(patterns):
    rep = conf.evaluate(lambda text: ref.scan_text(text, patterns))
    print("\n" + "\n".join(rep.lines()))
    return rep


@pytest.fixture(scope="module")
def corpus_texts():
    texts = []
    for name in (conf.GITLEAKS_SAMPLES, conf.DETECT_SECRETS_SAMPLES):
        for rec in conf.load_samples(name):
            if rec["text"]:
                texts.append((f"{rec['rule_id']}#{rec['index']}", rec["kind"], rec["text"]))
    return texts


# --------------------------------------------------------------------------------------------------
# The pattern file itself
# --------------------------------------------------------------------------------------------------


def test_default_path_is_the_builtin_file(patterns):
    # the installed package may live outside the checkout (CI installs it): compare contents
    assert ref.DEFAULT_PATTERNS_PATH.name == "security.toml"
    assert ref.DEFAULT_PATTERNS_PATH.read_bytes() == PATTERNS_FILE.read_bytes()
    assert 100 <= len(patterns) <= 250
    print(f"\n{len(patterns)} built-in patterns")


def test_pattern_fields(patterns):
    ids = [p.id for p in patterns]
    assert len(ids) == len(set(ids)), "duplicate pattern ids"
    for p in patterns:
        assert regex.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", p.id), p.id
        assert p.category in ref.CATEGORIES, p.id
        assert p.description, p.id
        assert len(p.regex) <= 512, p.id
        assert p.keywords, p.id
        for k in p.keywords:
            assert k and k == k.lower() and k.isascii() and k.strip() == k, (p.id, k)
            assert len(k) >= 2, (p.id, k)
        if p.entropy is not None:
            assert 0 < p.entropy < 6, p.id
    categories = {p.category for p in patterns}
    assert categories == set(ref.CATEGORIES)


def test_regexes_compile_with_regex_and_re(patterns):
    import re

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for p in patterns:
            rx = regex.compile(p.regex)
            re.compile(p.regex)
            assert 0 <= p.secret_group <= rx.groups, p.id
            for a in p.allowlist:
                regex.compile(a)
                re.compile(a)


def _unbounded_repeats(pattern: str) -> int:
    import re

    try:
        parser = re._parser  # type: ignore[attr-defined]  # Python 3.11+
    except AttributeError:  # pragma: no cover - Python 3.10
        import sre_parse as parser  # type: ignore[no-redef]
    count = 0

    def walk(items) -> None:  # type: ignore[no-untyped-def]
        nonlocal count
        for op, av in items:
            if op in (parser.MAX_REPEAT, parser.MIN_REPEAT):
                if av[1] == parser.MAXREPEAT:
                    count += 1
                walk(av[2])
            elif op == parser.SUBPATTERN:
                walk(av[-1])
            elif op == parser.BRANCH:
                for branch in av[1]:
                    walk(branch)
            elif op in (parser.ASSERT, parser.ASSERT_NOT):
                walk(av[1])

    walk(parser.parse(pattern))
    return count


def test_every_repetition_is_bounded(patterns):
    offenders = [p.id for p in patterns if _unbounded_repeats(p.regex)]
    assert not offenders, f"unbounded + / * / {{n,}} in: {offenders}"


@needs_data
def test_every_match_contains_a_keyword(patterns, corpus_texts):
    """The prefilter invariant: a pattern can only match where one of its keywords occurs.

    A keyword may start in the one character a lookbehind requires right before
    the match (``_pass`` for ``(?<=[_.-])pass``): the prefilter searches the
    text, not the match.
    """
    bad: dict[str, list[str]] = {}
    for p in patterns:
        rx = regex.compile(p.regex)
        for label, _kind, text in corpus_texts:
            for m in rx.finditer(text, timeout=2.0):
                matched = text[max(0, m.start() - 1) : m.end()].lower()
                if not any(k in matched for k in p.keywords):
                    bad.setdefault(p.id, []).append(label)
                    break
    assert not bad, {k: v[:5] for k, v in bad.items()}


# --------------------------------------------------------------------------------------------------
# Conformance: recall and false alarms
# --------------------------------------------------------------------------------------------------


@needs_data
@pytest.mark.parametrize("category", conf.DATA_CATEGORIES)
def test_gitleaks_recall_per_secret(report, category):
    tally = report.recall_per_secret[category]
    assert tally.total > 0
    assert tally.rate >= RECALL_TARGET, (
        f"{category}: {tally.hit}/{tally.total} secrets found in all their variants; missed: {tally.misses[:20]}"
    )


@needs_data
@pytest.mark.parametrize("category", conf.DATA_CATEGORIES)
def test_gitleaks_recall_per_sample(report, category):
    tally = report.recall_per_sample[category]
    assert tally.rate >= RECALL_TARGET, f"{category}: {tally.hit}/{tally.total}; missed: {tally.misses[:20]}"


@needs_data
def test_false_alarms_on_clean_near_misses(report):
    total = report.clean_fp_total
    assert total.total > 250
    assert report.false_alarm_rate <= FALSE_ALARM_TARGET, (
        f"{total.total - total.hit}/{total.total} near-misses alarmed: "
        f"{[m for t in report.fp_clean.values() for m in t.misses][:20]}"
    )


@needs_data
def test_value_allowlisted_fps_are_reported(report):
    # Real-format values that gitleaks silences by listing them verbatim (published GCP browser keys, a
    # stopword): the pattern file may not list sample values, so these are expected to alarm.  They are
    # kept visible here, and count towards the all-clean-fp rate printed in the report.
    t = report.fp_known_value
    all_clean = conf.Tally(report.clean_fp_total.hit + t.hit, report.clean_fp_total.total + t.total)
    print(
        f"\nvalue-allowlisted fps alarmed: {t.total - t.hit}/{t.total}; "
        f"all clean fps alarmed: {all_clean.total - all_clean.hit}/{all_clean.total} "
        f"({100 * (1 - all_clean.rate):.1f}%)"
    )
    assert t.total < 30


# detect-secrets is a second, differently-shaped corpus: its keyword plugin flags values gitleaks and this
# scanner deliberately leave alone (template syntax, text with spaces, non-ASCII), its entropy plugins flag
# any quoted random string with no key name at all, and its private-key plugin fires on a bare header.
# These floors guard against regressions where the two corpora agree.
DETECT_SECRETS_FLOORS = {
    "cloud": 0.90,
    "vcs_platform": 0.45,
    "token_jwt_bearer": 0.80,
}


@needs_data
@pytest.mark.parametrize("category", sorted(DETECT_SECRETS_FLOORS))
def test_detect_secrets_recall_floor(report, category):
    tally = report.ds_recall[category]
    assert tally.rate >= DETECT_SECRETS_FLOORS[category], (
        f"{category}: {tally.hit}/{tally.total}; missed: {tally.misses[:20]}"
    )


# --------------------------------------------------------------------------------------------------
# Findings never carry the secret
# --------------------------------------------------------------------------------------------------


def test_finding_has_no_value_field():
    assert ref.Finding._fields == ("rule", "category", "line", "column", "length")


@needs_data
def test_no_finding_reveals_its_secret(patterns):
    checked = 0
    for name in (conf.GITLEAKS_SAMPLES, conf.DETECT_SECRETS_SAMPLES):
        for rec in conf.load_samples(name):
            if rec["kind"] != "tp":
                continue
            values = [v for v in (rec.get("expected_secrets") or []) + [rec.get("sample_secret")] if v and len(v) >= 6]
            if not values:
                continue
            findings = ref.scan_text(rec["text"], patterns)
            rendered = repr(findings) + str(findings) + "".join(str(f._asdict()) for f in findings)
            leaked = [v for v in values if v in rendered]
            assert not leaked, f"{rec['rule_id']}#{rec['index']}: a finding rendered its secret"
            checked += 1
    assert checked > 500


@needs_data
@pytest.mark.one_implementation
def test_repository_holds_no_sample_value():
    """No file of the repository may contain a decoded secret from the conformance corpus."""
    values: set[str] = set()
    for name in (conf.GITLEAKS_SAMPLES, conf.DETECT_SECRETS_SAMPLES):
        for rec in conf.load_samples(name):
            if rec["kind"] != "tp":
                continue
            for v in (rec.get("expected_secrets") or []) + [rec.get("sample_secret")]:
                # long enough, and not a plain word or phrase (PEM header text, prose used as a value)
                if v and len(v) >= 12 and any(c.isdigit() for c in v) and " " not in v:
                    values.add(v)
    assert len(values) > 300
    # the compiled multi-literal automaton reads each file once (300 substring searches a file took
    # half a minute over the fixtures); the pure one would take minutes, so without it the searches stay
    table = build_literal_table(sorted(v.encode() for v in values)) if _speedups.IMPLEMENTATION == "compiled" else None
    offenders = []
    for path in REPO.rglob("*"):
        if ".git" in path.parts or not path.is_file() or path.stat().st_size > 5_000_000:
            continue
        try:
            content = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        found = _speedups.find_literals(table, content.encode()) if table is not None else any(v in content for v in values)
        if found:
            offenders.append(str(path.relative_to(REPO)))
    assert not offenders, f"files holding a conformance secret value: {offenders}"


# --------------------------------------------------------------------------------------------------
# Scanner behaviour (values generated at run time, never stored)
# --------------------------------------------------------------------------------------------------


def _random_token(rng: random.Random, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def test_specific_pattern_wins_over_generic(patterns):
    rng = random.Random(7)
    token = "ghp_" + _random_token(rng, 36)
    text = f'build step\napi_token = "{token}"\n'
    findings = ref.scan_text(text, patterns)
    assert [(f.rule, f.category) for f in findings] == [("github-token", "platform")]
    f = findings[0]
    assert (f.line, f.column, f.length) == (2, 14, len(token))
    assert text.splitlines()[f.line - 1][f.column - 1 : f.column - 1 + f.length] == token


def test_findings_are_sorted_and_positions_are_characters(patterns):
    rng = random.Random(11)
    aws = "AKIA" + _random_token(rng, 16, string.ascii_uppercase + "234567")
    gh = "ghp_" + _random_token(rng, 36)
    text = f"é ü {gh}\n\tkey id: {aws} and {gh}\n"
    findings = ref.scan_text(text, patterns)
    assert findings == sorted(findings, key=lambda f: (f.line, f.column, f.rule))
    lines = text.splitlines()
    got = {lines[f.line - 1][f.column - 1 : f.column - 1 + f.length] for f in findings}
    assert got == {gh, aws}
    assert findings[0].line == 1 and findings[0].column == 5  # counted in characters, not bytes


def test_private_key_needs_a_body(patterns):
    rng = random.Random(3)
    body = "\n".join(_random_token(rng, 64, string.ascii_letters + string.digits + "+/") for _ in range(5))
    for kind in ("RSA ", "EC ", "OPENSSH ", "ENCRYPTED ", ""):
        header, footer = f"-----BEGIN {kind}PRIVATE KEY-----", f"-----END {kind}PRIVATE KEY-----"
        assert [f.rule for f in ref.scan_text(f"{header}\n{body}\n{footer}\n", patterns)] == ["pem-private-key"]
        assert ref.scan_text(f"{header}\n{footer}\n", patterns) == []
        assert ref.scan_text(f"{header}\nredacted\n{footer}\n", patterns) == []


def test_placeholders_stay_quiet(patterns):
    quiet = [
        "password = ${DB_PASSWORD}",
        'api_key: "<your api key>"',
        "token: {{ .Values.token }}",
        "AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY",
        "curl -u $USER:$PASS https://example.org",
        "Authorization: Bearer $TOKEN",
        "secret_length = 32",
        # everyday command output
        "PASS: tests/test_api.py::test_login",
        "usage: input_tokens: 1234567890 output_tokens: 2345678901",
        "PWD=/home/user/project",
        "token_type: bearer",
        "max_tokens=4096",
        # a tool's own redaction of the value (npm config ls -l, terraform's sensitive values, CI logs)
        "password = (protected)",
        "password = (sensitive value)",
        "db_password: [REDACTED]",
    ]
    rng = random.Random(13)
    quiet.append(f'hash_key = "{_random_token(rng, 32, "0123456789abcdef")}"')
    quiet.append(f"cache-key: linux-node-{_random_token(rng, 40, '0123456789abcdef')}")
    for text in quiet:
        assert ref.scan_text(text, patterns) == [], text


def test_shannon_entropy():
    assert ref.shannon_entropy("") == 0.0
    assert ref.shannon_entropy("aaaa") == 0.0
    assert ref.shannon_entropy("ab") == pytest.approx(1.0)
    assert ref.shannon_entropy("0123456789abcdef") == pytest.approx(4.0)


def test_a_pathological_pattern_times_out_instead_of_hanging():
    evil = ref.SecretPattern(
        id="evil", category="generic", description="catastrophic backtracking", regex=r"(?:a|aa){1,60}b",
        keywords=("aa",),
    )
    start = time.monotonic()
    assert ref.scan_text("a" * 5000, (evil,), timeout=0.05) == []
    assert time.monotonic() - start < 10


def test_builtin_patterns_are_fast_on_hostile_input(patterns):
    rng = random.Random(5)
    hostile = [
        "key=" * 20000,
        "-----BEGIN PRIVATE KEY-----\n" + "A" * 60000,
        "curl " + "-u " * 10000,
        "eyJ" + "a" * 50000 + ".eyJ" + "b" * 50000,
        "password: " + "x" * 100000,
        "\n".join("token = " + _random_token(rng, 40) for _ in range(2000)),
    ]
    start = time.monotonic()
    for text in hostile:
        ref.scan_text(text, patterns)
    assert time.monotonic() - start < 30
