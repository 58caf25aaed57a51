"""Fixtures of this real-client suite: the pinned Claude Code and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import claude_binary, client

__all__ = ["claude_binary", "client"]
