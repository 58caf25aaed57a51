"""dp in the real OpenCode (1.18.33): rewrites, paving, blocks, tool-name corrections and the corrections up
front, proven by what ran and by what the scripted model was shown."""

from __future__ import annotations

import json

from dp.live.openai_compat import tool_call
from real_client_opencode.opencode_support import bash


def source_tree(opencode):
    src = opencode.project / "src"
    src.mkdir()
    (src / "app.py").write_text("def main():\n    pass  # TODO: wire the CLI\n")
    (src / "util.py").write_text("VALUE = 1\n")
    (opencode.project / "build").mkdir()
    (opencode.project / "build" / "blob.bin").write_bytes(b"\x00\x01TODO\x00binary")
    (opencode.project / ".gitignore").write_text("build/\n")
    return src


def test_without_an_alias_opencode_answers_a_made_up_name_itself(opencode):
    opencode.init()
    call = tool_call("read_file", {"path": "a.txt"})

    session = opencode.run([[call]])

    assert "Model tried to call unavailable tool 'read_file'" in session.result(call)


def test_the_corrections_are_in_the_system_prompt(opencode):
    opencode.init()
    opencode.dp("alias", "read_file", "Read")
    opencode.dp("alias", "--cmd", "grep", "--replace", "rg")

    session = opencode.run([], prompt="List the files.")

    system = session.system
    assert "dp (desire paths) corrections on this machine" in system
    assert "Do NOT call `read_file`. Use `read` instead." in system
    assert "rg" in system


def test_dp_missing_leaves_every_call_alone(opencode):
    source_tree(opencode)
    opencode.init()
    opencode.dp("alias", "--cmd", "grep", "--replace", "rg")
    config = opencode.config_dir / "plugins" / "dp-opencode.json"
    config.write_text(json.dumps({"pave": [str(opencode.root / "gone" / "pave-check")],
                                  "capture": [str(opencode.root / "gone" / "dp-capture")]}))
    call = bash("grep -rn TODO src")

    session = opencode.run([[call]])

    assert session.proc.returncode == 0, session.log
    assert "src/app.py:2:" in session.result(call)
    assert session.call(call)["arguments"]["command"] == "grep -rn TODO src"
