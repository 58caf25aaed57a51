"""Fixtures of the Copilot CLI real-client tests: the pinned binary and a throwaway user."""

from __future__ import annotations

import shutil

import pytest

from real_client_copilot.copilot_install import copilot_cli, installed_or_skip
from real_client_copilot.copilot_support import CopilotClient


@pytest.fixture(scope="session")
def copilot_binary():
    """The pinned native ``copilot``, installed once per machine into $DP_TESTS_CACHE."""
    return installed_or_skip(copilot_cli())


@pytest.fixture
def copilot(tmp_path, copilot_binary, warm_cache) -> CopilotClient:
    """A fresh user account with the real Copilot CLI; nothing of dp is installed until the test does it."""
    client = CopilotClient(tmp_path, copilot_binary)
    if warm_cache.is_dir():
        shutil.copytree(warm_cache, client.home / ".cache" / "dp")
    return client
