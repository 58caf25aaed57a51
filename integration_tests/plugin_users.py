"""Driving the real ``AGENT run`` of an agent running dp's OpenCode plugin (OpenCode, Kilo Code) against the
scripted fake Chat Completions API.

A ``PluginUser`` is one user's machine in a temporary directory: its own HOME (XDG directories and TMPDIR
inside), dp's default store, a project that is a git repository, and a ``bin`` directory first on PATH for
stand-in programs (and the user's own binary). ``run()`` starts the fake model with a list of turns, runs the
real binary once and returns a ``PluginSession`` to assert on: what the model was shown (every request body)
and what the binary printed.

The model is an ``@ai-sdk/openai-compatible`` provider whose ``baseURL`` is the fake, given in the agent's
settings variable (``OPENCODE_CONFIG_CONTENT``: the agent merges it over the user's own config files, which a
test may then hold anything in). With the agent's quiet variables the binary sends nothing but the
conversation's requests and a title request (a side request of the fake: it offers no tools).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from agent_home import AgentSession, AgentUser

from dp.live.openai_compat import Conversation, FakeChat, shell
from dp.live.plugin_probe import provider_config, settle


def bash(command: str, **extra) -> dict:
    """A scripted call of the shell tool (``bash`` with ``command`` and a ``description``)."""
    return shell(command, tool="bash", description=extra.pop("description", "Run a command"), **extra)


class PluginSession(AgentSession):
    """One finished ``AGENT run``."""

    CONVERSATION = Conversation
    result = AgentSession.output  # this suite's word for it

    def call(self, call: dict) -> dict:
        """The call as the model's own history keeps it (``name``, ``arguments``)."""
        return self.conversation.call(call["id"])

    @property
    def system(self) -> str:
        """The system prompt of the first conversation request."""
        first = self.fake.main_requests[0]["messages"]
        return "\n".join(m["content"] for m in first if m.get("role") == "system" and isinstance(m.get("content"), str))


class PluginUser(AgentUser):
    """A throwaway user account driving an agent that runs dp's OpenCode plugin; each suite's subclass names
    the agent (its places follow from its name, as OpenCode's and Kilo Code's do) and its variables."""

    DEPENDENCIES: dict = {}  # what the agent would install from npm into a config directory
    QUIET: dict = {}  # its variables that switch updates, the model list and sharing off
    SETTINGS: dict = {}  # the user's own settings every run has, which a run's ``config`` may replace

    @property
    def CONFIG_DIR(self) -> str:  # noqa: N802 (the class's other names for the agent's places are constants)
        """The user config directory under ~/.config: the agent's name (``opencode``, ``kilo``)."""
        return self.AGENT

    @property
    def PROJECT_DIR(self) -> str:  # noqa: N802
        """The config directory in a project: ``.NAME``."""
        return f".{self.AGENT}"

    @property
    def CONTENT_VARIABLE(self) -> str:  # noqa: N802
        """The variable holding the run's settings: ``NAME_CONFIG_CONTENT``."""
        return f"{self.AGENT.upper()}_CONFIG_CONTENT"

    def __init__(self, root: Path, binary: Path):
        super().__init__(root, binary)
        self.config_dir = self.home / ".config" / self.CONFIG_DIR
        settle(self.config_dir, self.DEPENDENCIES)

    def environment(self) -> dict:
        return dict(self.QUIET)

    def run(self, turns, *args, prompt: str = "Do the task.", timeout: float = 900, cwd: Path | None = None,
            **config) -> PluginSession:
        """``AGENT run PROMPT ARGS`` with the scripted model; ``config`` goes into the run's settings."""
        fake = FakeChat(turns=list(turns))
        cwd = cwd or self.project
        if (cwd / self.PROJECT_DIR).is_dir():
            settle(cwd / self.PROJECT_DIR, self.DEPENDENCIES)
        # OpenCode (and Kilo Code) take the directory from PWD when set (observed: a stale PWD wins over the real one).
        proc = self.launch(fake, lambda url: ([self.binary, "run", *args, prompt],
                                              {self.CONTENT_VARIABLE: provider_config(url, **{**self.SETTINGS, **config}),
                                               "PWD": str(cwd)}),
                           cwd, timeout=timeout)
        return PluginSession(proc, fake)


# -- the plugin as the front door: which calls start a dp process (each suite's test_front_door.py) --

UNTOUCHED = ("ls", "echo hi", "cat notes.txt", "git status", "pwd")
RECIPE = "deploy now"
ACTED_ON = ("grep -rn x .", "npm install", f"{RECIPE} 'job 1; echo INJECTED'")


def user_with_rules(user) -> None:
    """grep → rg (a command rule), a recipe prefix, paving on in a pnpm project (as the Claude Code test's user)."""
    user.dp("alias", "-q", "--cmd", "grep", "--replace", "rg")
    user.dp("alias", "-q", "--recipe", RECIPE, "echo deployed {{ arg(1) }}")
    (user.project / "package.json").write_text(json.dumps({"name": "app", "scripts": {"build": "tsc"}}))
    (user.project / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    (user.project / "notes.txt").write_text("x marks the spot\n")
    for name in ("rg", "grep", "pnpm", "npm"):
        user.program(name)


def recorded(user) -> dict[str, Path]:
    """Wrap pave-check and dp-capture in the plugin's config with a recorder; each one's log (a line per start)."""
    config_path = user.config_dir / "plugins" / f"dp-{user.AGENT}.json"
    config = json.loads(config_path.read_text())
    logs = {}
    for key in ("pave", "capture"):
        log = user.root / f"{key}.log"
        wrapper = user.root / f"recording-{key}"
        wrapper.write_text("#!/bin/bash\ninput=$(cat)\n"
                           f"printf '%s\\n' \"$input\" >> {shlex.quote(str(log))}\n"
                           f"printf '%s' \"$input\" | exec {shlex.join(config[key])}\n")
        wrapper.chmod(0o755)
        config[key] = [str(wrapper)]
        logs[key] = log
    config_path.write_text(json.dumps(config))
    return logs


def started(log: Path) -> list:
    """What each start was given (the one session start left out): a call's Bash command or tool, or
    for a start given several calls, the list of them."""
    if not log.exists():
        return []
    payloads = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return [[_call(one) for one in p] if isinstance(p, list) else _call(p)
            for p in payloads if isinstance(p, list) or p.get("hook_event_name") != "session.start"]


def _call(payload: dict) -> str:
    return (payload.get("args") or {}).get("command") or payload["tool"]


# -- what such an agent's harness says (real_client_contract/harnesses.py), the same words in each --

def harness_words(**own) -> dict:
    """The ``Harness`` keywords of an agent running dp's OpenCode plugin, with ``own`` over them: what the model
    reads of a call is its result, a rule refusal is OpenCode's sentence, the corrections are in the system prompt."""
    from dp.live.openai_compat import tool_call

    return {"result": lambda s, c: s.result(c), "shown": lambda s, c: s.result(c),
            "permit": lambda name: ((), {"permission": {"bash": {"*": "deny", f"{name} *": "allow"}}}),
            "refused": "The user has specified a rule which prevents you from using this specific tool call.",
            "output_first": True, "everything": lambda s: s.conversation.all_text, "answer_mark": "\n\n{answer}",
            "answer_last": True, "tool_call": tool_call, "opening": lambda s: s.system, "read_tool": "read",
            "made_up_answer": "read_file is not a valid tool. Use read instead.", "shell_tool": "bash",
            "blocked": "{message}", **own}
