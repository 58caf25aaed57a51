"""Fixtures of the OpenCode real-client tests: the pinned ``opencode`` and a throwaway user."""

from __future__ import annotations

import pytest
from agent_home import new_user
from npm_packages import installed_or_skip

from real_client_opencode import opencode_install
from real_client_opencode.opencode_support import OpenCodeUser


@pytest.fixture(scope="session")
def opencode_binary():
    """The pinned ``opencode``, installed once per machine into $DP_TESTS_CACHE (a loud skip without npm)."""
    return installed_or_skip(opencode_install.tool(), "REAL CLIENT TESTS (OpenCode)")


@pytest.fixture
def opencode(tmp_path, opencode_binary, warm_cache) -> OpenCodeUser:
    """A fresh user account with the real OpenCode; nothing of dp is installed until the test runs ``dp init``."""
    return new_user(OpenCodeUser, tmp_path, opencode_binary, warm_cache)
