"""dp as a Claude Code plugin, in the real client: the mod runs a hallucinated tool name as the real tool.

``dp init --plugin`` writes the plugin and its local marketplace and installs it
with the real ``claude plugin`` commands (the client is on the throwaway user's
PATH). The model then calls ``read_file {"path": …}``, which Claude Code alone
refuses before any settings hook runs; with the mod it runs as Read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dp import INSTALL_HINT
from dp.agents.claude.fake_api import tool_use
from real_client.claude_install import claude_code, installed_or_skip
from real_client.client_support import BIN, RealClient

NOTE = "read_file is not a Claude Code tool; this call ran as Read"
LATEST = "2.1.332"  # `npm view @anthropic-ai/claude-code version` on 2026-11-26


def release_client(tmp_path, warm_cache, release: str | None) -> RealClient:
    """A fresh user with Claude Code RELEASE (None: the pinned one), installed by the same locked, skip-loudly installer as the pinned one."""
    client = RealClient(tmp_path, installed_or_skip(claude_code(release)))
    if warm_cache.is_dir():
        shutil.copytree(warm_cache, client.home / ".cache" / "dp")
    return client


def plugin_findings(client) -> list[str]:
    """``dp doctor``'s plugin lines, as the user gets them."""
    report = json.loads(client.dp("doctor", "--json", check=False).stdout)
    return [f["message"] for f in report["checks"] if f["check"] == "plugin"]


def install_plugin(client, *args) -> dict:
    report = client.init("--plugin", *args)
    steps = report["plugin"]["client"]
    assert steps["ran"] and steps["ok"], steps
    return report


@pytest.mark.parametrize("release", [None, LATEST], ids=["pinned", LATEST])
def test_read_file_runs_as_read_and_the_fix_is_captured(tmp_path, warm_cache, release):
    client = release_client(tmp_path, warm_cache, release)
    client.dp("alias", "read_file", "Read")
    # A Read parameter rule: the file read is final.txt only if pave-check saw a Read with file_path.
    client.dp("alias", "--tool", "Read", "--param", "file_path", "draft.txt", "final.txt")
    install_plugin(client)
    (client.project / "draft.txt").write_text("the draft\n")
    (client.project / "final.txt").write_text("the final text\n")
    settings = client.read_settings()
    assert "hooks" not in settings, "dp's settings entries must leave when the plugin carries them"

    call = tool_use("read_file", {"path": "draft.txt"})
    session = client.run([[call]])

    assert session.result["is_error"] is False
    result = session.tool_result(call["id"])
    assert "the final text" in result["text"] and result["is_error"] is False
    assert session.shown(call["id"]).count(NOTE) == 1
    assert "No such tool available" not in session.all_text
    desires = json.loads(client.dp("desires", "--json").stdout)
    fixed = [event for event in desires if event["tool_name"] == "read_file"]
    assert len(fixed) == 1 and fixed[0]["source"] == "mod", desires
    assert "ran as Read" in fixed[0]["error"]
    assert any("the mod loaded in the latest session" in line for line in plugin_findings(client))
    assert fixed[0]["tool_input"] == {"path": "draft.txt"}  # as the model wrote it

    client.dp("uninstall")  # through the real `claude plugin uninstall` and `marketplace remove`
    installed = json.loads((client.home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    assert "dp@dp-local" not in installed["plugins"]
    assert not {"enabledPlugins", "extraKnownMarketplaces", "pluginConfigs", "hooks"} & set(client.read_settings())
    assert not (client.home / ".dp" / "claude-plugin").exists()


def test_message_and_several_renamed_calls_in_one_response(client):
    client.dp("alias", "read_file", "Read", "--message", "Read takes file_path.")
    client.dp("alias", "open_file", "Read")
    install_plugin(client)
    for name in ("a.txt", "b.txt", "c.txt"):
        (client.project / name).write_text(f"content of {name}\n")

    calls = [tool_use("read_file", {"path": "a.txt"}), tool_use("open_file", {"file": "b.txt"}),
             tool_use("read_file", {"filename": "c.txt"})]
    session = client.run([calls])

    for call, name in zip(calls, ("a.txt", "b.txt", "c.txt")):
        assert f"content of {name}" in session.tool_result(call["id"])["text"]
    # Each name is corrected once (the batch's notes arrive together after it), the message with it.
    told = session.all_text
    assert told.count(NOTE + ". Call Read directly. Read takes file_path.") == 1
    assert told.count(NOTE) == 1
    assert told.count("open_file is not a Claude Code tool; this call ran as Read") == 1
    assert NOTE in session.shown(calls[0]["id"])


def test_a_mod_that_throws_leaves_the_call_as_without_the_plugin(client):
    client.dp("alias", "read_file", "Read")
    install_plugin(client)
    # Break the mod, in the marketplace and in the client's plugin cache: every renamed() call throws.
    installed = json.loads((client.home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    for plugin in (client.home / ".dp" / "claude-plugin" / "dp", Path(installed["plugins"]["dp@dp-local"][0]["installPath"])):
        module = plugin / "hooks" / "register.ts"
        source = module.read_text()
        broken = source.replace("  if (chunk.kind !== 'tool') return chunk\n", "  throw new Error('dp test: broken')\n")
        assert broken != source
        module.write_text(broken)
    (client.project / "a.txt").write_text("content\n")

    call = tool_use("read_file", {"path": "a.txt"})
    session = client.run([[call]])

    result = session.tool_result(call["id"])
    assert "No such tool available: read_file" in result["text"] and result["is_error"]
    assert "read_file is not a valid tool. Use Read instead." in session.shown(call["id"])  # PostToolBatch
    # The mod did load (and threw): the same as without the plugin is its own doing, not a failed load.
    assert any("the mod loaded in the latest session" in line for line in plugin_findings(client))


# -- other releases: the latest on npm, and clients where the mod does not load ----------------

@pytest.mark.parametrize("release, switch", [("2.1.240", {}), ("2.1.286", {"CLAUDE_CODE_ENABLE_FUNCTION_HOOKS": "0"})])
def test_where_the_mod_does_not_load_the_fallback_corrections_reach_the_model(tmp_path, warm_cache, release, switch):
    client = release_client(tmp_path, warm_cache, release)
    client.dp("alias", "read_file", "Read")
    install_plugin(client)
    client.env.update(switch)
    (client.project / "a.txt").write_text("content\n")

    call = tool_use("read_file", {"path": "a.txt"})
    session = client.run([[call]])

    assert session.result["is_error"] is False
    assert "read_file → Read" in session.opening or "read_file" in session.opening  # SessionStart, up front
    result = session.tool_result(call["id"])
    assert "No such tool available: read_file" in result["text"]
    assert "read_file is not a valid tool. Use Read instead." in session.shown(call["id"])  # PostToolBatch
    assert any("the mod did not load in the latest session" in line for line in plugin_findings(client))


# -- a team: the project-scope plugin committed, each teammate's own dp ------------------------


def link_dp(client: RealClient) -> None:
    """This user's own dp on their PATH (the programs of the dp under test)."""
    for program in ("dp", "pave-check", "dp-capture"):
        (client.bin / program).symlink_to(BIN / program)


def clone(teammate: RealClient, origin) -> None:
    shutil.rmtree(teammate.project)
    subprocess.run(["git", "clone", "-q", str(origin), str(teammate.project)], check=True, env=teammate.env)


def clone_for(teammate: RealClient, origin) -> None:
    """A clone whose committed plugin this teammate, without dp, registers by hand (its README's two commands)."""
    clone(teammate, origin)
    for step in (["marketplace", "add", "./.claude/dp-plugin", "--scope", "local"],
                 ["install", "dp@dp-project", "--scope", "local"]):
        proc = subprocess.run([str(teammate.binary), "plugin", *step], capture_output=True, text=True,
                              cwd=teammate.project, env=teammate.env, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_teammate_who_clones_the_repository_gets_the_fix_with_their_own_dp(client, tmp_path, claude_binary):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q"], cwd=client.project, check=True, env=client.env)
    (client.project / "a.txt").write_text("team content\n")
    client.dp("pave", "--plugin", "--scope", "project")
    subprocess.run([*git, "add", "-A"], cwd=client.project, check=True, env=client.env)
    subprocess.run([*git, "commit", "-qm", "dp plugin"], cwd=client.project, check=True, env=client.env)

    teammate = RealClient(tmp_path / "teammate", claude_binary)
    link_dp(teammate)
    clone(teammate, client.project)
    teammate.dp("trust")  # the plugin is the repository's code: read (dp trust --show) and trusted first
    # Then one command: dp init registers the committed plugin for this teammate (local scope) and says so.
    init = teammate.dp("init").stdout
    assert (f"Team plugin: registered dp@dp-project for you in {teammate.project} (local scope: this clone, only "
            "you):\n     claude plugin marketplace add ./.claude/dp-plugin --scope local\n"
            "     claude plugin install dp@dp-project --scope local\n") in init
    installed = json.loads((teammate.home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    [entry] = installed["plugins"]["dp@dp-project"]
    assert (entry["scope"], entry["projectPath"]) == ("local", str(teammate.project))
    assert "Team plugin" not in teammate.dp("init").stdout  # registered: said once
    teammate.dp("alias", "read_file", "Read")  # the teammate's own rule, in the teammate's own store
    call = tool_use("read_file", {"path": "a.txt"})
    session = teammate.run([[call]])
    assert "team content" in session.tool_result(call["id"])["text"]
    assert session.shown(call["id"]).count(NOTE) == 1

    newcomer = RealClient(tmp_path / "newcomer", claude_binary)
    newcomer.env["PATH"] = os.pathsep.join(d for d in newcomer.env["PATH"].split(os.pathsep)
                                           if not os.path.exists(os.path.join(d, "pave-check")))
    clone_for(newcomer, client.project)
    call = tool_use("read_file", {"path": "a.txt"})
    session = newcomer.run([[call]])
    assert session.result["is_error"] is False and session.proc.returncode == 0
    assert session.all_text.count(f"not installed on this machine: {INSTALL_HINT}") == 1
    assert "hook error" not in session.all_text.lower() and "hook error" not in session.proc.stderr.lower()


# -- the client's own checks on the generated plugin ---------------------------------------


@pytest.mark.parametrize("scope", ["user", "project"])
def test_claude_plugin_validate_passes_and_claude_plugin_test_runs_the_mods_tests(client, scope):
    subprocess.run(["git", "init", "-q"], cwd=client.project, check=True, env=client.env)
    client.dp("pave", "--plugin", "--scope", scope)
    plugin = (client.home / ".dp" / "claude-plugin" if scope == "user" else client.project / ".claude" / "dp-plugin")

    for target in (plugin, plugin / "dp"):  # the marketplace, then the plugin
        checked = subprocess.run([str(client.binary), "plugin", "validate", str(target)], capture_output=True,
                                 text=True, env=client.env, timeout=120)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "Validation passed" in checked.stdout and "error TS" not in checked.stdout
    tested = subprocess.run([str(client.binary), "plugin", "test", str(plugin / "dp")], capture_output=True,
                            text=True, env=client.env, timeout=300)
    output = tested.stdout + tested.stderr
    assert tested.returncode == 0, output
    assert " 0 fail" in output and "(fail)" not in output
    assert "renames the tool chunk of an aliased name" in output
