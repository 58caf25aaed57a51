"""Copilot CLI in the shared real-client contract (real_client_contract/): its user and its harness."""

from __future__ import annotations

from npm_packages import installed_or_skip
from real_client_contract.harnesses import Harness, Suite, tool_result_text

from dp.agents.claude.fake_api import shell
from real_client_copilot.copilot_install import copilot_cli
from real_client_copilot.copilot_support import CopilotClient


def _history(session, call):
    """The call as Copilot keeps it in the model's history: the arguments it ran (it replaces them)."""
    [ran] = [block for message in session.messages if message["role"] == "assistant"
             for block in message["content"] if block.get("id") == call["id"]]
    return ran["input"]


SUITE = Suite(CopilotClient, lambda: installed_or_skip(copilot_cli()))
HARNESS = Harness("copilot", "copilot", shell, tool_result_text, lambda s, c: s.shown(c["id"]),
                  init=("--agent", "copilot"), acted=("dp", "Denied"), output_first=True, history=_history,
                  everything=lambda s: s.all_text,
                  answer_mark='exit code 127>\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\ndp: ')
