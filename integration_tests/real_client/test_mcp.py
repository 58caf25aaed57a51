"""The real Claude Code calls dp's MCP server, registered with ``dp pave --mcp --scope project``."""

from __future__ import annotations

import json

from dp.agents.claude.fake_api import tool_use


def test_project_recipe_result_reaches_the_model(client):
    (client.project / "package.json").write_text(json.dumps({
        "name": "fixture",
        "scripts": {"test": "node -e \"console.log('3 passed')\""},
    }))
    (client.project / "package-lock.json").write_text('{"name": "fixture", "lockfileVersion": 3}')
    client.dp("pave", "--mcp", "--scope", "project")
    client.env["npm_config_update_notifier"] = "false"  # no "new npm available" notice in the output

    call = tool_use("mcp__dp__project_recipe", {"op": "test"})
    unknown = tool_use("mcp__dp__project_recipe", {"op": "tset"})
    session = client.run([[call], [unknown]], allow=("mcp__dp__project_recipe",))

    assert session.result["is_error"] is False, session.proc.stdout + session.proc.stderr
    shown = session.tool_result(call["id"])
    assert shown["is_error"] is False, shown
    result = json.loads(shown["text"])
    assert (result["runner"], result["command"], result["exit_code"]) == ("npm", "npm run test", 0)
    assert "3 passed" in result["stdout"] and result["timed_out"] is False
    assert result["available_tasks"] == {"npm": ["test"]}
    # Claude Code 2.1.330 hands the model the structured content as compact JSON, and a
    # JSON-RPC invalid_params error as an error result holding just its message.
    assert shown["text"] == json.dumps(result, separators=(",", ":"))
    refused = session.tool_result(unknown["id"])
    assert refused == {"text": 'no task "tset" in this project; did you mean "test"? available: npm: test',
                       "is_error": True, "context": ""}
    # The server's instructions reach the model (a system reminder; where it lands in the
    # conversation is the client's choice).
    assert "dp runs this project's own tasks" in session.all_text
