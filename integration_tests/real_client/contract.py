"""Claude Code in the shared real-client contract (real_client_contract/): its user and its harness."""

from __future__ import annotations

from npm_packages import installed_or_skip
from real_client_contract.harnesses import Harness, Suite, tool_result_text

from dp.agents.claude.fake_api import bash
from real_client.claude_install import claude_code
from real_client.client_support import RealClient

SUITE = Suite(RealClient, lambda: installed_or_skip(claude_code()), "claude")
HARNESS = Harness("claude", "client", bash, tool_result_text, lambda s, c: s.shown(c["id"]), acted=("dp", "→"),
                  output_first=True, untouched=lambda s, c: not s.result["is_error"] and s.tool_result(c["id"]) == {
                      "text": tool_result_text(s, c), "is_error": False, "context": ""})
