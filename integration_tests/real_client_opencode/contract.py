"""OpenCode in the shared real-client contract (real_client_contract/): its user and its harness."""

from __future__ import annotations

from npm_packages import installed_or_skip
from real_client_contract.harnesses import Harness, Suite

from dp.live.openai_compat import tool_call
from real_client_opencode import opencode_install
from real_client_opencode.opencode_support import OpenCodeUser, bash

SUITE = Suite(OpenCodeUser,
              lambda: installed_or_skip(opencode_install.tool(), "REAL CLIENT TESTS (OpenCode)"))
HARNESS = Harness("opencode", "opencode", bash, lambda s, c: s.result(c), lambda s, c: s.result(c),
                  history=lambda s, c: s.call(c)["arguments"],
                  permit=lambda name: ((), {"permission": {"bash": {"*": "deny", f"{name} *": "allow"}}}),
                  refused="The user has specified a rule which prevents you from using this specific tool call.",
                  output_first=True, everything=lambda s: s.conversation.all_text, answer_mark="\n\n{answer}",
                  answer_last=True, tool_call=tool_call, opening=lambda s: s.system, read_tool="read",
                  made_up_answer="read_file is not a valid tool. Use read instead.", shell_tool="bash",
                  blocked="{message}")
