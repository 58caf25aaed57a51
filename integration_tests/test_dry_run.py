"""``--dry-run`` means one thing in every command that changes a person's files or the store: the
command runs its real code against a rehearsal, prints what would change (each file as a diff, the
store's rules, events, trust and install records, the ``claude plugin`` commands) and changes nothing.

"Nothing" is checked the hard way: the bytes, mode and mtime of every file under the test's HOME,
store and project, and every row of the store, before and after, through the installed ``dp``.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from task_projects import real_checkout

from dp.agents import DEFAULT, names

REAL_SESSION = Path(__file__).parent.parent / "tests" / "fixtures" / "claude-2.1.330-session.jsonl"


def git(project: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", *args], cwd=project, env=env, capture_output=True, text=True, check=True).stdout


def real_project(root: Path) -> Path:
    """A committed project as people have them (``real_checkout``), with a team AGENTS.md and Claude Code
    project settings."""
    real_checkout(root)
    (root / "AGENTS.md").write_text("# Team notes\n\nRun make test before pushing.\n")
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text('{\n  "permissions": {"allow": ["Bash(make test)"]}\n}\n')
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "A project")
    return root


def fake_claude(bin_dir: Path) -> Path:
    """A ``claude`` that logs each call and succeeds: a dry run must not call it."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    script = bin_dir / "claude"
    log = bin_dir.parent / "claude-calls.jsonl"  # outside what the tests compare: the test reads it
    script.write_text(f"#!{sys.executable}\nimport json, sys\n"
                      "if sys.argv[1:2] == ['plugin']:\n"
                      f"    open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n")
    script.chmod(0o755)
    return bin_dir


def claude_calls(bin_dir: Path) -> list[list[str]]:
    """The ``claude plugin …`` commands run so far (``claude --version``, a question, is not logged)."""
    log = bin_dir.parent / "claude-calls.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def everything(root: Path, db_path: Path) -> dict:
    """Every file under ``root`` (bytes, mode, mtime), every directory and link, and every row of the store."""
    seen = {}
    for path in sorted(root.rglob("*")):
        if path.name.endswith(("-shm", "-wal", "claude-calls.jsonl")):
            continue  # SQLite's own files (the store's rows are compared below); the fake claude's log
        info = path.lstat()
        if path.is_symlink():
            seen[str(path)] = ("link", os.readlink(path))
        elif path.is_dir():
            seen[str(path)] = ("dir", info.st_mode)
        else:
            seen[str(path)] = ("file", path.read_bytes(), info.st_mode, info.st_mtime_ns)
    if db_path.exists():
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            seen["store rows"] = list(conn.iterdump())
        finally:
            conn.close()
    return seen


def assert_nothing_changed(before: dict, after: dict) -> None:
    changed = sorted(key for key in before.keys() | after.keys() if before.get(key) != after.get(key))
    assert not changed, f"a dry run changed: {changed}"


@pytest.fixture
def setup(dp, env, home, db_path, tmp_path):
    """The project, a PATH with a logging ``claude``, and a ``run`` that uses both."""
    project = real_project(tmp_path / "proj")
    bin_dir = fake_claude(tmp_path / "bin")
    path = f"{bin_dir}{os.pathsep}{env['PATH']}"

    def run(*args, cwd=project):
        return dp(*args, cwd=cwd, extra_env={"PATH": path})

    return run, project, bin_dir


def dry(run, tmp_path, db_path, *args, json_out=False, cwd=None):
    """``dp ARGS --dry-run``: its output, after checking it changed nothing at all."""
    before = everything(tmp_path, db_path)
    proc = run(*args, "--dry-run", *(["--json"] if json_out else []), **({"cwd": cwd} if cwd else {}))
    assert proc.returncode == 0, proc.stderr
    assert_nothing_changed(before, everything(tmp_path, db_path))
    return json.loads(proc.stdout) if json_out else proc.stdout


def test_pave_dry_run_shows_each_file_as_a_diff_and_changes_nothing(setup, tmp_path, db_path, home):
    run, project, _ = setup
    assert run("alias", "--cmd", "grep", "--replace", "rg").returncode == 0
    shown = dry(run, tmp_path, db_path, "pave", "--agents-md", "--include-personal", "--output", "AGENTS.md")
    assert shown.splitlines()[:4] == ["Dry run: nothing was written, created or run.",
                                      f"Store: {db_path} (would change)",
                                      f"       + install record: block in {project / 'AGENTS.md'}",
                                      f"File:  {project / 'AGENTS.md'} (would change)"]
    assert "       +<!-- dp:begin -->" in shown and "       +- Use `rg` instead of `grep`" in shown
    assert "-# Team notes" not in shown  # the team's text stays: only dp's block is added

    planned = dry(run, tmp_path, db_path, "pave", "--hook", "--scope", "project", json_out=True)
    assert [change["path"] for change in planned["files"]] == [str(project / ".claude" / "settings.json")]
    assert [store["installs"]["added"] for store in planned["stores"]] == [
        [f"hook in {project / '.claude' / 'settings.json'}"]]
    # What the dry run said is what the real run does.
    assert run("pave", "--hook", "--scope", "project").returncode == 0
    assert "pave-check" in (project / ".claude" / "settings.json").read_text()
    assert "Bash(make test)" in (project / ".claude" / "settings.json").read_text()

    unhook = dry(run, tmp_path, db_path, "pave", "--unhook", "--scope", "project")
    assert f"File:  {project / '.claude' / 'settings.json'} (would change)" in unhook
    assert "- install record: hook in" in unhook

    mcp = dry(run, tmp_path, db_path, "pave", "--mcp", "--scope", "project")
    assert f"File:  {project / '.mcp.json'} (would be created)" in mcp
    claude_md = dry(run, tmp_path, db_path, "pave", "--claude-md")
    assert f"File:  {project / 'CLAUDE.md'} (would be created)" in claude_md and "+@AGENTS.md" in claude_md


def test_pave_plugin_dry_run_lists_the_claude_commands_and_runs_none(setup, tmp_path, db_path):
    run, project, bin_dir = setup
    planned = dry(run, tmp_path, db_path, "pave", "--plugin", "--scope", "project", json_out=True)
    assert claude_calls(bin_dir) == []
    written = {change["path"] for change in planned["files"]}
    assert str(project / ".claude" / "dp-plugin" / "dp" / ".claude-plugin" / "plugin.json") in written
    assert str(project / ".claude" / "settings.json") in written
    assert planned["commands"] and all(command.startswith("claude plugin ") for command in planned["commands"])
    assert any(command.startswith("claude plugin install ") for command in planned["commands"])

    assert run("pave", "--plugin", "--scope", "project").returncode == 0
    ran = ["claude plugin " + " ".join(call[1:]) for call in claude_calls(bin_dir)]
    assert ran == planned["commands"]
    assert all(Path(path).is_file() for path in written)  # every file the dry run named, the real run wrote


def test_ingest_dry_run_counts_the_events_and_stores_none(setup, tmp_path, db_path, home):
    run, project, _ = setup
    sessions = tmp_path / "projects" / "-tmp-proj"
    sessions.mkdir(parents=True)
    shutil.copy(REAL_SESSION, sessions / "19abf8d4-c804-4e5b-bf98-8adf826fff44.jsonl")
    assert run("alias", "read_file", "Read").returncode == 0  # the store exists before the dry run
    planned = dry(run, tmp_path, db_path, "ingest", "--claude-transcripts", str(tmp_path / "projects"),
                  json_out=True)
    (store,) = planned["stores"]
    would = len(store["events"]["added"])
    assert would > 0 and store["path"] == str(db_path)
    text = dry(run, tmp_path, db_path, "ingest", "--claude-transcripts", str(tmp_path / "projects"))
    assert f"       + {would} events: " in text
    real = run("ingest", "--claude-transcripts", str(tmp_path / "projects"), "--json")
    assert real.returncode == 0, real.stderr
    failures = [event for event in store["events"]["added"] if event.startswith("failure of ")]
    assert len(json.loads(run("desires", "--json", "--limit", "100000").stdout)) == len(failures) > 0


def test_untrust_dry_run_names_the_trust_that_would_go_and_keeps_it(setup, tmp_path, db_path):
    run, project, _ = setup
    (project / ".dp").mkdir()
    (project / ".dp" / "rules.toml").write_text('[[aliases]]\nfrom = "read_file"\nto = "Read"\n')
    assert run("trust").returncode == 0
    shown = dry(run, tmp_path, db_path, "untrust")
    assert f"       - trust: {project / '.dp' / 'rules.toml'}" in shown
    assert [rule["from_name"] for rule in json.loads(run("aliases", "--json").stdout)] == ["read_file"]
    assert run("untrust").returncode == 0
    assert json.loads(run("aliases", "--json").stdout) == []


def test_a_dry_run_before_anything_exists_creates_nothing_not_even_the_store(dp, env, tmp_path):
    """On a fresh machine (no ~/.dp at all) a dry run of a command that would create the store creates nothing."""
    home = tmp_path / "fresh"
    (home / ".claude").mkdir(parents=True)
    project = real_project(tmp_path / "proj")
    fresh = {key: value for key, value in env.items() if key != "DP_DB"}
    fresh["HOME"] = str(home)
    before = everything(tmp_path, home / ".dp" / "dp.db")
    proc = subprocess.run([shutil.which("dp") or str(Path(sys.executable).parent / "dp"), "pave", "--hook",
                           "--dry-run"], cwd=project, env=fresh, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"Store: {home / '.dp' / 'dp.db'} (would be created)" in proc.stdout
    assert f"File:  {home / '.claude' / 'settings.json'} (would be created)" in proc.stdout
    assert_nothing_changed(before, everything(tmp_path, home / ".dp" / "dp.db"))
    assert not (home / ".dp").exists()


@pytest.mark.parametrize("args", [
    ["alias", "--cmd", "find", "--replace", "fd"],
    ["alias", "--project", "--cmd", "ls", "--replace", "eza"],
    ["aliases", "import", "{collection}"],
    ["init", "--agent", "claude"],
    ["init", "--plugin"],
    ["uninstall"],
    ["uninstall", "--purge"],
    ["desires", "--purge"],
    ["paving", "off"],
    ["trust"],
    ["untrust"],
    ["pave", "--hook"],
    ["pave", "--plugin"],
    ["pave", "--plugin", "--scope", "project"],
    *[["pave", "--hook", "--scope", "project", "--agent", agent] for agent in names() if agent != DEFAULT],
    ["pave", "--mcp"],
    ["pave", "--claude-md"],
    ["make", "--generate", "python"],
    ["aliases", "export", "--output", "AGENTS.md"],
    ["ingest", "--claude-transcripts"],
    ["team", "connect", "postgresql://alice@127.0.0.1:1/dp"],  # nothing listens on port 1
    ["team", "disconnect"],
])
def test_every_dry_run_changes_nothing(setup, tmp_path, db_path, home, args):
    run, project, bin_dir = setup
    (home / ".claude" / "projects" / "-proj").mkdir(parents=True)
    shutil.copy(REAL_SESSION, home / ".claude" / "projects" / "-proj" / "19abf8d4-c804-4e5b-bf98-8adf826fff44.jsonl")
    collection = tmp_path / "team.toml"
    collection.write_text('[[aliases]]\nfrom = "search_file"\nto = "Grep"\n')
    (project / ".dp").mkdir()
    (project / ".dp" / "rules.toml").write_text('[[aliases]]\nfrom = "read_file"\nto = "Read"\n')
    assert run("alias", "--cmd", "grep", "--replace", "rg").returncode == 0
    assert run("init", "--agent", "claude").returncode == 0
    assert run("pave", "--agents-md", "--include-personal", "--output", "AGENTS.md").returncode == 0
    dry(run, tmp_path, db_path, *[arg.format(collection=collection) for arg in args])
    assert claude_calls(bin_dir) == []


# --- dp uninstall never deletes what git tracks: a committed project plugin, .mcp.json, settings -----

def test_uninstall_keeps_a_committed_project_plugin_and_takes_only_dps_entries_out(setup, tmp_path, db_path):
    run, project, bin_dir = setup
    (project / ".mcp.json").write_text('{\n  "mcpServers": {\n    "docs": {"command": "docs-server", "args": []}\n  }\n}\n')
    assert run("pave", "--plugin", "--scope", "project").returncode == 0
    assert run("pave", "--mcp", "--scope", "project").returncode == 0
    plugin = project / ".claude" / "dp-plugin"
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "The team's dp plugin and MCP server")
    runner = next(path for path in plugin.rglob("dp-run"))
    git(project, "rm", "-q", "--cached", str(runner.relative_to(project)))  # one of dp's files, not committed
    git(project, "commit", "-q", "-m", "Keep the launcher out of the repository")
    committed = {path: path.read_bytes() for path in plugin.rglob("*") if path.is_file() and path != runner}
    assert committed and runner.exists()

    planned = run("uninstall", "--dry-run")
    assert planned.returncode == 0, planned.stderr
    assert f"git tracks {len(committed)} of its files, so they would stay" in planned.stdout
    assert all(path.read_bytes() == data for path, data in committed.items()) and runner.exists()

    proc = run("uninstall")
    assert proc.returncode == 0, proc.stderr
    assert (f"git tracks {len(committed)} of its files, so they stay (the team's: git rm -r {plugin} removes the "
            "plugin for everyone)") in proc.stdout
    assert {path: path.read_bytes() for path in plugin.rglob("*") if path.is_file()} == committed
    assert not runner.exists()  # dp's own untracked file goes
    assert git(project, "status", "--porcelain", "--", ".claude/dp-plugin") == ""
    mcp = json.loads((project / ".mcp.json").read_text())
    assert mcp == {"mcpServers": {"docs": {"command": "docs-server", "args": []}}}  # only dp's entry went
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert settings["permissions"] == {"allow": ["Bash(make test)"]}
    assert "enabledPlugins" not in settings or not any("dp" in key for key in settings["enabledPlugins"])
    # The rest of the project is as it was.
    assert (project / "build" / "app.bin").read_bytes() == bytes(range(256)) * 4
    assert (project / "node_modules" / "left-pad" / "index.js").exists()
    assert (project / "docs with spaces" / "naïve notes.md").read_text() == "# notes\n"


def test_uninstall_deletes_an_uncommitted_project_plugin_whole(setup, tmp_path, db_path):
    run, project, _ = setup
    assert run("pave", "--plugin", "--scope", "project").returncode == 0
    proc = run("uninstall")
    assert proc.returncode == 0, proc.stderr
    assert not (project / ".claude" / "dp-plugin").exists()
    assert "git tracks" not in proc.stdout
