"""Finding 5: trust could be borrowed.

After ``dp trust`` in projA, a fresh repository whose ``.dp/rules.toml`` is a
link to ``../projA/.dp/rules.toml`` got projA's rules acting in it, without a
word: trust was keyed by the file's real path and hash, not by the repository
the rules act in. Now a record belongs to the repository it was given in, and
a layer file whose real path leaves its repository never acts there; ``dp
doctor`` names the file and the fix, ``dp trust`` refuses it, ``--project``
writes never go through it. The same for ``.dp/rules.local.toml``, a linked
``.dp`` directory, a copy of the trusted file, the Claude Code mod's snapshot
and the SessionStart context; a store written before the change keeps its
records for the legitimate case, read by the hook before any migration and
after it.

Each test commits the repositories (projA trusted by its reader, the
borrower an attacker's clone), runs the real ``dp`` and ``pave-check`` with
Claude Code's JSON, executes what the hook lets through, and checks that no
rewrite happened in the borrower and nothing marked.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from security.repository import GIT_IDENTITY, cloned_repository

BIN = Path(sys.executable).parent


def project_rules(markers) -> str:
    """projA's reviewed rules: `echo ready` runs a recipe that marks (so a borrowed rule shows),
    and a tool-name alias (for the mod's snapshot)."""
    return (
        "[meta]\nversion = 1\n\n"
        "[[aliases]]\n"
        'from = "echo ready"\n'
        f'to = "{markers.touch("proja-recipe")}"\n'
        'tool = "Bash"\nparam = "command"\ncommand = "echo"\nmatch_kind = "recipe"\n\n'
        "[[aliases]]\n"
        'from = "read_file"\nto = "Read"\n'
    )


class User:
    """One person's HOME and store, the real dp and pave-check."""

    def __init__(self, root: Path):
        self.home = root / "home"
        (self.home / ".dp").mkdir(parents=True, exist_ok=True)
        self.env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE", "GIT_"))}
        self.env.update({"HOME": str(self.home), "XDG_CACHE_HOME": str(root / "cache"), **GIT_IDENTITY})

    @property
    def db(self) -> Path:
        return self.home / ".dp" / "dp.db"

    def dp(self, *args, cwd, check=True) -> subprocess.CompletedProcess:
        proc = subprocess.run([str(BIN / "dp"), *args], cwd=cwd, env=self.env, capture_output=True, text=True,
                              timeout=120)
        assert not check or proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def hook(self, payload: dict) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "pave-check")], input=json.dumps(payload), env=self.env,
                              capture_output=True, text=True, timeout=60)

    def bash(self, command: str, cwd: Path) -> str:
        """The command after the hook: the rewrite, if any, else as typed."""
        payload = {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": command, "description": "Check"}, "tool_use_id": "toolu_01"}
        proc = self.hook(payload)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"] if proc.stdout else command

    def blocked(self, tool: str, cwd: Path) -> bool:
        payload = {"session_id": "s", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": tool,
                   "tool_input": {"path": "README.md"}, "tool_use_id": "toolu_02"}
        return self.hook(payload).returncode == 2

    def session_start(self, cwd: Path) -> str:
        proc = self.hook({"session_id": "s", "cwd": str(cwd), "hook_event_name": "SessionStart", "source": "startup"})
        return json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"] if proc.stdout else ""


@pytest.fixture
def proja(tmp_path, markers) -> Path:
    return cloned_repository(tmp_path / "projA", {".dp/rules.toml": project_rules(markers)}, markers)


def borrower(tmp_path, markers, links: dict, files=None) -> Path:
    """An attacker's repository committing ``links`` (name → target) beside its ordinary files."""
    repo = tmp_path / "borrower"
    repo.mkdir()
    for name, target in links.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).symlink_to(target)
    return cloned_repository(repo, files or {}, markers)


def run(command: str, cwd: Path) -> None:
    subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, timeout=60)


@pytest.mark.parametrize("links", [
    {".dp/rules.toml": "../../projA/.dp/rules.toml"},
    {".dp/rules.local.toml": "../../projA/.dp/rules.toml"},
    {".dp": "../projA/.dp"},
], ids=["project file", "local file", "linked .dp"])
def test_a_link_to_a_trusted_file_of_another_repository_never_acts(tmp_path, markers, proja, links):
    user = User(tmp_path)
    user.dp("trust", cwd=proja)
    assert user.bash("echo ready", proja) == markers.touch("proja-recipe")  # it acts where it was trusted
    assert user.blocked("read_file", proja)

    repo = borrower(tmp_path, markers, links)
    command = user.bash("echo ready", repo)
    assert command == "echo ready"  # no rewrite
    assert not user.blocked("read_file", repo)
    run(command, repo)
    markers.assert_none("echo ready in the borrower")

    layer = next(name for name in (".dp/rules.local.toml", ".dp/rules.toml") if (repo / name).exists())
    source = "local" if layer.endswith("local.toml") else "project"
    real = proja / ".dp" / "rules.toml"
    doctor = user.dp("doctor", cwd=repo, check=False).stdout
    assert (f"ERROR  layers      {source}: {repo / layer} is a link to {real}, outside this repository ({repo}): a "
            "rule file acts only in its own repository, so its rules never apply here, trusted or not") in doctor, doctor
    assert f"fix: cp --remove-destination {real} {repo / layer}, read it, then cd {repo} && dp trust" in doctor
    assert f"{repo / layer} is a link to {real}, outside this repository" in user.session_start(repo)

    refused = user.dp("trust", cwd=repo, check=False)
    assert refused.returncode == 1 and refused.stderr == (
        f"dp: error: cannot trust {repo / layer}: it is a link to {real}, outside this repository (nothing was "
        "trusted; make it a file of this repository)\n")
    assert user.bash("echo ready", repo) == "echo ready"
    if layer == ".dp/rules.toml":
        wrote = user.dp("alias", "--project", "--cmd", "bd", "--flag", "wisp", "ephemeral", cwd=repo, check=False)
        assert wrote.returncode == 1 and "dp does not write another repository's rules through it" in wrote.stderr
        assert "wisp" not in real.read_text()
    markers.assert_none("the borrower")


def test_a_copy_of_a_trusted_file_is_a_file_nobody_trusted(tmp_path, markers, proja):
    user = User(tmp_path)
    user.dp("trust", cwd=proja)
    repo = borrower(tmp_path, markers, {}, {".dp/rules.toml": (proja / ".dp" / "rules.toml").read_text()})
    assert user.bash("echo ready", repo) == "echo ready"
    assert f"{repo}/.dp/rules.toml is not trusted" in user.session_start(repo)
    markers.assert_none("a copied rules file")


def test_the_mod_snapshot_and_the_filters_carry_projA_for_projA_only(tmp_path, markers, proja):
    user = User(tmp_path)
    user.dp("trust", cwd=proja)
    borrower(tmp_path, markers, {".dp/rules.toml": "../../projA/.dp/rules.toml"})
    user.dp("init", "--plugin", cwd=tmp_path, check=False)  # writes the mod's snapshot (no client needed)
    user.dp("trust", cwd=proja)  # a rule change: the snapshot and the stamp are written again
    snapshot = json.loads((user.home / ".dp" / "claude-mod" / "aliases.json").read_text())
    assert [entry["root"] for entry in snapshot["projects"]] == [str(proja)]
    stamp = json.loads((user.home / ".dp" / "layers-synced.json").read_text())
    assert stamp == [[str(proja), str(proja / ".dp" / "rules.toml"), stamp[0][2], True]]


def test_records_from_before_trust_was_bound_to_the_repository_keep_the_legitimate_case(tmp_path, markers, proja):
    """A store at schema 5 trusted projA's file by its real path alone. Read by the hook as it is
    (the hook never migrates) and after the migration: projA's file acts in projA, nowhere else."""
    import hashlib

    user = User(tmp_path)
    repo = borrower(tmp_path, markers, {".dp/rules.toml": "../../projA/.dp/rules.toml"})
    rules = proja / ".dp" / "rules.toml"
    old_store = (
        "import sqlite3, sys\n"
        "from dp.store.migrations import load_migrations, migrate\n"
        "conn = sqlite3.connect(sys.argv[1])\n"
        "migrate(conn, load_migrations()[:5])\n"
        "conn.execute('INSERT INTO project_trust VALUES (?, ?, ?)', (sys.argv[2], sys.argv[3], '2026-01-01T00:00:00Z'))\n"
        "conn.execute('INSERT INTO project_trust VALUES (?, ?, ?)', ('/elsewhere/config/rules.toml', 'x', 'then'))\n"
        "conn.commit()\n"
    )
    subprocess.run([sys.executable, "-c", old_store, str(user.db), str(rules),
                    hashlib.sha256(rules.read_bytes()).hexdigest()], check=True, env=user.env)
    assert sqlite3.connect(user.db).execute("PRAGMA user_version").fetchone()[0] == 5
    for migrated in (False, True):
        assert user.bash("echo ready", proja) == markers.touch("proja-recipe"), migrated
        assert user.bash("echo ready", repo) == "echo ready", migrated
        if not migrated:
            user.dp("aliases", cwd=tmp_path)  # any dp command migrates the store
    rows = sqlite3.connect(user.db).execute("SELECT root, path, sha256 FROM project_trust ORDER BY path").fetchall()
    assert [(root, path) for root, path, _ in rows] == [(str(proja), ""), (str(proja), str(rules))]
    run("echo ready", repo)
    markers.assert_none("an old store")
