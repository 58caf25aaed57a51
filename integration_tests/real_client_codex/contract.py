"""Codex CLI in the shared real-client contract (real_client_contract/): its user and its harness."""

from __future__ import annotations

from npm_packages import installed_or_skip
from real_client_contract.harnesses import Harness, Suite

from dp.agents.codex.fake_api import function_call, shell
from real_client_codex import codex_install
from real_client_codex.codex_support import CodexUser

SUITE = Suite(CodexUser, lambda: installed_or_skip(codex_install.tool(), "REAL CLIENT TESTS (Codex CLI)"))
HARNESS = Harness("codex", "codex", shell, lambda s, c: s.output(c), lambda s, c: s.shown(c),
                  acted=("dp:", "Command blocked"), hook_log="hook: PreToolUse Completed",
                  exit_shown="Process exited with code {}", captured_exactly=True, captured_error="Exit code {}\n",
                  refusing=("--approve-for-me",), refusal="Command blocked by PreToolUse hook: ",
                  refusal_why="Codex would approve a rewritten command without asking",
                  everything=lambda s: s.conversation.all_text, answer_after_result=True,
                  tool_call=function_call, opening=lambda s: s.opening, read_tool="Read",
                  made_up_answer="unsupported call: read_file",  # Codex answers it before any hook
                  shell_tool="Bash", blocked="Command blocked by PreToolUse hook: {message} Command: {command}",
                  run_args=("-s", "workspace-write"), unsandboxed=("-s", "danger-full-access"))
