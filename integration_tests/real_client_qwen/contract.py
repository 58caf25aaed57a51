"""Qwen Code in the shared real-client contract (real_client_contract/): its user and its harness."""

from __future__ import annotations

from npm_packages import installed_or_skip
from real_client_contract.harnesses import Harness, Suite

from dp.live.openai_compat import shell
from real_client_qwen.qwen_support import TOOL, QwenUser

SUITE = Suite(QwenUser, lambda: installed_or_skip(TOOL, "REAL CLIENT TESTS (Qwen Code)"))
HARNESS = Harness("qwen", "qwen", shell, lambda s, c: s.output(c), lambda s, c: s.conversation.shown(c["id"]),
                  history=lambda s, c: s.conversation.call(c["id"])["arguments"], rewrites=False,
                  acted=("dp",), exit_shown="Exit Code: {}", captured_exactly=True, refusing=(),
                  refusal_why="Qwen Code runs no rewritten call from a hook",
                  everything=lambda s: s.conversation.all_text, answer_mark="Exit Code: 127",
                  shell_tool="run_shell_command", blocked="{message}", asked=lambda s, c: s.output(c))
