"""Paving, capture, failing open and the corrections up front, in the real ``codex exec``."""

from __future__ import annotations

from dp.agents.codex.fake_api import shell


def test_session_start_context_carries_the_tool_name_corrections(codex):
    codex.init()
    codex.dp("alias", "read_file", "Read", "-m", "Use the Read tool, not read_file.")
    codex.dp("alias", "--cmd", "grep", "--replace", "rg")
    session = codex.run([[shell("echo hi")]])

    opening = session.opening
    assert "dp (desire paths) corrections on this machine" in opening
    assert "read_file" in opening and "Use the Read tool, not read_file." in opening
    assert "Use `rg` instead of `grep`" in opening
