"""``dp doctor --live``: the user's own ``claude`` against a fake model, to see dp work end to end.

The runner is dp's one live probe (dp/live/probe.py); this module says what is Claude Code's:
the fake Messages API (dp/agents/claude/fake_api.py) makes a Bash call a rule rewrites and a
call of an aliased tool name, ``claude -p`` runs with the user's dp hook entries copied into the
scratch ``~/.claude/settings.json``, and dp's words reach the model in the messages after a
tool's result (the hook's context), not inside it.
"""

from __future__ import annotations

import json
from pathlib import Path

from dp.agents.claude.client import OLDEST_CHECKED, UPGRADE, find_claude, spelled, version_of
from dp.agents.claude.fake_api import FakeAnthropic, bash, block_text, tool_use
from dp.agents.settings import settings_path, user_entries
from dp.live.probe import CONTEXT_START, PROMPT, Probe
from dp.store import installs

QUIET = {"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
         "DISABLE_ERROR_REPORTING": "1"}


class ClaudeProbe(Probe):
    program = "claude"
    package = "@anthropic-ai/claude-code"
    oldest = spelled(OLDEST_CHECKED)

    def upgrade(self) -> str:
        return UPGRADE

    def find(self) -> str | None:
        return find_claude()

    def not_found(self) -> str:
        return ("dp doctor --live runs your installed Claude Code, but `claude` is not on PATH; "
                "install it (npm install -g @anthropic-ai/claude-code) or name it with DP_CLAUDE=PATH")

    def no_calls(self) -> str:
        return "the store has no rules to try; add one (dp alias --cmd grep --replace rg) and run again"

    def not_installed(self) -> str | None:
        path = settings_path("user")
        self.entries = user_entries(path)
        if self.entries:
            return None
        if installs.read(self.db_path, installs.PLUGIN):  # dp pave --hook is refused beside it: say what to do
            return (f"dp is installed as the Claude Code plugin, not as hook entries in {path}, and dp doctor --live "
                    "runs only those: dp doctor's plugin lines say whether its hooks and mod took effect in your "
                    "latest session")
        return f"no dp hook entries in {path}; install them with: dp init"

    def shows_alias(self, rule) -> bool:
        return True  # Claude Code rejects the name itself; the hook's context is what the model is told

    def shell_call(self, command: str) -> dict:
        return bash(command)

    def alias_call(self, name: str) -> dict:
        return tool_use(name, {})

    def fake(self, turns):
        return FakeAnthropic(turns)

    def prepare(self, home: Path, project: Path, url: str) -> dict:
        (home / ".claude").mkdir(parents=True)
        (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": self.entries}))
        return {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "sk-ant-dp-doctor-live", **QUIET}

    def command(self, binary: str) -> list:
        return [binary, "-p", PROMPT, "--output-format", "json"]

    def version(self, binary: str) -> str | None:
        version = version_of(binary)
        return spelled(version) if version else None

    def transcript(self, fake):
        return fake.main_requests[-1]["messages"] if fake.main_requests else None

    def results(self, transcript, calls: list) -> list[str]:
        """Each call's tool result; what the model read beside it is kept for ``told``: the text blocks of
        its message (where 2.1.197 puts a hook's context, as a system reminder) and the messages after it,
        up to the model's next turn (where 2.1.330 puts it, as ``role: system``)."""
        self.context = {}
        shown = []
        for call in calls:
            text, context = "", []
            for index, message in enumerate(transcript):
                content = message.get("content")
                if message.get("role") != "user" or not isinstance(content, list):
                    continue
                for block in content:
                    if isinstance(block, dict) and block.get("tool_use_id") == call["id"]:
                        text = block_text(block.get("content"))
                        context.append(block_text([other for other in content if isinstance(other, dict)
                                                   and other.get("type") == "text"]))
                        for later in transcript[index + 1:]:
                            if later.get("role") == "assistant":
                                break
                            context.append(block_text(later.get("content")))
            self.context[call["id"]] = context
            shown.append(text)
        return shown

    def told(self, call: dict, shown: str) -> list[str]:
        return [line for part in self.context.get(call["id"], ()) for line in part.splitlines() if "dp:" in line]

    def session_start(self, transcript) -> str:
        for message in transcript:
            if message.get("role") == "assistant":
                break
            text = block_text(message.get("content"))
            if CONTEXT_START in text:
                return text[text.index(CONTEXT_START):].split("\n\n")[0]
        return ""


def run(db_path: Path, rules, agent=None) -> dict:
    """Run the live check; raises DpError when it cannot run at all (no claude, no hook)."""
    from dp.agents import get

    report = ClaudeProbe(agent or get("claude")).run(db_path, rules)
    return {"claude": report["binary"], **report}
