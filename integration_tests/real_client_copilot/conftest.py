"""Fixtures of this real-client suite: the pinned Copilot CLI and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import copilot, copilot_binary

__all__ = ["copilot_binary", "copilot"]
