"""Each agent's harness for the shared real-client promises: how a test speaks to that agent.

A promise several agents make (a corrupt store fails open, a rewrite never widens what the agent may
run …) is one test function in this folder, parametrised over the ``Harness`` of every agent making
it. A harness is small: the user fixture of the agent's suite (real_client_users.py), its scripted
shell call, how to run one session, and how to read what the model was shown for one call — the
agent's own words for these, taken from its suite's support module. What differs in what an agent
shows (the text its policy answers a refused call with …) is data here, next to the agent.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from real_client_opencode.opencode_support import bash as opencode_bash

from dp.agents.claude.fake_api import bash as claude_bash
from dp.agents.claude.fake_api import shell as copilot_shell
from dp.agents.codex.fake_api import function_call as codex_call
from dp.agents.codex.fake_api import shell as codex_shell
from dp.agents.gemini.fake_api import shell as gemini_shell
from dp.live.openai_compat import shell as qwen_shell
from dp.live.openai_compat import tool_call

# Gemini CLI's own line in a call's result when a BeforeTool hook changed the call.
GEMINI_MODIFIED = "Tool input parameters were modified by a hook before execution."


@dataclass(frozen=True)
class Harness:
    """One agent as the shared promises drive it.

    ``fixture``: the user fixture; ``init``: what ``dp init`` gets besides ``--json``; ``shell``:
    a scripted shell call; ``result(session, call)``: the call's own result as the model read it;
    ``shown(session, call)``: everything the model read about the call (its result and any hook
    text beside it); ``history(session, call)``: the call's input as the model's own history keeps
    it, where the agent's conversation says (None elsewhere). ``rewrites``: a Bash rewrite runs in
    place (else dp refuses with the corrected command and the model reissues it). ``acted``: texts
    the model reads only when dp or a hook acted on a call. ``permit``: the run options with which
    the user's own permission rules allow exactly the command ``name`` (None: the agent has no such
    rules the tests drive); ``refused``: how the agent's result for a call its rules refuse begins.
    ``output_first``: a call's result begins with the command's output; ``untouched(session, call)``:
    the agent's own record says no hook touched the call; ``hook_log``: what the binary prints when a
    pre-call hook ran and let the call be; ``output_prefix``: what the agent puts before a command's
    output in its result; ``rewritten``: the agent's own line in a result whose call a hook changed;
    ``exit_shown``: how a result names a command's exit code (``{}``); ``captured_exactly``: a captured
    call's input is the command alone; ``captured_error``: how a captured error begins (``{}``: the code);
    ``refusing``: the arguments of a session where dp refuses a rewrite with the corrected command (the
    agent would not let it run unasked), ``refusal`` how the agent's result then begins before dp's
    text and ``refusal_why`` what dp says of the agent there. ``everything(session)``: all the text
    the model was shown; ``answer_mark``: how an answer after a failure stands in the failed call's
    result (``{answer}``: dp's note), ``answer_last``: it ends the result; ``answer_after_result``: it
    comes after the result instead. ``tool_call(name, arguments)``: a scripted call of any tool;
    ``opening(session)``: what the model read before its first turn; ``read_tool``: the agent's name
    for Claude Code's ``Read``; ``made_up_answer``: the whole result of a made-up tool name aliased to it.
    ``shell_tool``: the name a tool-name alias of the agent's shell tool is written with; ``blocked``: the
    result of a call such an alias blocks (``{message}``: the alias's, ``{command}``: the call's).
    """

    agent: str
    fixture: str
    shell: Callable[[str], dict]
    result: Callable
    shown: Callable
    init: tuple = ()
    history: Callable | None = None
    rewrites: bool = True
    acted: tuple = ("dp:",)
    hook_log: str = ""
    permit: Callable[[str], tuple[tuple, dict]] | None = None
    refused: str = ""
    output_first: bool = False
    untouched: Callable | None = None
    output_prefix: str = ""
    rewritten: str = ""
    exit_shown: str = ""
    captured_exactly: bool = False
    captured_error: str = ""
    refusing: tuple | None = None
    refusal: str = ""
    refusal_why: str = ""
    everything: Callable | None = None
    answer_mark: str = ""
    answer_after_result: bool = False
    answer_last: bool = False
    tool_call: Callable[[str, dict], dict] | None = None
    opening: Callable | None = None
    read_tool: str = ""
    made_up_answer: str = ""
    shell_tool: str = ""
    blocked: str = ""
    run_args: tuple = field(default=())

    def run(self, user, turns, *args, **options):
        """One session of the agent's real binary with the scripted ``turns``."""
        return user.run(turns, *self.run_args, *args, **options)


def _claude_text(session, call):
    return session.tool_result(call["id"])["text"]


def _copilot_history(session, call):
    """The call as Copilot keeps it in the model's history: the arguments it ran (it replaces them)."""
    [ran] = [block for message in session.messages if message["role"] == "assistant"
             for block in message["content"] if block.get("id") == call["id"]]
    return ran["input"]


_gemini_calls = itertools.count(1)


def _gemini_shell(command: str, description: str = "") -> dict:
    """Gemini's scripted shell call, told apart by its description (its conversation keeps no call ids)."""
    return gemini_shell(command, description or f"dp test command {next(_gemini_calls)}")


def _gemini_result(session, call):
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


CLAUDE = Harness("claude", "client", claude_bash, _claude_text, lambda s, c: s.shown(c["id"]), acted=("dp", "→"),
                output_first=True, untouched=lambda s, c: not s.result["is_error"] and s.tool_result(c["id"]) == {
                    "text": _claude_text(s, c), "is_error": False, "context": ""})
COPILOT = Harness("copilot", "copilot", copilot_shell, _claude_text, lambda s, c: s.shown(c["id"]),
                  init=("--agent", "copilot"), acted=("dp", "Denied"), output_first=True, history=_copilot_history,
                  everything=lambda s: s.all_text,
                  answer_mark='exit code 127>\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\ndp: ')
CODEX = Harness("codex", "codex", codex_shell, lambda s, c: s.output(c), lambda s, c: s.shown(c),
                acted=("dp:", "Command blocked"), hook_log="hook: PreToolUse Completed",
                exit_shown="Process exited with code {}", captured_exactly=True, captured_error="Exit code {}\n",
                refusing=("--approve-for-me",), refusal="Command blocked by PreToolUse hook: ",
                refusal_why="Codex would approve a rewritten command without asking",
                everything=lambda s: s.conversation.all_text, answer_after_result=True,
                tool_call=codex_call, opening=lambda s: s.opening, read_tool="Read",
                made_up_answer="unsupported call: read_file",  # Codex answers it before any hook
                shell_tool="Bash", blocked="Command blocked by PreToolUse hook: {message} Command: {command}",
                run_args=("-s", "workspace-write"))
QWEN = Harness("qwen", "qwen", qwen_shell, lambda s, c: s.output(c), lambda s, c: s.conversation.shown(c["id"]),
               history=lambda s, c: s.conversation.call(c["id"])["arguments"], rewrites=False,
               acted=("dp",), exit_shown="Exit Code: {}", captured_exactly=True, refusing=(),
               refusal_why="Qwen Code runs no rewritten call from a hook",
               everything=lambda s: s.conversation.all_text, answer_mark="Exit Code: 127",
               shell_tool="run_shell_command", blocked="{message}")
GEMINI = Harness("gemini", "gemini", _gemini_shell, _gemini_result, _gemini_result,
                 acted=("dp:", GEMINI_MODIFIED, "Tool execution blocked"), output_prefix="Output: ",
                 rewritten=GEMINI_MODIFIED, exit_shown="Exit Code: {}", everything=lambda s: s.conversation.text,
                 answer_mark="<hook_context>{answer}</hook_context>",
                 permit=lambda name: (("--allowed-tools", f"run_shell_command({name})"), {"approval": "default"}),
                 refused="Tool execution denied by policy.")
OPENCODE = Harness("opencode", "opencode", opencode_bash, lambda s, c: s.result(c), lambda s, c: s.result(c),
                   history=lambda s, c: s.call(c)["arguments"],
                   permit=lambda name: ((), {"permission": {"bash": {"*": "deny", f"{name} *": "allow"}}}),
                   refused="The user has specified a rule which prevents you from using this specific tool call.",
                   output_first=True, everything=lambda s: s.conversation.all_text, answer_mark="\n\n{answer}",
                   answer_last=True, tool_call=tool_call, opening=lambda s: s.system, read_tool="read",
                   made_up_answer="read_file is not a valid tool. Use read instead.", shell_tool="bash",
                   blocked="{message}")

def oldtool_rule(user, *init_args) -> None:
    """dp installed and one rule, ``oldtool`` → ``newtool``: both programs on PATH, each leaving a file
    named after it in the directory it ran in, so a test sees which one really ran."""
    user.init(*init_args)
    user.dp("alias", "--cmd", "oldtool", "--replace", "newtool")
    user.program("newtool", 'echo "{name} ran:" "$@"; touch "$PWD/newtool-ran"')
    user.program("oldtool", 'echo "{name} ran:" "$@"; touch "$PWD/oldtool-ran"')


ALL = (CLAUDE, COPILOT, CODEX, QWEN, GEMINI, OPENCODE)


def agents(*names: str, where: Callable[[Harness], bool] = lambda harness: True) -> list:
    """The harnesses of the agents named (all of them without names) that ``where`` accepts, as pytest
    parameters with their ids."""
    import pytest

    chosen = [harness for harness in ALL if (not names or harness.agent in names) and where(harness)]
    return [pytest.param(harness, id=harness.agent) for harness in chosen]
