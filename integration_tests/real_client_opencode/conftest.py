"""Fixtures of this real-client suite: the pinned ``opencode`` and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import opencode, opencode_binary

__all__ = ["opencode_binary", "opencode"]
