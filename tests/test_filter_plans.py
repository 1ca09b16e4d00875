"""Cached filter plans: the warm path of ``zeph-rules filter`` runs what ``graph.filter`` runs, without the graph.

A plan hit and a plan miss give the same result as the graph for every real
fixture and several exit codes; a damaged plan store falls back to the graph;
a changed rule file is a new key; and the store stays bounded.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fixture_cases import regenerate_goldens

from zeph_rules.cli.main import main
from zeph_rules.engine import cache as cache_module
from zeph_rules.engine import loader
from zeph_rules.engine.graph import MatcherGraph
from zeph_rules.engine.loader import load, load_plan
from zeph_rules.engine.pipeline import FilterPlan, build_plan, run_plan

ROOT = Path(__file__).resolve().parents[1]

_RULES = """
[[rules]]
name = "my-tool"
match = 'command ^= "my-tool"'
strategy = { type = "strip_noise", patterns = ["^noise"] }
"""
_NOISY = "".join(f"noise line {i}\n" for i in range(20)) + "kept \xe9\n"
_SECRET = "export AWS_SECRET_ACCESS_KEY=" + "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY" + "\n"



CASES = regenerate_goldens().load_cases()


@pytest.fixture(scope="module")
def plan_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache directory shared by the module's tests, so the built-in graph compiles once."""
    directory = tmp_path_factory.mktemp("plans") / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZEPH_RULES_CACHE_DIR", str(directory))
        yield directory


@pytest.fixture(scope="module")
def builtin_copy(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, ...]:
    """The built-in rule files, copied: a test compares runs over one rule set, even while the files are edited."""
    directory = tmp_path_factory.mktemp("builtin")
    copies = []
    for path in loader.builtin_paths():
        (directory / path.name).write_bytes(path.read_bytes())
        copies.append(str(directory / path.name))
    return tuple(copies)


def _no_graph(*args: Any, **kwargs: Any) -> MatcherGraph:
    raise AssertionError("a plan hit loaded the graph")


def _key(paths: tuple[str, ...] = (), builtin: bool = True) -> str:
    return loader._graph_key(loader._read_inputs(paths, builtin), builtin)


def _plain(plan: FilterPlan) -> tuple[Any, ...]:
    """The plan as plain values: a scanner read back from the store is a new object with the same tables."""
    return (*plan[:2], plan.scanner.to_plain() if plan.scanner is not None else None, *plan[3:])


@pytest.mark.one_implementation
def test_hit_and_miss_equal_the_graph_over_the_fixtures(plan_cache: Path, builtin_copy: tuple[str, ...],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # A run is a function of the plan, the command, the output and the exit code
    # (run_plan reads nothing else), so plans are compared as values, once for each
    # command and exit code, and each case's output is filtered with its own exit
    # code by the plan a hit read back.  The miss of every eighth case loads the stored
    # graph; the others are handed it: loading is tested in test_cache, and 4,000 loads
    # took minutes.
    # The other exit codes for every eighth case (all of them for every case took ten
    # of CI's minutes once the corpus passed 8,000 cases, and a plan's dependence on
    # the exit code is the rules', the same for every case of a tool).  What the plan
    # prints is held to the golden, which test_fixtures_pipeline holds to the graph's
    # output; the whole result (rules, confidence, JSON) to the graph's for every
    # eighth case (filtering every case twice more cost CI a minute).
    graph = load(builtin_copy, builtin=False, cache=False)
    key = _key(builtin_copy, False)
    assert len(CASES) >= 150
    compared: set[tuple[str, int | None]] = set()
    for number, case in enumerate(CASES):
        exit_codes = (case.exit_code, None, 0, 1, 101) if number % 8 == 0 else (case.exit_code,)
        for exit_code in dict.fromkeys(exit_codes):
            if (case.command, exit_code) in compared and exit_code != case.exit_code:
                continue
            with monkeypatch.context() as patch:
                if number % 8 or exit_code != case.exit_code:
                    patch.setattr(loader, "_load", lambda *args, **kwargs: graph)
                miss = load_plan(builtin_copy, False, case.command, exit_code)
            assert cache_module.load_cached_plan(key, case.command, exit_code) is not None, case.name
            with monkeypatch.context() as patch:
                patch.setattr(loader, "_load", _no_graph)
                hit = load_plan(builtin_copy, False, case.command, exit_code)
            if (case.command, exit_code) not in compared:
                compared.add((case.command, exit_code))
                expected = build_plan(graph, case.command, exit_code)
                assert _plain(miss) == _plain(expected), (case.name, exit_code)
                assert _plain(hit) == _plain(expected), (case.name, exit_code)
            if exit_code == case.exit_code:
                from_hit = run_plan(hit, case.command, case.raw, exit_code)
                golden = (case.path / "expected.txt").read_bytes().decode("utf-8", "surrogateescape")
                assert from_hit.output == golden, case.name
                if number % 8 == 0:
                    result = graph.filter(case.command, case.raw, exit_code)
                    assert from_hit == result, case.name
                    assert from_hit.as_json() == result.as_json()


def test_plan_is_what_the_graph_runs(plan_cache: Path) -> None:
    graph = load()
    plan = build_plan(graph, "cd x && cargo test | tail -5", 101)
    assert [(rule_id, effect) for rule_id, effect, _ in plan.rules] == [
        (rule.id, rule.effect) for rule in graph.matching_filters("cd x && cargo test | tail -5", 101)]
    assert plan.scanner is graph.extra["scanner"]
    assert build_plan(graph, "cargo test", 101) == build_plan(graph, "cargo test", 101)  # a frozen value


def _cli(argv: list[str], stdin: str) -> tuple[int, bytes, bytes]:
    with CliRunner().isolation(input=stdin.encode("utf-8", "surrogateescape")) as (out, err, _):
        code = main(["filter", *argv])
        return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.one_implementation
def test_cli_hit_and_miss_equal_the_uncached_cli(fmt: str, builtin_copy: tuple[str, ...], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(_RULES, encoding="utf-8")
    runs = [("my-tool run", None, _NOISY, ["--rules", str(rules), "--no-builtin"]),
            ("my-tool run", 3, _NOISY + _SECRET, ["--rules", str(rules), "--no-builtin"])]
    builtins = ["--no-builtin", *(arg for path in builtin_copy for arg in ("--rules", path))]
    # every hundredth case: each run loads the graph uncached (every twenty-fifth took over a minute a format)
    runs += [(case.command, case.exit_code, case.raw, builtins) for case in CASES[::100]]
    for command, exit_code, stdin, extra in runs:
        argv = ["--command", command, "--format", fmt, "--stats", *extra]
        if exit_code is not None:
            argv += ["--exit-code", str(exit_code)]
        monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", "off")
        uncached = _cli(argv, stdin)
        monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", str(tmp_path / "cache"))
        miss = _cli(argv, stdin)
        with monkeypatch.context() as patch:
            patch.setattr(loader, "_load", _no_graph)
            hit = _cli(argv, stdin)
        assert miss == uncached == hit, command
        if fmt == "json":
            json.loads(hit[1])


@pytest.mark.parametrize("damage", ["plan", "scanner", "scanner-shape", "truncate", "wrong-shape", "other-command"])
def test_a_damaged_plan_store_falls_back_to_the_graph(damage: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal

    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", str(tmp_path / "cache"))
    command, raw = "cargo test", "test a ... ok\n" + _SECRET
    expected = load().filter(command, raw, 101)
    load_plan((), True, command, 101)
    folder = tmp_path / "cache" / "plans" / _key()
    (plan_file,) = (p for p in folder.glob("*.plan"))
    if damage == "plan":
        plan_file.write_bytes(b"not a pickle")
    elif damage == "scanner":
        (folder / "scanner.marshal").write_bytes(b"\xfb\x05garbage")
    elif damage == "scanner-shape":  # readable, but not the values of a scanner
        (folder / "scanner.marshal").write_bytes(marshal.dumps((1, (("id",),), 0.5, ((b"ab",), 2))))
    elif damage == "truncate":
        plan_file.write_bytes(plan_file.read_bytes()[:20])
    elif damage == "wrong-shape":
        plan_file.write_bytes(marshal.dumps({"rules": ()}))
    else:  # another command's plan under this name: a collision must be a miss, not a wrong answer
        entry = marshal.loads(plan_file.read_bytes())
        plan_file.write_bytes(marshal.dumps((entry[0], "git status", *entry[2:])))
    assert cache_module.load_cached_plan(_key(), command, 101) is None
    assert run_plan(load_plan((), True, command, 101), command, raw, 101) == expected
    assert cache_module.load_cached_plan(_key(), command, 101) is not None  # the miss repaired the store


def test_changing_a_rule_file_changes_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "rules.toml"
    rules.write_text(_RULES, encoding="utf-8")
    before = _key((str(rules),), False)
    first = run_plan(load_plan((str(rules),), False, "my-tool run", 0), "my-tool run", _NOISY, 0)
    assert first.rules == ("my-tool",) and "noise line 1" not in first.output
    rules.write_text(_RULES.replace('"^noise"', '"^noise line 1"'), encoding="utf-8")
    assert _key((str(rules),), False) != before
    second = run_plan(load_plan((str(rules),), False, "my-tool run", 0), "my-tool run", _NOISY, 0)
    assert "noise line 2" in second.output and "noise line 12" not in second.output
    assert _key((str(rules),), True) != _key((str(rules),), False)


def test_version_is_part_of_the_plan_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "rules.toml"
    rules.write_text(_RULES, encoding="utf-8")
    load_plan((str(rules),), False, "my-tool run", 0)
    assert cache_module.load_cached_plan(_key((str(rules),), False), "my-tool run", 0) is not None
    monkeypatch.setattr(cache_module, "__version__", "999")
    assert cache_module.load_cached_plan(_key((str(rules),), False), "my-tool run", 0) is None


def test_caching_off_stores_no_plan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", "off")
    rules = tmp_path / "rules.toml"
    rules.write_text(_RULES, encoding="utf-8")
    plan = load_plan((str(rules),), False, "my-tool run", 0)
    assert isinstance(plan, FilterPlan) and plan.rules[0][:2] == ("my-tool", "strip_noise")
    assert cache_module.load_cached_plan(_key((str(rules),), False), "my-tool run", 0) is None


def test_the_plan_store_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache_module, "MAX_PLANS", 5)
    monkeypatch.setattr(cache_module, "MAX_PLAN_SETS", 3)
    rules = tmp_path / "rules.toml"
    rules.write_text(_RULES, encoding="utf-8")
    paths = (str(rules),)
    key = _key(paths, False)
    for n in range(12):
        load_plan(paths, False, f"my-tool {n}", 0)
        # an old plan used again is kept (least recently used goes first)
        assert cache_module.load_cached_plan(key, "my-tool 0", 0) is not None
        os.utime(tmp_path / "cache" / "plans" / key / cache_module._plan_name("my-tool 0", 0),
                 (1e9 + 100 * n, 1e9 + 100 * n))
        for entry in (tmp_path / "cache" / "plans" / key).glob("*.plan"):
            if entry.name != cache_module._plan_name("my-tool 0", 0):
                os.utime(entry, (1e9 + 100 * n - 1, 1e9 + 100 * n - 1))
    plans = list((tmp_path / "cache" / "plans" / key).glob("*.plan"))
    assert len(plans) == 5
    assert cache_module.load_cached_plan(key, "my-tool 0", 0) is not None
    assert cache_module.load_cached_plan(key, "my-tool 11", 0) is not None
    for n in range(5):  # plans of other rule sets: at most MAX_PLAN_SETS sets keep plans
        rules.write_text(_RULES + f"# {n}\n", encoding="utf-8")
        load_plan(paths, False, "my-tool run", 0)
    assert len(list((tmp_path / "cache" / "plans").iterdir())) <= 3
    assert not list((tmp_path / "cache").rglob("*.tmp"))


def test_a_full_plan_store_is_cut_to_seven_eighths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full store drops the oldest plans down to 7/8 of the bound, so the next stores need not read ages."""
    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache_module, "MAX_PLANS", 16)
    rules = tmp_path / "rules.toml"
    rules.write_text(_RULES, encoding="utf-8")
    paths = (str(rules),)
    folder = tmp_path / "cache" / "plans" / _key(paths, False)
    counts = []
    for n in range(20):
        load_plan(paths, False, f"my-tool {n}", 0)
        os.utime(folder / cache_module._plan_name(f"my-tool {n}", 0), (1e9 + n, 1e9 + n))
        counts.append(len(list(folder.glob("*.plan"))))
    assert counts == [*range(1, 17), 14, 15, 16, 14]
    kept = {cache_module.load_cached_plan(_key(paths, False), f"my-tool {n}", 0) is not None for n in range(6, 20)}
    assert kept == {True}


def test_a_plan_carries_the_facts_of_its_patterns(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached plan's run takes its regexes' literals and plain-``re`` limits from the plan instead of parsing them."""
    from zeph_rules.engine import patterns

    plan = build_plan(load(cache=False), "RUST_BACKTRACE=1 cargo test", 101)
    sources = [value for _, effect, payload in plan.rules if effect == "strip_noise"
               for name, value in payload if name == "patterns"]
    assert sources and plan.pattern_facts
    assert {source for group in sources for source in group} <= {source for source, *_ in plan.pattern_facts}
    for source, flags, answer, limit, reach in plan.pattern_facts:
        assert answer == patterns.required_literals.__wrapped__(source, flags)  # the uncached proofs
        assert limit == patterns.plain_re_line_limit.__wrapped__(source, flags)
        assert reach == patterns.plain_re_reach.__wrapped__(source, flags)
    assert any(limit for *_, limit, _ in plan.pattern_facts)
    # a fresh process knows nothing: with the proofs unavailable, the run must take the plan's answers
    monkeypatch.setattr(patterns, "_PROVEN", {})
    monkeypatch.setattr(patterns, "_LIMITS", {})
    monkeypatch.setattr(patterns, "_REACH", {})
    cached_proofs = (patterns.required_literals, patterns.plain_re_line_limit, patterns.plain_re_reach,
                     patterns.rule_pattern)
    for cached in cached_proofs:
        cached.cache_clear()
    monkeypatch.setattr(patterns, "parse_as_re", lambda *args: pytest.fail("parsed a proven pattern"))
    raw = "thread 'a' panicked at src/lib.rs:1:1:\nboom\nstack backtrace:\n   0: std::rt::lang_start\n"
    result = run_plan(plan, "RUST_BACKTRACE=1 cargo test", raw, 101)
    assert "boom" in result.output
    for cached in cached_proofs:
        cached.cache_clear()
