"""Fixtures of this real-client suite: the pinned ``kilo`` and a throwaway user (real_client_users.py, shared with
real_client_contract/)."""

from __future__ import annotations

from real_client_users import kilo, kilo_binary

__all__ = ["kilo_binary", "kilo"]
