"""group_by_rule: grouping choices the fixtures do not pin down."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib

from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import STRATEGIES, Confidence
from zeph_rules.engine.strategies import group_by_rule as group_by_rule_module
from zeph_rules.engine.strategies.group_by_rule import _fold_key, _searched_words

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
group_by_rule = STRATEGIES["group_by_rule"]


def _raw(case: str) -> str:
    return sanitize((FIXTURES / case / "raw.txt").read_text(encoding="utf-8"))


def test_clippy_repeats_fold_under_their_lint() -> None:
    result = group_by_rule(_raw("cargo/clippy_warnings"), {}, 0)
    assert result.confidence is Confidence.FULL
    assert "== warning[clippy::redundant_field_names] x6: redundant field names in struct initialization" in result.text
    assert result.text.count("warning: redundant field names in struct initialization") == 1
    assert "\n --> src/orders.rs:7:21\n" in result.text  # each member's arrow as rustc printed it


def test_a_warnings_suggested_fix_stays_under_its_help() -> None:
    # clippy's "help: remove `return`" is nothing without the line it suggests ("22 +     result"), a
    # blind reviewer of batch 29 quoted one; of the code the warning quotes, the line it points at stays
    text = group_by_rule(_raw("cargo/clippy_warnings"), {}, 0).text
    assert "help: remove `return`\n22 +     result\n" in text
    assert "help: change this to\n11 + pub fn area(points: &[Point]) -> f64 {\n" in text
    assert "22 -     return result;" not in text and "\n22 |     return result;\n" in text


def test_a_warning_keeps_the_code_line_its_location_points_at() -> None:
    # batches 35b, 37 and 38 (and 14 before them): reviewers quoted a warning's code line, in generated code
    # under target/ the only place to read it; the other spans, carets and labels still go
    lines = group_by_rule(_raw("cargo/q38_cargo_build_buildrs_warnings"), {}, 0).text.split("\n")
    at = lines.index("  --> /tmp/zeph-fixtures/q38/ferrous/target/debug/build/lexer-e68159fbfea425fe/out/keywords.rs:31:9")
    assert lines[at + 1] == '31 |         "fn" => Some(Keyword::Function),'
    assert not any(line.startswith("20 |") or "no value can reach this" in line for line in lines)
    gcc = group_by_rule(_raw("make/q14_warnings"), {"require_diagnostics": False}, 0).text.split("\n")
    assert gcc[gcc.index("src/main.c:41:17: warning: format not a string literal and no format arguments"
                         " [-Wformat-security]") + 1] == "   41 |         printf(x->msg);"


def test_a_warnings_inline_help_label_stays_under_its_code_line() -> None:
    # batch 40: "^^^^^^^ help: if this is intentional, prefix it with an underscore: `_verbose`" is the fix
    lines = group_by_rule(_raw("cargo/q40_cargo_build_warnings"), {}, 0).text.split("\n")
    at = lines.index('13 |     let verbose = env::var("TALLY_VERBOSE").is_ok();')
    assert lines[at + 1] == "   |         ^^^^^^^ help: if this is intentional, prefix it with an underscore: `_verbose`"
    assert "  |                                  ^^^^^^^" not in lines  # a bare caret line still goes


def test_rustc_lint_learnt_from_the_first_note() -> None:
    # rustc names the lint (#[warn(unused_variables)]) only on the first unused variable
    result = group_by_rule(_raw("cargo/check_warnings"), {}, 0)
    assert "== warning[unused_variables] x" in result.text


def test_a_head_with_no_blank_line_before_it_starts_its_own_block() -> None:
    # cargo prints a build script's one-line warning right before rustc's first block, with no blank
    # line between: the block is its own, not an excerpt of the build script's warning
    result = group_by_rule(_raw("cargo/q9_check_all_targets"), {}, 0)
    assert "== warning[unused_imports] x21: unused import: `std::collections::HashMap`" in result.text
    assert "units@0.1.0" not in result.text.split("\n== ")[1]
    # and a head swallowed by the block before it would be cut with that block's excerpt
    lines = _raw("cargo/build_warnings").split("\n")
    head = lines.index("warning: unused variable: `line`")
    assert lines[head - 1] == ""
    trimmed = "\n".join(lines[: head - 1] + lines[head:])
    result = group_by_rule(trimmed, {}, 0)
    assert "warning: unused variable: `line`" in result.text
    assert "  --> src/report.rs:9:13" in result.text or " --> src/report.rs:9:13" in result.text


def test_a_block_ends_at_a_line_no_block_has_at_its_margin() -> None:
    # `make -j` building a Rust crate and C files at once: rustc's block, then gcc's lines with no blank
    # line between (gcc never prints one); gcc's error is a diagnostic of its own and keeps its code line
    rust = _raw("cargo/build_warnings").split("\n")
    head = next(index for index, line in enumerate(rust) if line.startswith("warning: "))
    block = rust[head : rust.index("", head)]
    assert len(block) > 3 and block[1].lstrip().startswith("-->")
    gcc = _raw("make/build_error")
    result = group_by_rule("\n".join(block) + "\n" + gcc, {"require_diagnostics": False}, 2)
    assert "    6 |     if (port <= 0 || port > 65535) {" in result.text  # the error's quoted line
    assert "cc -Wall -Wextra -O2 -std=c11 -c src/parse.c -o build/parse.o" in result.text
    assert "make: *** [Makefile:11: build/parse.o] Error 1" in result.text
    assert block[0] in result.text


def test_errors_are_never_grouped() -> None:
    raw = _raw("cargo/clippy_error")
    result = group_by_rule(raw, {}, 101)
    assert "error: approximate value of `f{32, 64}::consts::PI` found" in result.text
    assert "  = note: `#[deny(clippy::approx_constant)]` on by default" in result.text
    assert "error: could not compile `mathy` (bin \"mathy\") due to 2 previous errors; 4 warnings emitted" in result.text


def test_one_line_formats_keep_every_line_until_a_rule_repeats_a_lot() -> None:
    # a few one-line findings read best as the tool printed them
    result = group_by_rule(_raw("pylint/errors"), {}, 30)
    assert "inventory/io.py:15:0: C0116: Missing function or method docstring (missing-function-docstring)" in result.text
    assert "************* Module inventory.io" in result.text
    assert "Your code has been rated at 4.16/10" in result.text
    # many identical findings of one rule fold into one example and every other location
    text = "".join(f"src/m.py:{i}:1: E265 block comment should start with '# '\n" for i in range(1, 71))
    folded = group_by_rule(text, {}, 1).text
    assert folded.startswith("src/m.py:1:1: E265 block comment should start with '# '\n   also at: src/m.py:2:1, 3:1, ")
    # the last stays as printed: where a reader looks for the end of the list
    assert folded.count("\n") == 3 and folded.endswith(", 69:1\nsrc/m.py:70:1: E265 block comment should start with '# '\n")
    # two screenfuls of them still read as printed
    assert group_by_rule(text[: text.index("src/m.py:60:1")], {}, 1).text == text[: text.index("src/m.py:60:1")]


def test_findings_that_name_different_things_keep_their_lines() -> None:
    # flake8 F401 'functools.partial' / 'functools.reduce': the name is the finding
    raw = _raw("flake8/toolz")
    result = group_by_rule(raw, {}, 1)
    assert result.confidence is Confidence.FULL
    for line in raw.splitlines():
        assert line in result.text
    # numbers differ too: every E501 "line too long (NN > 79 characters)" stays
    text = "".join(f"src/m.py:{i}:80: E501 line too long ({80 + i} > 79 characters)\n" for i in range(1, 200))
    assert group_by_rule(text, {}, 1).text == text


def test_mypy_strict_folds_annotation_repeats_and_keeps_every_type_error() -> None:
    raw = _raw("mypy/toolz_strict")
    result = group_by_rule(raw, {}, 1)
    text = result.text
    assert len(text) < len(raw) / 3
    assert text.count("error: Function is missing a type annotation  [no-untyped-def]") == 2  # the first, the last
    assert "toolz/utils.py:1: error: Function is missing a type annotation  [no-untyped-def]" in text
    assert "   also at: toolz/dicttoolz.py:11, 19, 43, " in text  # every location, each path named once per run
    assert text.count('error: Call to untyped function "curry" in typed context  [no-untyped-call]') == 2
    # type errors are bugs: identical ones all stay, each on its own line
    assert raw.count('error: "type[GlobalCurried]" has no attribute "func"  [attr-defined]') == 5
    assert text.count('error: "type[GlobalCurried]" has no attribute "func"  [attr-defined]') == 5
    assert text.rstrip().endswith("Found 1201 errors in 26 files (checked 27 source files)")


def test_a_report_of_a_few_hundred_findings_reads_as_printed() -> None:
    """Under _MANY_FINDINGS findings, a message repeated fewer than _GROUP_ONE_LINE_FROM times keeps every line."""
    raw = _raw("pylint/toolz")
    assert raw.count("C0116: Missing function or method docstring") == 22
    text = group_by_rule(raw, {}, 30).text
    assert text.count("C0116: Missing function or method docstring (missing-function-docstring)") == 22
    assert "also at" not in text


def test_two_screenfuls_of_one_short_clippy_finding_stay_as_printed() -> None:
    # batch 101b: 34 `indexing may panic` under --message-format=short folded into an "also at" list, and
    # the reviewer quoted the tenth by its line
    raw = _raw("cargo/q101b_clippy_indexing_short")
    lines = group_by_rule(raw, {}, 0).text.split("\n")
    assert raw.count(": warning: indexing may panic") == 34
    assert sum(line.endswith(": warning: indexing may panic") for line in lines) == 34
    assert "src/kv.rs:11:35: warning: indexing may panic" in lines and not any("also at" in line for line in lines)


def test_pylint_folds_conventions_and_keeps_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(group_by_rule_module, "_MANY_FINDINGS", 150)  # a report this long (204 lines) folds
    raw = _raw("pylint/toolz")
    text = group_by_rule(raw, {}, 30).text
    assert text.count("W0622: Redefining built-in 'map' (redefined-builtin)") == 4
    assert text.count("C0116: Missing function or method docstring (missing-function-docstring)") == 2
    assert "************* Module toolz" in text
    assert "Your code has been rated at 8.26/10" in text



def test_pylint_warnings_by_the_hundred_fold_too() -> None:
    # batch 36: pathspec's 589 bad-indentation warnings (W0311) of seven messages, one W0622 among them
    raw = _raw("pylint/q36_pylint_pathspec")
    text = group_by_rule(raw, {}, 28).text
    lines = text.split("\n")
    assert len(text) < len(raw) / 4
    assert "pathspec/__init__.py:39:0: W0622: Redefining built-in 'RecursionError' (redefined-builtin)" in lines
    assert "pathspec/util.py:138:1: R1702: Too many nested blocks (6/5) (too-many-nested-blocks)" in lines
    # each of the seven messages: its first as printed, an "also at" list, its last (589 printed)
    assert sum("W0311" in line for line in lines) <= 3 * 7
    assert sum(line.startswith("   also at: ") for line in lines) >= 7
    assert "Your code has been rated at 0.00/10" in text

def test_ruff_concise_after_its_config_warnings() -> None:
    # "warning: ... are incompatible" heads are lines of their own, not rustc blocks swallowing the findings
    raw = _raw("ruff/toolz_concise_all")
    text = group_by_rule(raw, {}, 1).text
    assert len(text) < len(raw) / 2
    assert text.startswith("warning: `incorrect-blank-line-before-class` (D203)")
    assert "toolz/__init__.py:9:23: F401 `functools.partial` imported but unused" in text
    assert "toolz/__init__.py:9:32: F401 `functools.reduce` imported but unused" in text
    assert text.rstrip().endswith("[*] 365 fixable with `--fix` (198 unsafe fixes available with `--fix --unsafe-fixes`).")


def test_eslint_stylish_findings_stay_as_printed() -> None:
    # 380 errors and 22 warnings: errors never fold, and 22 warnings are too few to
    raw = _raw("eslint/vendor_express")
    result = group_by_rule(raw, {}, 1)
    assert result.confidence is Confidence.FULL
    for line in raw.splitlines():
        if line.strip():
            assert line in result.text
    assert result.text.rstrip().endswith("364 errors and 17 warnings potentially fixable with the `--fix` option.")



def test_eslint_stylish_warnings_by_the_hundred_fold_every_place_listed() -> None:
    # batch 35b: 375 warnings of four kinds over 300 files, one no-undef error among them
    raw = _raw("eslint/q35b_eslint_300_files_one_error")
    text = group_by_rule(raw, {}, 1).text
    lines = text.split("\n")
    assert len(text) < len(raw) / 1.5
    assert "  11:10  error    'surchargeTable' is not defined      no-undef" in lines
    at = lines.index("  11:10  error    'surchargeTable' is not defined      no-undef")
    assert lines[at - 1] == "/tmp/zeph-fixtures/q35b/w/webfleet/src/pricing/pricing_207.js"  # under its file
    also = [line for line in lines if line.startswith("   also at: /tmp/zeph-fixtures/q35b/w/webfleet/src/")]
    assert len(also) == 4
    listed = text.count(".js:")
    assert listed >= 375 - 4  # every warning's place, folded or printed (a few under their own header)
    # the headers of files whose findings all went into a list go
    assert "/tmp/zeph-fixtures/q35b/w/webfleet/src/billing/billing_004.js" not in lines
    # ... but each file's path stays whole in the list, as its header printed it (batch 37's reviewer
    # quoted a header of a file whose every finding folded)
    assert "/tmp/zeph-fixtures/q35b/w/webfleet/src/billing/billing_004.js:6:9" in text
    assert text.rstrip("\n").split("\n")[-2:] == [
        "✖ 376 problems (1 error, 375 warnings)", "  0 errors and 75 warnings potentially fixable with the `--fix` option."]

def test_tsc_plain_and_pretty() -> None:
    plain = group_by_rule(_raw("tsc/errors"), {}, 2).text
    assert "ts/report.ts(9,9): error TS2322: Type 'string' is not assignable to type 'number'." in plain
    assert "  Type 'undefined' is not assignable to type 'Item'." in plain  # the message's continuation
    pretty = group_by_rule(_raw("tsc/errors_pretty"), {}, 2).text
    assert "ts/cart.ts:5:15 - error TS2322: Type '\"GBP\"' is not assignable to type 'Currency'." in pretty
    # an error keeps its code frame: the quoted line and the tildes under the mistake
    assert any("constructor(public currency" in line for line in pretty.split("\n")) and "~~~" in pretty
    assert "\n\n\n" not in pretty  # the blank lines that space the frames go
    related = pretty.split("\n").index("  ts/models.ts:3:3")  # related information stays, with its frame
    assert pretty.split("\n")[related + 3].startswith("    The expected type comes from property 'qty'")
    assert pretty.rstrip().endswith("Found 19 errors in 8 files.\nErrors  Files\n" + "\n".join(
        _raw("tsc/errors_pretty").rstrip().splitlines()[-8:]))


def test_javac_errors_are_kept_whole() -> None:
    raw = _raw("javac/type_errors")
    text = group_by_rule(raw, {}, 1).text
    assert "src/com/example/shop/Inventory.java:23: error: cannot find symbol" in text
    assert "  symbol:   class List" in text
    assert "stock.get(sku)" in text and "^" in text  # the code it quotes and the caret under the mistake
    assert text == raw


def test_go_vet_prefix_and_own_crate_lines() -> None:
    assert group_by_rule(_raw("go/vet_big"), {}, 2).confidence is Confidence.FULL
    # cargo names the workspace's own crates with their path: that line says whose diagnostics follow
    result = group_by_rule(_raw("cargo/big_build_verbose"), {}, 0)
    assert "   Compiling invoicekit v0.3.1 (/tmp/zeph-fixtures/rs_big)" in result.text
    assert group_by_rule(_raw("cargo/build_release_ok"), {}, 0).confidence is Confidence.FULL


def test_source_excerpts_go_and_an_error_keeps_its_quoted_line_and_labels() -> None:
    result = group_by_rule(_raw("cargo/build_errors"), {}, 101)
    assert "  --> src/main.rs:29:26" in result.text
    assert '29 |     println!("total {}", totl);' in result.text  # the error's first quoted line
    assert "expected `String`, found `&str`" in result.text  # an error's labelled excerpt line
    # the code under an error's help: is the fix rustc suggests, with its `+` marks
    lines = result.text.split("\n")
    at = lines.index("help: a local variable with a similar name exists")
    assert lines[at + 1 : at + 3] == ['29 |     println!("total {}", total);', "   |                             +"]
    assert "source excerpts" in result.text
    # a warning keeps the one code line its location points at (four batches' reviewers asked for it),
    # not the excerpt's carets and labels; a warning folded into its group's list keeps its location only
    warnings = group_by_rule(_raw("cargo/build_warnings"), {}, 0).text.split("\n")
    assert "2 | use std::collections::BTreeMap;" in warnings and "20 |         let fallback = 0;" in warnings
    assert not any(line.lstrip().startswith("|") and " help: " not in line for line in warnings)  # an inline help stays
    at = warnings.index(" --> src/report.rs:2:5")  # the second of five unused imports: listed after the first
    assert warnings[at + 1] == "warning: unused import: `std::fs`"


def _grep_params() -> dict[str, str]:
    rules = tomllib.loads((ROOT / "zeph_rules" / "builtin_rules" / "filters.toml").read_text(encoding="utf-8"))
    strategy = next(rule["strategy"] for rule in rules["rules"] if rule["name"] == "grep")
    return {key: value for key, value in strategy.items() if key != "type"}


def test_grep_output_grouped_by_file() -> None:
    raw = _raw("grep/rn_todo")
    text = group_by_rule(raw, _grep_params(), 0).text
    # near-identical hits under one file fold to line numbers, after the file's last hit
    assert "src/auth/handlers/auth_handlers_0.py:19:    # TODO: handle edge case 4 for auth\n   also at: 27, 44, " in text
    assert len(text) < len(raw) / 3
    heading = _raw("rg/todo_heading")
    text = group_by_rule(heading, _grep_params(), 0).text
    assert "src/utils/tests/test_utils_1.py\n14:    # FIXME: this is slow for large x (utils)\n   also at: 31, 38\n\n" in text


def test_grep_keeps_every_distinct_hit() -> None:
    raw = _raw("rg/express_require")
    text = group_by_rule(raw, _grep_params(), 0).text
    shown = set(text.splitlines())
    for line in raw.splitlines():
        path, _, rest = line.partition(":")
        _, _, hit = rest.partition(":")
        # a hit is shown, or folded because the same text is shown under the same file
        assert line in shown or any(
            other.startswith(path + ":") and other.endswith(":" + hit) for other in shown
        ), line


def test_small_grep_output_stays_as_it_is() -> None:
    raw = _raw("grep/rn_express")  # 13 hits, several read alike once quoted names are blanked
    assert group_by_rule(raw, _grep_params(), 0) == (raw, Confidence.FULL)
    assert group_by_rule("485\n", _grep_params(), 0) == ("485\n", Confidence.FULL)  # grep -c


def test_grep_timestamps_are_not_locations() -> None:
    raw = _raw("logs/grep_syslog_errors")  # grep -iE 'error|fail|killed' syslog: no file, no line numbers
    result = group_by_rule(raw, _grep_params(), 0)
    assert result.confidence is Confidence.FULL
    assert "also at" not in result.text
    for line in raw.splitlines():
        if "Failed password" not in line:  # the OOM kill and the I/O errors: each unlike any other line
            assert line in result.text
    lines = raw.splitlines()
    assert lines[0] in result.text and lines[-1] in result.text
    assert "lines like the one above omitted) ..." in result.text
    assert len(result.text) < len(raw) / 10


def test_trouble_folds_only_with_exact_repeats_unless_every_hit_has_it() -> None:
    lines = _raw("logs/grep_syslog_errors").splitlines()
    searched = _searched_words(lines)
    assert searched == {"fail"}  # what grep -i 'fail' asked for is no news
    oom = next(line for line in lines if "Out of memory" in line)
    assert _fold_key(oom, searched).startswith("=")  # "killed" is news: exact repeats only
    assert _fold_key(lines[0], searched).startswith("~")
    assert _fold_key(lines[0], set()).startswith("=")


def test_user_patterns_group_lines() -> None:
    text = "".join(f"src/file_{i}.x:{i} [R1] something is not right here\n" for i in range(40)) + "b.x:2 [R2] worse\n"
    result = group_by_rule(text, {"location_pattern": r"^\S+:\d+", "rule_pattern": r"\[(\w+)\]"}, 1)
    assert result.text == (
        "src/file_0.x:0 [R1] something is not right here\n"
        f"   also at: {', '.join(f'src/file_{i}.x:{i}' for i in range(1, 40))}\n"
        "b.x:2 [R2] worse\n"
    )


def test_not_lint_output_falls_back() -> None:
    assert group_by_rule("all good\n", {}, 0) == ("all good\n", Confidence.FALLBACK)


def test_output_without_diagnostics_passes_through_when_not_required() -> None:
    prose = "Entering directory 'docs'\nbuilding the manual\n"
    assert group_by_rule(prose, {}, 0) == (prose, Confidence.FALLBACK)
    assert group_by_rule(prose, {"require_diagnostics": False}, 0) == (prose, Confidence.FULL)


def test_make_output_keeps_commands_and_diagnostics_and_only_the_errors_code_line() -> None:
    result = group_by_rule(_raw("make/build_error"), {"require_diagnostics": False}, 2)
    assert result.confidence is Confidence.FULL
    assert "cc -Wall -Wextra -O2 -std=c11 -c src/parse.c -o build/parse.o" in result.text
    assert "src/parse.c:6:5: error: expected ‘,’ or ‘;’ before ‘if’" in result.text
    assert "    6 |     if (port <= 0 || port > 65535) {" in result.text  # the error's quoted line and caret
    assert "      |     ^~" in result.text
    assert "make: *** [Makefile:11: build/parse.o] Error 1" in result.text
    # the error's code and caret lines, and each warning's code line at its location
    assert result.text.count(" | ") == 2 + result.text.count(": warning: ")
    assert "      |         ^~~~" not in result.text  # a warning's caret line goes


def test_only_two_notes_into_system_headers_per_diagnostic() -> None:
    raw = _raw("clang/cpp_errors")
    result = group_by_rule(raw, {}, 1)
    assert raw.count("note: candidate constructor not viable") == 7
    assert result.text.count("/usr/bin/../lib/gcc/") == 4  # two under each of the two overload errors
    assert "... (6 notes into system headers past the first two per diagnostic omitted) ..." in result.text
    assert "err.cpp:21:5: error: use of undeclared identifier 'undeclared'" in result.text


def test_pyright_findings_keep_their_continuation_and_lose_the_file_lines() -> None:
    raw = _raw("pyright/dateutil")
    result = group_by_rule(raw, {}, 1)
    assert result.confidence is Confidence.FULL
    lines = result.text.split("\n")
    root = "/tmp/zeph-fixtures/python-dateutil-2.9.0.post0/src/dateutil"
    assert f"{root}/rrule.py" not in lines  # the file line: every finding names the file again
    head = f"  {root}/rrule.py:107:25 - error: Argument of type \"list[Unknown] | None\" cannot be assigned"
    at = next(index for index, line in enumerate(lines) if line.startswith(head))
    assert lines[at + 3].strip() == '"__getitem__" is not present (reportArgumentType)'
    assert lines[-2:] == ["230 errors, 14 warnings, 0 informations", ""]
    assert "... (9 lines of progress and context omitted) ..." in lines


def test_pyright_type_errors_never_fold_but_unseen_attributes_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(group_by_rule_module, "_MANY_FINDINGS", 150)  # a report this long (244 findings) folds
    raw = _raw("pyright/dateutil")
    text = group_by_rule(raw, {}, 1).text
    root = "/tmp/zeph-fixtures/python-dateutil-2.9.0.post0/src/dateutil"
    # identical type errors each keep their line
    for place in ("201:22", "206:22", "221:22"):
        line = f"  {root}/rrule.py:{place} - error: Object of type \"None\" cannot be used as iterable value"
        assert line + " (reportOptionalIterable)" in text
    # the same unseen attribute, reported at every use, folds into the first and its other places
    first = f"  {root}/tz/tz.py:624:17 - error: Cannot access attribute \"ttinfo_list\" for class \"_tzfile\""
    assert text.count('Cannot access attribute "ttinfo_list" for class "_tzfile"') == 2  # the first, the last
    assert f"{first}\n  \u00a0\u00a0Attribute \"ttinfo_list\" is unknown (reportAttributeAccessIssue)\n   also at: " \
        f"{root}/tz/tz.py:627:30" in text
    # a pair stays as printed: folding it would save a few bytes and cost the second its own line
    assert text.count('Cannot access attribute "_iter" for class "rrulebase*"') == 2
    # every distinct message stays: its first and last when it folds, as printed when it is one of a pair
    messages = [line.split(" - error: ")[1] for line in raw.split("\n") if "Cannot access attribute" in line]
    assert text.count("Cannot access attribute") == sum(min(messages.count(message), 2) for message in set(messages))


def test_pyright_clean_run_and_few_findings_read_as_printed() -> None:
    assert group_by_rule("0 errors, 0 warnings, 0 informations \n", {}, 0).text == \
        "0 errors, 0 warnings, 0 informations \n"
    few = (
        "/p/src/a.py\n"
        "  /p/src/a.py:3:8 - error: Import \"yaml\" could not be resolved (reportMissingImports)\n"
        "  /p/src/a.py:9:5 - warning: \"x\" is not accessed (reportUnusedVariable)\n"
        "1 error, 1 warning, 0 informations \n"
    )
    # the file line would cost less than the marker that counts it
    assert group_by_rule(few, {}, 1) == (few, Confidence.FULL)


def test_grep_hits_with_the_same_text_stay_verbatim_in_a_short_output() -> None:
    # grep -rn 'raise ' src: 43 hits, eight times "raise self._invalid_metadata(" in one file
    raw = _raw("grep/q4_rn_raise")
    assert group_by_rule(raw, _grep_params(), 0).text == raw
    raw = _raw("grep/q4_rn_color_context")  # grep -C2: the blank context lines repeat in every file
    text = group_by_rule(raw, _grep_params(), 0).text
    assert "also at" not in text
    assert "src/packaging/utils.py:169:    except InvalidVersion as e:" in text.splitlines()


def test_grep_same_text_folds_when_it_comes_by_the_dozen_in_a_file() -> None:
    hits = [f"src/app.py:{n}:            raise self._invalid_metadata(" for n in range(10, 130, 10)]
    others = [f"src/other_{n}.py:{n}:    value = compute({n})" for n in range(30)]
    raw = "\n".join(hits + others) + "\n"
    text = group_by_rule(raw, _grep_params(), 0).text
    assert hits[0] in text and hits[1] not in text
    assert "   also at: 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120" in text
    ten = "\n".join(hits[:10] + others) + "\n"  # ten hits with one text in one file: kept as printed
    assert group_by_rule(ten, _grep_params(), 0).text == ten


def test_mypy_import_findings_stay_per_file() -> None:
    raw = _raw("mypy/pk_strict_tests")
    text = group_by_rule(raw, {}, 1).text
    for line in raw.splitlines():
        if line.endswith(("[import-untyped]", "[import-not-found]")):
            assert line in text.splitlines()


def test_ruff_06_full_format_keeps_every_head_and_loses_its_frames() -> None:
    raw = _raw("ruff/pk_check_select")  # ruff 0.6: "path:L:C: CODE message" over "NN | code" frames
    result = group_by_rule(raw, {}, 1)
    assert result.confidence is Confidence.FULL
    lines = result.text.splitlines()
    heads = [line for line in raw.splitlines() if line.startswith(("src/", "tests/"))]
    assert len(heads) == 90
    assert all(head in lines for head in heads)
    assert "   = help: Replace with format specifiers" in lines
    assert not any(line.lstrip().startswith("|") for line in lines)  # each finding's code line at its location stays
    assert "Found 90 errors." in lines
    assert len(result.text) < len(raw) / 2


def test_gcc_analyzer_warnings_keep_their_event_paths() -> None:
    out = STRATEGIES["group_by_rule"](_raw("gcc/q10_fanalyzer_paths"), {}, 0).text
    assert "(1) this call could return NULL" in out
    assert "(2) ‘o’ could be NULL: unchecked value from (1)" in out
    assert "(20) use after ‘free’ of ‘o’; freed at (15)" in out
    assert "struct order *o = malloc(sizeof *o);" not in out  # the quoted code goes


def test_linker_errors_are_diagnostics_in_english_and_in_french() -> None:
    for case in ("gcc/q10_ld_undefined", "gcc/q10_ld_undefined_fr"):
        raw = _raw(case)
        result = STRATEGIES["group_by_rule"](raw, {}, 1)
        assert result.confidence is Confidence.FULL, case
        assert result.text == raw, case  # every line names a symbol or an object file


def test_cargo_verbose_commands_are_what_was_asked_for() -> None:
    raw = _raw("cargo/q10_build_release_v")
    result = STRATEGIES["group_by_rule"](raw, {}, 0)
    assert result.confidence is Confidence.FULL
    assert "--crate-name shelf --edition=2021 src/lib.rs" in result.text


def test_a_header_warning_repeated_for_each_file_including_it_is_shown_once() -> None:
    raw = _raw("make/q19_brotli_warnings")
    out = group_by_rule(raw, {"require_diagnostics": False}, 0).text
    head = "c/enc/hash.h:526:27: warning: cast discards ‘const’ qualifier from pointer target type [-Wcast-qual]"
    assert raw.count(head) == 4 and out.count(head) == 1
    # with the repeats gone, the warnings of the rule are few enough to stay on lines of their own
    assert "c/enc/compound_dictionary.c:202:53: warning: cast discards" in out
    assert "also at" not in out
    repeated = sum(raw.count(line) - 1 for line in set(raw.splitlines()) if ": warning: " in line and raw.count(line) > 1)
    assert f"... ({repeated} diagnostics repeating one above word for word omitted) ..." in out


def test_a_repeat_hands_its_function_context_to_the_new_warning_after_it() -> None:
    text = (
        "In file included from a.c:1:\n"
        "h.h: In function ‘f’:\n"
        "h.h:3:5: warning: unused variable ‘x’ [-Wunused-variable]\n"
        "In file included from b.c:1:\n"
        "h.h: In function ‘f’:\n"
        "h.h:3:5: warning: unused variable ‘x’ [-Wunused-variable]\n"
        "h.h:4:5: warning: unused variable ‘y’ [-Wunused-variable]\n"
        "In file included from c.c:1:\n"
        "h.h: In function ‘f’:\n"
        "h.h:3:5: warning: unused variable ‘x’ [-Wunused-variable]\n"
        "h.h:4:5: warning: unused variable ‘y’ [-Wunused-variable]\n"
    )
    # c.c's context goes with its repeats: nothing new follows it
    out = group_by_rule(text, {}, 0).text.splitlines()
    assert out == [
        "In file included from a.c:1:",
        "h.h: In function ‘f’:",
        "h.h:3:5: warning: unused variable ‘x’ [-Wunused-variable]",
        "In file included from b.c:1:",
        "h.h: In function ‘f’:",
        "h.h:4:5: warning: unused variable ‘y’ [-Wunused-variable]",
        "... (3 diagnostics repeating one above word for word omitted) ...",
    ]


def test_the_same_eslint_finding_in_two_files_is_no_repeat() -> None:
    text = "src/a.js\n  3:7  error  'x' is not defined  no-undef\n\nsrc/b.js\n  3:7  error  'x' is not defined  no-undef\n"
    out = group_by_rule(text, {}, 1).text
    assert out.count("'x' is not defined") == 2 and "repeating" not in out


def test_a_grouped_members_arrow_line_is_kept_as_printed() -> None:
    # rustc indents "-->" by the width of the line numbers: "  --> src/lib.rs:17:31", "   --> src/lib.rs:409:31"
    out = group_by_rule(_raw("cargo/q24_doc_warnings"), {}, 0).text.split("\n")
    assert "  --> src/lib.rs:17:31" in out and "   --> src/lib.rs:409:31" in out
    assert "  --> src/lib.rs:409:31" not in out


def test_warnings_made_errors_fold_like_warnings_and_lints_that_are_errors_do_not() -> None:
    # batch 56: `cargo clippy -- -D warnings` makes each of 153 findings an error; their first report
    # says "`-D ...` implied by `-D warnings`", and they fold by lint as the warnings did, every place kept
    raw = _raw("cargo/q56_clippy_deny")
    text = STRATEGIES["group_by_rule"](raw, {}, 101).text
    assert len(text) < len(raw) // 4
    places = [line.split("-->")[1].strip() for line in raw.split("\n") if line.strip().startswith("-->")]
    assert len(places) > 150 and all(place in text for place in places)
    assert any(line.startswith("== error[") and " x" in line for line in text.split("\n"))
    # clippy's correctness lints are errors by default ("#[deny(clippy::bad_bit_mask)]` on by default"):
    # each stays whole, with the macro call it points into (batch 53's reviewer quoted both)
    bits = STRATEGIES["group_by_rule"](_raw("cargo/q53_bitflags_clippy"), {}, 101).text
    assert "pub struct PublicFlags: i8 {" in bits and "struct Flags: u32 {" in bits
    # and a compiler's own errors never fold
    errors = _raw("cargo/q52_cargo_build_four_errors")
    assert STRATEGIES["group_by_rule"](errors, {}, 101).text.count("error[E") == errors.count("error[E")


def test_a_promoted_lints_other_messages_fold_too_though_only_its_first_names_it() -> None:
    # batch 60: under `-D warnings` rustc says "`-D deprecated` implied by `-D warnings`" once, under
    # the first of 50 deprecated uses; the other four messages (`fmt_money`: renamed, `add_entry`: use
    # `record` ...) carry no note and stayed whole, 20 % saved
    raw = _raw("cargo/q60_clippy_deny_warnings")
    text = STRATEGIES["group_by_rule"](raw, {}, 101).text
    places = [line.strip() for line in raw.split("\n") if line.strip().startswith("-->")]
    assert len(places) == 50 and all(place in text for place in places)
    for message in ("use of deprecated function `tallyrs::fmt_money`: renamed to `format_cents`",
                    "use of deprecated method `tallyrs::Ledger::add_entry`: use `Ledger::record` instead"):
        assert any(line.startswith("== error: ") and line.endswith(message) for line in text.split("\n"))
    assert len(text) < len(raw) // 3
    # cargo's own "error: test failed, to rerun pass ..." lines are in no source: they never fold
    chain = STRATEGIES["group_by_rule"](_raw("cargo/q32b_cargo_semicolon_all"), {}, 101).text.split("\n")
    assert "error: test failed, to rerun pass `--test ledger_file`" in chain and "   Doc-tests ledgerline" in chain
    # a lint that is an error by default keeps every site whole, promoted lints around it or not
    denied = ("error: this operation will panic at runtime\n --> src/lib.rs:3:5\n  |\n3 |     x[5]\n"
              "  |     ^^^^ index out of bounds: the length is 4 but the index is 5\n  |\n"
              "  = note: `#[deny(unconditional_panic)]` on by default\n\n"
              "error: this operation will panic at runtime\n --> src/lib.rs:9:5\n  |\n9 |     x[7]\n"
              "  |     ^^^^ index out of bounds: the length is 4 but the index is 7\n\n"
              "error: unused variable: `y`\n --> src/lib.rs:2:9\n  |\n2 |     let y = 1;\n  |         ^ help: `_y`\n  |\n"
              "  = note: `-D unused-variables` implied by `-D warnings`\n\n")
    kept = STRATEGIES["group_by_rule"](denied, {}, 101).text.split("\n")
    assert "3 |     x[5]" in kept and "9 |     x[7]" in kept and not any(line.startswith("== ") for line in kept)


def test_clippys_link_to_a_lints_documentation_goes_where_a_note_names_the_lint() -> None:
    # the URL repeats the lint its note names ("`#[warn(clippy::len_zero)]` on by default", "-D
    # clippy::needless-return implied by -D warnings"); where no note names it the link is its name
    raw = _raw("cargo/q62_clippy_dumb_ci")
    text = STRATEGIES["group_by_rule"](raw, {}, 101).text
    lines = text.split("\n")
    assert "   = note: `#[warn(clippy::len_zero)]` on by default" in lines
    assert not any("index.html#len_zero" in line for line in lines)
    assert "... (7 links to lints' documentation omitted) ..." in lines
    alone = ("warning: length comparison to zero\n  --> src/lib.rs:3:5\n   |\n3 |     v.len() == 0\n   |     ^^^^^^^^^^^^\n"
             "   |\n   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#len_zero\n\n")
    assert "index.html#len_zero" in STRATEGIES["group_by_rule"](alone, {}, 0).text
    promoted = _raw("cargo/q59b_clippy_lint_alias")
    kept = STRATEGIES["group_by_rule"](promoted, {}, 101).text
    assert "`-D clippy::needless-return` implied by `-D warnings`" in kept and "#needless_return" not in kept


def test_a_folded_warning_raised_in_a_macro_keeps_the_note_naming_the_macro() -> None:
    # batch 96b: float_cmp nine times, three of them inside the expansions of two test macros; the
    # members' arrows point into the macro bodies, and only the note says which invocation to mend
    def warning(place: str, note: str = "") -> str:
        return (f"warning: strict comparison of `f32` or `f64`\n  --> {place}\n   |\n11 |     assert_eq!(got, want);\n"
                f"   |     ^^^^^^^^^^^^^^^^^^^^^^\n   |\n   = note: `-W clippy::float-cmp` implied by `-W clippy::pedantic`\n"
                + (f"   = note: this warning originates in the macro `assert_eq` which comes from the expansion of the "
                   f"macro `{note}` (in Nightly builds, run with -Z macro-backtrace for more info)\n" if note else "") + "\n")

    raw = (warning("src/money.rs:21:8") + warning("tests/brackets.rs:11:17", "tax_cases")
           + warning("tests/brackets.rs:11:17", "tax_cases") + warning("tests/brackets.rs:22:17", "marginal_cases")
           + "warning: `paycalc` (test \"brackets\") generated 4 warnings\n")
    lines = STRATEGIES["group_by_rule"](raw, {}, 0).text.split("\n")
    notes = [line for line in lines if "originates in the macro" in line]
    # each macro named once, under the first member it raised, in the members' order
    assert [note.split("`")[3] for note in notes] == ["tax_cases", "marginal_cases"]
    assert lines[lines.index(notes[0]) - 1] == "  --> tests/brackets.rs:11:17"
    assert lines[lines.index(notes[1]) - 1] == "  --> tests/brackets.rs:22:17"
    assert lines.count("  --> tests/brackets.rs:11:17") == 2


def test_a_folded_unfulfilled_expectation_keeps_its_reason() -> None:
    # batch 98b: four unfulfilled #[expect(...)]; the one with `reason = "..."` says why it was kept, in a
    # note no other member has
    lines = STRATEGIES["group_by_rule"](_raw("cargo/q98b_clippy_all_targets"), {}, 0).text.split("\n")
    at = lines.index("   --> src/cabin.rs:108:14")
    assert lines[at + 1] == "    = note: kept while the A321 layout is ported"
    # a note every member repeats is said once, by the first
    assert sum("unfulfilled_lint_expectations)]` on by default" in line for line in lines) == 1


def test_a_fix_that_left_nothing_to_report_is_understood() -> None:
    # batch 104: `cargo clippy --fix` fixed fifteen things and printed only cargo's lines and what
    # each file got; with no diagnostic left, its "Fixed" lines made the output look unknown
    raw = (Path(__file__).resolve().parents[1] / "fixtures" / "cargo" / "q104_clippy_fix" / "raw.txt").read_text()
    result = STRATEGIES["group_by_rule"](raw, {}, 0)
    assert result.confidence is Confidence.FULL and result.text == raw
    assert STRATEGIES["group_by_rule"](raw.replace("Fixed src/wave.rs (1 fix)", "something else"), {}, 0).confidence \
        is Confidence.FALLBACK
