"""Bad input across commands: one ``dp: error:`` line that names the fix, never an internal error.

Each row is a mistake a user makes at a real prompt. The first rows were
internal errors (a traceback's last line, "internal error: …") or silently
wrong reports until these tests pinned them: an ``--audit-dir`` that is a
file, a ``--since`` reaching back past year 1, ``dp doctor --cwd`` naming a
file (which reported settings errors for paths below the file), an alias
recipe template nested past Jinja's or Python's limits, a recipe script whose
``$( )`` nest deeper than dp's Bash scanner recurses, an alias argument that
is not UTF-8.
"""

from __future__ import annotations

import json

import pytest
from capture_support import failure, run_capture
from cli_assertions import assert_one_line_error


@pytest.fixture
def workspace(tmp_path):
    path = tmp_path / "work"
    (path / "recipes").mkdir(parents=True)
    (path / "recipes" / "hello.yaml").write_text("name: hello\nsteps: [{id: a, command: touch ran}]\n")
    (path / "afile").write_text("a file, not a directory\n")
    return path


@pytest.mark.parametrize("args, exit_code, message", [
    (["recipe", "run", "hello", "--audit-dir", "afile"], 1,
     "dp: error: audit log directory {tmp}/afile is not a directory; name a directory for the log (nothing was run)"),
    (["recipe", "run", "hello", "--audit-dir", "afile/logs"], 1,
     "dp: error: cannot create audit log directory {tmp}/afile/logs: Not a directory (nothing was run)"),
    (["doctor", "--cwd", "afile"], 2, "dp: error: --cwd afile: not a directory"),
    (["doctor", "--cwd", "missing"], 2, "dp: error: --cwd missing: not a directory"),
    (["recipe", "list", "--cwd", "afile"], 2, "dp: error: --cwd afile: not a directory"),
    (["desires", "--purge", "--before", "0001-01-01T00:00:00+01:00"], 1,
     "dp: error: --before '0001-01-01T00:00:00+01:00' is outside the dates dp can compare (years 1 to 9999 "
     "in UTC); use 2026-01-31 or 2026-01-31T12:00:00Z"),
    (["desires", "--since", "yesterday"], 1,
     "dp: error: --since 'yesterday' is not a date or duration; use 7d, 12h, 2w or 2026-01-31"),
    (["paths", "--since", "7x"], 1,
     "dp: error: --since '7x' is not a date or duration; use 7d, 12h, 2w or 2026-01-31"),
    (["recipe", "run", "hello", "--set", "=1"], 2,
     "dp: error: --set '=1': expected KEY=VALUE with KEY made of letters, digits, '_' and '-'"),
    (["paving", "maybe"], 1, "dp: error: expected on or off, got 'maybe': dp paving [on|off] [--project]"),
    (["suggest", "--apply", "nope"], 1, "dp: error: no pending suggestion 'nope'; list them with: dp suggest"),
    (["git", "add", "../x"], 1,
     'dp: error: path "../x" is outside the working directory {tmp}; name paths inside it'),
    pytest.param(["alias", "--recipe", "gt", "{{ " * 1000], 1,
                 "dp: error: recipe template for 'gt' does not parse: it nests too deeply ({{{{, (, [ or {{% %}} "
                 "blocks inside each other); write it flatter", id="alias-recipe-nested-too-deeply"),
    pytest.param(["alias", "--recipe", "gt", "echo " + "$(" * 1000 + "x" + ")" * 1000 + " {{ args }}"], 1,
                 "dp: error: recipe template for 'gt' is refused: the script is not complete Bash (nested too "
                 "deeply), so where its placeholders sit cannot be judged", id="alias-recipe-script-nested-too-deeply"),
    # Bytes that are not UTF-8 on the command line reach Python as lone surrogates ("\udcff").
    pytest.param(["alias", "--cmd", "gr\udcffp", "--replace", "rg"], 1,
                 "dp: error: 'gr\ufffdp' holds bytes that are not UTF-8 (from an argument or a file name); "
                 "dp needs UTF-8 text here", id="alias-cmd-not-utf8"),
    pytest.param(["desires", "--tool", "R\udcffad"], 1,
                 "dp: error: 'R\ufffdad' holds bytes that are not UTF-8 (from an argument or a file name); "
                 "dp needs UTF-8 text here", id="desires-tool-not-utf8"),
    pytest.param(["pave", "--agents-md", "--output", "\udcfa.md"], 1,
                 "dp: error: {tmp}/\ufffd.md: the path holds bytes that are not UTF-8, so dp could not record "
                 "the change for dp uninstall; use a UTF-8 path (nothing was changed)", id="agents-md-path-not-utf8"),
])
def test_a_mistake_is_one_line_that_says_what_to_do(dp, workspace, args, exit_code, message):
    dp("alias", "read_file", "Read")  # a rule, so that dp pave --agents-md has a block to write
    proc = dp(*args, cwd=workspace)
    assert_one_line_error(proc)
    assert proc.returncode == exit_code, proc.stderr
    assert proc.stderr.strip() == message.format(tmp=workspace.resolve())
    assert sorted(p.name for p in workspace.iterdir()) == ["afile", "recipes"]  # nothing was written


@pytest.mark.parametrize("value", ["0", "-5", "nan", "inf", "1801"])
def test_run_refuses_a_timeout_out_of_range_before_looking_for_the_task(dp, workspace, value):
    proc = dp("run", "--timeout", value, "test", cwd=workspace)
    assert_one_line_error(proc, f"timeout must be more than 0 and at most 1800 seconds (got {value})")


@pytest.mark.parametrize("since", ["99999999d", "999999999999w"])
def test_a_duration_reaching_back_past_year_one_means_everything(dp, env, workspace, since):
    dp("aliases")
    event = failure("python x.py", "Exit code 127\n/bin/bash: line 1: python: command not found")
    assert run_capture(event, env=env).returncode == 0
    proc = dp("desires", "--since", since, "--json", cwd=workspace)
    assert proc.returncode == 0, proc.stderr
    assert [item["tool_input"]["command"] for item in json.loads(proc.stdout)] == ["python x.py"]
    proc = dp("paths", "--since", since, "--json", cwd=workspace)
    assert proc.returncode == 0 and "python" in proc.stdout, proc.stderr
