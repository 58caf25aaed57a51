"""The throwaway users of every real-client suite, as pytest fixtures: each agent's pinned binary and a user.

One place for every agent dp serves (the registry's names), so each agent's own folder and the shared
contract (``real_client_contract/``) get the same user from the same fixture: ``<agent>_binary`` installs
the pinned binary once per machine into $DP_TESTS_CACHE (a loud skip where npm cannot give it), and the
user fixture (``client`` for Claude Code, the agent's name for the others) is a fresh HOME with that binary
on PATH and dp's warmed caches; nothing of dp is installed until the test runs ``dp init``. What each agent
needs is its own suite's ``contract.py`` (``SUITE``, ``HARNESS``): adding an agent adds no line here. A
suite's conftest imports the two fixtures it uses.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest
from agent_home import new_user

from dp.agents import DEFAULT, names


def suite(name: str) -> ModuleType:
    """The ``contract`` module of agent ``name``'s real-client suite (Claude Code's is ``real_client/``)."""
    return importlib.import_module(f"{'real_client' if name == DEFAULT else f'real_client_{name}'}.contract")


def _agent(module: ModuleType) -> dict:
    """The fixtures ``<program>_binary`` (session-wide) and the user's, by name."""
    fixture, made = module.HARNESS.fixture, module.SUITE
    binary_name = f"{made.program or fixture}_binary"

    @pytest.fixture(scope="session", name=binary_name)
    def binary_fixture():
        return made.binary()

    @pytest.fixture(name=fixture)
    def user_fixture(request, tmp_path, warm_cache):
        return new_user(made.user_class, tmp_path, request.getfixturevalue(binary_name), warm_cache)

    return {binary_name: binary_fixture, fixture: user_fixture}


FIXTURES: dict = {}
for _name in names():
    FIXTURES.update(_agent(suite(_name)))
globals().update(FIXTURES)
