"""Fixtures of the Qwen Code real-client tests: the pinned ``qwen`` and a throwaway user."""

from __future__ import annotations

import pytest
from agent_home import new_user
from npm_packages import installed_or_skip

from real_client_qwen.qwen_support import TOOL, QwenUser


@pytest.fixture(scope="session")
def qwen_binary():
    """The pinned ``qwen``, installed once per machine into $DP_TESTS_CACHE (a loud skip without npm)."""
    return installed_or_skip(TOOL, "REAL CLIENT TESTS (Qwen Code)")


@pytest.fixture
def qwen(tmp_path, qwen_binary, warm_cache) -> QwenUser:
    """A fresh user account with the real Qwen Code; nothing is installed until the test runs ``dp init``."""
    return new_user(QwenUser, tmp_path, qwen_binary, warm_cache)
