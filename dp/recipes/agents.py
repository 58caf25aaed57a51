"""Agent steps: the adapter interface and the default ``claude -p`` adapter.

The runner only knows ``AgentAdapter.run(request)``; tests and other agent
CLIs plug in their own adapter. The default one runs Claude Code headless and
guards against the two ways an unattended nested agent goes wrong: waiting
forever for an answer to a question (the prompt gets a footer telling it to
proceed on its own, and stdin is closed), and recursion (each nested session
increments ``DP_RECIPE_SESSION_DEPTH``; past the maximum no agent starts).
``CLAUDECODE`` is removed so the child does not think it runs inside the
parent's session.
"""

from __future__ import annotations

import copy
import os
import tempfile
import threading
from dataclasses import KW_ONLY, dataclass
from pathlib import Path

NON_INTERACTIVE_FOOTER = (
    "\n\n---\nYou are running non-interactively as one step of an automated dp recipe. "
    "Proceed autonomously, make reasonable assumptions, and do not ask questions: "
    "nobody can answer them."
)
JSON_ONLY_REMINDER = (
    "\n\nIMPORTANT: your previous answer could not be parsed as JSON. Reply with one JSON "
    "object or array only: no prose, no Markdown fences."
)
AGENT_BINARY_ENV = "DP_AGENT_BINARY"
SESSION_DEPTH_ENV = "DP_RECIPE_SESSION_DEPTH"
MAX_SESSION_DEPTH_ENV = "DP_RECIPE_MAX_SESSION_DEPTH"
DEFAULT_MAX_SESSION_DEPTH = 3
# Longer prompts go through stdin: one argv element is capped at 128 KiB on Linux.
MAX_PROMPT_ARG_BYTES = 100 * 1024


@dataclass(slots=True, eq=False)  # one object per run: identity, not field equality
class AgentRequest:
    """Everything an adapter needs to run one agent step."""

    prompt: str
    _: KW_ONLY
    system_prompt: str | None = None
    agent_name: str | None = None
    model: str | None = None
    mode: str | None = None
    working_dir: Path | None = None
    timeout: float | None = None
    cancel: threading.Event | None = None  # set when the run is interrupted: end the agent

    def with_prompt(self, prompt: str) -> AgentRequest:
        """The same request asking something else (the JSON-only retry)."""
        other = copy.copy(self)
        other.prompt = prompt
        return other


class AgentAdapter:
    """Runs agent steps. ``run`` returns a ``dp.process.ProcessResult``-shaped object."""

    def run(self, request: AgentRequest):
        raise NotImplementedError


class PromptCliAdapter(AgentAdapter):
    """``claude -p PROMPT`` (the default agent's program) in a fresh temporary directory unless the step
    sets working_dir."""

    def __init__(self, binary: str | None = None):
        binary = binary or os.environ.get(AGENT_BINARY_ENV)
        if not binary:
            from dp.agents import get

            binary = get().version_command[0]
        # A relative path must not be looked up again inside the agent's scratch directory.
        self.binary = os.path.abspath(binary) if os.sep in binary else binary

    def run(self, request: AgentRequest):
        from dp.errors import DpError
        from dp.process import run_process

        depth, limit = session_depth()
        if depth >= limit:
            raise DpError(
                f"agent session depth limit reached ({SESSION_DEPTH_ENV}={depth}, maximum "
                f"{limit}): a recipe started by an agent may not start agents this deep; "
                f"raise {MAX_SESSION_DEPTH_ENV} if this nesting is intended"
            )
        prompt = request.prompt + NON_INTERACTIVE_FOOTER
        argv = [self.binary, "-p"]
        stdin = None
        # A prompt that starts with '-' would be read as an option (a templated
        # "--permission-mode=bypassPermissions"): it goes through stdin too.
        if len(prompt.encode()) > MAX_PROMPT_ARG_BYTES or prompt.startswith("-"):
            stdin = prompt.encode()
        else:
            argv.append(prompt)
        if request.system_prompt:
            argv += ["--append-system-prompt", request.system_prompt]
        if request.model:
            argv += ["--model", request.model]
        if request.mode:
            argv += ["--permission-mode", request.mode]
        env = {key: value for key, value in os.environ.items() if key != "CLAUDECODE"}
        env[SESSION_DEPTH_ENV] = str(depth + 1)
        env[MAX_SESSION_DEPTH_ENV] = str(limit)
        if request.working_dir is not None:
            return run_process(argv, cwd=request.working_dir, env=env,
                               timeout=request.timeout, stdin=stdin, cancel=request.cancel)
        with tempfile.TemporaryDirectory(prefix="dp-agent-") as scratch:
            return run_process(argv, cwd=scratch, env=env, timeout=request.timeout, stdin=stdin,
                               cancel=request.cancel)


def session_depth() -> tuple[int, int]:
    """(current nesting depth, maximum) from the environment; bad values count as 0 / default."""
    def number(name: str, default: int) -> int:
        try:
            return max(0, int(os.environ.get(name, default)))
        except ValueError:
            return default

    return number(SESSION_DEPTH_ENV, 0), number(MAX_SESSION_DEPTH_ENV, DEFAULT_MAX_SESSION_DEPTH)
