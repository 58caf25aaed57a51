"""pave-check's contract: block, rewrite, advise, options, and every fail-open path."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hook_support import build_store

READ = {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "/srv/old/a.py"}}


def bash(command: str, **extra) -> dict:
    return {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command, **extra}}


RULES = [
    ["read_file", "Read"],
    ["web_fetch", "WebFetch", "--message", "web_fetch is gone; use WebFetch with a prompt"],
    ["--cmd", "scp", "--flag", "r", "R"],
    ["--tool", "Read", "--param", "file_path", "/srv/old/", "/srv/new/"],
    ["--tool", "Edit", "--param", "file_path", "--regex", r"^/home/(\w+)/", "/Users/$1/"],
]


@pytest.fixture(scope="module")
def store_env(tmp_path_factory):
    return build_store(tmp_path_factory.mktemp("hook-contract"), RULES)


@pytest.fixture
def hook(pave_check, store_env):
    """pave-check against the module's store (DP_DB and the bashlex cache from store_env)."""
    shared = {key: store_env[key] for key in ("DP_DB", "XDG_CACHE_HOME")}

    def run(payload, *args, extra_env=None):
        return pave_check(payload, *args, extra_env={**shared, **(extra_env or {})})

    return run


def assert_passes_silently(proc):
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr == ""


def test_tool_name_alias_blocks_with_exit_2(hook):
    proc = hook({"tool_name": "read_file", "tool_input": {"path": "x"}})
    assert proc.returncode == 2
    assert proc.stdout == ""
    # The call's `path` is what Read calls file_path: the correction says so.
    assert proc.stderr.strip() == "read_file is not a valid tool. Use Read instead, with file_path (not path)."
    proc = hook({"tool_name": "read_file", "tool_input": {"file_path": "x"}})
    assert (proc.returncode, proc.stderr.strip()) == (2, "read_file is not a valid tool. Use Read instead.")


@pytest.mark.parametrize(
    "extra",
    [{}, {"tool_input": None}, {"tool_input": "x"}, {"tool_input": []}, {"tool_input": 7}],
    ids=["no-input", "null", "string", "list", "number"],
)
def test_block_depends_on_the_tool_name_alone(hook, extra):
    proc = hook({"hook_event_name": "PreToolUse", "tool_name": "read_file", **extra})
    assert proc.returncode == 2
    assert proc.stderr.strip() == "read_file is not a valid tool. Use Read instead."


def test_block_uses_the_alias_message(hook):
    proc = hook({"tool_name": "web_fetch", "tool_input": {}})
    assert proc.returncode == 2
    assert proc.stderr.strip() == "web_fetch is gone; use WebFetch with a prompt"


def test_param_rules_fire_for_any_tool(hook):
    proc = hook(READ)
    assert proc.returncode == 0
    specific = json.loads(proc.stdout)["hookSpecificOutput"]
    assert specific["updatedInput"] == {"file_path": "/srv/new/a.py"}
    assert specific["additionalContext"] == "dp: file_path: '/srv/old/' → '/srv/new/'"
    edit = {"tool_name": "Edit", "tool_input": {"file_path": "/home/ann/x.py", "old_string": "a", "new_string": "b"}}
    specific = json.loads(hook(edit).stdout)["hookSpecificOutput"]
    assert specific["updatedInput"] == {"file_path": "/Users/ann/x.py", "old_string": "a", "new_string": "b"}


def test_exactly_one_json_object_on_stdout(hook):
    proc = hook(bash("scp -r a h:/", description="copy"))
    assert proc.returncode == 0
    assert proc.stdout.count("\n") == 1
    assert json.loads(proc.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": {"command": "scp -R a h:/", "description": "copy"},
            "additionalContext": "dp: scp: -r → -R",
        }
    }


@pytest.mark.parametrize("decision", ["ask", "allow"])
def test_permission_option_adds_a_decision(hook, decision):
    proc = hook(bash("scp -r a h:/"), "--permission", decision)
    specific = json.loads(proc.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == decision
    assert specific["updatedInput"]["command"] == "scp -R a h:/"


def test_advise_mode_denies_with_the_corrected_command(hook):
    proc = hook(bash("scp -r a h:/"), "--mode=advise")
    assert proc.returncode == 0
    specific = json.loads(proc.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "updatedInput" not in specific
    assert specific["permissionDecisionReason"].endswith("Run this instead:\nscp -R a h:/")


def test_rule_that_changes_nothing_gives_no_output(hook):
    assert_passes_silently(hook(bash("scp -R a h:/")))
    assert_passes_silently(hook(bash("ls -la")))
    assert_passes_silently(hook({"tool_name": "Write", "tool_input": {"file_path": "/x", "content": ""}}))


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus"],
        ["--permission", "sometimes"],
        ["--mode", "shout"],
        ["--permission"],
        ["-x", "--db"],
        ["positional", "--mode=rewrite=extra"],
    ],
)
def test_unknown_or_malformed_options_are_ignored(hook, args):
    proc = hook(bash("scp -r a h:/"), *args)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "scp -R a h:/"


@pytest.mark.parametrize("args", [["--permission", "--mode", "advise"], ["--db", "--mode=advise"]])
def test_an_option_without_its_value_does_not_swallow_the_next_one(hook, args):
    proc = hook(bash("scp -r a h:/"), *args)
    output = json.loads(proc.stdout)["hookSpecificOutput"]
    assert proc.returncode == 0 and output["permissionDecision"] == "deny"
    assert output["permissionDecisionReason"].endswith("scp -R a h:/")


def test_db_option_overrides_the_environment(hook, store_env, tmp_path):
    assert_passes_silently(hook(bash("scp -r a h:/"), "--db", tmp_path / "other.db"))
    proc = hook(bash("scp -r a h:/"), "--db", store_env["DP_DB"], extra_env={"DP_DB": str(tmp_path / "nope.db")})
    assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "scp -R a h:/"


def test_dp_pave_check_is_the_same_hook(dp, store_env):
    payload = json.dumps(bash("scp -r a h:/"))
    proc = dp("pave-check", "--unknown", input=payload, extra_env={"DP_DB": store_env["DP_DB"]})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] == "scp -R a h:/"
    proc = dp("--db", store_env["DP_DB"], "pave-check", input=json.dumps({"tool_name": "read_file", "tool_input": {}}),
              extra_env={"DP_DB": ""})
    assert proc.returncode == 2
    assert proc.stderr.strip() == "read_file is not a valid tool. Use Read instead."


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"   \n",
        b"{not json",
        b"\xff\xfe invalid utf-8",
        b"[1, 2]",
        b'"a string"',
        json.dumps({"tool_input": {"command": "scp -r a h:/"}}).encode(),
        json.dumps({"tool_name": "", "tool_input": {}}).encode(),
        json.dumps({"tool_name": 7, "tool_input": {}}).encode(),
        json.dumps({"tool_name": "Bash", "tool_input": "scp -r a h:/"}).encode(),
        json.dumps({"tool_name": "Bash"}).encode(),
        json.dumps({"tool_name": "Bash", "tool_input": {"command": ["scp", "-r"]}}).encode(),
        json.dumps({**bash("scp -r a h:/"), "hook_event_name": "PostToolUse"}).encode(),
    ],
)
def test_bad_input_fails_open(hook, payload):
    assert_passes_silently(hook(payload))


def test_stdin_over_one_mebibyte_fails_open(hook):
    payload = json.dumps(bash("scp -r a h:/", description="x" * (1 << 20)))
    assert_passes_silently(hook(payload))


def test_missing_database_fails_open_and_is_not_created(pave_check, db_path):
    assert_passes_silently(pave_check({"tool_name": "read_file", "tool_input": {}}))
    assert not db_path.exists()
    assert list(db_path.parent.iterdir()) == []


def test_unreadable_database_fails_open(pave_check, db_path):
    db_path.parent.mkdir(parents=True, exist_ok=True)
    db_path.write_bytes(b"this is not a SQLite database" * 100)
    assert_passes_silently(pave_check({"tool_name": "read_file", "tool_input": {}}))
    assert db_path.read_bytes() == b"this is not a SQLite database" * 100


def test_database_without_the_table_fails_open_and_is_not_migrated(pave_check, db_path):
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE unrelated (x)")
    assert_passes_silently(pave_check({"tool_name": "read_file", "tool_input": {}}))
    assert_passes_silently(pave_check(bash("scp -r a h:/")))
    with sqlite3.connect(db_path) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert tables == ["unrelated"]
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0


def test_database_path_that_is_a_directory_fails_open(pave_check, db_path):
    db_path.mkdir(parents=True)
    assert_passes_silently(pave_check({"tool_name": "read_file", "tool_input": {}}))


def test_help_exits_zero(pave_check):
    proc = pave_check(b"", "--help")
    assert proc.returncode == 0
    assert "usage: pave-check" in proc.stdout
