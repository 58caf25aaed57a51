"""``dp alias`` and ``dp aliases`` end to end, as subprocesses on a temporary DP_DB."""

from __future__ import annotations

import json
import sqlite3
import subprocess

import pytest
from cli_assertions import assert_one_line_error

from conftest import DP_BIN

RECIPE = 'while true; do\n  status=$(gt mol status 2>&1)\n  echo "$status"\n  sleep 5\ndone'


def rows(db_path):
    conn = sqlite3.connect(db_path)
    return conn.execute(
        "SELECT from_name, to_name, tool, param, command, match_kind, message FROM aliases_v3 ORDER BY rowid"
    ).fetchall()


@pytest.mark.parametrize(
    "args, stored, said",
    [
        (["read_file", "Read"], ("read_file", "Read", "", "", "", "", ""), "Alias set: read_file -> Read"),
        (["--cmd", "scp", "--flag", "r", "R"], ("r", "R", "Bash", "command", "scp", "flag", ""), "Rule set: scp: flag -r -> -R"),
        (["--cmd", "scp", "--flag", "-r", "-R"], ("r", "R", "Bash", "command", "scp", "flag", ""), "Rule set: scp: flag -r -> -R"),
        (["--cmd", "grep", "--replace", "rg"], ("grep", "rg", "Bash", "command", "grep", "command", ""), "Rule set: command grep -> rg"),
        (["--cmd", "scp", "user@old:", "user@new:"], ("user@old:", "user@new:", "Bash", "command", "scp", "literal", ""), "Rule set: scp: literal 'user@old:' -> 'user@new:'"),
        (["--tool", "Edit", "--param", "file_path", "/old", "/new"], ("/old", "/new", "Edit", "file_path", "", "literal", ""), "Rule set: Edit.file_path: literal '/old' -> '/new'"),
        (["--tool", "Edit", "--param", "file_path", "--regex", r"^/old/(\w+)", "/new/$1"], (r"^/old/(\w+)", "/new/$1", "Edit", "file_path", "", "regex", ""), "Rule set: Edit.file_path: regex"),
        (["--recipe", "gt await-signal", RECIPE, "--message", "poll instead"], ("gt await-signal", RECIPE, "Bash", "command", "gt", "recipe", "poll instead"), "Rule set: recipe 'gt await-signal' -> while true; do status=$(gt mol status..."),
    ],
)
def test_every_mode_stores_the_seed_row(dp, db_path, args, stored, said):
    proc = dp("alias", *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith(said)
    assert rows(db_path) == [stored]


def test_recipe_script_from_file_and_stdin(dp, db_path, tmp_path):
    script = tmp_path / "wait.sh"
    script.write_text("convoy_id={{ arg(1) }}\ngt convoy status \"$convoy_id\"\n")
    assert dp("alias", "--recipe", "gt convoy wait", "--file", script).returncode == 0
    assert dp("alias", "--recipe", "bd list --wisp", "--file", "-", input="bd list | grep -i wisp\n").returncode == 0
    assert [(row[0], row[1]) for row in rows(db_path)] == [
        ("gt convoy wait", script.read_text()),
        ("bd list --wisp", "bd list | grep -i wisp\n"),
    ]


def test_update_keeps_one_row_and_says_so(dp, db_path):
    dp("alias", "open_file", "Read")  # no agent has a tool open_file
    proc = dp("alias", "open_file", "View", "--message", "renamed", "--json")
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    assert result["action"] == "updated" and result["to_name"] == "View" and result["message"] == "renamed"
    assert rows(db_path) == [("open_file", "View", "", "", "", "", "renamed")]
    assert dp("alias", "--cmd", "scp", "--flag", "r", "R").stdout.startswith("Rule set:")
    assert dp("alias", "--cmd", "scp", "--flag", "r", "P").stdout.startswith("Rule updated: scp: flag -r -> -P")


def test_json_shapes_for_set_and_delete(dp):
    created = json.loads(dp("alias", "--cmd", "grep", "--replace", "rg", "--json").stdout)
    assert created["action"] == "set"
    assert {key: created[key] for key in ("from_name", "to_name", "tool", "param", "command", "match_kind", "message")} == {
        "from_name": "grep", "to_name": "rg", "tool": "Bash", "param": "command",
        "command": "grep", "match_kind": "command", "message": "",
    }
    assert created["created_at"].endswith("Z")
    deleted = json.loads(dp("alias", "--delete", "--cmd", "grep", "--replace", "rg", "--json").stdout)
    assert deleted["action"] == "deleted" and deleted["to_name"] == "rg"


@pytest.mark.parametrize(
    "setup, delete_args",
    [
        (["read_file", "Read"], ["--delete", "read_file"]),
        (["--cmd", "scp", "--flag", "r", "R"], ["--delete", "--cmd", "scp", "--flag", "-r", "-R"]),
        (["--cmd", "scp", "a", "b"], ["--delete", "--cmd", "scp", "a"]),
        (["--tool", "Edit", "--param", "file_path", "--regex", "^a", "b"], ["--delete", "--tool", "Edit", "--param", "file_path", "--regex", "^a"]),
        (["--recipe", "gt await-signal", "gt mol status"], ["--delete", "--recipe", "gt await-signal"]),
    ],
)
def test_delete_removes_exactly_that_rule(dp, db_path, setup, delete_args):
    dp("alias", "keep_me", "Read")
    assert dp("alias", *setup).returncode == 0
    proc = dp("alias", *delete_args)
    assert proc.returncode == 0, proc.stderr
    assert "deleted" in proc.stdout
    assert rows(db_path) == [("keep_me", "Read", "", "", "", "", "")]
    again = dp("alias", *delete_args)
    assert_one_line_error(again, "not found")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--recipe", "--cmd", "x", "a", "b"], "--recipe cannot be combined with --cmd"),
        (["--flag", "r", "R"], "--flag needs --cmd"),
        (["--cmd", "scp", "--flag", "r", "R", "--replace", "x"], "--flag cannot be combined with --replace"),
        (["--cmd", "scp", "only-one"], "expected two arguments, got 1"),
        (["a", "b", "c"], "expected two arguments, got 3"),
        ([], "expected two arguments, got 0"),
        (["", "Read"], "(FROM) is empty"),
        (["read_file", ""], "(TO) of 'read_file' is empty"),
        (["--tool", "Edit", "a", "b"], "--tool and --param go together"),
        (["--regex", "a", "b"], "--regex needs a target"),
        (["--cmd", "scp", "--regex", "a(b", "c"], "invalid regex 'a(b': missing ), unterminated subpattern at position 1"),
        (["--recipe", "gt x", "{% for %}"], "recipe template for 'gt x' does not parse"),
        (["--recipe", "gt x", "--file", "/nonexistent/recipe.sh"], "cannot read the recipe script /nonexistent/recipe.sh"),
        (["--delete", "read_file", "--message", "x"], "--message cannot be combined with --delete"),
        (["--cmd", "scp", "--flag", "r"], "--flag"),
        (["--bogus"], "No such option: --bogus"),
    ],
)
def test_validation_errors_are_one_line_and_write_nothing(dp, db_path, args, fragment):
    dp("alias", "keep_me", "Read")
    proc = dp("alias", *args)
    assert_one_line_error(proc, fragment)
    assert proc.stderr.startswith("dp: error: ")
    assert rows(db_path) == [("keep_me", "Read", "", "", "", "", "")]


def test_aliases_empty_store(dp, db_path):
    proc = dp("aliases")
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert proc.stderr.strip() == "No aliases configured."
    assert json.loads(dp("aliases", "--json").stdout) == []
    assert dp("aliases", "export").stdout.startswith("[meta]\n")
    assert not db_path.exists() and list(db_path.parent.iterdir()) == []  # reading never creates the store


def test_aliases_table_and_filters(dp):
    dp("alias", "read_file", "Read", "--message", "use Read")
    dp("alias", "--cmd", "scp", "--flag", "r", "R")
    dp("alias", "--tool", "Edit", "--param", "file_path", "/old", "/new")
    dp("alias", "--recipe", "gt await-signal", RECIPE)
    table = dp("aliases").stdout.splitlines()
    assert table[0].split() == ["FROM", "TO", "TYPE", "COMMAND", "TOOL/PARAM", "MESSAGE", "CREATED"]
    assert table[1].split()[:3] == ["read_file", "Read", "alias"]
    assert "use Read" in table[1]
    assert table[2].split()[:4] == ["r", "R", "flag", "scp"]
    assert "Edit/file_path" in table[3]
    assert "while true; do status=$(gt mol status..." in table[4]  # folded, cut to 40
    assert len(table) == 5
    assert [line.split()[0] for line in dp("aliases", "--cmd", "scp").stdout.splitlines()[1:]] == ["r"]
    assert [line.split()[0] for line in dp("aliases", "--kind", "alias").stdout.splitlines()[1:]] == ["read_file"]
    assert [rule["from_name"] for rule in json.loads(dp("aliases", "--tool", "Edit", "--json").stdout)] == ["/old"]
    full = json.loads(dp("aliases", "--kind", "recipe", "--json").stdout)
    assert full[0]["to_name"] == RECIPE  # --json is never truncated
    nothing = dp("aliases", "--cmd", "nope")
    assert nothing.returncode == 0 and nothing.stderr.strip() == "No aliases match those filters."
    assert_one_line_error(dp("aliases", "--kind", "bogus"), "bogus")


def test_db_option_and_env_var(dp, tmp_path, db_path):
    other = tmp_path / "other" / "x.db"
    other.parent.mkdir()
    assert dp("--db", other, "alias", "read_file", "Read").returncode == 0
    assert rows(other) == [("read_file", "Read", "", "", "", "", "")]
    assert not db_path.exists()
    dp("alias", "a", "b")
    assert rows(db_path) == [("a", "b", "", "", "", "", "")]


def test_default_store_is_under_home(dp, home, env):
    env.pop("DP_DB")
    proc = subprocess.run([str(DP_BIN), "alias", "read_file", "Read"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert rows(home / ".dp" / "dp.db") == [("read_file", "Read", "", "", "", "", "")]


def test_unusable_store_path_is_a_clear_error(dp, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    assert_one_line_error(dp("--db", blocker / "dp.db", "alias", "a", "b"), "blocker is not a directory")


def test_export_import_round_trip(dp, tmp_path, db_path):
    dp("alias", "read_file", "Read", "--message", 'say "Read"')
    dp("alias", "--cmd", "scp", "--flag", "r", "R")
    dp("alias", "--recipe", "gt await-signal", RECIPE)
    dp("alias", "--tool", "Edit", "--param", "file_path", "--regex", r"^/old/(\w+)", "/new/$1")
    original = rows(db_path)
    for fmt in ("toml", "json"):
        exported = tmp_path / f"team.{fmt}"
        proc = dp("aliases", "export", "--format", fmt, "-o", exported, "--name", "team")
        assert proc.returncode == 0 and f"Exported 4 rules to {exported}" in proc.stderr
        fresh = tmp_path / f"fresh-{fmt}.db"
        result = dp("--db", fresh, "aliases", "import", exported, "--json")
        assert json.loads(result.stdout) == {"imported": 4, "skipped": 0, "overwritten": 0, "total": 4, "dry_run": False}
        assert rows(fresh) == original
    stdout_export = dp("aliases", "export").stdout
    assert stdout_export.startswith("[meta]\n") and stdout_export.count("[[aliases]]") == 4


def test_import_conflicts_and_dry_run(dp, tmp_path, db_path):
    dp("alias", "open_file", "Read")  # no agent has a tool open_file
    collection = tmp_path / "in.toml"
    collection.write_text('[meta]\nversion = 1\n\n[[aliases]]\nfrom = "open_file"\nto = "View"\n\n[[aliases]]\nfrom = "ls_dir"\nto = "LS"\n')
    dry = dp("aliases", "import", collection, "--dry-run", "--conflict", "overwrite")
    assert dry.returncode == 0
    assert "would overwrite: alias open_file -> View" in dry.stderr
    assert "Dry run: would import 1, skipped 0, overwritten 1 (total: 2)" in dry.stderr
    assert rows(db_path) == [("open_file", "Read", "", "", "", "", "")]
    skipped = dp("aliases", "import", collection)
    assert "Imported 1, skipped 1, overwritten 0 (total: 2)" in skipped.stderr
    assert [row[:2] for row in rows(db_path)] == [("open_file", "Read"), ("ls_dir", "LS")]
    dp("aliases", "import", collection, "--conflict", "overwrite")
    assert [row[:2] for row in rows(db_path)] == [("open_file", "View"), ("ls_dir", "LS")]


def test_bad_import_names_the_entry_and_writes_nothing(dp, tmp_path, db_path):
    dp("alias", "keep_me", "Read")
    before = rows(db_path)
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[[aliases]]\nfrom = "a"\nto = "b"\n\n[[aliases]]\nfrom = "c"\nto = "d"\n\n'
        '[[aliases]]\nfrom = "x("\nto = "y"\ntool = "Edit"\nparam = "file_path"\nmatch_kind = "regex"\n'
    )
    proc = dp("aliases", "import", bad)
    assert_one_line_error(proc, "entry 3: invalid regex 'x('")
    assert rows(db_path) == before
    assert_one_line_error(dp("aliases", "import", tmp_path / "missing.toml"), "cannot read")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert_one_line_error(dp("aliases", "import", garbage), "invalid JSON")
    assert rows(db_path) == before


def test_concurrent_writers_all_land(dp, db_path, env):
    script = "; ".join(f'"{DP_BIN}" alias tool_$1_{n} Read >/dev/null || exit 1' for n in range(25))
    writers = [
        subprocess.Popen(["bash", "-c", script, "writer", str(w)], env=env, stderr=subprocess.PIPE)
        for w in range(8)
    ]
    errors = [proc.communicate(timeout=300)[1].decode() for proc in writers]
    assert [proc.returncode for proc in writers] == [0] * 8, errors
    names = {row[0] for row in rows(db_path)}
    assert names == {f"tool_{w}_{n}" for w in range(8) for n in range(25)}


def test_help_has_examples(dp):
    for args in (["--help"], ["alias", "--help"], ["aliases", "--help"], ["aliases", "export", "--help"], ["aliases", "import", "--help"]):
        proc = dp(*args)
        assert proc.returncode == 0
        assert "Examples:" in proc.stdout or "Modes:" in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["--tool", "Edit", "--param", "file_path", "--regex", "x(", "y"], "invalid regex 'x('"),
    (["--recipe", "gt x", "{{ arg(1) "], "recipe template for 'gt x' does not parse"),
])
def test_alias_refuses_what_can_never_work_with_the_fix(dp, db_path, args, message):
    proc = dp("alias", *args)
    assert_one_line_error(proc, message)
    assert not db_path.exists() or rows(db_path) == []


def test_alias_accepts_mcp_tools_and_deleting_needs_no_real_tool(dp, db_path):
    assert dp("alias", "--tool", "mcp__github__create_issue", "--param", "title", "bug", "Bug").returncode == 0
    assert dp("alias", "open_file", "mcp__fs__read").returncode == 0
    assert dp("alias", "--delete", "open_file").returncode == 0
