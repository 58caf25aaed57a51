"""OpenAI's Codex CLI: Claude Code's hook shape, with one difference that matters.

Codex's hooks (``~/.codex/hooks.json``, or a trusted project's
``.codex/hooks.json``) send Claude Code's JSON: ``tool_name: "Bash"`` and
``tool_input.command`` for the shell tool the model calls ``exec_command``, a
``permission_mode``, a ``tool_use_id`` and the session's ``transcript_path``.
So dp's tool names apply as they are.

**Never widen.** Codex accepts ``updatedInput`` only together with
``permissionDecision: "allow"`` (without it the rewrite is refused as invalid
and the original runs). A rewrite therefore always comes approved, so dp
rewrites only where the original command would have run without anyone being
asked: ``permission_mode == "bypassPermissions"``, which is what Codex reports
whenever its approval policy is ``never`` (every ``codex exec`` without
``--approve-for-me``; ``--dangerously-bypass-approvals-and-sandbox``). The
sandbox still applies to the rewritten command (observed: a rewrite to a
write in a read-only sandbox fails like the original would). In every other
mode (``default`` with approvals on request, or a mode dp does not know),
dp refuses the call with the corrected command as the reason; the model
reissues it and Codex's own approval judges what really runs. The user's
explicit ``--permission allow`` keeps its meaning (rewrite and approve);
``--permission ask`` has no Codex equivalent (``ask`` is rejected) and always
refuses with the correction.

**Trust.** Codex runs a hook only after the user reviewed it (``/hooks``) or
with ``codex exec --dangerously-bypass-hook-trust``; the trust is a hash of
the handler. dp's entries are therefore fixed (``*`` for PreToolUse, not a
matcher derived from the rules as for Claude Code): a rule change never
changes them, so it never silently un-trusts them. ``dp doctor`` reports the
trust state (``dp/agents/codex/trust.py``).

**Capture.** PostToolUse fires for every call that ran, with the output text
only; the exit code is read from the session file (``dp/agents/codex/rollout.py``).
There is no failure event, and an unknown tool name never reaches a hook
(the model is told ``unsupported call: NAME``): ``dp ingest --codex-sessions``
reads those from the session files.
"""

import json

from dp.agents import base
from dp.agents.base import Agent, Event, tool_call_event

PRE_TOOL_USE = "PreToolUse"
POST_TOOL_USE = "PostToolUse"
EVENTS = {PRE_TOOL_USE: base.PRE_TOOL, "SessionStart": base.SESSION_START, POST_TOOL_USE: base.POST_TOOL}
# The one permission mode in which nothing is asked (approval policy ``never``).
UNASKED = "bypassPermissions"


class CodexCli(Agent):
    name = "codex"
    display = "Codex CLI"
    env_prefixes = ("CODEX", "OPENAI")
    # 0.169.0 sets these for every command it runs (with CODEX_SESSION_ID, CODEX_CI=1 in `codex exec`).
    child_markers = (("CODEX_THREAD_ID", None), ("CODEX_TOOL_CALL_ID", None))
    pre_tool_hook = PRE_TOOL_USE
    events = EVENTS
    # What its hooks see: the shell tool as Bash (the model calls it exec_command; an unknown name
    # never reaches a hook). A real tool here, so an alias `Bash → run_shell_command` never blocks it.
    tool_names = {"Bash": "Bash"}
    # apply_patch is Codex's own: it runs a shell call named apply_patch itself, and has no other edit tool to
    # name when such a call still fails (inside a longer script), so dp says nothing then.
    tool_commands: dict = {}
    session_option = ("--codex-sessions", "codex_sessions", "session",
                      "Read Codex CLI session files (DIR, default ~/.codex/sessions).")

    def tool_event(self, kind: str, hook: str, payload: dict) -> Event | None:
        event = tool_call_event(kind, hook, payload)
        if event is not None and kind == base.POST_TOOL:
            event.kind, event.error = _outcome(payload, event.tool)
        return event

    def answer(self, event: Event, decision) -> tuple[int, str, str]:
        kind, text = decision.kind, decision.text
        if kind == base.REWRITE and not self.rewrites_unasked(event, decision):
            kind, text = base.DENY, refusal(event, decision)
        if kind == base.ASK:  # a hook's `ask` is refused as unsupported (0.169.0): the refusal names the command
            kind = base.DENY
        if kind in (base.BLOCK, base.DENY):  # Codex shows "…hook: <reason>. Command: <command>": no period of ours
            text = text.rstrip().rstrip(".")
        if kind == base.BLOCK:  # exit 2: Codex refuses the call and shows the model stderr
            return 2, "", text + "\n"
        if kind == base.DENY:
            output = {"hookEventName": PRE_TOOL_USE, "permissionDecision": "deny", "permissionDecisionReason": text}
        elif kind == base.REWRITE:
            output = {"hookEventName": PRE_TOOL_USE, "permissionDecision": "allow",
                      "permissionDecisionReason": text, "updatedInput": decision.updated_input,
                      "additionalContext": text}
        elif kind == base.CONTEXT and text and event.hook in EVENTS:
            output = {"hookEventName": event.hook, "additionalContext": text}
        else:
            return 0, "", ""
        return 0, json.dumps({"hookSpecificOutput": output}) + "\n", ""

    @staticmethod
    def rewrites_unasked(event: Event, decision) -> bool:
        """Whether a rewrite (always approved in Codex) stays within what the session allows."""
        if decision.permission == "allow":  # the user's explicit choice: approve rewritten calls
            return True
        return decision.permission == "none" and event.approval == UNASKED


def _outcome(payload: dict, tool: str) -> tuple[str, str | None]:
    """(POST_FAILURE, error) for a shell command that exited non-zero, else (POST_TOOL, None).

    PostToolUse says nothing about failure; the exit code comes from the session file.
    """
    if tool != "Bash":
        return base.POST_TOOL, None
    from dp.agents.codex.rollout import exit_code, failure_text

    code = exit_code(payload.get("transcript_path"), payload.get("tool_use_id"))
    if not code:
        return base.POST_TOOL, None
    return base.POST_FAILURE, failure_text(code, payload.get("tool_response"))


def refusal(event: Event, decision) -> str:
    """The reason of a refused rewrite: what dp would have changed and the command to issue instead."""
    from dp.agents.base import refused_rewrite, unrun

    return refused_rewrite(event, decision, unrun(decision.text), "Codex would approve a rewritten command "
                           "without asking, and this session asks before running commands.")


ADAPTER = CodexCli
# The session-start JSON this agent sends its hook (as observed in its binary; the tests send it).
SESSION_START_SAMPLE = {"session_id": "c1", "hook_event_name": "SessionStart", "model": "gpt-5.5", "source": "startup"}
