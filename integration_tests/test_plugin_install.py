"""dp init --plugin / dp pave --plugin without Claude Code on PATH: the files, the settings, the snapshot,
the fix spool, dp uninstall. (The real client installing and running the plugin: real_client/test_plugin.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dp import INSTALL_HINT


def without_claude(env: dict) -> dict:
    """PATH with no ``claude`` on it (the machine may have one)."""
    kept = [d for d in env["PATH"].split(os.pathsep) if not (d and os.path.exists(os.path.join(d, "claude")))]
    return {"PATH": os.pathsep.join(kept)}


@pytest.fixture
def run(dp, env):
    def call(*args, cwd=None):
        return dp(*args, cwd=cwd, extra_env=without_claude(env))
    return call


def test_user_scope_writes_the_plugin_says_how_to_install_it_and_takes_dps_settings_entries(run, home, db_path, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    assert run("alias", "read_file", "Read", "--message", "Use Read.", cwd=project).returncode == 0
    assert run("init", cwd=project).returncode == 0
    settings = home / ".claude" / "settings.json"
    assert "pave-check" in settings.read_text()

    proc = run("init", "--plugin", cwd=project)

    assert proc.returncode == 0, proc.stderr
    market = db_path.parent / "claude-plugin"
    assert "claude is not on PATH; install the plugin with:" in proc.stdout
    # The demo says what the client does with read_file: the mod runs it as Read, older clients refuse it.
    assert "blocked" not in proc.stdout
    assert ("  agent calls tool read_file: Claude Code has no such tool\n"
            "    -> in Claude Code 2.1.286+ the plugin's mod runs it as Read (dp doctor says if it loaded)\n"
            "    -> older clients reject it before any hook; right after, the model is told: dp: read_file is not a "
            "valid tool. Use Read instead.\n") in proc.stdout
    assert f"claude plugin marketplace add {market} --scope user" in proc.stdout
    assert "claude plugin install dp@dp-local --scope user" in proc.stdout
    plugin = market / "dp"
    manifest = json.loads((plugin / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "dp" and manifest["license"] == "MIT"
    assert json.loads((market / ".claude-plugin" / "marketplace.json").read_text())["name"] == "dp-local"
    hooks = json.loads((plugin / "hooks" / "hooks.json").read_text())
    assert hooks["modules"] == ["./register.ts"]
    assert set(hooks["hooks"]) == {"PreToolUse", "SessionStart", "PostToolBatch", "PostToolUse", "PostToolUseFailure"}
    pave_check = hooks["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert os.path.isabs(pave_check.split()[0]) and pave_check.split()[0].endswith("pave-check")
    assert "--db" in pave_check  # a non-default store is named, as in the settings entries
    assert (plugin / "README.md").read_text().startswith("# dp for Claude Code")
    assert "MIT License" in (plugin / "LICENSE").read_text()
    assert json.loads((plugin / ".mcp.json").read_text())["mcpServers"]["dp"]["args"][-1] == "mcp"
    # The mod runs the same pave-check as the front door for Bash, and the same dp-capture; the classic
    # Bash, PostToolBatch and capture handlers then step aside (a shell test on the session's id), and run
    # as before where mods do not load.
    capture = f"{Path(pave_check.split()[0]).parent / 'dp-capture'} --db {db_path}"
    assert json.loads((plugin / "hooks" / "dp-plugin.json").read_text()) == {
        "state": str(db_path.parent / "claude-mod"), "pave_check": pave_check, "capture": capture}
    bash_handlers = [h["command"] for g in hooks["hooks"]["PreToolUse"] if g["matcher"] == "Bash" for h in g["hooks"]]
    batch_handler = hooks["hooks"]["PostToolBatch"][0]["hooks"][0]["command"]
    for guarded in (*bash_handlers, batch_handler):
        assert guarded.startswith('[ "${DP_MOD_FRONT_DOOR:-}" = "${CLAUDE_CODE_SESSION_ID:-}" ]')
    assert all(handler.endswith(f"|| exec {pave_check}") for handler in bash_handlers)
    # PostToolBatch: the same step aside, then pave-check only after a refused tool name (filters.wanted).
    assert batch_handler.endswith(f"""|| {{ p=$(cat); case "$p" in *'No such tool available'*) printf %s "$p" | """
                                  f"{pave_check};; esac; }}")
    for event in ("PostToolUse", "PostToolUseFailure"):
        [handler] = hooks["hooks"][event][0]["hooks"]
        assert handler["command"].startswith('[ "${DP_MOD_FRONT_DOOR:-}" = "${CLAUDE_CODE_SESSION_ID:-}" ]')
        assert handler["command"].endswith(f"|| exec {capture}")
        assert handler.get("async", False) is (event == "PostToolUse")
    user = json.loads(settings.read_text())
    assert "hooks" not in user  # never the same hook twice: the plugin carries them now
    assert user["pluginConfigs"]["dp@dp-local"]["options"]["tools"] == ["Read"]

    again = run("init", "--plugin", cwd=project)
    assert again.returncode == 0 and "(unchanged)" in again.stdout


def test_the_snapshot_follows_every_rule_change(run, db_path, tmp_path):
    snapshot = db_path.parent / "claude-mod" / "aliases.json"
    assert run("alias", "read_file", "Read", "--message", "Read takes file_path.").returncode == 0
    aliases = json.loads(snapshot.read_text())["aliases"]
    assert aliases[0]["name"] == "read_file" and aliases[0]["tool"] == "Read"
    assert aliases[0]["args"]["path"] == "file_path" and aliases[0]["message"] == "Read takes file_path."
    assert run("alias", "run_shell", "Bash").returncode == 0
    assert {a["name"]: a["args"].get("cmd") for a in json.loads(snapshot.read_text())["aliases"]} == {
        "read_file": None, "run_shell": "command"}
    assert run("alias", "--delete", "read_file").returncode == 0
    assert [a["name"] for a in json.loads(snapshot.read_text())["aliases"]] == ["run_shell"]


def test_a_rule_change_updates_the_plugin_and_the_mods_tool_list(run, home, db_path):
    assert run("init", "--plugin").returncode == 0
    hooks = db_path.parent / "claude-plugin" / "dp" / "hooks" / "hooks.json"
    before = hooks.read_bytes()
    hooks.write_text("{}")  # out of line with the rules
    proc = run("alias", "--cmd", "grep", "--replace", "rg")
    assert proc.returncode == 0
    assert hooks.read_bytes() == before  # the plugin's entries are brought back in line on a rule change
    assert run("alias", "write_file", "Write").returncode == 0
    options = json.loads((home / ".claude" / "settings.json").read_text())["pluginConfigs"]["dp@dp-local"]["options"]
    assert options["tools"] == ["Write"]


def test_project_scope_lives_in_the_repository_and_finds_each_persons_dp(run, dp, env, tmp_path):
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    proc = run("pave", "--plugin", "--scope", "project", cwd=project)
    assert proc.returncode == 0, proc.stderr
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert settings["enabledPlugins"] == {"dp@dp-project": True}
    assert settings["extraKnownMarketplaces"]["dp-project"]["source"] == {"source": "directory",
                                                                         "path": "./.claude/dp-plugin"}
    plugin = project / ".claude" / "dp-plugin" / "dp"
    assert not (plugin / "hooks" / "dp-plugin.json").exists()  # no one's paths in a committed plugin
    hooks = (plugin / "hooks" / "hooks.json").read_text()
    assert str(tmp_path) not in hooks and "${CLAUDE_PLUGIN_ROOT}/bin/dp-run" in hooks
    runner = plugin / "bin" / "dp-run"
    assert os.access(runner, os.X_OK)

    # A teammate without dp: nothing breaks, SessionStart says once how to install it.
    bare = {"HOME": str(tmp_path / "teammate"), "PATH": "/usr/bin:/bin"}
    session = subprocess.run([str(runner), "pave-check"], input=json.dumps({"hook_event_name": "SessionStart"}),
                             capture_output=True, text=True, env=bare, timeout=30)
    assert session.returncode == 0
    context = json.loads(session.stdout)["hookSpecificOutput"]["additionalContext"]
    assert f"not installed on this machine: {INSTALL_HINT}, then start a new session" in context
    for program, event in (("pave-check", "PreToolUse"), ("pave-check", "PostToolBatch"), ("dp-capture", "PostToolUse")):
        quiet = subprocess.run([str(runner), program], input=json.dumps({"hook_event_name": event}),
                               capture_output=True, text=True, env=bare, timeout=30)
        assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")

    # A teammate with dp on PATH: the runner starts their own pave-check.
    with_dp = {**env, "HOME": str(tmp_path / "teammate")}
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
               "session_id": "s", "cwd": str(project)}
    ran = subprocess.run([str(runner), "pave-check"], input=json.dumps(payload), capture_output=True, text=True,
                         env=with_dp, timeout=60)
    assert ran.returncode == 0 and ran.stderr == ""


def test_uninstall_removes_the_plugin_its_marketplace_and_the_settings_keys(run, home, db_path, tmp_path):
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    assert run("init", "--plugin", cwd=project).returncode == 0
    assert run("pave", "--plugin", "--scope", "project", cwd=project).returncode == 0

    proc = run("uninstall", cwd=project)

    assert proc.returncode == 0, proc.stderr
    assert not (db_path.parent / "claude-plugin").exists()
    assert not (project / ".claude").exists()  # dp created it all: nothing of the repository's is left
    user = json.loads((home / ".claude" / "settings.json").read_text())
    assert "pluginConfigs" not in user and "enabledPlugins" not in user


def test_the_mods_fixes_are_counted_by_dp_desires(run, db_path):
    spool = db_path.parent / "claude-mod" / "fixes"
    spool.mkdir(parents=True)
    record = {"session_id": "s1", "cwd": "/work", "tool_use_id": "toolu_1", "tool_name": "read_file",
              "ran_as": "Read", "tool_input": {"path": "a.txt", "token": "ghp_" + "a" * 36},
              "at": "2026-11-26T10:00:00.123Z"}
    (spool / "toolu_1.json").write_text(json.dumps(record))
    (spool / "junk.json").write_text("{not json")

    events = json.loads(run("desires", "--json").stdout)

    assert [(e["tool_name"], e["source"], e["error_class"]) for e in events] == [("read_file", "mod", "unknown tool")]
    assert "ran as Read" in events[0]["error"] and "ghp_" not in json.dumps(events[0])
    assert list(spool.iterdir()) == []
    paths = run("paths", "--json")
    assert paths.returncode == 0 and "read_file" in paths.stdout


def test_settings_hooks_beside_the_user_plugin_are_refused(run, home, tmp_path):
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    assert run("init", "--plugin", cwd=project).returncode == 0
    settings = home / ".claude" / "settings.json"
    before = settings.read_bytes()
    for args in (["init"], ["pave", "--hook"]):
        proc = run(*args, cwd=project)
        assert proc.returncode == 1
        assert proc.stderr.startswith("dp: error: dp's hooks already come with the Claude Code plugin dp@dp-local")
        assert len(proc.stderr.strip().splitlines()) == 1
    assert settings.read_bytes() == before
    assert run("pave", "--hook", "--scope", "project", cwd=project).returncode == 0  # a team's entries are another matter


def test_uninstall_without_claude_says_what_to_run_and_leaves_no_empty_plugin_keys(run, home, tmp_path):
    project = tmp_path / "repo"
    project.mkdir()
    assert run("init", "--plugin", cwd=project).returncode == 0
    settings = home / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["enabledPlugins"] = {}  # what `claude plugin uninstall` leaves behind
    settings.write_text(json.dumps(data))

    proc = run("uninstall", cwd=project)

    assert proc.returncode == 0, proc.stderr
    assert "claude is not on PATH, so also run: claude plugin uninstall dp@dp-local --scope user" in proc.stdout
    assert not {"enabledPlugins", "pluginConfigs", "extraKnownMarketplaces"} & set(json.loads(settings.read_text()))


def _front_door(db_path) -> dict:
    return json.loads((db_path.parent / "claude-mod" / "aliases.json").read_text())["bash"]


def _recorded_fresh(door: dict) -> bool:
    """Every source the words were made from reads as recorded (what the mod checks before trusting them)."""
    for source in door["sources"]:
        path = source["path"]
        now = os.stat(path).st_mtime_ns / 1e6 if os.path.exists(path) else None
        if now != source["mtime_ms"]:
            return False
    return True


def test_every_rule_trust_and_paving_change_rewrites_the_front_doors_words(run, db_path, tmp_path):
    """The mod's word set follows the rules: a rule's command word, paving's words while it is on,
    every call for a rule on no word; the rules stamp it was made at moves with each rule change."""
    project = tmp_path / "project"
    project.mkdir()
    assert run("alias", "--cmd", "oldtool", "--replace", "newtool", cwd=project).returncode == 0
    door = _front_door(db_path)
    assert "oldtool" in door["words"] and "npm" in door["words"] and door["everything"] is False
    assert door["sources"][0]["path"] == str(db_path.parent / "rules.changed") and _recorded_fresh(door)

    assert run("paving", "off", cwd=project).returncode == 0
    door = _front_door(db_path)
    assert "npm" not in door["words"] and "oldtool" in door["words"] and _recorded_fresh(door)

    assert run("alias", "--tool", "Bash", "--param", "command", "rm -rf /", "echo no", cwd=project).returncode == 0
    door = _front_door(db_path)
    assert door["everything"] is True and _recorded_fresh(door)

    assert run("alias", "--delete", "--tool", "Bash", "--param", "command", "rm -rf /", cwd=project).returncode == 0
    assert run("alias", "--delete", "--cmd", "oldtool", "--replace", "newtool", cwd=project).returncode == 0
    door = _front_door(db_path)
    assert door["everything"] is False and "oldtool" not in door["words"] and _recorded_fresh(door)


def test_a_rule_change_whose_sync_did_not_run_leaves_the_words_stale(run, db_path, tmp_path):
    """The store's own write marks the rules changed; the snapshot then reads as stale (the mod sends
    every call to dp) until the next sync writes it again."""
    project = tmp_path / "project"
    project.mkdir()
    assert run("alias", "--cmd", "oldtool", "--replace", "newtool", cwd=project).returncode == 0
    assert _recorded_fresh(_front_door(db_path))
    # A writer that does not sync (as a crash between the two would): a Python of its own, where no CLI
    # follows the store's announcement (dp.changes), whatever this test process imported before.
    writer = ("import sys; from dp.rules.model import BASH_PARAM, BASH_TOOL, COMMAND, Rule; from dp.store import Store\n"
              "with Store.open(sys.argv[1]) as store:\n"
              "    store.set_rule(Rule('cat', 'bat', tool=BASH_TOOL, param=BASH_PARAM, command='cat', match_kind=COMMAND))")
    proc = subprocess.run([sys.executable, "-c", writer, str(db_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert not _recorded_fresh(_front_door(db_path))
    assert run("alias", "--cmd", "ls", "--replace", "eza", cwd=project).returncode == 0
    door = _front_door(db_path)
    assert _recorded_fresh(door) and {"cat", "ls"} <= set(door["words"])


def test_a_trusted_project_files_words_and_the_file_itself_are_the_front_doors(run, db_path, tmp_path):
    """A trusted file's Bash rule words join the set, and the file is a source: edited (even back to the
    trusted text, which acts again at once in the hook) the words read stale until dp syncs again."""
    repo = tmp_path / "repo"
    (repo / ".dp").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    rules = repo / ".dp" / "rules.toml"
    text = ('[[aliases]]\nfrom = "wisp"\nto = "ephemeral"\ntool = "Bash"\nparam = "command"\n'
            'command = "bd"\nmatch_kind = "flag"\n')
    rules.write_text(text)
    assert run("trust", cwd=repo).returncode == 0
    door = _front_door(db_path)
    assert "bd" in door["words"] and str(rules.resolve()) in [source["path"] for source in door["sources"]]
    assert door["needs"] == {"pip": "install", "pip3": "install", "python": " -m", "python3": " -m"}
    assert _recorded_fresh(door)

    rules.write_text(text.replace("ephemeral", "temp"))  # untrusted now: inert in the hook
    rules.write_text(text)  # trusted again, acting in the hook with no dp run
    assert not _recorded_fresh(door)
    assert run("alias", "-q", "--cmd", "python", "--replace", "python3", cwd=repo).returncode == 0
    door = _front_door(db_path)
    assert _recorded_fresh(door) and "bd" in door["words"]
    assert "python" not in door["needs"]  # a rule on the word: every python call, as the hook fetches it
