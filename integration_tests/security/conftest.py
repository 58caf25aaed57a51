"""Fixtures of the security suite: the marker directory and a cloned repository beside it."""

from __future__ import annotations

import pytest

from security.repository import Markers


@pytest.fixture
def markers(tmp_path) -> Markers:
    """Where hostile repository content writes when it runs: outside the repository, checked empty."""
    return Markers(tmp_path / "markers")
