"""``dp trust --show``: everything trusting a repository would let act, in words, before anything is trusted.

Not only a rules file's aliases: every table in it (the team database a ``[team] url``
suggests, which dp never connects to by itself; a table or key dp does not read, named as
doing nothing), each file of a Claude Code plugin the repository commits (which ``dp init``
would register once trusted), and the repository's own environment for paving. Read from a
real repository (git history, ``node_modules``, the plugin ``dp pave --plugin --scope project``
writes) through the real ``dp``, in words and as JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
RULES = """owner = "platform team"

[meta]
version = 1

[[aliases]]
from = "wisp"
to = "ephemeral"
tool = "Bash"
param = "command"
command = "bd"
match_kind = "flag"

[[aliases]]
from = "gt convoy wait"
to = "gt convoy status {{ arg(1) }}"
tool = "Bash"
param = "command"
command = "gt"
match_kind = "recipe"

[team]
url = "postgresql://team@db.example.com/dp"

[paving]
enabled = false
"""


def dp(env, *args, cwd) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(BIN / "dp"), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def repository(tmp_path: Path, env: dict) -> Path:
    """A team's repository: its rules file, the team plugin dp writes, ordinary files; committed."""
    repo = tmp_path / "widget"
    (repo / "node_modules" / "left-pad").mkdir(parents=True)
    (repo / "node_modules" / "left-pad" / "index.js").write_text("module.exports = (s) => s;\n")
    (repo / "assets").mkdir()
    (repo / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, env=env, check=True)
    dp(env, "pave", "--plugin", "--scope", "project", cwd=repo)  # no claude on PATH: the files only
    (repo / ".dp").mkdir()
    (repo / ".dp" / "rules.toml").write_text(RULES)
    (repo / ".dp" / "rules.local.toml").write_text('[[aliases]]\nfrom = "read_file"\nto = "Read"\n')
    for argv in (["add", "-A", "-f"], ["commit", "-q", "-m", "Team rules and plugin"]):
        subprocess.run(["git", *argv], cwd=repo, env=env, check=True, capture_output=True)
    return repo


def _env(env: dict) -> dict:
    identity = {"GIT_AUTHOR_NAME": "Ann", "GIT_AUTHOR_EMAIL": "ann@example.com", "GIT_COMMITTER_NAME": "Ann",
                "GIT_COMMITTER_EMAIL": "ann@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    path = os.pathsep.join(d for d in env["PATH"].split(os.pathsep) if not (d and os.path.exists(os.path.join(d, "claude"))))
    return {**env, **identity, "PATH": path}


def plugin_lines(marketplace: Path) -> list[str]:
    """Each of the plugin's files as --show lists it: path, size, executable, SHA-256."""
    lines = []
    for path in sorted(p for p in marketplace.rglob("*") if p.is_file()):
        data = path.read_bytes()
        executable = ", executable" if os.access(path, os.X_OK) else ""
        lines.append(f"  {path.relative_to(marketplace)} ({len(data)} bytes{executable}, "
                     f"sha256 {hashlib.sha256(data).hexdigest()[:12]}…)")
    return sorted(lines)


def test_show_says_everything_the_files_the_plugin_and_the_repository_would_do(tmp_path, env):
    env = _env(env)
    repo = repository(tmp_path, env)
    marketplace = repo / ".claude" / "dp-plugin"
    shown = dp(env, "trust", "--show", cwd=repo / "node_modules").stdout
    url = "postgresql://team@db.example.com/dp"
    assert shown.splitlines() == [
        f"{repo}/.dp/rules.toml (not trusted):",
        "  line 1: owner: a key dp does not read; it does nothing",
        "  line 6: bd: Flag `--wisp` should be `--ephemeral`",
        "  line 14: gt: Do NOT use `gt convoy wait`. It will be expanded to: `gt convoy status {{ arg(1) }}`",
        f"  line 22: [team] url = {url}: a team database this file suggests for your captured failures; dp never "
        "connects to it by itself (only once you run dp team connect in this repository)",
        "  line 25: [paving]: a table dp does not read; it does nothing",
        f"{repo}/.dp/rules.local.toml (not trusted):",
        "  line 1: Do NOT call `read_file`. Use `Read` instead.",
        f"{marketplace} (Claude Code plugin, not trusted): after dp trust, dp init registers it for you, and Claude "
        "Code runs these files in every session here:",
        *plugin_lines(marketplace),
        f"{repo} (this repository, not trusted): after dp trust, project paving may run its own programs here (its "
        ".venv, node_modules/.bin, another runner's tasks)",
    ]
    assert "dp-run (" in shown and "executable" in shown and "hooks.json" in shown and "register.ts" in shown

    reports = json.loads(dp(env, "trust", "--show", "--json", cwd=repo).stdout)
    assert [report["source"] for report in reports] == ["project", "local", "plugin", "repository"]
    assert [table["line"] for table in reports[0]["tables"]] == [1, 22, 25]
    assert "dp never connects to it by itself (only once you run dp team connect in this repository)" in (
        reports[0]["tables"][1]["in_words"])
    assert reports[2]["state"] == "untrusted" and len(reports[2]["files"]) == len(plugin_lines(marketplace))
    assert reports[3] == {"source": "repository", "path": str(repo), "state": "untrusted"}
    assert json.loads(dp(env, "aliases", "--json", cwd=repo).stdout) == []  # showing trusted nothing

    trusted = dp(env, "trust", cwd=repo).stdout
    assert f"Trusted {marketplace} (Claude Code plugin, {len(plugin_lines(marketplace))} files, sha256 " in trusted
    shown = dp(env, "trust", "--show", cwd=repo).stdout
    assert f"{repo}/.dp/rules.toml (trusted):" in shown
    assert (f"{marketplace} (Claude Code plugin, trusted): dp init registers it for you, and Claude Code runs these "
            "files in every session here:") in shown
    assert f"{repo} (this repository, trusted): project paving may run its own programs here" in shown

    (marketplace / "dp" / "hooks" / "register.ts").write_text("// changed\n")
    assert f"{marketplace} (Claude Code plugin, changed since you trusted it)" in dp(env, "trust", "--show",
                                                                                     cwd=repo).stdout
    untrusted = dp(env, "untrust", cwd=repo).stdout
    assert f"No longer trusted: {marketplace}\n" in untrusted and untrusted.endswith(f"No longer trusted: {repo}\n")


def test_show_in_a_repository_with_nothing_committed_for_dp_names_its_environment(tmp_path, env):
    env = _env(env)
    repo = tmp_path / "plain"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, env=env, check=True)
    assert dp(env, "trust", "--show", cwd=repo).stdout == (
        f"{repo} (this repository, not trusted): after dp trust, project paving may run its own programs here (its "
        ".venv, node_modules/.bin, another runner's tasks)\n")


def test_a_plugin_dp_cannot_pin_is_never_trusted(tmp_path, env):
    """A plugin file that is a link out of the repository: shown as such, and dp trust refuses."""
    env = _env(env)
    repo = tmp_path / "widget"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, env=env, check=True)
    dp(env, "pave", "--plugin", "--scope", "project", cwd=repo)
    elsewhere = tmp_path / "elsewhere.ts"
    elsewhere.write_text("export function register() {}\n")
    mod = repo / ".claude" / "dp-plugin" / "dp" / "hooks" / "register.ts"
    mod.unlink()
    mod.symlink_to(elsewhere)
    marketplace = repo / ".claude" / "dp-plugin"
    shown = dp(env, "trust", "--show", cwd=repo).stdout
    assert (f"{marketplace} (Claude Code plugin, outside this repository: never acts here): dp/hooks/register.ts is "
            f"a link to {elsewhere}, outside this repository; dp never registers it") in shown
    refused = subprocess.run([str(BIN / "dp"), "trust"], cwd=repo, env=env, capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode == 1 and refused.stderr == (
        f"dp: error: cannot trust the Claude Code plugin {marketplace}: dp/hooks/register.ts is a link to "
        f"{elsewhere}, outside this repository (nothing was trusted)\n")
    assert dp(env, "trust", "--show", cwd=repo).stdout.endswith(f"{repo} (this repository, not trusted): after dp "
                                                                  "trust, project paving may run its own programs "
                                                                  "here (its .venv, node_modules/.bin, another "
                                                                  "runner's tasks)\n")
