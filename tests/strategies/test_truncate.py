"""truncate: head + marker + tail."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from zeph_rules.engine.strategies import STRATEGIES, Confidence

truncate = STRATEGIES["truncate"]


def _lines(n: int) -> str:
    return "".join(f"line {i}\n" for i in range(n))


def test_short_output_is_unchanged() -> None:
    assert truncate(_lines(5), {"max_lines": 5, "head": 2, "tail": 2}, 0) == (_lines(5), Confidence.FULL)


def _distinct(n: int) -> str:
    """Lines with nothing in common: no family to fold."""
    return "".join(f"line {'x' * i}\n" for i in range(n))


def test_long_output_keeps_head_and_tail_with_a_counted_marker() -> None:
    result = truncate(_distinct(100), {"max_lines": 10, "head": 2, "tail": 3}, 0)
    assert result.confidence is Confidence.PARTIAL
    lines = _distinct(100).splitlines()
    assert result.text == "\n".join([*lines[:2], "... (95 lines omitted) ...", *lines[-3:]]) + "\n"


def test_similar_lines_fold_to_their_first_and_last_three() -> None:
    result = truncate(_lines(100), {"max_lines": 10, "head": 2, "tail": 3}, 0)
    assert result.text == "line 0\nline 1\nline 2\n... (94 similar lines omitted) ...\nline 97\nline 98\nline 99\n"


def test_folded_lines_count_in_the_final_marker() -> None:
    text = _lines(20).rstrip("\n")
    assert truncate(text, {"max_lines": 4, "head": 1, "tail": 1}, 0).text == "line 0\n... (18 lines omitted) ...\nline 19"


def test_tree_keeps_its_top_level_and_ls_r_its_headers() -> None:
    tree = "".join(f"├── dir{'x' * d}\n" + "".join(f"│   ├── f{'y' * (d * 10 + i)}.py\n" for i in range(10)) for d in range(10))
    out = truncate(tree, {"max_lines": 20, "head": 5, "tail": 5}, 0).text
    assert all(f"├── dir{'x' * d}\n" in out for d in range(10))
    listing = "".join(f"src/{'d' * d}:\n" + "".join(f"{'f' * (d * 10 + i)}.py\n" for i in range(10)) + "\n" for d in range(10))
    out = truncate(listing, {"max_lines": 20, "head": 5, "tail": 5}, 0).text
    assert all(f"src/{'d' * d}:\n" in out for d in range(10))


def test_a_line_outside_a_trees_drawing_does_not_hide_its_top_level() -> None:
    # `tree` killed, or an error of its walk, in the middle of the drawing: at the margin, but no entry
    tree = "".join(f"├── dir{'x' * d}\n" + "".join(f"│   ├── f{'y' * (d * 10 + i)}.py\n" for i in range(10)) for d in range(10))
    lines = tree.split("\n")
    lines.insert(50, "tree: node_modules/.cache: Permission denied")
    out = truncate("\n".join(lines), {"max_lines": 20, "head": 5, "tail": 5}, 0).text
    assert all(f"├── dir{'x' * d}\n" in out for d in range(10))


def test_missing_final_newline_and_empty_input() -> None:
    text = _distinct(20).rstrip("\n")
    lines = text.split("\n")
    assert truncate(text, {"max_lines": 4, "head": 1, "tail": 1}, 0).text == f"{lines[0]}\n... (18 lines omitted) ...\n{lines[-1]}"
    assert truncate("", {"max_lines": 4}, None) == ("", Confidence.FULL)


def test_trouble_in_the_middle_survives_the_cut() -> None:
    lines = _distinct(200).splitlines()
    lines[100] = "gcc: fatal error: no input files"
    lines[120] = "make[2]: *** [Makefile:12: all] Error 1"
    result = truncate("\n".join(lines), {"max_lines": 10, "head": 2, "tail": 2}, 2)
    assert "gcc: fatal error: no input files" in result.text
    assert "make[2]: *** [Makefile:12: all] Error 1" in result.text
    assert "... (98 lines omitted) ..." in result.text and "... (19 lines omitted) ..." in result.text


def test_past_the_cap_errors_come_before_warnings_and_the_tails_error_keeps_its_introduction() -> None:
    lines = [f"src/m{i}.c:3:1: warning: unused parameter 'ctx{i}'" for i in range(400)]
    lines[350] = "src/m350.c:9:2: error: 'FRAME' undeclared"
    lines += _distinct(25).splitlines() + ["src/z.c: In function 'frame_len':", "src/z.c:22:16: error: 'MAX' undeclared"]
    lines += _distinct(19).splitlines()
    out = truncate("\n".join(lines), {"max_lines": 10, "head": 2, "tail": 20}, 2).text.split("\n")
    assert "src/m350.c:9:2: error: 'FRAME' undeclared" in out  # past the first 200 warnings
    assert sum("warning:" in line for line in out) == 199 + 2  # the cap's rest, and the head's two
    error = out.index("src/z.c:22:16: error: 'MAX' undeclared")  # in the tail
    assert out[error - 1] == "src/z.c: In function 'frame_len':"  # just above the tail

def test_a_warning_with_its_colon_is_trouble_too() -> None:
    # `make -C docs html | tail`: Sphinx's own rule no longer sees its banner; the warning has no line number
    lines = _distinct(200).splitlines()
    lines[90] = "docs/howto/release.rst: WARNING: document isn't included in any toctree"
    lines[110] = "main.c:3:14: warning: unused parameter ‘argc’ [-Wunused-parameter]"
    lines[130] = "no warnings here, and none: either"
    text = truncate("\n".join(lines), {"max_lines": 10, "head": 2, "tail": 2}, 2).text
    assert lines[90] in text and lines[110] in text and lines[130] not in text


def test_only_consecutive_similar_lines_fold_and_trouble_never_does() -> None:
    # ls -R: README.md under each header is a different file; each run of it is one line long.
    listing = "".join(f"src/m{'x' * d}:\nREADME.md\nmod.py\n\n" for d in range(12))
    assert truncate(listing, {"max_lines": 300, "fold_from": 10}, 0).text == listing
    errors = "".join(f"ERROR job {i} failed\n" for i in range(30))
    assert truncate(errors, {"max_lines": 300, "fold_from": 10}, 0).text == errors


def test_ids_that_start_with_a_digit_fold_and_names_with_digits_do_not() -> None:
    from zeph_rules.engine.strategies.truncate import fold_similar

    shelves = [f"    catalog_test.go:17: TEA-{i:04d} -> shelf {i % 12 + 1:02d}{'ABCDEFGH'[i % 8]}" for i in range(40)]
    assert len(fold_similar(shelves)) == 7  # three, a counted marker, three
    cards = [f"/usr/share/alsa/cards/{name}.conf" for name in
             ("EMU10K1", "VX222", "VXPocket440", "CA0106", "AU8820", "ICE1724", "CMI8338", "SI7018", "YMF744",
              "ENS1370", "ES1968", "FM801")]
    assert [line for line, _ in fold_similar(cards)] == cards

def test_fold_from_folds_runs_below_max_lines() -> None:
    text = "header\n" + _lines(40)
    result = truncate(text, {"max_lines": 300, "fold_from": 20}, 0)
    assert result.text == "header\nline 0\nline 1\nline 2\n... (34 similar lines omitted) ...\nline 37\nline 38\nline 39\n"
    assert truncate(text, {"max_lines": 300}, 0).text == text  # without it, nothing below max_lines changes


def test_a_listing_of_unique_paths_has_no_landmarks_and_is_cut() -> None:
    # `find ... | head -n 400`: every path is unlike the others, so none stands out as a landmark
    from pathlib import Path

    raw = (Path(__file__).resolve().parents[1] / "fixtures" / "find" / "doc_gz_head" / "raw.txt").read_text()
    result = truncate(raw, {"fold_from": 60, "max_lines": 300, "head": 150, "tail": 50}, 0)
    assert result.confidence is Confidence.PARTIAL
    lines = result.text.splitlines()
    raw_lines = raw.splitlines()
    assert lines[:150] == raw_lines[:150] and lines[-50:] == raw_lines[-50:]
    assert "... (200 lines omitted) ..." in lines
    # a few lines unlike the rest still come through the cut
    few = "".join(f"src/mod_{i}.py\n" for i in range(100)).replace("src/mod_50.py", "src/__init__.py")
    kept = truncate(few, {"max_lines": 20, "head": 5, "tail": 5}, 0).text
    assert "src/__init__.py" in kept


def test_a_long_du_a_keeps_the_top_level_entries_between_head_and_tail() -> None:
    from pathlib import Path

    raw = (Path(__file__).resolve().parents[1] / "fixtures" / "du" / "ah_project" / "raw.txt").read_text()
    result = truncate(raw, {"fold_from": 60, "max_lines": 60, "head": 20, "tail": 10}, 0)
    assert result.confidence is Confidence.PARTIAL
    lines = result.text.splitlines()
    for top in ("528K\tpython-dateutil-2.9.0.post0/src", "464K\tpython-dateutil-2.9.0.post0/tests",
                "172K\tpython-dateutil-2.9.0.post0/docs", "4.0K\tpython-dateutil-2.9.0.post0/RELEASING"):
        assert top in lines, top
    assert "4.0K\tpython-dateutil-2.9.0.post0/tests/test_imports.py" not in lines
    assert lines[-1] == "1.4M\tpython-dateutil-2.9.0.post0"


_PIECES = st.sampled_from([*"aF09 \t\x0b\x1c\x85└`-:|ErrorJan*ſıİKß", "fail", "k\u0131lled", "ſegmentation fault", "ERR!"])


@given(st.lists(st.lists(_PIECES, max_size=12).map("".join), max_size=20))
def test_whole_text_shapes_and_trouble_agree_with_line_by_line(lines: list[str]) -> None:
    from zeph_rules.engine.strategies import truncate as module

    def shape(line: str) -> str:  # the line-by-line definition
        blanked = module._SIGNED.sub("", module._MONTH.sub("M", module._NUMBERISH.sub("0", module._ALNUM_ID.sub("0", line))))
        return re.sub(r"\s+", " ", blanked.replace("└", "├").replace("`--", "|--")).strip()

    assert module._shapes(lines) == [shape(line) for line in lines]
    assert module._troubled(lines) == {index for index, line in enumerate(lines) if module._TROUBLE.search(line)}


@given(st.text(alphabet=st.sampled_from(list("aF09x_ .-\n")), max_size=60))
def test_numberish_takes_whole_hex_runs_with_a_digit_like_the_unanchored_pattern(text: str) -> None:
    import re

    from zeph_rules.engine.strategies import truncate as module

    unanchored = re.compile(r"[0-9A-Fa-f]*[0-9][0-9A-Fa-f]*")
    assert module._NUMBERISH.sub("0", text) == unanchored.sub("0", text)


def test_keep_largest_keeps_the_biggest_sizes_of_a_du_listing() -> None:
    sizes = ["4.0K", "12K", "1.5M", "8.0K", "980K", "2.1G", "16K", "4.0K", "640", "3.0M"] * 6
    text = "".join(f"{size}\tpkg/dir{i % 7}/file{'x' * i}.py\n" for i, size in enumerate(sizes))
    params = {"max_lines": 20, "head": 3, "tail": 2, "keep_largest": 3}
    result = truncate(text, params, 0)
    lines = text.splitlines()
    kept = [line for line in result.text.splitlines() if not line.startswith("... (")]
    middle = lines[3:-2]
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    largest = sorted(middle, key=lambda line: -units.get(line[line.index("\t") - 1], 1)
                     * float(line.split("\t")[0].rstrip("KMG")))[:3]
    assert {line.split("\t")[0] for line in largest} == {"2.1G"}
    assert all(line in kept for line in largest)
    assert [line for line in kept if line in middle] == [line for line in middle if line in largest]  # in order
    assert truncate(text, {**params, "keep_largest": 0}, 0).text.count("G\t") == 0  # not without the setting


def test_keep_patterns_survive_the_cut_with_the_lines_that_introduce_them() -> None:
    lines = _distinct(200).splitlines()
    lines[50:53] = ["cc -O2 -c src/a.c -o a.o", "src/a.c: In function 'f':", "src/a.c:6:9: note: 'x' declared here"]
    # (another file's command between them, long enough that its marker is shorter: a short one would stay)
    other = "cc -O2 -Wall -Wextra -Iinclude -DNDEBUG -c src/c.c -o build/c.o"
    lines[100:104] = ["cc -O2 -c src/b.c -o b.o", other, "src/b.c: In function 'g':", "src/b.c:11:23: error: 'mtu' undeclared"]
    params = {"max_lines": 10, "head": 2, "tail": 2, "keep_patterns": [r"^\S+:\d+(:\d+)?: note: "]}
    out = truncate("\n".join(lines), params, 2).text.split("\n")
    assert "src/a.c:6:9: note: 'x' declared here" in out  # kept as errors and warnings are
    # the lines above each kept line that name its file: the command that compiled it, `In function`
    error = out.index("src/b.c:11:23: error: 'mtu' undeclared")
    assert out[error - 3 : error] == ["cc -O2 -c src/b.c -o b.o", "... (1 line omitted) ...", "src/b.c: In function 'g':"]
    assert "src/a.c: In function 'f':" in out and "cc -O2 -c src/a.c -o a.o" in out
    assert other not in out  # another file's command
    assert "src/a.c:6:9: note: 'x' declared here" not in truncate("\n".join(lines), {**params, "keep_patterns": []}, 2).text


def test_an_exceptions_class_is_trouble_and_a_colon_announces_the_lines_under_it() -> None:
    # node --test's failure among many passes: the class names the trouble, the line two below says what
    lines = [f"  ✔ case {n} (0.1ms)" for n in range(60)]
    lines[30:30] = ["  ✖ fixed coupon never goes below zero (0.33ms)",
                    "    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:", "    ",
                    "    -200 !== 0", "    "]
    out = truncate("\n".join(lines) + "\n", {"max_lines": 20, "head": 5, "tail": 5}, 1).text.split("\n")
    assert "    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:" in out
    assert "    -200 !== 0" in out
    # a file named after an error is no trouble
    from zeph_rules.engine.strategies.truncate import _troubled

    assert _troubled(["lodash/isError.js", "TypeError: x is undefined", "raise KeyError"]) == {1, 2}


def test_a_line_alike_only_to_one_at_another_depth_is_still_a_landmark() -> None:
    # batch 103b: a 1,571-line `kubectl kustomize` render; a CronJob's `name: forecast-nightly` under its
    # metadata was counted alike to its container's `name: forecast-nightly`, and went with the middle
    from pathlib import Path

    raw = (Path(__file__).resolve().parents[1] / "fixtures" / "kubectl" / "q103b_kubectl_kustomize_base"
           / "raw.txt").read_text()
    params = {"max_lines": 1200, "head": 600, "tail": 200, "keep_patterns": [r"^\s+(- )?image: \S"]}
    lines = truncate(raw, params, 0).text.splitlines()
    assert "  name: forecast-nightly" in lines and "            name: forecast-nightly" in lines
    # a line repeated at the same depth is no landmark: most objects' common label goes
    label = "    app.kubernetes.io/part-of: grid-scheduler"
    assert raw.splitlines().count(label) == 65 and lines.count(label) < 50


def test_short_lines_between_kept_ones_stay_and_a_long_one_goes() -> None:
    # kept patterns two lines apart: the line between is shown when it is no longer than two markers
    # (a manifest's `- name: api` between an image and its ports), and counted when it is longer
    lines = _distinct(300).splitlines()
    lines[100:103] = ["    image: registry.example/api:2.4.0", "    - name: api", "    replicas: 3"]
    lines[200:203] = ["    image: registry.example/web:1.9.0", "    args: [" + ", ".join(f'"--flag-{n}"' for n in range(12)) + "]",
                      "    replicas: 2"]
    params = {"max_lines": 10, "head": 2, "tail": 2, "keep_patterns": [r"^\s+(image|replicas): "]}
    out = truncate("\n".join(lines), params, 0).text.split("\n")
    at = out.index("    image: registry.example/api:2.4.0")
    assert out[at : at + 3] == lines[100:103]
    at = out.index("    image: registry.example/web:1.9.0")
    assert out[at : at + 3] == [lines[200], "... (1 line omitted) ...", lines[202]]
    # and so do a few short lines together: a compiler's two-line excerpt between two errors
    lines[150:154] = ["src/a.c:7:1: error: expected ';'", "    7 | {", "      | ^", "src/a.c:9:1: error: expected ';'"]
    out = truncate("\n".join(lines), {**params, "keep_patterns": [r"error: "]}, 2).text.split("\n")
    at = out.index("src/a.c:7:1: error: expected ';'")
    assert out[at : at + 4] == lines[150:154]
