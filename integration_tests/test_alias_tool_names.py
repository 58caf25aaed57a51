"""Rules that would break a real tool, or name one that does not exist.

``dp alias Read SuperRead`` blocks every Read; ``--tool Bogus`` never fires.
Both are refused unless ``--force``; the real names come from every agent's adapter (dp/agents/),
so ``dp alias Read read_file`` (Gemini CLI's name for Read) blocks nothing and needs no --force
(integration_tests/test_agent_neutral_rules.py).
"""

from __future__ import annotations

import pytest

from dp.agents.tools import BUILTIN_TOOLS


@pytest.mark.parametrize("tool", sorted(BUILTIN_TOOLS))
def test_aliasing_a_real_tool_away_is_refused_unless_forced(dp, tool):
    result = dp("alias", tool, "super_tool")
    assert result.returncode == 1
    assert result.stderr.startswith("dp: error: ") and "--force" in result.stderr and tool in result.stderr
    assert dp("aliases", "--json").stdout.strip() in ("", "[]")
    assert dp("alias", tool, "super_tool", "--force").returncode == 0


@pytest.mark.parametrize("tool", ["Bogus", "reed", "shell", "mcp__"])
def test_an_unknown_tool_is_refused_unless_forced(dp, tool):
    result = dp("alias", "--tool", tool, "--param", "file_path", "/a", "/b")
    assert result.returncode == 1 and "--force" in result.stderr and tool in result.stderr
    assert dp("alias", "--tool", tool, "--param", "file_path", "/a", "/b", "--force").returncode == 0


@pytest.mark.parametrize(
    "args",
    [
        ["read_file", "Read"],
        ["Task", "Agent"],  # a retired name: older installations still send it
        ["mcp__gh__made_up", "Read"],  # hallucinated MCP tools are what aliases are for
        ["--tool", "Edit", "--param", "file_path", "/a", "/b"],
        ["--tool", "mcp__github__create_issue", "--param", "title", "a", "b"],
    ],
)
def test_ordinary_rules_need_no_force(dp, args):
    assert dp("alias", *args).returncode == 0


@pytest.mark.parametrize(
    "entry, name",
    [
        ({"from": "Read", "to": "SuperRead"}, "Read"),
        ({"from": "Bash", "to": "shell"}, "Bash"),
        ({"from": "/a", "to": "/b", "tool": "Bogus", "param": "file_path", "match_kind": "literal"}, "Bogus"),
    ],
)
def test_an_import_is_held_to_the_same_rule(dp, tmp_path, entry, name):
    import json

    collection = tmp_path / "team.json"
    collection.write_text(json.dumps({"aliases": [{"from": "read_file", "to": "Read"}, entry]}))
    refused = dp("aliases", "import", collection)
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1
    assert "entry 2" in refused.stderr and name in refused.stderr and "--force" in refused.stderr
    assert dp("aliases", "--json").stdout.strip() in ("", "[]")  # validated first: nothing landed
    forced = dp("aliases", "import", collection, "--force")
    assert forced.returncode == 0, forced.stderr
    assert len(json.loads(dp("aliases", "--json").stdout)) == 2
