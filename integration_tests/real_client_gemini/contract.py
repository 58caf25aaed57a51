"""Gemini CLI in the shared real-client contract (real_client_contract/): its user and its harness."""

from __future__ import annotations

import itertools

from npm_packages import installed_or_skip
from real_client_contract.harnesses import Harness, Suite

from dp.agents.gemini.fake_api import shell
from real_client_gemini import gemini_install
from real_client_gemini.gemini_support import GeminiUser

# Gemini CLI's own line in a call's result when a BeforeTool hook changed the call.
MODIFIED = "Tool input parameters were modified by a hook before execution."
_calls = itertools.count(1)


def _shell(command: str, description: str = "") -> dict:
    """Gemini's scripted shell call, told apart by its description (its conversation keeps no call ids)."""
    return shell(command, description or f"dp test command {next(_calls)}")


def _result(session, call):
    """Gemini's conversation keeps no call ids: a session's only result of the call's tool, or the one at
    the place of the first call the model's history holds with the same arguments."""
    name = call["functionCall"]["name"]
    results = session.results(name)
    if len(results) == 1:
        return results[0]
    made = [part["functionCall"]["args"] for turn in session.conversation.contents if turn.get("role") == "model"
            for part in turn.get("parts") or [] if isinstance(part, dict) and
            part.get("functionCall", {}).get("name") == name]
    return results[made.index(call["functionCall"]["args"])]


SUITE = Suite(GeminiUser,
              lambda: installed_or_skip(gemini_install.tool(), "REAL CLIENT TESTS (Gemini CLI)"))
HARNESS = Harness("gemini", "gemini", _shell, _result, _result,
                  acted=("dp:", MODIFIED, "Tool execution blocked"), output_prefix="Output: ",
                  rewritten=MODIFIED, exit_shown="Exit Code: {}", everything=lambda s: s.conversation.text,
                  answer_mark="<hook_context>{answer}</hook_context>",
                  permit=lambda name: (("--allowed-tools", f"run_shell_command({name})"), {"approval": "default"}),
                  refused="Tool execution denied by policy.",
                  # 0.61.0 prints its question to the person ("Hook system message: …") and cancels the call
                  asking_ends=True, asked=lambda s, c: "\n".join(s.results()) or s.log)
