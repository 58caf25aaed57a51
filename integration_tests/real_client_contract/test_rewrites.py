"""A Bash rewrite in every agent's real binary: what runs is what dp's rules say, and the model is told.

Where the agent runs a hook's rewritten call (``rewrites``), the rewritten command runs in place of the
typed one; where it cannot (Qwen Code), dp refuses with the corrected command and the reissued command
runs. Either way the typed command never runs and the model reads dp's note beside the result."""

from __future__ import annotations

import json
import subprocess

import pytest
from agent_home import BIN

from real_client_contract.harnesses import agents, oldtool_rule

TRANSLATED = "rg -n --hidden --no-ignore TODO src"


def source_tree(user):
    """A project with sources, a binary file, an ignored build folder and dependencies, under git."""
    subprocess.run(["git", "init", "-q", str(user.project)], check=True)
    src = user.project / "src"
    src.mkdir()
    (src / "app.py").write_text("def main():\n    pass  # TODO: wire the CLI\n")
    (src / "util.py").write_text("VALUE = 1\n")
    (src / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (user.project / "build").mkdir()
    (user.project / "build" / "blob.bin").write_bytes(b"\x00\x01TODO\x00binary")
    (user.project / ".gitignore").write_text("build/\n")
    (user.project / "node_modules" / "left-pad").mkdir(parents=True)
    (user.project / "node_modules" / "left-pad" / "index.js").write_text("// TODO elsewhere\n")


@pytest.mark.parametrize("harness", agents("copilot", "gemini", "opencode"))
def test_grep_runs_as_the_translated_rg_command_and_the_model_is_told(harness, user):
    source_tree(user)
    (user.bin / "rg").symlink_to(BIN / "rg")  # the real rg, found first on the user's PATH
    user.program("grep", 'echo "GREP RAN, NOT RG" "$@"; exit 1')
    user.init(*harness.init)
    user.dp("alias", "--cmd", "grep", "--replace", "rg")
    call = harness.shell("grep -rn TODO src", description="Find the TODOs")

    session = harness.run(user, [[call]])

    assert session.proc.returncode == 0, session.proc.stdout + session.proc.stderr
    result, shown = harness.result(session, call), harness.shown(session, call)
    assert "src/app.py:2:    pass  # TODO: wire the CLI" in result, shown
    if harness.output_first:
        assert result.startswith("src/app.py:2:    pass  # TODO: wire the CLI\n"), result
    assert "GREP RAN" not in result and "node_modules" not in result
    assert "dp: grep → rg: dropped -r (rg searches directories recursively)" in shown  # dp's note, beside it
    assert harness.rewritten in shown
    if harness.history:  # the model's own history holds the call as it ran, its other keys kept
        ran = harness.history(session, call)
        assert (ran["command"], ran["description"]) == (TRANSLATED, "Find the TODOs"), ran


@pytest.mark.parametrize("harness", agents("codex", "gemini", "opencode", "qwen"))
def test_npm_install_in_a_pnpm_project_runs_as_pnpm_install(harness, user):
    user.init(*harness.init)  # paving is on by default: no rule written by hand
    (user.project / "package.json").write_text(json.dumps({"name": "app", "version": "1.0.0",
                                                           "scripts": {"build": "tsc"}}))
    (user.project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    (user.project / "node_modules" / ".bin").mkdir(parents=True)
    user.program("npm", 'touch package-lock.json; echo "npm itself ran:" "$@"')
    user.program("pnpm", 'echo "PNPM RAN:" "$@"')
    install, again = harness.shell("npm install"), harness.shell("pnpm install")

    session = harness.run(user, [[install]] + ([] if harness.rewrites else [[again]]))

    assert session.proc.returncode == 0, session.proc.stdout + session.proc.stderr
    shown = harness.shown(session, install)
    assert "npm itself ran" not in shown
    if harness.rewrites:
        result = harness.result(session, install)
        assert harness.output_prefix + "PNPM RAN: install" in result, shown
        if harness.output_first:
            assert result.startswith("PNPM RAN: install"), result
        assert "ran `pnpm install` instead of `npm install`" in shown
        assert harness.rewritten in shown
    else:  # refused with the corrected command, which the model reissues
        assert "Run this instead:\npnpm install" in shown
        assert "PNPM RAN: install" in harness.result(session, again)
    assert not (user.project / "package-lock.json").exists()


@pytest.mark.parametrize("harness", agents(where=lambda harness: harness.refusing is not None))
def test_where_the_agent_cannot_run_a_rewrite_unasked_dp_refuses_with_the_correction_and_the_reissue_runs(
        harness, user):
    oldtool_rule(user, *harness.init)
    first, again = harness.shell("oldtool -x a.txt"), harness.shell("newtool -x a.txt")

    session = user.run([[first], [again]], *harness.refusing)

    assert session.proc.returncode == 0, session.proc.stdout + session.proc.stderr
    refused = harness.result(session, first)
    assert refused.startswith(harness.refusal + "dp: oldtool → newtool. Run this instead:\nnewtool -x a.txt\n"), refused
    assert harness.refusal_why in refused
    assert not (user.project / "oldtool-ran").exists()
    # The model reissued the corrected command itself; the agent's own approval judged it.
    assert "newtool ran: -x a.txt" in harness.result(session, again)
    assert (user.project / "newtool-ran").exists()
    if harness.history:  # the model's history keeps its own call: what it was told is the refusal
        assert harness.history(session, first)["command"] == "oldtool -x a.txt"
