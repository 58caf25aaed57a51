"""The shared real-client contract's fixtures: every agent's user (real_client_users.py), and ``user``,
the one the test's harness names."""

from __future__ import annotations

import pytest
from real_client_users import (  # noqa: F401 (fixtures: pytest finds them in this module)
    claude_binary,
    client,
    codex,
    codex_binary,
    copilot,
    copilot_binary,
    gemini,
    gemini_binary,
    opencode,
    opencode_binary,
    qwen,
    qwen_binary,
)


@pytest.fixture
def user(request, harness):
    """A fresh user of the agent whose ``harness`` the test is parametrised with, its binary installed."""
    return request.getfixturevalue(harness.fixture)
