"""Fixtures of the real-client tests: the pinned Claude Code and a throwaway user."""

from __future__ import annotations

import shutil

import pytest

from real_client.claude_install import claude_code, installed_or_skip
from real_client.client_support import RealClient


@pytest.fixture(scope="session")
def claude_binary():
    """The pinned native ``claude``, installed once per machine into ~/.cache/dp-tests."""
    return installed_or_skip(claude_code())


@pytest.fixture
def client(tmp_path, claude_binary, warm_cache) -> RealClient:
    """A fresh user account with the real client; nothing is installed until the test runs ``dp init``."""
    client = RealClient(tmp_path, claude_binary)
    if warm_cache.is_dir():
        shutil.copytree(warm_cache, client.home / ".cache" / "dp")
    return client
