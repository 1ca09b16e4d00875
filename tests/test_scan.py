"""The production scanner: compiled prefilter twins, agreement with the
reference scanner on public samples, hostile inputs, and no values anywhere."""

from __future__ import annotations

import pickle
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zeph_rules import _speedups
from zeph_rules._speedups import _scan_py, build_bigram_index
from zeph_rules.engine import security_reference as reference
from zeph_rules.engine.security import Scanner, default_scanner

from conformance import data_available, load_samples

needs_data = pytest.mark.skipif(not data_available(), reason="shared/conformance is not beside the checkout")


def _twins() -> list:
    modules = [_scan_py]
    if "compiled" in _speedups.available():
        from zeph_rules._speedups import _scan_c

        modules.append(_scan_c)
    return modules


ALPHABET = b"abAB-_\n xy"
small_bytes = st.lists(st.sampled_from(ALPHABET), max_size=120).map(bytes)
keywords = st.lists(st.lists(st.sampled_from(b"abAB-_x"), min_size=2, max_size=5).map(bytes), min_size=1, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(literals=keywords, data=small_bytes, fold=st.booleans(), seed=st.integers(0, 1000))
def test_candidate_window_twins_agree(literals: list[bytes], data: bytes, fold: bool, seed: int) -> None:
    rng = random.Random(seed)
    index = build_bigram_index(literals, ignore_case=fold)
    n_patterns = 3
    # a literal may own no pattern: it only marks lines (as the signal words do)
    owners = tuple(tuple(sorted(rng.sample(range(n_patterns), rng.randint(0, n_patterns)))) for _ in literals)
    radius = tuple(rng.randint(5, 40) for _ in range(n_patterns))  # real radii always exceed the keyword
    reach = tuple(rng.randint(0, 2) for _ in range(n_patterns))
    anchored = tuple(rng.random() < 0.5 for _ in range(n_patterns))
    table = bytes(1 if b in b"-_" else 0 if b in b"\n" else 2 for b in range(256))
    follow = tuple(tuple(None if rng.random() < 0.5 else (rng.randint(0, 6), rng.random() < 0.5, table) for _ in owned)
                   for owned in owners)
    results = [m.candidate_windows(index, data, owners, radius, reach, anchored, follow) for m in _twins()]
    assert all(r == results[0] for r in results)
    # the same search also marks lines: the windows do not change, and a line is marked when it
    # holds (starts) an occurrence of a marked literal
    marked = tuple(rng.random() < 0.5 for _ in index.literals)
    both = [m.windows_and_marked_lines(index, data, owners, radius, reach, anchored, follow, marked) for m in _twins()]
    assert all(b == both[0] for b in both)
    assert both[0][0] == results[0]
    hay = data.lower() if fold else data
    expected_lines = set()
    for literal_id, literal in enumerate(index.literals):
        start = hay.find(literal)
        while start != -1 and marked[literal_id]:
            expected_lines.add(data.rfind(b"\n", 0, start) + 1)
            start = hay.find(literal, start + 1)
    assert both[0][1] == sorted(expected_lines)
    # every occurrence of a literal is covered by a window of each owning pattern (unless its follow rule fails)
    for literal_id, literal in enumerate(index.literals):
        start = hay.find(literal)
        while start != -1:
            for pattern, rule in zip(owners[literal_id], follow[literal_id]):
                if rule is not None:
                    verdict = False
                    for b in data[start + len(literal) : start + len(literal) + rule[0]]:
                        if rule[2][b] == 1:
                            verdict = True
                            break
                        if rule[2][b] == 0 or (rule[1] and b == 10):
                            break
                    if not verdict:
                        continue
                assert any(p == pattern and lo <= start <= hi for p, lo, hi, _ in results[0]), (literal, start, pattern)
            start = hay.find(literal, start + 1)


def _hits(index, data: bytes) -> set[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """(position, literal id) of every occurrence, found the slow and obvious way."""
    hay = data.translate(index.fold)
    found = set()
    for literal_id, literal in enumerate(index.literals):
        start = hay.find(literal)
        while start != -1:
            found.add((start, literal_id))
            start = hay.find(literal, start + 1)
    return found


#: bytes the prefilter's case bit (0x20) merges with another: both cases of letters, but also
#: '@' and '`', '\n' and '*', '[' and '{', and the non-ASCII 0xc1 and 0xe1
CASE_BIT_PAIRS = b"aAzZ@`\n*[{\xc1\xe1-_0"


@settings(max_examples=150, deadline=None)
@given(literals=st.lists(st.lists(st.sampled_from(CASE_BIT_PAIRS), min_size=2, max_size=6).map(bytes), min_size=1,
                         max_size=6, unique=True),
       filler=st.lists(st.sampled_from(CASE_BIT_PAIRS + b" "), min_size=0, max_size=40).map(bytes),
       places=st.lists(st.integers(0, 9000), max_size=12), fold=st.booleans())
def test_every_occurrence_is_found_across_blocks(literals: list[bytes], filler: bytes, places: list[int],
                                                 fold: bool) -> None:
    """The compiled search reads eight bytes at a time in blocks of 4,098 positions: a literal
    that straddles a word, a block or the last bytes is found like any other, and the bytes
    its prefilter cannot tell apart are told apart by the comparison."""
    index = build_bigram_index(literals, ignore_case=fold)
    data = bytearray((filler or b" ") * (9100 // len(filler or b" ") + 1))[:9100]
    for place, literal in zip(places, literals * len(places)):
        data[place : place + len(literal)] = literal
    data_bytes = bytes(data[: max(places, default=9100) + 3])  # end right after a literal, sometimes
    owners = tuple((0,) for _ in literals)
    follow = tuple((None,) for _ in literals)
    marked = tuple(True for _ in literals)
    expected = _hits(index, data_bytes)
    expected_lines = sorted({data_bytes.rfind(b"\n", 0, start) + 1 for start, _ in expected})
    for module in _twins():
        windows, lines = module.windows_and_marked_lines(index, data_bytes, owners, (8,), (2,), (True,), follow, marked)
        assert lines == expected_lines, module.__name__
        # anchored windows of up to CLUSTER hits start at their hit: every hit is one
        covered = {low for _, low, _, at_hit in windows if at_hit}
        merged = [(low, high) for _, low, high, at_hit in windows if not at_hit]
        for start, _ in expected:
            assert start in covered or any(low <= start <= high for low, high in merged), (module.__name__, start)


@pytest.mark.parametrize("module", _twins(), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_marked_lines_next_to_each_other(module) -> None:  # type: ignore[no-untyped-def]
    index = build_bigram_index([b"ab", b"zz"], ignore_case=True)
    data = b"ab\nAB\nxab ab\n\nab\nzz\nab"
    windows, lines = module.windows_and_marked_lines(index, data, ((), ()), (), (), (), ((), ()), (True, False))
    assert windows == []
    assert lines == [0, 3, 6, 14, 20]


@pytest.mark.parametrize("module", _twins(), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_twins_raise_the_same_errors(module) -> None:  # type: ignore[no-untyped-def]
    index = build_bigram_index([b"ab"])
    with pytest.raises(TypeError, match="^data must be bytes$"):
        module.candidate_windows(index, "ab", ((0,),), (4,), (0,), (False,), ((None,),))
    with pytest.raises(TypeError, match="^index must be a BigramIndex$"):
        module.candidate_windows(object(), b"ab", ((0,),), (4,), (0,), (False,), ((None,),))
    with pytest.raises(ValueError, match="^literal_patterns must be a tuple with one entry per literal$"):
        module.candidate_windows(index, b"ab", (), (4,), (0,), (False,), ((None,),))
    with pytest.raises(ValueError, match="^radius, line_reach and anchored must be tuples of the same length$"):
        module.candidate_windows(index, b"ab", ((0,),), (4, 5), (0,), (False,), ((None,),))
    with pytest.raises(ValueError, match="^pattern index out of range$"):
        module.candidate_windows(index, b"ab", ((3,),), (4,), (0,), (False,), ((None,),))
    with pytest.raises(ValueError, match="^follow must mirror literal_patterns"):
        module.candidate_windows(index, b"ab", ((0,),), (4,), (0,), (False,), ())
    with pytest.raises(ValueError, match="^a follow rule is"):
        module.candidate_windows(index, b"ab", ((0,),), (4,), (0,), (False,), (((1, True, b"x"),),))
    with pytest.raises(ValueError):
        module.windows_and_marked_lines(index, b"ab", ((0,),), (4,), (0,), (False,), ((None,),), (True, False))
    with pytest.raises(ValueError):
        module.windows_and_marked_lines(index, b"ab", ((0,),), (4,), (0,), (False,), ((None,),), [True])


def test_short_literals_are_refused() -> None:
    with pytest.raises(ValueError, match="at least two bytes"):
        build_bigram_index([b"a"])


def _token(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def test_findings_carry_positions_never_values() -> None:
    rng = random.Random(5)
    token = "ghp_" + _token(rng, 36)
    text = f"ok\n  é export GITHUB_TOKEN={token} # set\nnothing here\n"
    findings = default_scanner().scan(text.encode())
    assert [(f.rule, f.category, f.line, f.column, f.length) for f in findings] == [("github-token", "platform", 2, 25, 40)]
    assert token not in repr(findings) and token[4:] not in str(findings)


def test_invalid_utf8_and_nul_bytes_do_not_stop_the_scan() -> None:
    rng = random.Random(6)
    token = "glpat-" + _token(rng, 20)
    data = b"\xff\xfe\x00garbage\x00\n" + f"GITLAB_TOKEN={token}\n".encode() + b"\xc3\x28 tail\n"
    findings = default_scanner().scan(data)
    assert [(f.rule, f.line, f.column) for f in findings] == [("gitlab-pat", 2, 14)]


@pytest.mark.parametrize(
    "hostile",
    [
        b"a" * 10_000_000,
        b"token=" + b"A" * 2_000_000,
        b"password = " + b"x" * 1_000_000 + b"\n",
        (b"api_key: '" + b"a-" * 200_000 + b"'\n"),
        b"-----BEGIN RSA PRIVATE KEY-----\n" + b"MIIE" * 500_000,
        b"\x00" * 1_000_000 + b"key=" * 100_000,
        b"key=" * 2_500_000,
        b"token: " * 1_500_000,
        bytes(range(256)) * 20_000,
    ],
    ids=["10MB-line", "token-run", "password-run", "dashes", "pem-unterminated", "nul-keys", "10MB-key=", "10MB-token:", "all-bytes"],
)
def test_hostile_inputs_finish(hostile: bytes) -> None:
    findings = default_scanner().scan(hostile)
    assert all(f.line >= 1 and f.column >= 1 for f in findings)


def test_custom_patterns_and_pickling() -> None:
    pattern = reference.SecretPattern(id="acme-key", category="platform", description="", regex=r"acme_[a-z0-9]{16}",
                                      keywords=("acme_",))
    scanner = Scanner([pattern])
    clone = pickle.loads(pickle.dumps(scanner))
    data = b"x ACME_ no; acme_0123456789abcdef ok"
    assert [(f.rule, f.column) for f in clone.scan(data)] == [("acme-key", 13)]


def test_plain_values_rebuild_the_scanner() -> None:
    """The plan cache stores the scanner with marshal: its plain values make the same scanner."""
    import marshal

    scanner = Scanner(default_scanner().patterns, timeout=0.75, line_words=("error", "panic"))
    clone = Scanner.from_plain(marshal.loads(marshal.dumps(scanner.to_plain())))
    assert (clone.patterns, clone.timeout, clone.tables) == (scanner.patterns, scanner.timeout, scanner.tables)
    data = b"an error line\nexport GITHUB_TOKEN=ghp_" + b"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + b"\nfine\n"
    assert clone.scan_marking_lines(data) == scanner.scan_marking_lines(data)
    assert clone.scan(data) and clone.marks_lines
    # the rebuilt bucket tables are views of the cached bytes; pickling turns them back into arrays
    assert isinstance(clone.tables.keywords.bucket_of, memoryview)
    again = pickle.loads(pickle.dumps(clone))
    assert type(again.tables.keywords.bucket_of) is type(scanner.tables.keywords.bucket_of)
    assert again.tables == scanner.tables and again.scan_marking_lines(data) == scanner.scan_marking_lines(data)


def test_the_compiled_search_refuses_malformed_bucket_tables() -> None:
    """A bucket table of the wrong item type or too short (a damaged cache, a hand-made index) is refused, not read."""
    scanner = default_scanner()
    index = scanner.tables.keywords
    if _speedups.IMPLEMENTATION != "compiled":
        pytest.skip("the pure search reads the tables as sequences")
    for bad in (index._replace(bucket_of=memoryview(index.bucket_of.tobytes()).cast("i")),
                index._replace(bucket_of=memoryview(index.bucket_of.tobytes()[:1000]).cast("H")),
                index._replace(bucket_start=memoryview(index.bucket_start.tobytes()))):
        broken = Scanner.__new__(Scanner)
        broken.__setstate__({**scanner.__getstate__(), "tables": scanner.tables._replace(keywords=bad)})
        with pytest.raises(ValueError, match="bucket table"):
            broken.scan(b"AKIA" + b"A" * 16 + b"\n")
    for broken in ((), (2, (), 0.5, ()), (1, (("id",),), 0.5, ((b"ab",), 2)), "text"):
        with pytest.raises(ValueError, match="^not a plain scanner"):
            Scanner.from_plain(broken)  # type: ignore[arg-type]


@needs_data
def test_production_scanner_agrees_with_reference_on_public_samples() -> None:
    """The prefilter may only skip work, never findings: same result as scanning whole texts."""
    patterns = reference.load_patterns()
    scanner = Scanner(patterns)
    disagreements = []
    samples = load_samples("gitleaks_samples.jsonl.gz") + load_samples("detect_secrets_samples.jsonl.gz")
    for index, sample in enumerate(samples):
        text = sample.get("text") or ""
        if not text:
            continue
        expected = {(f.rule, f.line, f.column) for f in reference.scan_text(text, patterns)}
        got = {(f.rule, f.line, f.column) for f in scanner.scan(text.encode("utf-8", "surrogatepass"))}
        if expected != got:
            disagreements.append(index)
    assert len(disagreements) <= len(samples) // 200, f"{len(disagreements)} samples disagree, e.g. {disagreements[:10]}"


def test_a_pattern_re_reads_otherwise_is_verified_with_the_regex_module() -> None:
    """``re`` refuses ``\\p{Alnum}``; the verifier then matches with the regex module, as the reference does."""
    from zeph_rules.engine.security import _Verifier

    posix = reference.SecretPattern(id="acme-posix", category="platform", description="",
                                    regex=r"acme_(\p{Alnum}{16})", keywords=("acme_",), secret_group=1)
    plain = reference.SecretPattern(id="acme-plain", category="platform", description="",
                                    regex=r"acme_([a-z0-9]{16})", keywords=("acme_",), secret_group=1)
    assert _Verifier(posix, 0).fast is None and _Verifier(plain, 0).fast is not None
    data = b"x = acme_0123456789abcdef\n"
    assert [(f.rule, f.column) for f in Scanner([posix]).scan(data)] == [("acme-posix", 10)]
    assert [(f.rule, f.column) for f in Scanner([plain]).scan(data)] == [("acme-plain", 10)]


def test_a_posix_class_pattern_is_found_as_the_reference_finds_it() -> None:
    """``re`` reads ``[[:alnum:]]`` as a set of brackets and letters: no window or prefilter is proven from that."""
    from zeph_rules.engine.security import _follow, _lead, _width_and_multiline

    posix = reference.SecretPattern(id="acme-posix-class", category="platform", description="",
                                    regex=r"acme_key\s*=\s*([[:alnum:]]{16})", keywords=("acme_key",), secret_group=1)
    assert _follow(posix.regex, posix.keywords) is None
    assert _lead(posix.regex, posix.keywords) == -1
    assert _width_and_multiline(posix.regex) == (-1, True)
    data = "x\nacme_key = 0123456789abcdef\n"
    expected = [(f.rule, f.line, f.column) for f in reference.scan_text(data, [posix])]
    assert expected == [("acme-posix-class", 2, 12)]
    assert [(f.rule, f.line, f.column) for f in Scanner([posix]).scan(data.encode())] == expected


def test_a_pattern_re_reads_as_other_text_is_verified_with_the_regex_module() -> None:
    """``re`` reads the fuzzy count ``{e<=1}`` as five characters of text, without a warning: such a
    pattern is guarded, so the verifier matches it with ``regex``, as the reference does."""
    fuzzy = reference.SecretPattern(id="acme-fuzzy", category="platform", description="",
                                    regex=r"acme_key\s*=\s*((?:s3cret){e<=1})", keywords=("acme_key",), secret_group=1)
    scanner = Scanner([fuzzy])
    assert scanner.tables.guarded == (True,)
    data = "x\nacme_key = s3cre7\n"
    expected = [(f.rule, f.line, f.column) for f in reference.scan_text(data, [fuzzy])]
    assert expected == [("acme-fuzzy", 2, 12)]
    assert [(f.rule, f.line, f.column) for f in scanner.scan(data.encode())] == expected
