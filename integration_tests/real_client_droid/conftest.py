"""Fixtures of this real-client suite: the pinned ``droid`` and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import droid, droid_binary

__all__ = ["droid_binary", "droid"]
