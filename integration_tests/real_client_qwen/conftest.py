"""Fixtures of this real-client suite: the pinned ``qwen`` and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import qwen, qwen_binary

__all__ = ["qwen_binary", "qwen"]
