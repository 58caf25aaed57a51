"""dp pave --hook / --unhook / dp init --dry-run --agent opencode: dp's plugin files in place and out again,
without the binary (integration_tests/real_client_opencode/ runs them in the real one)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from hook_support import BIN, isolated_env


def dp(env, cwd, *args):
    proc = subprocess.run([str(BIN / "dp"), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def test_pave_hook_and_unhook_put_the_plugin_in_place_and_take_it_out(tmp_path):
    env = isolated_env(tmp_path)
    env["XDG_CONFIG_HOME"] = str(tmp_path / "home" / ".config")
    mine = tmp_path / "home" / ".config" / "opencode" / "opencode.jsonc"
    mine.parent.mkdir(parents=True)
    mine.write_text('{ // mine\n "theme": "system" }\n')
    report = json.loads(dp(env, tmp_path, "pave", "--hook", "--agent", "opencode", "--json").stdout)
    plugin = mine.parent / "plugins" / "dp.ts"
    assert report["plugin"] == str(plugin) and report["status"] == "configured"
    commands = json.loads((plugin.parent / "dp-opencode.json").read_text())
    assert commands["pave"][0].endswith("pave-check") and commands["capture"][0].endswith("dp-capture")
    assert commands["pave"][1:] == ["--agent", "opencode", "--db", env["DP_DB"]]  # a store other than ~/.dp's

    dp(env, tmp_path, "pave", "--unhook", "--agent", "opencode")

    assert not (mine.parent / "plugins").exists() and mine.read_text() == '{ // mine\n "theme": "system" }\n'


def test_a_project_install_has_no_commands_file_and_dry_run_writes_nothing(tmp_path):
    env = isolated_env(tmp_path)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    out = dp(env, project, "init", "--agent", "opencode", "--scope", "project", "--dry-run").stdout
    assert ".opencode/plugins/dp.ts (would be created)" in out and not (project / ".opencode").exists()
    dp(env, project, "init", "--agent", "opencode", "--scope", "project", "-q")
    assert sorted(p.name for p in (project / ".opencode" / "plugins").iterdir()) == ["dp.ts"]
    dp(env, project, "uninstall", "-q")
    assert not (project / ".opencode").exists()


def test_the_installed_plugin_carries_the_mods_word_scan_and_finds_the_gate_beside_the_store(tmp_path):
    """The plugin decides from dp's hook gate as JSON, beside the store its pave-check is given (--db),
    with the Claude Code mod's own port of the hook's word scan appended (one port, not exported)."""
    env = isolated_env(tmp_path)
    env["XDG_CONFIG_HOME"] = str(tmp_path / "home" / ".config")
    dp(env, tmp_path, "init", "--agent", "opencode")
    dp(env, tmp_path, "alias", "-q", "--cmd", "grep", "--replace", "rg")
    plugin = (tmp_path / "home" / ".config" / "opencode" / "plugins" / "dp.ts").read_text()
    assert "\nfunction commandWords(text: string)" in plugin and "\nexport function" not in plugin
    door = json.loads(Path(env["DP_DB"] + ".hook-gate.json").read_text())
    assert "grep" in door["words"] and door["everything"] is False and door["stamp"]
    assert door["sources"][0]["path"].endswith("rules.changed")
    checks = json.loads(subprocess.run([str(BIN / "dp"), "doctor", "--json"], capture_output=True, text=True, env=env,
                                       cwd=tmp_path, timeout=120).stdout)["checks"]
    assert any(check["message"].endswith("the plugin starts pave-check only for a call a rule, alias or paving word "
                                         "can concern, and dp-capture only for a failure and the 5 Bash calls after it")
               for check in checks if check["check"] == "agents"), checks


def test_opencode_tool_names_are_dps_in_lower_case_but_the_ones_the_plugin_lists():
    """The plugin compares OpenCode's tool names with the gate's (dp's) in lower case; the exceptions
    are spelled in it (OTHER_NAMES)."""
    from dp.agents import get
    from dp.agents.opencode.install import SHIPPED

    source = SHIPPED.read_text()
    for name, canonical in get("opencode").tool_names.items():
        assert name == canonical.lower() or f"{name}: '{canonical.lower()}'" in source, name


def test_a_copy_of_the_plugin_for_an_agent_built_on_opencode_names_that_agent_and_installs_alike(tmp_path):
    """One plugin source for OpenCode and the agents that load OpenCode's plugins from their own config
    directories: the copy asks ``pave-check --agent NAME``, reads ``dp-NAME.json``, and installs and
    uninstalls as OpenCode's does (its own first line, so neither takes the other's file for dp's)."""
    from dp.agents.opencode.install import OPENCODE
    from dp.agents.plugin_files import PluginFiles

    fork = PluginFiles("fork", "Fork Code", "fork", ".fork")
    text = fork.shipped_text().decode()
    assert text.startswith("// dp (desire paths) in Fork Code:") and "const AGENT = 'fork'\n" in text
    own = OPENCODE.shipped_text().decode()
    assert "const AGENT = 'opencode'\n" in own
    assert text.replace("Fork Code:", "OpenCode:", 1).replace("AGENT = 'fork'", "AGENT = 'opencode'") == own
    path = fork.plugin_path("user", home=tmp_path)
    assert path == tmp_path / ".config" / "fork" / "plugins" / "dp.ts"
    assert fork.plugin_path("project", project_dir=tmp_path) == tmp_path / ".fork" / "plugins" / "dp.ts"
    report = fork.install(path, "user", "/bin/pave-check --agent fork", "/bin/dp-capture --agent fork")
    assert json.loads(path.with_name("dp-fork.json").read_text()) == {
        "pave": ["/bin/pave-check", "--agent", "fork"], "capture": ["/bin/dp-capture", "--agent", "fork"]}
    assert (fork.state(path), OPENCODE.state(path)) == ("current", "not dp's")
    assert fork.uninstall(path, report)["removed"] == 2 and not (tmp_path / ".config").exists()
