"""dp in the real Gemini CLI (0.61.0): rewrites, paving, blocks, capture and context, proven by what ran
and by what the scripted model was shown."""

from __future__ import annotations

import json

from dp.agents.gemini.fake_api import function_call, shell

MODIFIED = "Tool input parameters were modified by a hook before execution."


def source_tree(gemini):
    src = gemini.project / "src"
    src.mkdir()
    (src / "app.py").write_text("def main():\n    pass  # TODO: wire the CLI\n")
    (src / "util.py").write_text("VALUE = 1\n")
    (gemini.project / "build").mkdir()
    (gemini.project / "build" / "blob.bin").write_bytes(b"\x00\x01TODO\x00binary")
    (gemini.project / ".gitignore").write_text("build/\n")
    return src


def use_real_rg(gemini):
    from agent_home import BIN

    (gemini.bin / "rg").symlink_to(BIN / "rg")


def test_grep_runs_as_the_translated_rg_command_and_the_model_is_told(gemini):
    source_tree(gemini)
    use_real_rg(gemini)
    gemini.program("grep", 'echo "GREP RAN, NOT RG" "$@"; exit 1')
    gemini.init()
    gemini.dp("alias", "--cmd", "grep", "--replace", "rg")

    session = gemini.run([[shell("grep -rn TODO src")]])

    assert session.proc.returncode == 0, session.log
    [result] = session.results()
    assert "src/app.py:2:    pass  # TODO: wire the CLI" in result
    assert "GREP RAN" not in result
    assert MODIFIED in result
    assert "dp: " in result and "rg" in result  # dp's own note on what changed, after the result


def test_npm_install_in_a_pnpm_project_runs_as_pnpm_install(gemini):
    (gemini.project / "package.json").write_text(json.dumps({"name": "app", "version": "1.0.0"}))
    (gemini.project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    gemini.program("npm", 'echo "NPM RAN:" "$@"')
    gemini.program("pnpm", 'echo "PNPM RAN:" "$@"')
    gemini.init()

    session = gemini.run([[shell("npm install")]])

    [result] = session.results()
    assert "Output: PNPM RAN: install" in result and "Output: NPM RAN" not in result
    assert MODIFIED in result


def test_a_known_tool_alias_blocks_with_dps_message(gemini):
    gemini.init()
    gemini.dp("alias", "list_directory", "glob", "--force", "--message", "dp: list files with glob here, never list_directory")

    session = gemini.run([[function_call("list_directory", {"dir_path": "."})]])

    [result] = session.results("list_directory")
    assert "Tool execution blocked: dp: list files with glob here, never list_directory" in result


def test_a_failing_command_shows_up_in_dp_desires(gemini):
    gemini.init()

    session = gemini.run([[shell("pnmp install --frozen-lockfile")]])

    [result] = session.results()
    assert "Exit Code: 127" in result
    [event] = json.loads(gemini.dp("desires", "--json").stdout)
    assert event["tool_input"]["command"] == "pnmp install --frozen-lockfile"
    assert event["source"] == "gemini" and event["tool_name"] == "Bash"
    assert event["error_class"] == "command not found"
    suggestions = gemini.dp("paths").stdout
    assert "pnmp" in suggestions


def test_a_corrupt_store_fails_open(gemini):
    source_tree(gemini)
    gemini.init()
    gemini.dp("alias", "--cmd", "grep", "--replace", "rg")
    for suffix in ("", "-wal", "-shm"):
        path = gemini.store.with_name(gemini.store.name + suffix)
        if path.exists():
            path.unlink()
    gemini.store.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)

    session = gemini.run([[shell("grep -rn TODO src")]])

    assert session.proc.returncode == 0, session.log
    [result] = session.results()
    assert "src/app.py:2:" in result  # the original grep ran
    assert MODIFIED not in result and "Tool execution blocked" not in result


def test_session_start_context_carries_the_tool_name_corrections(gemini):
    gemini.init()
    gemini.dp("alias", "Bash", "run_shell_command", "--force")
    gemini.dp("alias", "read_file", "Read")  # Claude Code's correction: Gemini's own read_file, never mentioned

    session = gemini.run([], prompt="List the files.")

    opening = session.opening
    assert "dp (desire paths) corrections on this machine" in opening
    assert "Do NOT call `Bash`. Use `run_shell_command` instead." in opening
    assert "read_file" not in opening
    assert opening.index("Do NOT call") < opening.index("List the files.")
