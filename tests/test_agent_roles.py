"""Every agent's folder against the catalogue of roles (``dp/agents/roles.py``).

A role is found by its file's name alone (``Agent.role``), so a file named after a role must be that
role: each module a folder holds under a role's name provides what the role's ``Protocol`` says, with
the same parameters, and the registry and the callers find exactly the roles the folders have.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from dp.agents import get, names, with_role
from dp.agents.base import Agent
from dp.agents.hookbase import Hooks
from dp.agents.roles import CATALOGUE, INSTANCES, Adapter

AGENTS = Path(__file__).resolve().parents[1] / "dp" / "agents"
ROLE_FILES = [(name, path.stem) for name in names() for path in sorted((AGENTS / name).glob("*.py"))
              if path.stem in CATALOGUE]


def _members(protocol) -> dict:
    """The protocol's functions (name → signature without ``self``) and its other attributes (name → None)."""
    members = {}
    for name, value in vars(protocol).items():
        if inspect.isfunction(value) and not name.startswith("_"):
            members[name] = inspect.signature(value).replace(
                parameters=list(inspect.signature(value).parameters.values())[1:])
    for name in getattr(protocol, "__annotations__", {}):
        members.setdefault(name, None)
    return members


def _fits(own: inspect.Signature, wanted: inspect.Signature) -> bool:
    """Whether a module's function takes every call the protocol's signature allows: the same parameters in
    the same order and kind, a default wherever the protocol has one, and any more of its own only with one."""
    mine, theirs = list(own.parameters.values()), list(wanted.parameters.values())
    optional = inspect.Parameter.empty
    return (len(mine) >= len(theirs)
            and all((a.name, a.kind) == (b.name, b.kind) and (b.default is optional or a.default is not optional)
                    for a, b in zip(mine, theirs))
            and all(extra.default is not optional for extra in mine[len(theirs):]))


def test_every_folder_plays_the_wire_and_hooks_roles():
    for name in names():
        agent = get(name)
        assert agent.has_role("wire") and isinstance(agent, Agent) and agent.name == name
        assert agent.role("wire").ADAPTER is type(agent)
        assert agent.has_role("hooks") and agent.hooks() is agent.role("hooks").HOOKS
        assert isinstance(agent.hooks(), Hooks) and agent.hooks().agent is agent


@pytest.mark.parametrize("agent", names())
def test_each_agent_writes_its_own_hook_entries(agent):
    """``hook_entries`` is the one member ``dp.agents.hookbase.Hooks`` has no default for: every agent's own."""
    hooks = type(get(agent).hooks())
    assert hooks.hook_entries is not Hooks.hook_entries, (agent, "hook_entries left to hookbase")


def test_the_adapter_keeps_only_the_hook_path():
    """The install side lives in the "hooks" role, never on ``Agent``, whose module the hook imports."""
    for member in _members(CATALOGUE["hooks"]):
        assert not hasattr(Agent, member), member


@pytest.mark.parametrize("agent", names())
def test_each_adapter_implements_what_the_catalogue_says(agent):
    """Every method of ``roles.Adapter`` is the adapter's own (not ``Agent``'s stub), with the protocol's
    parameters; ``tool_event`` only where the adapter reads its events through ``Agent.read_event``."""
    adapter = type(get(agent))
    for member, signature in _members(Adapter).items():
        if member == "tool_event" and adapter.read_event is not Agent.read_event:
            continue  # reads every payload itself (its payloads name no hook event)
        own = getattr(adapter, member)
        assert own is not getattr(Agent, member), (agent, member, "left to Agent")
        assert _fits(inspect.signature(own).replace(parameters=list(
            inspect.signature(own).parameters.values())[1:]), signature), (agent, member)


@pytest.mark.parametrize("agent, role", ROLE_FILES)
def test_each_role_file_implements_its_protocol(agent, role):
    """Runtime-checkable (every member there) and structural (every function with the protocol's parameters)."""
    module = get(agent).role(role)
    subject = getattr(module, INSTANCES[role]) if role in INSTANCES else module
    protocol = CATALOGUE[role]
    assert isinstance(subject, protocol), f"dp/agents/{agent}/{role}.py lacks a member of roles.{protocol.__name__}"
    for member, signature in _members(protocol).items():
        if signature is not None:
            assert _fits(inspect.signature(getattr(subject, member)), signature), (agent, role, member)


def test_the_registry_finds_exactly_the_role_files():
    for role in CATALOGUE:
        assert [agent.name for agent in with_role(role)] == [
            name for name in names() if (AGENTS / name / f"{role}.py").is_file()]
    assert get().role("doctor") is not None and get("opencode").role("doctor") is None


def test_a_role_outside_the_catalogue_is_an_error():
    with pytest.raises(ValueError, match="no role of dp/agents/roles.py"):
        get().role("transcripts")


def test_the_check_sees_a_role_file_that_is_not_its_role(tmp_path):
    """A module named after a role whose function takes other parameters fails the structural check."""
    spec = tmp_path / "doctor.py"
    spec.write_text("def check(db_path, rules):\n    return []\n", encoding="utf-8")
    namespace: dict = {}
    exec(compile(spec.read_text(encoding="utf-8"), str(spec), "exec"), namespace)
    wanted = _members(CATALOGUE["doctor"])["check"]
    assert not _fits(inspect.signature(namespace["check"]), wanted)
    assert _fits(inspect.signature(lambda db_path, cwd, rules, verbose=False: []), wanted)
    assert not _fits(inspect.signature(lambda db_path, cwd, rules, verbose: []), wanted)
    missing = type("Module", (), {})()
    assert not isinstance(missing, CATALOGUE["sessions"])
