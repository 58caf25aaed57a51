"""Each agent's hook entries follow the rules (issue 52): the before-tool matcher names only the tools
pave-check can act on — the shell, a tool a rule's input names, a name a tool-name alias corrects
(dp.agents.matchers) — recomputed on every rule change, and ``dp doctor`` says per agent which calls
start a dp process, read from the entries themselves. An agent whose entries must select every tool
(Codex CLI: its trust is a hash of the matcher) says so instead. What each agent's matcher means is
observed in its binary (integration_tests/real_client_<agent>/test_matchers.py)."""

from __future__ import annotations

import json
import re

import pytest

from dp.agents import DEFAULT, all_agents, get

AGENTS = [pytest.param(agent.name, id=agent.name) for agent in all_agents() if agent.name != DEFAULT and not agent.plugin]
# A tool name no agent has and no rule here names.
NOBODYS_TOOL = "zz_no_rule_names_this"


def _matcher(agent, home) -> list:
    """The matchers of dp's pave-check groups on the agent's before-tool event (None: a group has none); one
    group in most agents, more where a group selects commands besides tools (Factory Droid's commandRegex)."""
    settings = json.loads(agent.hooks().config_path("user", home=home).read_text())
    return [group.get("matcher") for group in settings["hooks"][agent.pre_tool_hook]
            if any("pave-check" in hook["command"] for hook in group["hooks"])]


def _selects(matchers: list, tool: str) -> bool:
    """Whether one of ``matchers`` selects ``tool`` in every agent that reads it (dp writes ``^(a|b)$`` or selects
    all)."""
    return any(matcher in (None, "", "*") or re.fullmatch(matcher, tool) is not None for matcher in matchers)


def _doctor_line(dp, agent) -> str:
    checks = json.loads(dp("doctor", "--json").stdout)["checks"]
    [line] = [check["message"] for check in checks if check["check"] == "agents" and " dp starts " in check["message"]
              and check["message"].startswith(agent.display)]
    return line


@pytest.mark.parametrize("name", AGENTS)
def test_the_before_tool_matcher_follows_every_rule_change_and_doctor_says_it(dp, home, name):
    agent = get(name)
    shell, read = agent.agent_tool("Bash"), agent.agent_tool("Read")
    assert dp("init", "--agent", name, "--json").returncode == 0
    assert dp("alias", "--cmd", "grep", "--replace", "rg").returncode == 0
    every = _selects(_matcher(agent, home), NOBODYS_TOOL)
    if every:  # the agent's entries cannot follow the rules: doctor says every call starts dp
        assert f"pave-check for every {agent.pre_tool_hook} call" in _doctor_line(dp, agent)
        return
    assert [tool for tool in (shell, read, "view_file") if _selects(_matcher(agent, home), tool)] == [shell]
    assert f"pave-check for {agent.pre_tool_hook} calls of {shell} only" in _doctor_line(dp, agent)

    assert dp("alias", "--force", "view_file", "Read").returncode == 0  # a tool-name alias: its name too
    assert dp("alias", "--tool", "Read", "--param", "file_path", "/srv/old/", "/srv/new/").returncode == 0
    assert [tool for tool in (shell, read, "view_file", NOBODYS_TOOL) if _selects(_matcher(agent, home), tool)] == [
        shell, read, "view_file"]
    assert f"calls of {', '.join(sorted((shell, read, 'view_file')))} only" in _doctor_line(dp, agent)

    assert dp("alias", "--delete", "view_file").returncode == 0
    assert dp("alias", "--delete", "--tool", "Read", "--param", "file_path", "/srv/old/").returncode == 0
    assert [tool for tool in (shell, read, "view_file") if _selects(_matcher(agent, home), tool)] == [shell]


@pytest.mark.parametrize("name", AGENTS)
def test_doctor_warns_when_the_entries_are_not_the_ones_the_rules_call_for(dp, home, name):
    agent = get(name)
    assert dp("init", "--agent", name, "--json").returncode == 0
    path = agent.hooks().config_path("user", home=home)
    settings = json.loads(path.read_text())
    for group in settings["hooks"][agent.pre_tool_hook]:
        group["matcher"] = "^(nothing)$"  # narrowed by hand: the shell no longer reaches dp
    path.write_text(json.dumps(settings))

    checks = json.loads(dp("doctor", "--json").stdout)["checks"]
    [stale] = [check for check in checks if "not the ones the rules call for" in check["message"]]
    assert stale["status"] == "warning" and stale["fix"] == f"dp pave --hook --agent {name} --scope user"
    assert dp(*stale["fix"].split()[1:]).returncode == 0
    assert not [check for check in json.loads(dp("doctor", "--json").stdout)["checks"]
                if "not the ones the rules call for" in check["message"]]
