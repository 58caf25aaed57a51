"""Rules that would break a real Claude Code tool, or name one that does not exist.

``dp alias Read read_file`` blocks every Read; ``--tool Bogus`` never fires.
Both are refused unless ``--force``; the real names come from dp/claude/tools.py.
"""

from __future__ import annotations

import pytest

from dp.claude.tools import BUILTIN_TOOLS


@pytest.mark.parametrize("tool", sorted(BUILTIN_TOOLS))
def test_aliasing_a_real_tool_away_is_refused_unless_forced(dp, tool):
    result = dp("alias", tool, "read_file")
    assert result.returncode == 1
    assert result.stderr.startswith("dp: error: ") and "--force" in result.stderr and tool in result.stderr
    assert dp("aliases", "--json").stdout.strip() in ("", "[]")
    assert dp("alias", tool, "read_file", "--force").returncode == 0


@pytest.mark.parametrize("tool", ["Bogus", "read", "bash", "mcp__"])
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
