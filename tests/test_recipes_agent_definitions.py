"""Agent definitions (``.claude/agents/NAME.md``) as recipe agent steps read them, at the edges.

The body becomes the system prompt and the front matter's ``model`` the
default model. A definition written on Windows (CRLF), with front matter
that is not a mapping or not YAML at all, or in place of which sits a FIFO,
must still give a clean prompt or one clear error — never front matter
leaked into the prompt, never a hang.
"""

from __future__ import annotations

import os

import pytest
from blocking_support import outcome_within

from dp.recipes.discovery import MAX_AGENT_BYTES, AgentNotFound, read_agent_prompt


@pytest.mark.parametrize("text, prompt, front", [
    ("---\r\nname: reviewer\r\nmodel: haiku\r\n---\r\n\r\nBe brief.\r\n", "Be brief.", {"name": "reviewer", "model": "haiku"}),
    ("---\nmodel: [unclosed\n---\nBody.\n", "Body.", {}),
    ("---\n- a\n- list\n---\nBody.\n", "Body.", {}),
    ("---  \nmodel: opus\n---", "", {"model": "opus"}),
    ("Intro\n---\nmodel: x\n---\nrest", "Intro\n---\nmodel: x\n---\nrest", {}),
    ("---\nmodel: x\nno closing line", "---\nmodel: x\nno closing line", {}),
])
def test_front_matter_is_split_off_whatever_its_shape(tmp_path, text, prompt, front):
    path = tmp_path / "agent.md"
    path.write_bytes(text.encode())
    assert read_agent_prompt(path) == (prompt, front)


def test_a_definition_at_exactly_the_size_limit_is_read(tmp_path):
    path = tmp_path / "big.md"
    path.write_text("x" * MAX_AGENT_BYTES)
    assert len(read_agent_prompt(path)[0]) == MAX_AGENT_BYTES


def test_undecodable_bytes_are_replaced_not_fatal(tmp_path):
    path = tmp_path / "latin1.md"
    path.write_bytes("Résumé the diff.".encode("latin-1"))
    assert read_agent_prompt(path) == ("R\ufffdsum\ufffd the diff.", {})


def test_a_fifo_in_place_of_a_definition_is_an_error_not_a_hang(tmp_path):
    os.mkfifo(tmp_path / "agent.md")
    error = outcome_within(lambda: read_agent_prompt(tmp_path / "agent.md"))
    assert isinstance(error, AgentNotFound)
    assert str(error).startswith(f"cannot read agent definition {tmp_path / 'agent.md'}: ")
    assert "FIFO" in str(error)
