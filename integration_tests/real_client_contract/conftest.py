"""The shared real-client contract's fixtures: every agent's user (real_client_users.py), and ``user``,
the one the test's harness names."""

from __future__ import annotations

import pytest
from real_client_users import FIXTURES

globals().update(FIXTURES)  # pytest finds fixtures among a conftest's names


@pytest.fixture
def user(request, harness):
    """A fresh user of the agent whose ``harness`` the test is parametrised with, its binary installed."""
    return request.getfixturevalue(harness.fixture)
