"""The warm path: a cached graph is reused, invalidated by any change, and
loading it imports none of the front end."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import tempfile

import pytest

from zeph_rules.engine import cache as cache_module
from zeph_rules.engine.loader import load

RULES = '[tools.permissions]\nbash = [ { pattern = "git *", action = "allow" } ]\n'

#: run child interpreters outside the checkout so they import the installed package
NEUTRAL_DIR = tempfile.gettempdir()


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("ZEPH_RULES_CACHE_DIR", str(directory))
    return directory


def test_graph_is_cached_and_invalidated_by_content(tmp_path: Path, cache_dir: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    first = load([rules])
    entries = list(cache_dir.glob("*.pickle"))
    assert len(entries) == 1
    assert load([rules]).fingerprint == first.fingerprint
    rules.write_text(RULES.replace("allow", "deny"))
    second = load([rules])
    assert second.fingerprint != first.fingerprint
    assert second.first_match("bash", "git status").effect == "deny"  # type: ignore[union-attr]
    assert len(list(cache_dir.glob("*.pickle"))) == 2
    assert not list(cache_dir.glob("*.tmp"))


def test_corrupt_cache_is_rebuilt(tmp_path: Path, cache_dir: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    graph = load([rules])
    (cache_dir / f"{graph.fingerprint}.pickle").write_bytes(b"not a pickle")
    assert load([rules]).first_match("bash", "git log").effect == "allow"  # type: ignore[union-attr]


def test_version_is_part_of_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache_module.fingerprint([("a", b"x")])
    monkeypatch.setattr(cache_module, "__version__", "999")
    assert cache_module.fingerprint([("a", b"x")]) != before


def test_graph_pickles_round_trip(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    graph = load([rules], cache=False)
    clone = pickle.loads(pickle.dumps(graph))
    assert clone.first_match("bash", "git diff").id == graph.first_match("bash", "git diff").id  # type: ignore[union-attr]


def test_warm_invocation_imports_no_front_end(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    env = {**os.environ, "ZEPH_RULES_CACHE_DIR": str(tmp_path / "cache")}
    probe = (
        "import sys\n"
        "from zeph_rules.cli.main import main\n"
        f"code = main(['decide', '--tool', 'bash', '--input', 'git status', '--rules', {str(rules)!r}, '--format', 'json'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'lark', 'pydantic', 'tomlkit', 'yaml'})\n"
        "print('HEAVY', ','.join(heavy), code)\n"
    )
    cold = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True, cwd=NEUTRAL_DIR).stdout
    warm = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True, cwd=NEUTRAL_DIR).stdout
    decision = json.loads(warm.splitlines()[0])
    assert decision["decision"] == "allow" and decision["rule"] == "permissions.bash[0]"
    assert "lark" in cold.splitlines()[-1] and "pydantic" in cold.splitlines()[-1]
    assert warm.splitlines()[-1] == "HEAVY  0"


def test_the_builtin_credential_patterns_are_part_of_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # every graph's security pass compiles security.toml: an edited pattern file must not be served
    # the scanner compiled from the old one
    from zeph_rules.engine import loader

    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    inputs = loader._read_inputs([rules], builtin=False)
    before = loader._graph_key(inputs, False)
    patterns = tmp_path / "security.toml"
    patterns.write_bytes(Path(loader._SECURITY_FILE).read_bytes() + b"\n# edited\n")
    monkeypatch.setattr(loader, "_SECURITY_FILE", str(patterns))
    assert loader._graph_key(inputs, False) != before
