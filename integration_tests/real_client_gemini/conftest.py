"""Fixtures of this real-client suite: the pinned ``gemini`` and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import gemini, gemini_binary

__all__ = ["gemini_binary", "gemini"]
