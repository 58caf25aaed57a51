"""Paving on, on a Claude Code without mods (2.1.240, and 2.1.197): after a plain ``dp init`` an ordinary Bash call starts
no pave-check — neither for PreToolUse nor for PostToolBatch — while paving, rule and recipe calls are rewritten
as before and a refused tool name is still corrected. A recording wrapper in front of pave-check and dp-capture
counts every process the client starts (dp/agents/claude/filters.py says what the client does with conditions)."""

from __future__ import annotations

import json

import pytest
from paving_projects import git_init, make_js_project

from dp.agents.claude import filters
from dp.agents.claude.client import OLDEST_CHECKED as OLDEST
from dp.agents.claude.client import spelled
from dp.agents.claude.fake_api import bash, tool_use
from real_client.test_if_filters import log_spawns, spawned
from real_client.test_plugin import release_client

WITHOUT_MODS = "2.1.240"
OLDEST_CHECKED = spelled(OLDEST)
ORDINARY = ["ls", "git status --short", "cat notes.txt", "echo hi", "pwd", "ls -la node_modules dist | sort",
            "cat 'odd name (1).txt'", "wc -c logo.png"]


def real_looking_project(client) -> None:
    """A pnpm package with a repository, installed modules, build output, a binary file and an odd name."""
    git_init(client.project)
    make_js_project(client.project, "pnpm")
    (client.project / "node_modules" / ".bin").mkdir(parents=True)
    (client.project / "node_modules" / "left-pad" / "index.js").parent.mkdir(parents=True)
    (client.project / "node_modules" / "left-pad" / "index.js").write_text("module.exports = s => s\n")
    (client.project / "dist").mkdir()
    (client.project / "dist" / "app.js").write_text("console.log('built')\n")
    (client.project / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    (client.project / "notes.txt").write_text("remember the milk\n")
    (client.project / "odd name (1).txt").write_text("odd\n")
    for name in ("pnpm", "npm", "oldtool", "newtool"):
        client.program(name)


def starts_line(client) -> str:
    checks = json.loads(client.dp("doctor", "--json", check=False).stdout)["checks"]
    [entries] = [check for check in checks if check["check"] == "entries"]
    return entries["message"]


@pytest.mark.parametrize("release", [WITHOUT_MODS, OLDEST_CHECKED])
def test_ordinary_calls_start_no_pave_check_with_paving_on_and_rewrites_stay(tmp_path, warm_cache, release):
    client = release_client(tmp_path, warm_cache, release)
    real_looking_project(client)
    client.dp("init")  # plain: paving is on by default, and this client loads no mods
    client.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    client.dp("alias", "--recipe", "gt wait", "echo waited {{ arg(1) }}")
    client.dp("alias", "read_file", "Read")
    groups = client.read_settings()["hooks"]["PreToolUse"]
    bash_conditions = [handler.get("if") for group in groups if group["matcher"] == "Bash" for handler in group["hooks"]]
    assert None not in bash_conditions and "Bash(*npm*)" in bash_conditions and "Bash(*pyt*)" in bash_conditions
    assert len(bash_conditions) <= filters.MAX_CONDITIONS
    said = starts_line(client)
    assert f"pave-check starts for Bash commands naming one of {len(bash_conditions)} word stems" in said, said
    assert "after a batch in which Claude Code refused a tool name (PostToolBatch)" in said
    log = log_spawns(client)

    ordinary = [bash(command) for command in ORDINARY]
    session = client.run([[call] for call in ordinary], timeout=300)
    assert session.result["is_error"] is False
    assert session.tool_result(ordinary[2]["id"])["text"] == "remember the milk"
    # Once per session, at its start (the corrections up front); never for a call.
    assert [row for row in spawned(log) if row[0] == "pave-check"] == [["pave-check", "SessionStart", None]]
    # dp-capture's success entry still starts after each call (async: the client does not wait for it). An `if`
    # cannot narrow it: dp-capture keeps the calls just after a failure, whatever their words.
    assert {event for program, event, _ in spawned(log) if program == "dp-capture"} <= {"PostToolUse"}

    paved, ruled, recipe = bash("npm install"), bash("ls && oldtool -x notes.txt"), bash("gt wait job1")
    made_up, looped = tool_use("read_file", {"file_path": "notes.txt"}), bash("for f in a b; do echo $f; done")
    looped_rule = bash('for f in a b; do oldtool "$f"; done')
    session = client.run([[paved], [ruled], [recipe], [made_up], [looped], [looped_rule]], timeout=300)
    assert session.tool_result(paved["id"])["text"] == "pnpm ran: install"
    assert session.tool_result(ruled["id"])["text"].endswith("newtool ran: -x notes.txt")
    assert session.tool_result(recipe["id"])["text"] == "waited job1"
    assert "read_file is not a valid tool. Use Read instead." in session.shown(made_up["id"])
    assert session.tool_result(looped["id"])["text"] == "a\nb"
    events = [(event, command) for program, event, command in spawned(log) if program == "pave-check"]
    for call in (paved, ruled, recipe):
        assert events.count(("PreToolUse", call["input"]["command"])) == 1
    # The client cannot analyze a loop over $f: it starts every filtered handler (its choice, not dp's).
    assert events.count(("PreToolUse", looped["input"]["command"])) == len(bash_conditions)
    # ... and for a loop a rule rewrites, every one of them rewrites it, but the model reads dp's note once
    assert events.count(("PreToolUse", looped_rule["input"]["command"])) == len(bash_conditions)
    assert session.tool_result(looped_rule["id"])["text"].startswith("newtool ran: a\nnewtool ran: b")
    assert session.shown(looped_rule["id"]).count("dp: oldtool → newtool") == 1
    assert [event for event, _ in events if event == "PostToolBatch"] == ["PostToolBatch"]  # after read_file only


def test_init_and_doctor_say_in_one_line_when_the_filters_cannot_cover_the_rules(tmp_path, warm_cache):
    client = release_client(tmp_path, warm_cache, WITHOUT_MODS)
    git_init(client.project)
    said = client.dp("init").stdout
    assert "pave-check starts for Bash commands naming one of" in said and "every Bash command" not in said, said
    client.dp("alias", "--tool", "Bash", "--param", "command", "http://old.example", "https://new.example")
    line = "pave-check starts for every Bash command: a rule can match any Bash command"
    assert line in starts_line(client)
    assert [handler.get("if") for handler in client.read_settings()["hooks"]["PreToolUse"][0]["hooks"]] == [None]
    assert line in client.dp("pave", "--hook").stdout
