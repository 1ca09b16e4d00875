"""git_status and git_diff on the edges the fixtures do not cover."""

from __future__ import annotations

from pathlib import Path

from zeph_rules.engine.sanitize import sanitize
from zeph_rules.engine.strategies import STRATEGIES, Confidence

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _raw(case: str) -> str:
    return sanitize((FIXTURES / case / "raw.txt").read_text(encoding="utf-8"))


def test_status_counts_sections_and_drops_hints() -> None:
    result = STRATEGIES["git_status"](_raw("git/status"), {}, 0)
    assert "Changes to be committed: (3)" in result.text
    assert "Untracked files: (3)" in result.text
    assert '(use "git' not in result.text
    assert "... (5 hint lines omitted) ..." in result.text


def test_status_in_another_locale_is_compacted_by_its_shape() -> None:
    result = STRATEGIES["git_status"](_raw("git/q7_status_de_DE"), {}, 0)
    assert result.confidence is Confidence.FULL
    lines = result.text.splitlines()
    assert "Zum Commit vorgemerkte Änderungen: (2)" in lines
    assert "Änderungen, die nicht zum Commit vorgemerkt sind: (6)" in lines
    assert "Unversionierte Dateien: (1)" in lines and "\tscratch/" in lines
    assert "Ihr Branch und 'origin/main' sind divergiert," in lines  # kept as it is
    assert not any("benutzen Sie" in line for line in lines)
    assert lines[-1] == "... (5 hint lines omitted) ..."


def test_status_with_no_recognisable_shape_falls_back() -> None:
    text = "Statut inconnu\nrien ici\n"
    assert STRATEGIES["git_status"](text, {}, 0).confidence is Confidence.FALLBACK


def test_a_git_error_instead_of_a_status_is_understood() -> None:
    raw = _raw("git/q31_bad_config_line")
    assert raw.startswith("fatal: bad config line 9 in file .git/config")
    assert STRATEGIES["git_status"](raw, {}, 128) == (raw, Confidence.FULL)


def test_short_status_is_kept() -> None:
    raw = _raw("git/status_short_branch")
    assert STRATEGIES["git_status"](raw, {}, 0) == (raw, Confidence.FULL)


def test_diff_limits_bodies_per_file_and_adds_a_stat_line() -> None:
    result = STRATEGIES["git_diff"](_raw("git/diff"), {"max_diff_lines": 40}, 0)
    assert result.confidence is Confidence.PARTIAL
    assert "lines omitted in src/notes/catalog.py) ..." in result.text
    assert result.text.rstrip().endswith("4 files changed, 901 insertions(+), 960 deletions(-)")
    assert result.text.count("diff --git ") == 4


def _file_diff(path: str, removed: str, added: str, line: int = 3) -> list[str]:
    return [f"diff --git a/{path} b/{path}", "index 1111111..2222222 100644", f"--- a/{path}", f"+++ b/{path}",
            f"@@ -{line},7 +{line},7 @@", ' """Shop rules."""', " ", " import logging", f"-{removed}", f"+{added}",
            " ", " log = logging.getLogger(__name__)", " TIMEOUT_S = 10"]


def test_a_repeated_change_is_shown_once_and_the_budget_goes_to_the_others() -> None:
    # a mass edit (a copyright line in 40 files), a series alike but for numbers (a limit raised in 12),
    # and the one change that matters, last
    lines = []
    for n in range(40):
        lines += _file_diff(f"src/m{n:02}.py", "# Copyright 2023 Shop", "# Copyright 2023-2024 Shop")
    for n in range(12):
        lines += _file_diff(f"src/limit{n:02}.py", f"LIMIT = {400 + n}", f"LIMIT = {400 + n} + 1")
    lines += _file_diff("src/settings.py", "MAX_RETRIES = 3", "VERIFY_TLS = False")
    out = STRATEGIES["git_diff"]("\n".join(lines) + "\n", {"max_diff_lines": 60}, 0).text.split("\n")
    assert "-MAX_RETRIES = 3" in out and "+VERIFY_TLS = False" in out
    assert out.count("+# Copyright 2023-2024 Shop") == 1
    assert out.count("... (8 lines omitted: the same change as in src/m00.py) ...") == 39
    # each of the series shows what it now says (batch 56's reviewer quoted one such line), not the rest
    assert all(f"+LIMIT = {400 + n} + 1" in out for n in range(12)) and "-LIMIT = 405" not in out
    assert out.count("... (7 lines omitted: a change like the one in src/limit00.py, but for the lines below) ...") == 11
    assert all(f"diff --git a/src/m{n:02}.py b/src/m{n:02}.py" in out for n in range(40))  # every file header
    assert out[-2:] == ["53 files changed, 53 insertions(+), 53 deletions(-)", ""]  # the counts of every file
    # a few changes alike but for their numbers stay: there the numbers are the story
    few = []
    for n in range(4):
        few += _file_diff(f"src/rate{n}.py", f"RATE = 4.{n}0", f"RATE = 4.{n}5")
    few += _file_diff("src/big.py", "x = 1", "x = 2") * 1
    text = STRATEGIES["git_diff"]("\n".join(few) + "\n", {"max_diff_lines": 8}, 0).text
    assert "a change like the one" not in text


def test_the_change_a_fold_marker_points_to_is_shown_whole() -> None:
    # 60 station files each change three settings but for their numbers; the budget gives each a line or
    # two, yet 59 markers send the reader to the first file: its change stays whole (batch 111b's reviewer
    # quoted "+status: operational" from it)
    lines = []
    for n in range(60):
        path = f"stations/s{n:02}.yaml"
        lines += [f"diff --git a/{path} b/{path}", "index 1111111..2222222 100644", f"--- a/{path}", f"+++ b/{path}",
                  "@@ -4,9 +4,9 @@", " elevation_m: 652", " sensors: [RH, FF, VV]", " calibration:",
                  f"-  last: 2024-11-{n % 28 + 1:02}", f"+  last: 2026-03-{n % 28 + 1:02}", "-  temp_offset: +0.00",
                  f"+  temp_offset: -0.{n:02}", "-status: commissioning", "+status: operational",
                  "   pressure_offset: +0.00", " owner: met-service", " network: synoptic"]
    out = STRATEGIES["git_diff"]("\n".join(lines) + "\n", {"max_diff_lines": 60}, 0).text.split("\n")
    assert sum("lines omitted: a change like the one in stations/s00.yaml, but for the lines below) ..." in line
               for line in out) == 59
    first = out[: out.index("diff --git a/stations/s01.yaml b/stations/s01.yaml")]
    for changed in ("-  last: 2024-11-01", "+  last: 2026-03-01", "-  temp_offset: +0.00", "+  temp_offset: -0.00",
                    "-status: commissioning", "+status: operational"):
        assert changed in first
    assert " sensors: [RH, FF, VV]" not in first  # its context is still cut, and counted
    assert "... (6 lines omitted in stations/s00.yaml) ..." in first


def test_a_cut_of_one_or_two_changed_lines_is_not_made() -> None:
    # batch 112b: a release's diff of many files shares the limit three lines a file, and billing.py's
    # fourth changed line, the new VAT formula, went under the comment announcing it
    lines = []
    for n in range(40):
        path = f"docs/page{n:02}.md"
        lines += [f"diff --git a/{path} b/{path}", f"--- a/{path}", f"+++ b/{path}", "@@ -1,9 +1,9 @@",
                  *(f" {word} paragraph {n}" for word in ("first", "second", "third")),
                  f"-Reviewed by team {chr(97 + n % 26)}{n}", f"+Reviewed by team {chr(98 + n % 25)}{n}",
                  *(f" {word} closing {n}" for word in ("fourth", "fifth", "sixth", "seventh"))]
    billing = ["diff --git a/src/billing.py b/src/billing.py", "--- a/src/billing.py", "+++ b/src/billing.py",
               "@@ -37,8 +37,8 @@ class Invoice:", "     def vat(self) -> int:",
               "-        rated = sum(self._discounted(l) for l in self.lines)", "-        return percent(rated, VAT_PCT)",
               "+        # VAT is charged on each rated line and added up",
               "+        return sum(percent(self._discounted(l), VAT_PCT) for l in self.lines)",
               " ", "     def total(self) -> int:", "         return self.net() + self.vat()"]
    out = STRATEGIES["git_diff"]("\n".join(lines[:195] + billing + lines[195:]) + "\n", {"max_diff_lines": 120}, 0).text
    body = out.split("+++ b/src/billing.py\n")[1].split("diff --git")[0].split("\n")
    assert body[1:5] == billing[5:9]  # every changed line, in order
    assert body[5] == "... (4 lines omitted in src/billing.py) ..."  # the context goes, counted


def test_past_the_budget_each_run_of_changes_in_a_hunk_shows_its_first_change() -> None:
    # batch 113: `make test` diffing golden files; in each hunk three rows of a table changed, then,
    # past a context line, the total: the budget went to the rows and "+hire fees £2.30" was lost
    def golden(n: int) -> list[str]:
        return [f"--- tests/case_{n}.expected", f"+++ tests/case_{n}.out", "@@ -1,7 +1,7 @@",
                *(f"-NO-{row:03}  mower  2 slot(s)  £{3 + n}.00" for row in range(3)),
                *(f"+NO-{row:03}  mower  2 slot(s)  £0.{3 + n}0" for row in range(3)),
                f" HO-{n:03}  strimmer  1 slot(s)  £1.50", f"-hire fees £{9 + n}.50", f"+hire fees £{2 + n}.30",
                " deposits held £55.00"]
    raw = "\n".join(line for n in range(3) for line in golden(n)) + "\n"
    lines = STRATEGIES["git_diff"](raw, {"max_diff_lines": 12}, 1).text.split("\n")
    for n in range(3):
        assert f"-hire fees £{9 + n}.50" in lines and f"+hire fees £{2 + n}.30" in lines
        assert f"-NO-000  mower  2 slot(s)  £{3 + n}.00" in lines and f"+NO-000  mower  2 slot(s)  £0.{3 + n}0" in lines
        assert f"+NO-002  mower  2 slot(s)  £0.{3 + n}0" not in lines  # the rest of the first run goes, counted


def test_a_cut_that_saves_less_than_its_marker_is_not_made() -> None:
    # 150 small files share 150 lines: a line each, and a marker naming the file is longer than what it cuts
    lines = []
    for n in range(150):
        path = f"src/handlers/webhook_{n:03}.py"
        name = chr(97 + n // 26) + chr(97 + n % 26)  # changes that differ in more than their numbers: none folds
        lines += [f"diff --git a/{path} b/{path}", "index 1111111..2222222 100644", f"--- a/{path}", f"+++ b/{path}",
                  "@@ -3,7 +3,7 @@", " X = 1", " Y = 2", " Z = 3", f"-N = '{name}'", f"+N = '{name}!'", " U = 4",
                  " V = 5", " W = 6"]
    raw = "\n".join(lines) + "\n"
    result = STRATEGIES["git_diff"](raw, {"max_diff_lines": 150}, 0)
    assert "omitted in src/handlers/" not in result.text
    assert result.text.count(" W = 6") == 150  # every body whole
    # it is a cut diff all the same: the blob ids go, counted, and the stat line closes it
    assert "index 1111111..2222222 100644" not in result.text
    assert result.text.endswith("... (150 index lines (blob ids) omitted) ...\n150 files changed, 150 insertions(+), 150 deletions(-)\n")
    assert len(result.text) < len(raw)


def test_commits_folded_under_the_limit_are_still_a_cut_diff() -> None:
    # `git log -p` of 30 commits that each raise a limit, and one that matters: folded, the bodies fit the
    # limit, but the diff was over it; the blob ids go, and the result is shorter than the input
    context = [" # limits of the shop, raised one at a time as the load tests allow", " # (see docs/limits.md)"]
    lines = []
    for n in range(30):
        lines += [f"commit {n:040x}", "Author: Dana <dana@example.com>", "Date:   Wed Jun 26 08:00:00 2024 +0000", "",
                  f"    limit{n:02}: raise LIMIT by one", ""]
        diff = _file_diff(f"src/limit{n:02}.py", f"LIMIT = {400 + n}", f"LIMIT = {400 + n} + 1")
        lines += [*diff[:5], *context, *diff[5:], ""]
    lines += ["commit " + "f" * 40, "Author: Dana <dana@example.com>", "Date:   Wed Jun 26 09:00:00 2024 +0000", "",
              "    settings: tidy", ""] + _file_diff("src/settings.py", "MAX_RETRIES = 3", "MAX_RETRIES = 0")
    raw = "\n".join(lines) + "\n"
    result = STRATEGIES["git_diff"](raw, {"max_diff_lines": 150}, 0)
    assert result.confidence is Confidence.PARTIAL
    assert "+MAX_RETRIES = 0" in result.text and "-MAX_RETRIES = 3" in result.text
    assert result.text.count("a change like the one in src/limit00.py") == 29
    assert all(f"+LIMIT = {400 + n} + 1" in result.text for n in range(30))  # what each commit set it to
    assert "index 1111111..2222222" not in result.text
    assert len(result.text) < len(raw)


def test_small_diff_is_unchanged() -> None:
    raw = _raw("git/diff_cached")
    assert STRATEGIES["git_diff"](raw, {"max_diff_lines": 500}, 0) == (raw, Confidence.FULL)


def test_show_keeps_the_commit_header() -> None:
    result = STRATEGIES["git_diff"](_raw("git/show_older"), {"max_diff_lines": 5}, 0)
    assert result.text.startswith("commit deb0185098409be8c89a38b50ceea941d097b453\nAuthor: ")


def test_log_p_keeps_each_commit_header_and_message_with_its_own_stat_line() -> None:
    raw = _raw("git/real_log_p_file")
    result = STRATEGIES["git_diff"](raw, {"max_diff_lines": 150}, 0)
    assert result.confidence is Confidence.PARTIAL
    lines = result.text.split("\n")
    for commit, subject in (
        ("commit 2160a3ce04f68709c7caa25a7c638cfb85c56d2f", "    perf(ilen): fast path for sized iterables"),
        ("commit 47cc0164999fbce89d203e0a958dce5e4a4a7746", "    Release 10.5.0"),
        ("commit 879543b0df5c66656a436aca340f21de5ab70293", "    Release 10.4.0"),
    ):
        assert lines.index(subject) == lines.index(commit) + 4  # Author:, Date:, the blank line
    # as in `git log` without patches, authors and dates stay
    raw_lines = raw.split("\n")
    assert [line for line in lines if line.startswith(("Author: ", "Date: "))] == \
        [line for line in raw_lines if line.startswith(("Author: ", "Date: "))]
    assert not any("committer line" in line for line in lines)
    # every hunk header stays; each commit ends with its stat line and git's blank line
    assert [line for line in lines if line.startswith("@@")] == [line for line in raw.split("\n") if line.startswith("@@")]
    assert lines[lines.index("commit 47cc0164999fbce89d203e0a958dce5e4a4a7746") - 2 :][:2] == [
        "1 file changed, 3 insertions(+), 0 deletions(-)", ""
    ]
    assert len(result.text) < len(raw) // 2


def test_log_p_in_another_format_never_cuts_the_next_commit_line() -> None:
    # `git log -p --oneline`: the commit lines of the real fixture as git prints them in that format
    raw = _raw("git/real_log_p_file")
    for sha, subject in (("2160a3c", "perf(ilen): fast path for sized iterables"), ("47cc016", "Release 10.5.0"),
                         ("879543b", "Release 10.4.0")):
        start = raw.index("commit " + sha)
        raw = raw[:start] + f"{sha} {subject}\n" + raw[raw.index("diff --git", start):]
    result = STRATEGIES["git_diff"](raw, {"max_diff_lines": 20}, 0)
    lines = result.text.split("\n")
    assert lines[0] == "2160a3c perf(ilen): fast path for sized iterables"
    assert "47cc016 Release 10.5.0" in lines and "879543b Release 10.4.0" in lines
    assert sum(1 for line in lines if line.endswith("(-)")) == 3  # a stat line per commit


def test_commit_without_patch_and_empty_diff_are_understood() -> None:
    raw = _raw("git/show_older")
    header = raw[: raw.index("diff --git")]  # what `git show` prints for a commit without changes
    assert STRATEGIES["git_diff"](header, {"max_diff_lines": 5}, 0) == (header, Confidence.FULL)
    assert STRATEGIES["git_diff"]("", {"max_diff_lines": 5}, 0) == ("", Confidence.FULL)


def test_cut_diff_keeps_small_files_whole_and_changes_before_context() -> None:
    raw = _raw("git/real_diff_tags")
    result = STRATEGIES["git_diff"](raw, {"max_diff_lines": 150}, 0)
    assert "omitted in PKG-INFO)" not in result.text  # a two-line change is not cut
    assert "+Version: 10.5.0" in result.text
    lines = result.text.split("\n")
    first = lines.index("diff --git a/more_itertools/recipes.py b/more_itertools/recipes.py")
    recipes = lines[first : lines.index("diff --git a/setup.cfg b/setup.cfg")]
    hunks = [index for index, line in enumerate(recipes) if line.startswith("@@")]
    assert len(hunks) == 4  # every hunk header stays
    # too little room for every change: the changes come whole, hunk by hunk, and no context
    body = [line for line in recipes[hunks[0] :] if not line.startswith(("@@", "... ("))]
    assert body and all(line[:1] in ("+", "-") for line in body)
    raw_lines = raw.split("\n")
    start = raw_lines.index("diff --git a/more_itertools/recipes.py b/more_itertools/recipes.py")
    changes = [line for line in raw_lines[start : raw_lines.index("diff --git a/setup.cfg b/setup.cfg")]
               if line[:1] in ("+", "-") and not line.startswith(("+++ ", "--- "))]
    whole = 0
    while whole < len(body) and body[whole] == changes[whole]:
        whole += 1
    assert whole >= 10  # the budget's changes, in order
    # past the budget, each later hunk's first change (its first removed and first added line) and the
    # changed lines that declare a function stay, in order
    firsts: set[str] = set()
    for hunk in "\n".join(raw_lines[start : raw_lines.index("diff --git a/setup.cfg b/setup.cfg")]).split("\n@@")[1:]:
        hunk_lines = hunk.split("\n")[1:]
        firsts.update(next((line for line in hunk_lines if line[:1] == sign), "") for sign in "+-")
    rest = body[whole:]
    assert "+def _sliding_window_deque(iterable, n):" in rest
    assert rest[rest.index("-    it = iter(iterable)") + 1] == "+    if n > 20:"  # the third hunk's first change
    assert all(line.startswith(("+def ", "-def ", "+class ", "-class ")) or line in firsts for line in rest)
    assert rest == [line for line in changes[whole:] if line in rest]
    section = raw_lines[start : raw_lines.index("diff --git a/setup.cfg b/setup.cfg")]
    raw_body = [line for line in section[section.index(next(x for x in section if x.startswith("@@"))) :]
                if not line.startswith("@@")]
    assert recipes[-1] == f"... ({len(raw_body) - len(body)} lines omitted in more_itertools/recipes.py) ..."


def test_cut_diff_with_room_for_every_change_adds_context_above_each() -> None:
    raw = _raw("git/real_diff_tags")
    result = STRATEGIES["git_diff"](raw, {"max_diff_lines": 400}, 0)
    lines = result.text.split("\n")
    first = lines.index("diff --git a/more_itertools/recipes.py b/more_itertools/recipes.py")
    recipes = lines[first : lines.index("diff --git a/setup.cfg b/setup.cfg")]
    hunks = [index for index, line in enumerate(recipes) if line.startswith("@@")]
    # each hunk: context from above its first change, then the change (or the marker of a change made before)
    shown = [index for index in hunks if not recipes[index + 1].startswith("... (")]
    assert len(shown) > len(hunks) / 2

    def opens_with_context_then_changes(index: int) -> bool:
        body = []
        for line in recipes[index + 1 :]:
            if line.startswith(("@@", "diff ", "... (")):
                break
            body.append(line)
        first_change = next(at for at, line in enumerate(body) if line[:1] in ("+", "-"))
        return first_change >= 1 and all(line[:1] == " " for line in body[:first_change])

    assert all(opens_with_context_then_changes(index) for index in shown)


def test_blob_ids_go_only_from_a_cut_diff() -> None:
    cut = STRATEGIES["git_diff"](_raw("git/real_diff_tags"), {"max_diff_lines": 150}, 0).text
    assert not any(line.startswith("index ") for line in cut.split("\n"))
    assert cut.endswith("... (11 index lines (blob ids) omitted) ...\n11 files changed, 611 insertions(+), 144 deletions(-)\n")
    whole = STRATEGIES["git_diff"](_raw("git/real_diff_tags"), {"max_diff_lines": 100_000}, 0).text
    assert "index fb41b0c..a06c9b0 100644" in whole


def test_a_git_error_instead_of_a_diff_is_kept_as_understood() -> None:
    # `git log -p nosuchrev` (git 2.39, exit 128)
    raw = (
        "fatal: ambiguous argument 'nosuchrev': unknown revision or path not in the working tree.\n"
        "Use '--' to separate paths from revisions, like this:\n"
        "'git <command> [<revision>...] -- [<file>...]'\n"
    )
    assert STRATEGIES["git_diff"](raw, {"max_diff_lines": 5}, 128) == (raw, Confidence.FULL)
    assert STRATEGIES["git_diff"]("hello\n", {"max_diff_lines": 5}, 0).confidence is Confidence.FALLBACK


def test_plain_unified_diffs_of_formatters_keep_their_headers_and_messages() -> None:
    # black --diff: `--- path<TAB>date` / `+++ path<TAB>date`, and "would reformat" after each file
    raw = _raw("black/diff_file")
    result = STRATEGIES["git_diff"](raw, {"max_diff_lines": 80}, 0)
    assert result.confidence is Confidence.PARTIAL
    lines = result.text.split("\n")
    for header in (line for line in raw.split("\n") if line.startswith(("--- ", "+++ ", "@@ "))):
        assert header in lines, header
    for message in ("would reformat src/dateutil/easter.py", "would reformat src/dateutil/relativedelta.py",
                    "2 files would be reformatted."):
        assert message in lines
    assert "... (623 lines omitted in src/dateutil/relativedelta.py) ..." in lines
    assert lines[-2] == "2 files changed, 312 insertions(+), 222 deletions(-)"  # one stat line, last


def test_gofmt_diff_opens_files_at_its_diff_lines() -> None:
    raw = _raw("gofmt/d")
    result = STRATEGIES["git_diff"](raw, {"max_diff_lines": 2}, 0)
    lines = result.text.split("\n")
    assert "diff internal/money/money.go.orig internal/money/money.go" in lines
    assert "diff internal/textutil/textutil_test.go.orig internal/textutil/textutil_test.go" in lines
    assert any(line.endswith("omitted in internal/money/money.go) ...") for line in lines)
    assert sum(1 for line in lines if line.endswith("(-)")) == 1


def test_isort_errors_between_diffs_stay_in_place() -> None:
    raw = _raw("isort/check_diff")
    lines = STRATEGIES["git_diff"](raw, {"max_diff_lines": 80}, 1).text.split("\n")
    assert lines[0].startswith("ERROR: ") and lines[0].endswith("Imports are incorrectly sorted and/or formatted.")
    assert lines[1].startswith("--- /tmp/zeph-fixtures/") and lines[2].startswith("+++ /tmp/zeph-fixtures/")
    errors = [line for line in raw.split("\n") if line.startswith("ERROR: ")]
    assert [line for line in lines if line.startswith("ERROR: ")] == errors


def test_a_removed_sql_comment_is_no_file_header() -> None:
    # "-- x" removed prints "--- x"; without "+++" and "@@" after it, it stays a body line
    raw = "--- a/q.sql\n+++ b/q.sql\n@@ -1,3 +1,2 @@\n--- old note\n select 1;\n-drop table t;\n"
    result = STRATEGIES["git_diff"](raw, {}, 0)
    assert result.text == raw  # a stat line would make it longer


def test_status_keeps_the_way_out_of_a_bisect() -> None:
    # batch 21b: mid-bisect, the one hint under the state line says how to get back
    text = (
        "HEAD detached at be127f1\n"
        "You are currently bisecting, started from branch 'main'.\n"
        '  (use "git bisect reset" to get back to the original branch)\n'
        "\n"
        "Untracked files:\n"
        '  (use "git add <file>..." to include in what will be committed)\n'
        "\tnotes.txt\n"
    )
    lines = STRATEGIES["git_status"](text, {}, 0).text.splitlines()
    assert '  (use "git bisect reset" to get back to the original branch)' in lines
    assert not any('"git add <file>..."' in line for line in lines)


def test_status_keeps_the_ways_on_and_out_of_a_merge() -> None:
    # batch 55: mid-merge, the reviewer quoted the hint to abort beside the one to conclude
    lines = STRATEGIES["git_status"](_raw("git/q55_git_status_merge"), {}, 0).text.splitlines()
    assert '  (fix conflicts and run "git commit")' in lines
    assert '  (use "git merge --abort" to abort the merge)' in lines
    assert not any('"git add <file>..."' in line or '"git restore' in line for line in lines)
    # and a rebase's: --continue and --abort stay, --skip and --edit-todo go
    rebase = STRATEGIES["git_status"](_raw("git/q47b_status_rebase_i_conflict"), {}, 0).text
    assert '"git rebase --continue"' in rebase and '"git rebase --abort"' in rebase
    assert "--skip" not in rebase and "--edit-todo" not in rebase


def test_conflict_markers_in_a_cut_diff_stay_with_both_sides() -> None:
    # batch 35b: a 8,733-line staged diff; a merge left unfinished in one file, past its share of the budget
    raw = _raw("git/q35b_git_diff_cached_conflict_marker")
    out = STRATEGIES["git_diff"](raw, {"max_diff_lines": 150}, 0).text.split("\n")
    at = out.index("+<<<<<<< HEAD")
    assert out[at : at + 5] == [
        "+<<<<<<< HEAD", " NIGHT_FACTOR = 1.20  # regulator cap, 2024-06", "+=======", "+NIGHT_FACTOR = 1.30",
        "+>>>>>>> feature/tariff-v2",
    ]
    assert "+    40: 1560," in raw and "+    40: 1560," not in out  # the rest of the file is still cut


def test_a_conflict_too_long_to_keep_keeps_its_markers() -> None:
    ours = [f"+ours {n}" for n in range(100)]
    theirs = [f"+theirs {n}" for n in range(100)]
    padding = [f"+line {n}" for n in range(300)]
    body = [*padding, "+<<<<<<< HEAD", *ours, "+=======", *theirs, "+>>>>>>> topic", *padding]
    diff = "\n".join(["diff --git a/x.py b/x.py", "--- a/x.py", "+++ b/x.py", f"@@ -0,0 +1,{len(body)} @@", *body]) + "\n"
    out = STRATEGIES["git_diff"](diff, {"max_diff_lines": 50}, 0).text.split("\n")
    assert [line for line in out if line[1:8] in ("<<<<<<<", "=======", ">>>>>>>")] == [
        "+<<<<<<< HEAD", "+=======", "+>>>>>>> topic",
    ]
    assert "+ours 50" not in out and "+theirs 50" not in out


def test_a_conflict_a_hunk_cut_off_keeps_both_sides_to_the_hunks_end() -> None:
    raw = _raw("git/q35b_git_diff_cached_conflict_marker")
    unclosed = raw.replace("+>>>>>>> feature/tariff-v2\n", "", 1)  # found by dropping lines of the fixture
    out = STRATEGIES["git_diff"](unclosed, {"max_diff_lines": 150}, 0).text.split("\n")
    at = out.index("+<<<<<<< HEAD")
    assert out[at : at + 4] == [
        "+<<<<<<< HEAD", " NIGHT_FACTOR = 1.20  # regulator cap, 2024-06", "+=======", "+NIGHT_FACTOR = 1.30",
    ]


def test_a_cut_diff_keeps_a_modules_constants_and_dunders_past_the_budget() -> None:
    # batch 37: requests v2.18.0..v2.32.3, 84 files: the version bump lay past its file's share
    body = [f"+line {n}" for n in range(60)]
    files = []
    for name, changes in (("a.py", body), ("pkg/__version__.py", ["-__version__ = '2.18.0'", *body[:30],
                                                                     '+__version__ = "2.32.3"', "+MAX_RETRIES = 5",
                                                                     "+    retries = 5"])):
        files += [f"diff --git a/{name} b/{name}", f"--- a/{name}", f"+++ b/{name}", "@@ -1,40 +1,40 @@", *changes]
    out = STRATEGIES["git_diff"]("\n".join(files) + "\n", {"max_diff_lines": 20}, 0).text.split("\n")
    for kept in ("-__version__ = '2.18.0'", '+__version__ = "2.32.3"', "+MAX_RETRIES = 5"):
        assert kept in out
    assert "+    retries = 5" not in out  # an indented assignment is no module's constant


def test_a_lock_files_cut_diff_keeps_each_package_and_the_version_it_moved_to() -> None:
    # batch 50: `npm update` moved 155 packages; the 4,274-line lockfile diff kept its first 500 body lines
    # (the root's ranges, then integrity hashes of packages starting with @ and a) and lost express, jest,
    # eslint and webpack.  Each package's key line and its "resolved" pair now stay past the budget
    raw = _raw("git/q50_git_diff_lock_after_npm_update")
    result = STRATEGIES["git_diff"](sanitize(raw), {}, 0)
    lines = result.text.split("\n")
    at = lines.index('     "node_modules/express": {')
    assert lines[at + 1 : at + 3] == [
        '-      "resolved": "https://registry.npmjs.org/express/-/express-4.17.1.tgz",',
        '+      "resolved": "https://registry.npmjs.org/express/-/express-4.22.3.tgz",',
    ]
    assert '+      "resolved": "https://registry.npmjs.org/webpack/-/webpack-5.113.0.tgz",' in lines
    assert not any('"integrity": "sha512-' in line for line in lines[at:])  # the hashes go
    assert result.confidence == Confidence.PARTIAL and "lines omitted in package-lock.json) ..." in result.text
    assert len(result.text) < 0.4 * len(raw)
    # another file's body is not read as a lock file's
    plain = "diff --git a/src/a.py b/src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1,1 +1,1 @@\n" + "".join(
        f'-name = "x{i}"\n+name = "y{i}"\n' for i in range(400))
    cut = STRATEGIES["git_diff"](plain, {"max_diff_lines": 50}, 0).text
    assert cut.count('name = "') == 50


def test_a_change_alike_but_for_its_numbers_keeps_the_lines_it_adds() -> None:
    # batch 56: one commit renames RATE to UNIT_RATE in 25 modules, each with its own rate; the
    # reviewer quoted electricity.py's new line, folded as "a change like the one in bandwidth.py"
    raw = _raw("git/q56_git_log_p")
    lines = STRATEGIES["git_diff"](raw, {}, 0).text.split("\n")
    at = lines.index("diff --git a/src/tariffkit/electricity.py b/src/tariffkit/electricity.py")
    assert lines[at + 4].startswith("... (") and lines[at + 4].endswith(
        "lines omitted: a change like the one in src/tariffkit/bandwidth.py, but for the lines below) ...")
    assert lines[at + 5 : at + 7] == ["+UNIT_RATE = 10", "+DISCOUNT_FROM = 100"]
    assert "-RATE = 10" not in lines  # the line it replaces says the same number
    rates = {line for line in raw.split("\n") if line.startswith("+UNIT_RATE = ")}
    assert len(rates) > 10 and rates <= set(lines)


def test_a_block_replaced_past_the_budget_keeps_removed_and_added_lines_in_turns() -> None:
    # batch 86: `make test` printing `diff -u expected got` of golden files; the budget went on the
    # expected lines and none of what the program printed was left
    def hunk(case: int) -> str:  # each file's feeder has its own name: changes that do not fold
        feeder = "fed" if case == 0 else f"fe{chr(97 + case)}"
        return "@@ -1,6 +1,6 @@\n" + "".join(f"-B{case}{row} {feeder} {200 + row}.00\n" for row in range(1, 7)) + "".join(
            f"+B{case}{row} {feeder} {190 + row + case}.46\n" for row in range(1, 7))

    files = "".join(f"--- tests/case_{n}.out\n+++ tests/case_{n}.got\n{hunk(n)}" for n in range(12))
    result = STRATEGIES["git_diff"](files, {"max_diff_lines": 48}, 1)
    first = result.text.split("+++ tests/case_0.got\n")[1].split("--- tests/case_1.out")[0].split("\n")
    # the budget's lines go to the first removed and added lines in turns
    assert first[1:-1] == ["-B01 fed 201.00", "-B02 fed 202.00", "+B01 fed 191.46", "+B02 fed 192.46",
                           "... (8 lines omitted in tests/case_0.got) ..."]


def test_past_the_budget_every_hunk_shows_its_first_change() -> None:
    # batch 96b: a commit of git log -p changing six rows of a table, then one row further down; the
    # file's share went to the first hunk's changes in order and the one-row fix was not shown at all
    first = "@@ -92,12 +92,12 @@\n" + "".join(f"-US,2025,{row},1{row}948,0.1\n" for row in range(6)) + "".join(
        f"+US,2025,{row},1{row}925,0.1\n" for row in range(6))
    second = "@@ -108,7 +108,7 @@\n JP,2025,2,7158500,0.20\n-JP,2025,3,9270000,0.23\n+JP,2025,3,9180000,0.23\n"
    diff = "diff --git a/data/b.csv b/data/b.csv\n--- a/data/b.csv\n+++ b/data/b.csv\n" + first + second
    out = STRATEGIES["git_diff"](diff, {"max_diff_lines": 7}, 0).text.split("\n")
    assert "-JP,2025,3,9270000,0.23" in out and "+JP,2025,3,9180000,0.23" in out
    # what is left goes to the first hunk's changes in turns, and the marker counts the rest
    assert out[4:9] == ["-US,2025,0,10948,0.1", "-US,2025,1,11948,0.1", "-US,2025,2,12948,0.1",
                        "+US,2025,0,10925,0.1", "+US,2025,1,11925,0.1"]
    assert "... (8 lines omitted in data/b.csv) ..." in out
