"""Fixtures of this real-client suite: the pinned ``auggie`` and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import auggie, auggie_binary

__all__ = ["auggie_binary", "auggie"]
