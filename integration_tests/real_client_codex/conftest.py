"""Fixtures of this real-client suite: the pinned ``codex`` and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import codex, codex_binary

__all__ = ["codex_binary", "codex"]
