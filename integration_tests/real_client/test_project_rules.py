"""A repository's committed .dp/rules.toml in the real client: inert when cloned, acting after dp trust."""

from __future__ import annotations

import subprocess

from dp.agents.claude.fake_api import bash

RULES = """# This repository's bd has no --wisp.
[meta]
version = 1

[[aliases]]
from = "wisp"
to = "ephemeral"
tool = "Bash"
param = "command"
command = "bd"
match_kind = "flag"
message = "this repository's bd has no --wisp"
"""


def test_project_rules_act_in_the_real_client_only_after_trust(client):
    client.dp("paving", "off")  # so the hook entries are `if` filters on the rules' words alone
    client.init()
    filters = [handler.get("if") for group in client.read_settings()["hooks"]["PreToolUse"] for handler in group["hooks"]]
    assert filters == ["Bash(*dp*)"]  # no rule yet: only a call naming dp starts it (its commands are the person's)
    subprocess.run(["git", "init", "-q", str(client.project)], check=True, env=client.env)
    (client.project / ".dp").mkdir()
    (client.project / ".dp" / "rules.toml").write_text(RULES)
    client.program("bd")
    (client.project / "src").mkdir()

    before = bash("bd create --wisp 'fix the build'")
    session = client.run([[before]], cwd=client.project / "src")
    assert session.tool_result(before["id"])["text"] == "bd ran: create --wisp fix the build"
    assert f"{client.project}/.dp/rules.toml is not trusted" in session.opening
    assert "`dp trust`" in session.opening and "only the person runs that, in their own terminal" in session.opening

    client.dp("trust")
    assert any("bd" in (handler.get("if") or "") for group in client.read_settings()["hooks"]["PreToolUse"]
               for handler in group["hooks"])  # the trusted words reach the client's `if` filters
    after = bash("bd create --wisp 'fix the build'")
    session = client.run([[after]], cwd=client.project / "src")
    assert session.tool_result(after["id"])["text"] == "bd ran: create --ephemeral fix the build"
    assert "this repository's bd has no --wisp" in session.shown(after["id"])
    assert "Flag `--wisp` should be `--ephemeral`" in session.opening
    assert "not trusted" not in session.opening
