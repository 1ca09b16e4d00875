"""strip_noise, keep_matching, strip_annotated and dedup on small inputs."""

from __future__ import annotations

from zeph_rules.engine.strategies import STRATEGIES, Confidence


def test_strip_noise_counts_what_it_strips() -> None:
    text = "".join(f"Compiling crate-{i} v1.0.0\n" for i in range(5)) + "real line\n"
    result = STRATEGIES["strip_noise"](text, {"patterns": ["^Compiling "]}, 0)
    assert result == ("real line\n... (5 noise lines stripped) ...\n", Confidence.FULL)


def test_a_marker_longer_than_the_cut_returns_the_input() -> None:
    text = "Compiling a\nreal line\n"
    assert STRATEGIES["strip_noise"](text, {"patterns": ["^Compiling "]}, 0) == (text, Confidence.FULL)


def test_strip_noise_with_nothing_to_strip_is_unchanged() -> None:
    assert STRATEGIES["strip_noise"]("a\nb\n", {"patterns": ["^zzz"]}, 0) == ("a\nb\n", Confidence.FULL)


def test_keep_matching_keeps_matches_and_counts_the_rest() -> None:
    text = "error: x\n" + "this line is fine and long enough to matter\n" * 3
    result = STRATEGIES["keep_matching"](text, {"patterns": ["error"]}, 1)
    assert result == ("error: x\n... (3 non-matching lines omitted) ...\n", Confidence.FULL)


def test_keep_matching_without_a_match_falls_back() -> None:
    assert STRATEGIES["keep_matching"]("a\nb", {"patterns": ["zzz"]}, 0) == ("a\nb", Confidence.FALLBACK)
    # no output at all is nothing to be unsure of (`cargo fmt --check` with everything formatted)
    for empty in ("", "\n", "  \n\n"):
        assert STRATEGIES["keep_matching"](empty, {"patterns": ["zzz"]}, 0) == (empty, Confidence.FULL)


def test_strip_annotated_keeps_summary_and_diagnostics() -> None:
    text = "\n".join(["Compiling x"] * 5 + ["warning: unused", "  --> src/a.rs:1:1", "Finished dev"]) + "\n"
    params = {"patterns": ["^Compiling", "^Finished"], "summary_pattern": "^Finished", "long_output_threshold": 30,
              "keep_head": 10, "keep_tail": 5}
    result = STRATEGIES["strip_annotated"](text, params, 0)
    assert result.text == "warning: unused\n  --> src/a.rs:1:1\nFinished dev\n... (5 progress lines stripped) ...\n"


def test_strip_annotated_cuts_long_output_but_not_errors() -> None:
    body = [f"note {i}" for i in range(40)]
    body[20] = "error[E0308]: mismatched types"
    params = {"patterns": ["^Compiling"], "summary_pattern": None, "long_output_threshold": 10, "keep_head": 2,
              "keep_tail": 2}
    result = STRATEGIES["strip_annotated"]("\n".join(body), params, 101)
    assert result.confidence is Confidence.PARTIAL
    assert "error[E0308]: mismatched types" in result.text
    assert "... (18 lines omitted) ..." in result.text


def test_strip_annotated_keeps_the_rest_of_an_error_block_the_head_opened() -> None:
    # `cargo build | head -n 80` has no summary: the error that starts in the kept head goes on
    # into the middle, and its excerpt's label says what is wrong
    body = ["error[E0308]: mismatched types", " --> src/lib.rs:4:9", "  |",
            "4 |     take(&name);", "  |          ^^^^^ expected `&String`, found `&str`", ""]
    body += [f"   Compiling crate{i} v0.1.0" for i in range(40)] + ["note 1", "note 2"] * 10
    params = {"patterns": ["^Compiling"], "summary_pattern": None, "long_output_threshold": 10, "keep_head": 3,
              "keep_tail": 2}
    result = STRATEGIES["strip_annotated"]("\n".join(body), params, 101)
    assert result.confidence is Confidence.PARTIAL
    assert "  |          ^^^^^ expected `&String`, found `&str`" in result.text.split("\n")


def test_dedup_groups_repeats_and_marks_counts() -> None:
    text = "10:00:01 worker 1 ready\n10:00:02 worker 2 ready\n10:00:03 worker 3 ready\nboot\n10:00:04 worker 4 ready\n"
    result = STRATEGIES["dedup"](text, {"normalize_patterns": None, "max_unique_patterns": 100}, 0)
    # the first stands for the records before the group's last, which stays where it was; the
    # output's last line is the final state: it stands alone at the end
    assert result == (
        "10:00:01 worker 1 ready (x2)\n10:00:03 worker 3 ready\nboot\n10:00:04 worker 4 ready\n", Confidence.FULL
    )


def test_dedup_never_merges_differing_error_lines() -> None:
    text = "ERROR job 1 failed\nERROR job 2 failed\nERROR job 2 failed\n"
    result = STRATEGIES["dedup"](text, {}, 0)
    assert result.text == "ERROR job 1 failed\nERROR job 2 failed (x2)\n"


def test_dedup_user_patterns_apply_first() -> None:
    text = "user alice logged in\nuser bob logged in\nuser carol logged in\nsession closed\n"
    result = STRATEGIES["dedup"](text, {"normalize_patterns": [r"user \w+"]}, 0)
    assert result.text == "user alice logged in (x2)\nuser carol logged in\nsession closed\n"


def test_dedup_log_lines_only_groups_log_records_and_keeps_program_output() -> None:
    # A program's own output (a table, JSON) repeats shapes that carry data.
    text = (
        "2026-11-22 06:49:16,872 INFO http: GET /healthz -> 200 in 16ms\n"
        "row 1: total 5\n"
        "row 2: total 7\n"
        "  },\n"
        "  },\n"
        "2026-11-22 06:49:16,899 INFO http: GET /healthz -> 200 in 24ms\n"
        "2026-11-22 06:49:16,911 INFO http: GET /healthz -> 200 in 12ms\n"
        "[2026-11-22T06:49:17Z INFO  app] cache warm in 3ms\n"
        "[2026-11-22T06:49:18Z INFO  app] cache warm in 4ms\n"
        "[2026-11-22T06:49:19Z INFO  app] cache warm in 5ms\n"
        "level=info msg=tick n=1\n"
        "level=info msg=tick n=2\n"
        "level=info msg=tick n=3\n"
        "done\n"
    )
    result = STRATEGIES["dedup"](text, {"log_lines_only": True}, 0)
    assert result.text == (
        "2026-11-22 06:49:16,872 INFO http: GET /healthz -> 200 in 16ms (x2)\n"
        "row 1: total 5\n"
        "row 2: total 7\n"
        "  },\n"
        "  },\n"
        "2026-11-22 06:49:16,911 INFO http: GET /healthz -> 200 in 12ms\n"
        "[2026-11-22T06:49:17Z INFO  app] cache warm in 3ms (x2)\n"
        "[2026-11-22T06:49:19Z INFO  app] cache warm in 5ms\n"
        "level=info msg=tick n=1 (x2)\n"
        "level=info msg=tick n=3\n"
        "done\n"
    )
    # Without the setting the program's lines group too.
    rows = "row 1: total 5\nrow 2: total 7\nrow 3: total 9\nend\n"
    assert STRATEGIES["dedup"](rows, {}, 0).text == "row 1: total 5 (x2)\nrow 3: total 9\nend\n"
    assert STRATEGIES["dedup"](rows, {"log_lines_only": True}, 0).text == rows


def test_every_strategy_falls_back_or_passes_through_on_prose() -> None:
    prose = "hello there\nnothing to see\n"
    for name in ("test_summary", "group_by_rule", "git_status", "git_diff"):
        assert STRATEGIES[name](prose, {}, 0) == (prose, Confidence.FALLBACK), name


def test_confidence_labels() -> None:
    assert [c.label for c in Confidence] == ["Full", "Partial", "Fallback"]
    assert max(Confidence.FULL, Confidence.FALLBACK) is Confidence.FALLBACK


def test_confidence_behaves_as_the_int_enum_it_replaces() -> None:
    """``Confidence`` is not built with ``enum`` (its import cost every filter run 2.5 ms); an
    ``IntEnum`` of the same members is the reference for everything callers can do with it."""
    import copy
    import enum
    import pickle

    reference = enum.IntEnum("Confidence", [("FULL", 0), ("PARTIAL", 1), ("FALLBACK", 2)])
    assert len(Confidence) == len(reference) == 3
    for member, expected in zip(Confidence, reference):
        assert (member.name, member.value, int(member)) == (expected.name, expected.value, int(expected))
        assert (str(member), f"{member}", f"{member:>3}", repr(member)) == (
            str(expected), f"{expected}", f"{expected:>3}", repr(expected))
        assert Confidence(expected.value) is member and Confidence[expected.name] is member
        assert Confidence(member) is member and getattr(Confidence, expected.name) is member
        assert member == expected.value and hash(member) == hash(expected.value)
        assert pickle.loads(pickle.dumps(member)) is member and copy.deepcopy(member) is member
        assert isinstance(member, int) and isinstance(member, Confidence)
    assert Confidence.FULL < Confidence.PARTIAL < Confidence.FALLBACK
    assert sorted([Confidence.FALLBACK, Confidence.FULL, Confidence.PARTIAL]) == list(Confidence)
    for bad in (3, -1, "FULL"):
        for kind in (Confidence, reference):
            try:
                kind(bad)  # type: ignore[arg-type]
            except ValueError:
                pass
            else:
                raise AssertionError(f"{kind.__name__}({bad!r}) was accepted")
    try:
        Confidence["full"]
    except KeyError:
        pass
    else:
        raise AssertionError("a lower-case name was accepted")


def test_strip_noise_min_lines_leaves_short_output_whole() -> None:
    params = {"patterns": ["^  dep "], "min_lines": 5}
    short = "root\n  dep a\n  dep b\n"
    assert STRATEGIES["strip_noise"](short, params, 0) == (short, Confidence.FULL)
    long = "root\n" + "".join(f"  dep {i}\n" for i in range(6))
    assert STRATEGIES["strip_noise"](long, params, 0).text == "root\n... (6 noise lines stripped) ...\n"


def test_strip_noise_folds_only_long_runs_and_keeps_their_ends_with_the_marker_in_place() -> None:
    params = {"patterns": ["^row "], "min_run": 5, "keep_run_ends": 2, "label": "row"}
    short_run = "head\n" + "".join(f"row {i}\n" for i in range(4)) + "tail\n"
    assert STRATEGIES["strip_noise"](short_run, params, 0) == (short_run, Confidence.FULL)
    long_run = "head\n" + "".join(f"row {i}\n" for i in range(9)) + "middle\nrow x\ntail\n"
    assert STRATEGIES["strip_noise"](long_run, params, 0).text == (
        "head\nrow 0\nrow 1\n... (5 rows stripped) ...\nrow 7\nrow 8\nmiddle\nrow x\ntail\n"
    )
    # without ends a long run goes whole, counted where it was
    whole = STRATEGIES["strip_noise"](long_run, {"patterns": ["^row "], "min_run": 5}, 0).text
    assert whole == "head\n... (9 noise lines stripped) ...\nmiddle\nrow x\ntail\n"


def test_strip_noise_blocks_confine_the_patterns_to_the_lines_between_their_bounds() -> None:
    params = {"patterns": ["^\\t", "^packagefile "], "block_start": "<< 'EOF'$", "block_end": "^EOF$", "label": "config line"}
    block = "packagefile fmt=/usr/lib/go/pkg/fmt.a\n\t\"ImportPath\": \"example.com/app\",\n" * 3
    text = f"cat >cfg << 'EOF'\n{block}EOF\ncompile -p main\n\tindented compiler note\npackagefile outside a block\n"
    assert STRATEGIES["strip_noise"](text, params, 0).text == (
        "cat >cfg << 'EOF'\nEOF\ncompile -p main\n\tindented compiler note\npackagefile outside a block\n"
        "... (6 config lines stripped) ...\n")
    # a block that never closes is not known to be one: its lines stay
    unclosed = "cat >cfg << 'EOF'\npackagefile fmt=fmt.a\n\tvalue\n"
    assert STRATEGIES["strip_noise"](unclosed, params, 0) == (unclosed, Confidence.FULL)


def test_strip_noise_a_line_that_closes_a_block_may_open_the_next() -> None:
    # `terraform test -verbose`: each passing run's state sits between its verdict and the next run's
    params = {"patterns": ["^"], "block_start": "pass$", "block_end": "^run ", "min_run": 2, "label": "state line"}
    state = "".join(f'    attribute_{number} = "a value the run built"\n' for number in range(3))
    text = f"run a... pass\n{state}run b... pass\n{state}run c... fail\n{state}run d\n"
    assert STRATEGIES["strip_noise"](text, params, 0).text == (
        "run a... pass\n... (3 state lines stripped) ...\nrun b... pass\n... (3 state lines stripped) ...\n"
        f"run c... fail\n{state}run d\n")


def test_strip_noise_take_next_strips_a_heading_with_the_value_under_it() -> None:
    params = {"patterns": ["^# default$"], "take_next": 1, "label": "default"}
    text = "# default\nAR = ar\n# makefile (from 'Makefile', line 6)\nVERSION := 2.1.0\n# default\nCC = cc\n" * 2
    assert STRATEGIES["strip_noise"](text, params, 0).text == (
        "# makefile (from 'Makefile', line 6)\nVERSION := 2.1.0\n" * 2 + "... (8 defaults stripped) ...\n")


def test_strip_noise_drops_whole_paragraphs_that_hold_a_marked_line() -> None:
    params = {"patterns": ["^never$"], "drop_paragraphs_with": "^#  Builtin rule$", "label": "built-in line"}
    builtin = "# Not a target:\n.c.o:\n#  Builtin rule\n#  recipe to execute (built-in):\n\t$(COMPILE.c) $<\n\n"
    own = "install: all\n#  recipe to execute (from 'Makefile', line 44):\n\tinstall -d $(PREFIX)/lib\n\n"
    assert STRATEGIES["strip_noise"](builtin + own + builtin, params, 0).text == (
        own + "... (12 built-in lines stripped) ...\n")


def test_strip_noise_drops_the_paragraphs_a_regex_matches_whole_and_no_others() -> None:
    # gcov -f: a fully covered function goes; one short of 100 %, a file's summary at 100 % (it has more
    # lines than a function's) and a paragraph that only begins like a covered function stay
    covered = "Function 'can_take'\nLines executed:100.00% of 2\n\n"
    short = "Function 'heading_class'\nLines executed:0.00% of 9\n\n"
    longer = "Function 'route'\nLines executed:100.00% of 5\nwarning: stale counts\n\n"
    summary = "File 'src/fare.c'\nLines executed:100.00% of 16\nNo calls\n\n"
    params = {"drop_paragraphs_matching": r"Function '[^'\n]+'\nLines executed:100\.00% of \d+", "label": "covered line"}
    text = covered + short + covered + longer + summary + "Lines executed:100.00% of 105\n"
    assert STRATEGIES["strip_noise"](text, params, 0).text == (
        short + longer + summary + "Lines executed:100.00% of 105\n... (6 covered lines stripped) ...\n")
    # the regex is anchored at both ends of the paragraph: a match inside it is not enough
    assert STRATEGIES["strip_noise"](longer, params, 0).text == longer
    # and its leading inline flags still lead once it is anchored
    loud = {"drop_paragraphs_matching": r"(?i)function '[^'\n]+'\nlines executed:100\.00% of \d+"}
    assert STRATEGIES["strip_noise"](covered * 3 + short, loud, 0).text == short + "... (9 noise lines stripped) ...\n"


def test_strip_noise_spares_a_whole_block_despite_a_first_line_it_is_told_to_overlook() -> None:
    params = {"patterns": ['^  File "/lib/'], "spare_whole_blocks": "^Traceback", "spare_despite": '^  File "<string>"'}
    text = 'Traceback\n  File "<string>", line 1\n  File "/lib/a.py", line 2\n  File "/lib/b.py", line 3\nError\n'
    assert STRATEGIES["strip_noise"](text, params, 1).text == text
    # only as the block's first line: further down it is a frame like any other, and the library's go
    lower = 'Traceback\n  File "/lib/a.py", line 2\n  File "<string>", line 1\n  File "/lib/b.py", line 3\nError\n'
    assert STRATEGIES["strip_noise"](lower, params, 1).text == (
        'Traceback\n  File "<string>", line 1\nError\n... (2 noise lines stripped) ...\n')


def test_strip_noise_count_from_counts_only_the_lines_from_its_first_match() -> None:
    refresh = "".join(f"x[{i}]: Refreshing state...\n" for i in range(8))
    plan = "  # x[0] will be updated in-place\n    + a = (known after apply)\n    + b = (known after apply)\n"
    params = {"patterns": [r"^\s{4,}\+ "], "min_lines": 5, "count_from": r"^\s+# \S.* will be "}
    # 11 lines in all, but the plan itself is 3: it stays whole
    assert STRATEGIES["strip_noise"](refresh + plan, params, 0) == (refresh + plan, Confidence.FULL)
    assert STRATEGIES["strip_noise"](refresh + plan * 2, params, 0).text.endswith("(4 noise lines stripped) ...\n")
    # no line matches: nothing is counted, nothing stripped
    assert STRATEGIES["strip_noise"](plan.replace("will be", "is") * 3, params, 0).confidence is Confidence.FULL
    assert "noise" not in STRATEGIES["strip_noise"](plan.replace("will be", "is") * 3, params, 0).text


def test_strip_noise_when_present_strips_only_beside_the_line_that_stands_for_the_rest() -> None:
    downloads = "Collecting attrs\n  Downloading attrs-23.2.0-py3-none-any.whl (60 kB)\n"
    params = {"patterns": [r"^\s*Downloading "], "when_present": r"^Successfully installed ", "label": "wheel download"}
    done = downloads + "Successfully installed attrs-23.2.0\n"
    assert STRATEGIES["strip_noise"](done, params, 0).text == (
        "Collecting attrs\nSuccessfully installed attrs-23.2.0\n... (1 wheel download stripped) ...\n"
    )
    failed = downloads + "ERROR: ResolutionImpossible\n"  # or cut by `| head`: the download says which version
    assert STRATEGIES["strip_noise"](failed, params, 1) == (failed, Confidence.FULL)


def test_strip_noise_until_keeps_the_rest_from_the_first_match_on() -> None:
    attributes = "".join(f"    + attribute_{i} = (known after apply)\n" for i in range(3))
    text = f"{attributes}Plan: 1 to add\nChanges to Outputs:\n    + url = (known after apply)\n"
    params = {"patterns": [r"^\s{4,}\+ "], "until": "^Changes to Outputs:"}
    assert STRATEGIES["strip_noise"](text, params, 0).text == (
        "Plan: 1 to add\nChanges to Outputs:\n    + url = (known after apply)\n... (3 noise lines stripped) ...\n"
    )


def test_strip_noise_since_and_until_bound_the_block_that_is_stripped() -> None:
    # npm's usage after a usage error: the error above it and the log line below it stay
    text = ("npm error code EUSAGE\nnpm error Missing: uuid@11.0.3 from lock file\nnpm error Usage:\nnpm error npm ci\n"
            "npm error   --omit\nnpm error Run \"npm help ci\" for more info\nnpm error A complete log\n")
    params = {"patterns": ["^npm error"], "since": "^npm error Usage:$", "until": "^npm error Run ", "label": "usage line"}
    assert STRATEGIES["strip_noise"](text, params, 1).text == (
        "npm error code EUSAGE\nnpm error Missing: uuid@11.0.3 from lock file\nnpm error Run \"npm help ci\" for more info\n"
        "npm error A complete log\n... (3 usage lines stripped) ...\n"
    )
    # no line where the block starts: nothing goes
    assert STRATEGIES["strip_noise"]("npm error code E404\nnpm error 404 Not Found\n", params, 1) == (
        "npm error code E404\nnpm error 404 Not Found\n", Confidence.FULL
    )


def test_strip_noise_label_names_what_the_marker_counts() -> None:
    text = "".join(f"{i}/12 Test #{i}: t{i} ... Passed\n" for i in range(1, 13)) + "100% tests passed\n"
    params = {"patterns": [r"Passed$"], "label": "passing test"}
    assert STRATEGIES["strip_noise"](text, params, 0).text == "100% tests passed\n... (12 passing tests stripped) ...\n"


def test_strip_noise_keep_when_named_keeps_the_lines_whose_names_the_output_repeats() -> None:
    refresh = [f'x.svc["{name}"]: Refreshing state... [id={i}]' for i, name in enumerate(["a", "b", "c", "d"])]
    text = "\n".join([*refresh, 'x.svc["a"]: Refreshing state... [id=0]',  # a line twice: each stands alone
                      '  # x.svc["c"] will be updated in-place', "Error: bad value", '  in resource "x" "db":',
                      "Plan: 0 to add, 1 to change, 0 to destroy."])
    params = {"patterns": [r": Refreshing state\.\.\."], "label": "refresh line",
              "keep_when_named": r'^(?:module\.\S+?\.)?([\w-]+)\.([\w-]+)(\[[^\]]*\])?: Refreshing state'}
    out = STRATEGIES["strip_noise"](text, params, 1).text.split("\n")
    # "c" is changed; "a", "b", "d" are named nowhere else ("x" and "svc" alone are not enough)
    assert out[0] == 'x.svc["c"]: Refreshing state... [id=2]'
    assert not any('["a"]: Refreshing' in line or '["b"]' in line for line in out)
    assert out[-1] == "... (4 refresh lines stripped) ..."
    # every group must be in one line: "db" and "x" are, in the error's `in resource "x" "db"`
    db = STRATEGIES["strip_noise"]("x.db: Refreshing state... [id=9]\n" + text, params, 1).text
    assert db.startswith("x.db: Refreshing state... [id=9]\n")
    # past keep_when_named_max lines to keep, none stays: the output's own lines are the list
    assert STRATEGIES["strip_noise"](text, {**params, "keep_when_named_max": 1}, 1).text.startswith('x.svc["c"]: Refreshing')
    capped = STRATEGIES["strip_noise"]("x.db: Refreshing state... [id=9]\n" + text, {**params, "keep_when_named_max": 1}, 1).text
    assert "Refreshing state" not in capped and capped.endswith("... (6 refresh lines stripped) ...")


def test_strip_noise_take_indented_takes_the_lines_under_a_stripped_line() -> None:
    text = "\n".join([
        "Traceback (most recent call last):",
        '  File "/app/main.py", line 10, in <module>', "    data = json.loads(text)",
        '  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode', "    obj, end = self.raw_decode(s)",
        "               ^^^^^^^^^^^^^^^", "",
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    ])
    params = {"patterns": [r'^\s*File "[^"]*/lib/python3\.\d+/'], "take_indented": True, "label": "library frame line"}
    assert STRATEGIES["strip_noise"](text, params, 1).text.split("\n") == [
        "Traceback (most recent call last):",
        '  File "/app/main.py", line 10, in <module>', "    data = json.loads(text)", "",
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "... (3 library frame lines stripped) ...",
    ]
    # without it, only the frame's own line goes
    del params["take_indented"]
    assert "    obj, end = self.raw_decode(s)" in STRATEGIES["strip_noise"](text, params, 1).text


def test_strip_noise_keep_before_keeps_a_matched_line_above_a_line_it_names() -> None:
    text = "\n".join([
        "Traceback (most recent call last):",
        '  File "/app/main.py", line 29, in <module>', "    main(sys.argv[1:], strict=True)",
        "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "/app/main.py", line 25, in main', "    print(render(order))", "          ^^^^^^^^^^^^^",
        '  File "/app/main.py", line 12, in label', '    return order["customer"]["address"]["city"]',
        "           ~~~~~~~~~~~~~~~~~^^^^^^^^^^^",
        "KeyError: 'address'",
    ])
    params = {"patterns": [r"^\s*[\^~]+\s*$"], "keep_before": r"^[A-Za-z_][\w.]*(: |$)"}
    out = STRATEGIES["strip_noise"](text, params, 1).text.split("\n")
    # the innermost frame's carets (which subscript raised) stay; the outer call's go
    assert out[-3:] == ["           ~~~~~~~~~~~~~~~~~^^^^^^^^^^^", "KeyError: 'address'", "... (2 noise lines stripped) ..."]
    assert "          ^^^^^^^^^^^^^" not in out
    del params["keep_before"]
    assert "~~~~~~~~~~~~~~~~~^^^^^^^^^^^" not in STRATEGIES["strip_noise"](text, params, 1).text



def test_strip_noise_keep_after_keeps_a_matched_line_below_a_line_it_names() -> None:
    # rustc's pointers into std go, but the one under "method defined here" says whose method it is
    text = "\n".join([
        "note: method defined here",
        " --> /rustc/5980761/library/std/src/collections/hash/map.rs:1295:11",
        "help: the following other types implement trait `Mul<Rhs>`",
        "  --> /rustc/5980761/library/core/src/ops/arith.rs:346:8",
        "   = note: `u64` implements `Mul`",
        "  ::: /rustc/5980761/library/core/src/internal_macros.rs:33:8",
    ])
    params = {"patterns": [r"^\s*(-->|:::) /rustc/"], "keep_after": r"^note: .* defined here$"}
    out = STRATEGIES["strip_noise"](text, params, 101).text.split("\n")
    assert out[:2] == ["note: method defined here", " --> /rustc/5980761/library/std/src/collections/hash/map.rs:1295:11"]
    assert not any("arith.rs" in line or "internal_macros.rs" in line for line in out)
    assert out[-1] == "... (2 noise lines stripped) ..."
    del params["keep_after"]
    assert "map.rs" not in STRATEGIES["strip_noise"](text, params, 101).text


def test_strip_noise_keep_unfinished_keeps_the_last_word_on_what_never_finished() -> None:
    # batch 81b: an apply interrupted while one resource was still being created
    text = "\n".join([
        'x.a["1"]: Creating...',
        "x.b: Creating...",
        'x.a["1"]: Still creating... [10s elapsed]',
        'x.a["1"]: Creation complete after 12s [id=1]',
        "x.b: Still creating... [10s elapsed]",
        "x.c: Destroying... [id=3]",
        "x.b: Still creating... [20s elapsed]",
        "x.c: Destruction complete after 0s",
        "Interrupt received.",
        "Error: execution halted",
        "  with x.b,",
    ])
    params = {
        "patterns": [r": (Still creating|Creating|Destroying)\.\.\."],
        "keep_unfinished": r"^(.+?): (?:Still creating|Creating|Destroying)\.\.\.",
        "finished_by": r"^(.+?): (?:Creation|Destruction) complete after ",
    }
    out = STRATEGIES["strip_noise"](text, params, 1).text.split("\n")
    # x.b's last progress line stays, its earlier ones go; x.a and x.c finished: theirs all go
    assert [line for line in out if "..." in line and not line.startswith("...")] == ["x.b: Still creating... [20s elapsed]"]
    assert out[-1] == "... (5 noise lines stripped) ..."
    del params["keep_unfinished"], params["finished_by"]
    assert "x.b: Still creating" not in STRATEGIES["strip_noise"](text, params, 1).text
    # batches 99b and 101: a slow resource's last "Still creating" stays however it ended, and only its
    # last; one keep_unfinished kept already keeps no earlier one with it
    params["keep_last_named"] = r"^(.+?): Still creating\.\.\. \["
    out = STRATEGIES["strip_noise"](text, params, 1).text.split("\n")
    assert [line for line in out if "Still" in line] == ['x.a["1"]: Still creating... [10s elapsed]',
                                                         "x.b: Still creating... [20s elapsed]"]
    params.update(keep_unfinished=r"^(.+?): (?:Still creating|Creating|Destroying)\.\.\.",
                  finished_by=r"^(.+?): (?:Creation|Destruction) complete after ")
    assert STRATEGIES["strip_noise"](text, params, 1).text.split("\n") == out


def test_strip_noise_drops_a_paragraph_said_before_but_spares_a_place() -> None:
    # batch 86b: one unterminated string, 33 errors below it, each with the same three lines of advice
    advice = ["Quoted strings may not be split over multiple lines. To produce a multi-line",
              '"heredoc" multi-line template syntax.']
    text = "\n".join([
        "Error: Invalid multi-line string", "", '  on main.tf line 45, in resource "a" "b":', "  45: x = \"y", "", *advice, "",
        "Error: Unterminated template string", "", '  on main.tf line 45, in resource "a" "b":', "  45: x = \"y", "",
        "No closing marker was found for the string.", "",
        "Error: Invalid multi-line string", "", '  on main.tf line 46, in resource "a" "b":', "  46: }", "", *advice,
    ])
    params = {"patterns": ["^$"], "drop_repeated_paragraphs": True, "spare_paragraphs_with": r"^\s+on \S.* line \d+"}
    out = STRATEGIES["strip_noise"](text, params, 1).text.split("\n")
    assert out.count(advice[0]) == 1  # the advice once, under the first error
    assert out.count('  on main.tf line 45, in resource "a" "b":') == 2  # both errors at line 45 keep their place
    assert out[-4:] == ["Error: Invalid multi-line string", '  on main.tf line 46, in resource "a" "b":', "  46: }",
                        "... (10 noise lines stripped) ..."]
    del params["spare_paragraphs_with"]
    assert STRATEGIES["strip_noise"](text, params, 1).text.count("on main.tf line 45") == 1
    del params["drop_repeated_paragraphs"]
    assert STRATEGIES["strip_noise"](text, params, 1).text.count(advice[0]) == 2


def test_strip_noise_keep_before_looks_past_the_lines_look_past_names() -> None:
    # batch 36: the object being built when a build broke, above gcc's "In function" line and its error
    text = "\n".join([
        "[ 19%] Building C object CMakeFiles/common.dir/c/common/dictionary.c.o",
        "[ 22%] Building C object CMakeFiles/dec.dir/c/dec/decode.c.o",
        "c/dec/decode.c: In function 'WriteRingBuffer':",
        "c/dec/decode.c:1313:18: error: no member named 'ringbuffer_len'",
        "[ 25%] Building C object CMakeFiles/dec.dir/c/dec/huffman.c.o",
        "c/dec/huffman.c: In function 'Build':",
        "c/dec/huffman.c:40:3: warning: unused variable 'k'",
        "[ 28%] Building C object CMakeFiles/dec.dir/c/dec/state.c.o",
    ])
    params = {"patterns": [r"^\[\s*\d+%\] Building "], "keep_before": r"^\S+:\d+:\d+: error: ",
              "look_past": r"^\S+: In function "}
    out = STRATEGIES["strip_noise"](text, params, 2).text.split("\n")
    assert out[:3] == ["[ 22%] Building C object CMakeFiles/dec.dir/c/dec/decode.c.o",
                       "c/dec/decode.c: In function 'WriteRingBuffer':",
                       "c/dec/decode.c:1313:18: error: no member named 'ringbuffer_len'"]
    assert "[ 25%] Building C object CMakeFiles/dec.dir/c/dec/huffman.c.o" not in out  # above a warning: goes
    assert out[-1] == "... (3 noise lines stripped) ..."
    del params["look_past"]
    assert "[ 22%] Building C object CMakeFiles/dec.dir/c/dec/decode.c.o" not in STRATEGIES["strip_noise"](text, params, 2).text

def test_strip_noise_spare_whole_blocks_keeps_a_block_that_would_lose_every_line() -> None:
    library = ['  File "/usr/lib/python3.11/pathlib.py", line 931, in iterdir', "    for name in os.listdir(self):"]
    own = ['  File "/app/main.py", line 3, in <module>', "    export()"]
    params = {"patterns": [r'^\s*File "[^"]*/lib/python3\.\d+/'], "take_indented": True,
              "spare_whole_blocks": r"Traceback \(most recent call last\):$"}
    crash = "\n".join(["Traceback (most recent call last):", *library, "OSError: [Errno 24] Too many open files"])
    assert STRATEGIES["strip_noise"](crash, params, 1).text == crash  # the library's own crash: whole
    mixed = "\n".join(["Traceback (most recent call last):", *own, *library, "OSError: [Errno 24] Too many open files"])
    assert STRATEGIES["strip_noise"](mixed, params, 1).text.split("\n")[:4] == [
        "Traceback (most recent call last):", *own, "OSError: [Errno 24] Too many open files"]
    # `pip install . 2>&1 | tail -n 5` cut the header off, and the first frame's File line: still whole
    headless = "\n".join(["    return os.listdir(self)", *library, *library, "OSError: [Errno 24] Too many open files"])
    assert STRATEGIES["strip_noise"](headless, params, 1).text == headless
    assert STRATEGIES["strip_noise"]("\n".join([*own, *library, "OSError: x"]), params, 1).text.split("\n")[:3] == [
        *own, "OSError: x"]  # the project's frame stays: the library's go


def test_strip_annotated_keeps_a_panic_message_and_the_programs_output() -> None:
    build = [f"warning: unused variable `v{i}`" if i % 5 == 0 else f"   | note {i}" for i in range(40)]
    build[20:23] = ["thread 'main' panicked at build.rs:3:5:", "the table has no entry for XDR",
                    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"]
    program = ["     Running `target/debug/app`", *(f"row {i}: total {i * 7}" for i in range(40)),
               "thread 'main' panicked at src/main.rs:7:60:", "amount must be a whole number of cents"]
    params = {"patterns": ["^Compiling"], "summary_pattern": r"^\s*(Finished|Running) ", "long_output_threshold": 10,
              "keep_head": 2, "keep_tail": 2}
    lines = STRATEGIES["strip_annotated"]("\n".join(build + program) + "\n", params, 101).text.split("\n")
    assert "the table has no entry for XDR" in lines  # the message under `panicked at`, in the cut part
    assert "   | note 21" not in lines and "   | note 23" not in lines
    assert lines[-len(program) - 1 : -1] == program  # after the last summary line: the program's output, whole


def test_strip_annotated_leaves_a_quiet_run_to_the_program() -> None:
    # `cargo run -q` prints no `Running` line: every line is the program's (here a panic's full
    # backtrace, whose frames in the code under test sit in the middle) and none is cut
    program = ["thread 'main' panicked at src/main.rs:18:39:", "called `Result::unwrap()` on an `Err` value",
               "stack backtrace:"]
    program += [f"  {i}: 0x5622 - std::frame{i}\n      at /rustc/abc/library/std/src/x.rs:{i}:9" for i in range(30)]
    program[20] = "  17: 0x5622 - ledger::load::hed5ee\n      at /work/rs/src/main.rs:18:39"
    text = "\n".join(program) + "\n"
    params = {"patterns": ["^\\s*Compiling "], "summary_pattern": r"^\s*(Finished|Running) ",
              "long_output_threshold": 10, "keep_head": 2, "keep_tail": 2}
    assert STRATEGIES["strip_annotated"](text, params, 101) == (text, Confidence.FULL)
    # with an error the output is cargo's own (a build that failed before anything ran): it is cut
    failed = "error[E0425]: cannot find value `x`\n\n" + text
    assert STRATEGIES["strip_annotated"](failed, params, 101).confidence is Confidence.PARTIAL


def test_strip_noise_only_repeats_keeps_each_change() -> None:
    a, b = "Author: Ada Lovelace <ada@example.org>", "Author: Charles Babbage <charles@example.org>"
    text = "\n".join(["commit 4", a, "x", "commit 3", a, "y", "commit 2", b, "z", "commit 1", a, "w", "commit 0", a, "v"])
    params = {"patterns": ["^Author: "], "only_repeats": True, "label": "repeated author line"}
    out = STRATEGIES["strip_noise"](text, params, 0).text.split("\n")
    # the first author stays, and so does each change (to b, and back to a): commits 3 and 0 lose theirs
    assert out == ["commit 4", a, "x", "commit 3", "y", "commit 2", b, "z", "commit 1", a, "w", "commit 0", "v",
                   "... (2 repeated author lines stripped) ..."]
