"""Rule files: positions of keys and values, recovery from syntax errors, limits."""

from __future__ import annotations

from zeph_rules.engine.source import MAX_FILE_BYTES, parse_rule_bytes, parse_toml_text, parse_yaml_text

TOML = '''# header comment
[[rules]]
name = "a"
match = { prefix = "cargo" }

[[rules]]
name = "b"
match = "command ^= \\"git\\" and x"

[tools.permissions]
bash = [ { pattern = "git *", action = "allow" } ]

[[tools.permissions.read]]
pattern = "*.env"
action = "deny"
'''


def test_toml_values_and_positions() -> None:
    src = parse_toml_text(TOML, "r.toml")
    assert src.diagnostics == []
    assert src.data["rules"][1]["name"] == "b"
    span = src.spans[("rules", 0, "match", "prefix")]
    assert (span.line, span.col, span.end_col) == (4, 20, 27)
    assert src.key_spans[("rules", 1, "name")].line == 7
    assert (src.spans[("tools", "permissions", "bash", 0, "pattern")].line, src.spans[("tools", "permissions", "bash", 0, "pattern")].col) == (11, 22)
    assert src.spans[("tools", "permissions", "read", 0)].line == 13


def test_offsets_inside_escaped_strings_map_to_file_columns() -> None:
    src = parse_toml_text(TOML, "r.toml")
    decoded = src.data["rules"][1]["match"]
    offset = decoded.index("and")
    # the raw line is: match = "command ^= \"git\" and x"  (two escapes before `and`)
    raw_line = TOML.splitlines()[7]
    assert src.position_in_string(("rules", 1, "match"), offset) == (8, raw_line.index("and") + 1)


def test_syntax_error_skips_only_the_broken_chunk() -> None:
    text = TOML.replace('name = "b"', 'name = "b', 1)
    src = parse_toml_text(text, "r.toml")
    assert [(d.line, d.code) for d in src.diagnostics] == [(7, "ZR010")]
    assert [r["name"] for r in src.data["rules"]] == ["a"]
    assert src.data["tools"]["permissions"]["bash"][0]["pattern"] == "git *"
    assert src.spans[("tools", "permissions", "read", 0, "pattern")].line == 14


def test_unterminated_multiline_string_points_at_its_start() -> None:
    src = parse_toml_text('[[rules]]\nname = "a"\n\n[[rules]]\nname = """oops\n', "r.toml")
    assert src.diagnostics[0].line == 5
    assert src.data["rules"] == [{"name": "a"}]


def test_file_limits_and_encoding() -> None:
    big = parse_rule_bytes(b"#" * (MAX_FILE_BYTES + 1), "big.toml")
    assert [(d.code, d.line, d.col) for d in big.diagnostics] == [("ZR002", 1, 1)]
    assert "1 MiB" in big.diagnostics[0].message
    bad = parse_rule_bytes(b'name = "ok"\nx = "\xff"\n', "bad.toml")
    assert [(d.code, d.line, d.col) for d in bad.diagnostics] == [("ZR003", 2, 6)]


def test_yaml_positions_and_errors() -> None:
    src = parse_yaml_text("rules:\n  - name: a\n    match: 'command ^= \"x\"'\n", "r.yaml")
    assert src.diagnostics == []
    assert src.data["rules"][0]["match"] == 'command ^= "x"'
    assert (src.spans[("rules", 0, "match")].line, src.spans[("rules", 0, "match")].col) == (3, 12)
    assert src.position_in_string(("rules", 0, "match"), 8) == (3, 21)
    broken = parse_yaml_text("rules:\n  - name: [a\n", "r.yaml")
    assert broken.diagnostics[0].code == "ZR011" and broken.diagnostics[0].line == 3
