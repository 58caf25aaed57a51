"""Auggie in the shared real-client contract (real_client_contract/): its user and its harness."""

from __future__ import annotations

from npm_packages import installed_or_skip
from real_client_contract.harnesses import Harness, Suite

from dp.agents.auggie.fake_api import shell, tool_call
from real_client_auggie.auggie_support import TOOL, AuggieUser

# What Auggie 0.36.0 makes of a refusal: the hook's reason, then a line of its own.
BLOCKED = "{message}\n\nPreToolUse:launch-process hook returned blocking error"

SUITE = Suite(AuggieUser, lambda: installed_or_skip(TOOL, "REAL CLIENT TESTS (Auggie)"))
HARNESS = Harness("auggie", "auggie", shell, lambda s, c: s.output(c), lambda s, c: s.shown(c),
                  history=lambda s, c: s.conversation.call(c["id"])["arguments"], acted=("dp:", "[Hook Context]"),
                  exit_shown="<return-code>\n{}\n</return-code>", everything=lambda s: s.conversation.all_text,
                  tool_call=tool_call, read_tool="view", shell_tool="launch-process", blocked=BLOCKED,
                  rewrites=False, refusing=(), refusal_why="Auggie would not ask you about the rewritten command")
