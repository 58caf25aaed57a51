"""The live probe of an agent running dp's OpenCode plugin (OpenCode, and the agents built on it: Kilo Code).

The runner is dp's one live probe (dp/live/probe.py); this module says what such an agent shares: the
scripted model is an OpenAI-compatible provider whose base URL the agent takes from the settings in a
variable of its own (``provider_config``), dp is installed when its plugin is (not hook entries), and
``AGENT run`` makes the calls in a scratch HOME holding only dp's plugin as the user installed it (the same
file, the same commands), with models.dev, updates and sharing switched off. The plugin's words in a bash
result start with ``dp:``; a corrected tool name's result is the correction itself.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from dp.live.openai_compat import MODEL, shell
from dp.live.probe import PROMPT, CompatProbe

PROVIDER = "dp-live"


def settle(config_dir: Path, dependencies: dict) -> None:
    """Make ``config_dir`` look like one whose ``dependencies`` the agent already installed (it then installs
    nothing: it checks that node_modules exists and package-lock.json lists package.json's dependencies)."""
    (config_dir / "node_modules").mkdir(parents=True, exist_ok=True)
    for name, content in (("package.json", {"dependencies": dependencies}),
                          ("package-lock.json", {"lockfileVersion": 3,
                                                 "packages": {"": {"dependencies": dependencies}}})):
        if not (config_dir / name).exists():
            (config_dir / name).write_text(json.dumps(content, indent=2) + "\n")


def provider_config(url: str, **extra) -> str:
    """The agent's settings (OpenCode's ``OPENCODE_CONFIG_CONTENT``) whose model is the fake at ``url``."""
    provider = {"npm": "@ai-sdk/openai-compatible", "name": "dp fake model",
                "options": {"baseURL": f"{url}/v1", "apiKey": "dp-not-a-key"},
                "models": {MODEL: {"name": MODEL, "tool_call": True}}}
    return json.dumps({"provider": {PROVIDER: provider}, "model": f"{PROVIDER}/{MODEL}", "autoupdate": False,
                       **extra})


class PluginProbe(CompatProbe):
    """The probe of an agent running dp's OpenCode plugin; each agent's subclass names its program and places."""

    timeout = 300
    config_dir = ""  # the agent's user config directory under ~/.config, where the plugin goes
    content_variable = ""  # the variable holding the run's settings (OPENCODE_CONFIG_CONTENT)
    quiet: dict = {}  # the variables that switch its updates, model list and sharing off
    dependencies: dict = {}  # what it installs into a config directory from npm unless it finds it there
    settings: dict = {}  # what the run's settings hold besides the fake model

    def shell_call(self, command: str) -> dict:
        return shell(command, tool="bash", description="dp live probe")

    def not_installed(self) -> str | None:
        self.plugin = self.agent.hooks().config_path("user")
        if self.agent.role("install").state(self.plugin) != "current":
            return (f"dp's plugin is not installed in {self.plugin.parent}; install it with: "
                    f"dp init --agent {self.agent.name}")
        return None

    def prepare(self, home: Path, project: Path, url: str) -> dict:
        config = home / ".config" / self.config_dir
        (config / self.plugin.parent.name).mkdir(parents=True)
        for source in (self.plugin, self.plugin.with_name(f"dp-{self.agent.name}.json")):
            if source.exists():
                shutil.copyfile(source, config / self.plugin.parent.name / source.name)
        settle(config, self.dependencies)
        return {"XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local" / "share"),
                "XDG_CACHE_HOME": str(home / ".cache"), "XDG_STATE_HOME": str(home / ".local" / "state"),
                "PWD": str(project), self.content_variable: provider_config(url, **self.settings), **self.quiet}

    def command(self, binary: str) -> list:
        return [binary, "run", PROMPT]

    def transcript(self, fake):
        """The conversation, and the system prompt of the first request (where the plugin puts its context)."""
        requests = fake.main_requests
        system = "\n".join(m.get("content") for m in (requests[0]["messages"] if requests else ())
                           if m.get("role") == "system" and isinstance(m.get("content"), str))
        return super().transcript(fake), system

    def results(self, transcript, calls: list) -> list[str]:
        return super().results(transcript[0], calls) if transcript[0] is not None else [""] * len(calls)

    def opening(self, transcript) -> str:
        return transcript[1]

    def told(self, call: dict, shown: str) -> list[str]:
        from dp.agents.plugin_hooks import UNAVAILABLE

        if call["name"] == "bash":
            return [line.strip() for line in shown.splitlines() if line.startswith("dp:")]
        return [shown.strip()] if shown.strip() and UNAVAILABLE not in shown else []
