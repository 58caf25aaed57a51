"""Tests that drive the real Claude Code client (see README.md)."""
