"""One event after every rule change (issue 53, finding 2): the store and the paving switch announce a
committed change (dp.changes) and the CLI follows it in one place, so every path that changes what the
rules act on leaves the hook's gate, the `if` filters and the mod's snapshot in step, and no command
calls a sync itself.

"In step" is checked from outside: after each command, the full sync a SessionStart runs
(``python -m dp.refresh STORE``) must find nothing left to change. A command that changed the
rules without the sync fails here, whichever command it is; and every command dp.widening says widens
or narrows what dp does must be one of the paths below (or say why it changes no rule), so a new one
cannot be left out.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from capture_support import failure, run_capture

from dp import widening

PACKAGE = Path(__file__).resolve().parents[1] / "dp"
# Commands that widen or narrow what dp does without changing a rule, trust or paving: each installs or
# removes something, and writes its own entries from the rules as they are.
NO_RULE_CHANGE = {
    "init": "installs the hooks, whose entries it writes from the rules as they are",
    "pave --hook": "installs the hook entries, written from the rules as they are",
    "pave --plugin": "installs the plugin, written from the rules as they are",
    "pave --mcp": "registers the MCP server: no rule",
    "pave --unhook": "takes the entries out",
    "pave --unmcp": "takes the MCP registration out",
    "uninstall": "takes dp out",
    "team connect": "a database to send to: no rule",
    "team disconnect": "no rule",
    "desires --purge": "removes captured failures: no rule",
    "doctor --fix": "repairs the store, the gate and dangling entries from the rules as they are",
}


def _changes_what_dp_does() -> set[str]:
    """Every command line dp.widening classifies as widening or narrowing: ``alias``, ``alias --delete``."""
    found = set()

    def add(path: str, command) -> None:
        if command.kind in (widening.WIDENS, widening.NARROWS):
            found.add(path)
        found.update(f"{path} {mark}" for mark, kind in command.marks.items()
                     if kind in (widening.WIDENS, widening.NARROWS))

    for name, entry in widening.COMMANDS.items():
        if isinstance(entry, widening.Group):
            add(name, entry.own)
            for sub, command in entry.commands.items():
                add(f"{name} {sub}", command)
        else:
            add(name, entry)
    return found


def _claude(tmp_path: Path) -> dict:
    """A stand-in `claude` answering --version as a Claude Code with `if` filters does."""
    path = tmp_path / "fake-claude"
    path.write_text("#!/bin/sh\necho '2.1.330 (Claude Code)'\n")
    path.chmod(0o755)
    return {"DP_CLAUDE": str(path)}


def _repository(tmp_path: Path) -> Path:
    """A real git repository with a committed .dp/rules.toml, node_modules and a binary artefact."""
    repo = tmp_path / "team-app"
    (repo / ".dp").mkdir(parents=True)
    (repo / "node_modules" / "left-pad").mkdir(parents=True)
    (repo / "node_modules" / "left-pad" / "index.js").write_text("module.exports = 1\n")
    (repo / "dist").mkdir()
    (repo / "dist" / "app.bin").write_bytes(bytes(range(256)))
    (repo / ".gitignore").write_text("node_modules/\ndist/\n")
    (repo / ".dp" / "rules.toml").write_text(
        '[[aliases]]\nfrom = "wisp"\nto = "ephemeral"\nmatch_kind = "flag"\ntool = "Bash"\nparam = "command"\n'
        'command = "bd"\n')
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "rules"], check=True)
    return repo


def _derived(home: Path, db_path: Path) -> dict:
    """What dp derives from the rules: the hook's gate, the settings' hook entries, the mod's snapshot."""
    from dp.agents.claude.mod_snapshot import SNAPSHOT, state_dir
    from dp.store.location import hook_gate

    files = {"gate": Path(hook_gate(db_path)), "settings": home / ".claude" / "settings.json",
             "snapshot": state_dir(db_path) / SNAPSHOT}
    return {name: path.read_bytes() if path.exists() else None for name, path in files.items()}


def test_every_rule_change_leaves_gate_filters_and_snapshot_in_step(dp, env, home, db_path, tmp_path):
    claude = _claude(tmp_path)
    assert dp("init", "--json", extra_env=claude).returncode == 0
    repo = _repository(tmp_path)
    collection = tmp_path / "team.json"
    collection.write_text(json.dumps({"aliases": [
        {"from": "scp", "to": "rsync", "match_kind": "command", "tool": "Bash", "param": "command", "command": "scp"}]}))
    assert run_capture(failure("git comit", "git: 'comit' is not a git command.\n\nThe most similar command is\n"
                                            "\tcommit"), env=env).returncode == 0
    [suggestion] = json.loads(dp("suggest", "--json").stdout)

    steps = [  # (the widening path it exercises, the command)
        ("alias", ("alias", "--cmd", "grep", "--replace", "rg")),
        ("alias --shadow", ("alias", "--shadow", "--cmd", "ls", "--flag", "all", "almost-all")),
        ("alias (shadow promotion)", ("alias", "--cmd", "ls", "--flag", "all", "almost-all")),
        ("alias --delete", ("alias", "--delete", "--cmd", "grep", "--replace", "rg")),
        ("aliases import", ("aliases", "import", str(collection))),
        ("suggest --apply", ("suggest", "--apply", suggestion["id"], "--act")),
        ("trust", ("trust", "--cwd", str(repo))),
        ("alias --project", ("alias", "--project", "--cwd", str(repo), "--cmd", "cat", "--flag", "n", "number")),
        ("untrust", ("untrust", "--cwd", str(repo))),
        ("paving off", ("paving", "off")),
        ("paving on", ("paving", "on")),
    ]
    for step, args in steps:
        before = _derived(home, db_path)
        proc = dp(*args, extra_env=claude)
        assert proc.returncode == 0, f"{step}: {proc.stderr}"
        after = _derived(home, db_path)
        assert after["gate"] is not None and after["gate"] != before["gate"], f"{step} left the gate behind"
        refresh = subprocess.run([sys.executable, "-m", "dp.refresh", str(db_path)], env={**env, **claude},
                                 capture_output=True, text=True, timeout=120)
        assert refresh.returncode == 0, refresh.stderr
        assert _derived(home, db_path) == after, f"{step}: a later sync still had something to change"

    covered = {step.split(" (")[0] for step, _ in steps}
    left_out = _changes_what_dp_does() - covered - set(NO_RULE_CHANGE)
    assert not left_out, f"commands that change what dp does, not proven to keep the hook in step: {left_out}"


def test_the_filters_follow_a_rule_change_through_the_event(dp, home, tmp_path):
    """The `if` filters, not only the gate: a new command word becomes a condition at once."""
    claude = _claude(tmp_path)
    dp("paving", "off")
    assert dp("init", extra_env=claude).returncode == 0
    proc = dp("alias", "--cmd", "grep", "--replace", "rg", extra_env=claude)
    assert "Hook entries updated in" in proc.stderr
    conditions = [handler.get("if") for group in json.loads((home / ".claude" / "settings.json").read_text())
                  ["hooks"]["PreToolUse"] for handler in group["hooks"]]
    assert "Bash(*grep*)" in conditions


def test_no_command_calls_a_sync_itself():
    """The CLI follows the event in one place (dp.cli.app); a command module naming a sync is the duty back."""
    named = {}
    for path in sorted((PACKAGE / "cli" / "commands").glob("*.py")):
        names = {node.id if isinstance(node, ast.Name) else node.attr
                 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, (ast.Name, ast.Attribute))}
        names |= {alias.name for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                  if isinstance(node, ast.ImportFrom) for alias in node.names}
        found = names & {"sync_hooks", "sync_installed", "announce", "follow"}
        if found:
            named[path.name] = sorted(found)
    assert named == {}


def test_the_store_announces_committed_rule_changes_only(tmp_path):
    """A program that follows the event hears each store that committed a rule or trust change once it is
    closed (its connection gone), and nothing for a dry-run import or a store only read."""
    code = (
        "import sys\n"
        "from dp import changes\n"
        "from dp.rules.model import Rule\n"
        "from dp.store import Store\n"
        "heard = []\n"
        "changes.follow(lambda db: heard.append(db.name))\n"
        "with Store.open(sys.argv[1]) as store:\n"
        "    store.set_rule(Rule('read_file', 'Read'))\n"
        "    store.set_rule(Rule('open_file', 'Read'))\n"
        "    heard.append('closed next')\n"
        "with Store.open(sys.argv[1]) as store:\n"
        "    store.import_rules([Rule('view_file', 'Read')], dry_run=True)\n"
        "    store.list_rules()\n"
        "with Store.open(sys.argv[1]) as store:\n"
        "    store.delete_rule(Rule('read_file', 'Read'))\n"
        "print(heard)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "dp.db")], capture_output=True, text=True,
                          env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "['closed next', 'dp.db', 'dp.db']"
