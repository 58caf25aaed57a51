"""Tests that drive the real GitHub Copilot CLI (see README.md)."""
