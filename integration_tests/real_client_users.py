"""The throwaway users of every real-client suite, as pytest fixtures: each agent's pinned binary and a user.

One place for all six, so each agent's own folder and the shared contract (``real_client_contract/``)
get the same user from the same fixture: ``<agent>_binary`` installs the pinned binary once per
machine into $DP_TESTS_CACHE (a loud skip where npm cannot give it), and the user fixture (``client``
for Claude Code, ``copilot``, ``codex``, ``gemini``, ``opencode``, ``qwen``) is a fresh HOME with
that binary on PATH and dp's warmed caches; nothing of dp is installed until the test runs ``dp init``.
A suite's conftest imports the two fixtures it uses.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from agent_home import new_user
from npm_packages import installed_or_skip
from real_client.claude_install import claude_code
from real_client.client_support import RealClient
from real_client_codex import codex_install
from real_client_codex.codex_support import CodexUser
from real_client_copilot.copilot_install import copilot_cli
from real_client_copilot.copilot_support import CopilotClient
from real_client_gemini import gemini_install
from real_client_gemini.gemini_support import GeminiUser
from real_client_opencode import opencode_install
from real_client_opencode.opencode_support import OpenCodeUser
from real_client_qwen.qwen_support import TOOL as QWEN
from real_client_qwen.qwen_support import QwenUser


def _agent(name: str, user_class: type, binary: Callable[[], Path], program: str = ""):
    """The fixtures ``<program>_binary`` (session-wide; ``program`` defaults to ``name``) and ``<name>``
    (a fresh user of ``user_class``)."""
    binary_name = f"{program or name}_binary"

    @pytest.fixture(scope="session", name=binary_name)
    def binary_fixture() -> Path:
        return binary()

    @pytest.fixture(name=name)
    def user_fixture(request, tmp_path, warm_cache):
        return new_user(user_class, tmp_path, request.getfixturevalue(binary_name), warm_cache)

    return binary_fixture, user_fixture


claude_binary, client = _agent("client", RealClient, lambda: installed_or_skip(claude_code()), "claude")
copilot_binary, copilot = _agent("copilot", CopilotClient, lambda: installed_or_skip(copilot_cli()))
codex_binary, codex = _agent(
    "codex", CodexUser, lambda: installed_or_skip(codex_install.tool(), "REAL CLIENT TESTS (Codex CLI)"))
gemini_binary, gemini = _agent(
    "gemini", GeminiUser, lambda: installed_or_skip(gemini_install.tool(), "REAL CLIENT TESTS (Gemini CLI)"))
opencode_binary, opencode = _agent(
    "opencode", OpenCodeUser, lambda: installed_or_skip(opencode_install.tool(), "REAL CLIENT TESTS (OpenCode)"))
qwen_binary, qwen = _agent("qwen", QwenUser, lambda: installed_or_skip(QWEN, "REAL CLIENT TESTS (Qwen Code)"))
