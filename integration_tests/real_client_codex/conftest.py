"""Fixtures of the Codex real-client tests: the pinned ``codex`` and a throwaway user."""

from __future__ import annotations

import pytest
from agent_home import new_user
from npm_packages import installed_or_skip

from real_client_codex import codex_install
from real_client_codex.codex_support import CodexUser


@pytest.fixture(scope="session")
def codex_binary():
    """The pinned native ``codex``, installed once per machine into $DP_TESTS_CACHE (a loud skip without npm)."""
    return installed_or_skip(codex_install.tool(), "REAL CLIENT TESTS (Codex CLI)")


@pytest.fixture
def codex(tmp_path, codex_binary, warm_cache) -> CodexUser:
    """A fresh user account with the real Codex CLI; nothing is installed until the test runs ``dp init``."""
    return new_user(CodexUser, tmp_path, codex_binary, warm_cache)
