"""The store when it cannot or must not be written: read-only, newer schema, a mistyped path.

The hook must keep applying the rules of a store it can only read; the CLI
must read what it can and refuse writes with one line saying why, never
"internal error", never migrating a newer schema down, never creating a
directory the user mistyped.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess

import pytest

BASH_GREP = {"tool_name": "Bash", "tool_input": {"command": "grep -n x f"}, "hook_event_name": "PreToolUse"}


def _one_error_line(result, *words) -> str:
    assert result.returncode != 0, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dp: error: "), result.stderr
    assert "internal error" not in lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _store_files(directory) -> dict:
    """The store's content (WAL readers may add empty -wal/-shm files in a writable directory)."""
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.name == "dp.db" or p.stat().st_size and p.name.endswith("-wal")}


@pytest.fixture
def read_only_run(db_path, env):
    """Run a command with the store's directory read-only: a read-only bind mount as root, chmod otherwise."""
    directory = db_path.parent

    def run(argv, input=None):
        if os.geteuid() != 0:
            os.chmod(db_path, 0o444)
            os.chmod(directory, 0o555)
            try:
                return subprocess.run(argv, input=input, capture_output=True, text=True, env=env, timeout=60)
            finally:
                os.chmod(directory, 0o755)
                os.chmod(db_path, 0o644)
        if shutil.which("unshare") is None:
            pytest.skip("LOUD SKIP: running as root without unshare(1): cannot make the store read-only")
        script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" || exit 99; exec "$@"'
        result = subprocess.run(
            ["unshare", "-m", "sh", "-c", script, str(directory), *argv],
            input=input, capture_output=True, text=True, env=env, timeout=60,
        )
        if result.returncode == 99:
            pytest.skip(f"LOUD SKIP: cannot mount read-only here (no CAP_SYS_ADMIN?): {result.stderr.strip()}")
        return result

    return run


def test_a_read_only_store_still_applies_its_rules_and_refuses_writes(dp, db_path, read_only_run):
    from conftest import DP_BIN, PAVE_CHECK_BIN

    assert dp("alias", "--cmd", "grep", "--replace", "rg").returncode == 0
    before = _store_files(db_path.parent)
    hook = read_only_run([str(PAVE_CHECK_BIN)], input=json.dumps(BASH_GREP))
    assert hook.returncode == 0, hook.stderr
    assert json.loads(hook.stdout)["hookSpecificOutput"]["updatedInput"]["command"].startswith("rg -n ")
    listed = read_only_run([str(DP_BIN), "aliases", "--json"])
    assert listed.returncode == 0, listed.stderr
    assert [rule["to_name"] for rule in json.loads(listed.stdout)] == ["rg"]
    _one_error_line(read_only_run([str(DP_BIN), "alias", "--cmd", "ls", "--replace", "exa"]), "read-only")
    _one_error_line(read_only_run([str(DP_BIN), "aliases", "import", "-"], input="[meta]\n"), "read-only")
    assert _store_files(db_path.parent) == before


def _make_newer(db_path) -> int:
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    return 99


def test_a_store_from_a_newer_dp_is_read_but_never_written_or_migrated(dp, db_path, pave_check, tmp_path):
    assert dp("alias", "--cmd", "grep", "--replace", "rg").returncode == 0
    _make_newer(db_path)
    before = _store_files(db_path.parent)
    _one_error_line(dp("alias", "--cmd", "ls", "--replace", "exa"), "upgrade dp", "99")
    export = dp("aliases", "export", "--format", "json")
    assert export.returncode == 0, export.stderr
    collection = tmp_path / "team.json"
    collection.write_text(export.stdout)
    _one_error_line(dp("aliases", "import", collection, "--conflict", "overwrite"), "upgrade dp")
    _one_error_line(dp("alias", "--delete", "--cmd", "grep", "--replace", "rg"), "upgrade dp")
    assert dp("aliases", "--json").returncode == 0
    hook = pave_check(BASH_GREP)
    assert json.loads(hook.stdout)["hookSpecificOutput"]["updatedInput"]["command"].startswith("rg -n ")
    assert _store_files(db_path.parent) == before
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 99


@pytest.mark.parametrize(
    "command",
    [["alias", "read_file", "Read"], ["aliases"], ["aliases", "import", "-"], ["init"], ["aliases", "export"]],
)
@pytest.mark.parametrize("how", ["--db", "DP_DB"])
def test_a_mistyped_store_directory_is_an_error_and_never_created(dp, tmp_path, command, how):
    missing = tmp_path / "typo-dir" / "dp.db"
    if how == "--db":
        result = dp("--db", missing, *command, input="[meta]\n")
    else:
        result = dp(*command, input="[meta]\n", extra_env={"DP_DB": str(missing)})
    _one_error_line(result, "typo-dir", "does not exist")
    assert not (tmp_path / "typo-dir").exists()


def test_the_default_store_directory_is_still_created(dp, env, home):
    result = dp("alias", "read_file", "Read", extra_env={"DP_DB": ""})
    assert result.returncode == 0, result.stderr
    assert (home / ".dp" / "dp.db").is_file()


@pytest.mark.parametrize("command", [["alias", "read_file", "Read"], ["aliases"]])
def test_a_directory_as_the_store_is_one_clear_line(dp, tmp_path, command):
    _one_error_line(dp("--db", tmp_path, *command), str(tmp_path), "directory")


@pytest.mark.parametrize(
    "name, content",
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000),
        ("deep-object.json", '{"a":' * 100_000 + "1" + "}" * 100_000),
        ("deep.toml", "a = " + "[" * 100_000 + "]" * 100_000),
        ("huge.toml", "[meta]\nname = 'x'\n" + "# padding\n" * 5_000_000),
    ],
)
def test_a_hostile_collection_is_one_clear_error(dp, tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content)
    result = dp("aliases", "import", path, timeout=30)
    _one_error_line(result)
    assert dp("aliases", "--json").stdout.strip() in ("", "[]")


def test_every_reading_command_reads_a_read_only_store(dp, db_path, env, read_only_run):
    """Issue 38 (9): dp desires, paths and suggest read a store they cannot write, as aliases and doctor do."""
    from capture_support import failure, run_capture

    from conftest import DP_BIN

    assert dp("alias", "--cmd", "grep", "--replace", "rg").returncode == 0
    for number in range(2):
        payload = failure("fd -e py", "Exit code 127\nbash: fd: command not found", session=f"s{number}",
                          tool_use_id=f"toolu_{number}")
        assert run_capture(payload, env=env).returncode == 0
    before = _store_files(db_path.parent)
    for command in (["desires", "--json"], ["paths", "--json"], ["suggest", "--json"], ["aliases", "--json"],
                    ["desires"], ["paths"], ["suggest"]):
        proc = read_only_run([str(DP_BIN), *command])
        assert proc.returncode == 0, (command, proc.stderr)
        assert "dp: error" not in proc.stderr
    events = json.loads(read_only_run([str(DP_BIN), "desires", "--json"]).stdout)
    assert [event["tool_input"]["command"] for event in events] == ["fd -e py", "fd -e py"]
    _one_error_line(read_only_run([str(DP_BIN), "desires", "--purge", "--yes"]), "read-only")
    assert _store_files(db_path.parent) == before
