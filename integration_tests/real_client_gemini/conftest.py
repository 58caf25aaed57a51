"""Fixtures of the Gemini CLI real-client tests: the pinned ``gemini`` and a throwaway user."""

from __future__ import annotations

import pytest
from agent_home import new_user
from npm_packages import installed_or_skip

from real_client_gemini import gemini_install
from real_client_gemini.gemini_support import GeminiUser


@pytest.fixture(scope="session")
def gemini_binary():
    """The pinned ``gemini``, installed once per machine into $DP_TESTS_CACHE (a loud skip without npm)."""
    return installed_or_skip(gemini_install.tool(), "REAL CLIENT TESTS (Gemini CLI)")


@pytest.fixture
def gemini(tmp_path, gemini_binary, warm_cache) -> GeminiUser:
    """A fresh user account with the real Gemini CLI; nothing of dp is installed until the test runs ``dp init``."""
    return new_user(GeminiUser, tmp_path, gemini_binary, warm_cache)
