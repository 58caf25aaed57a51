"""``dp doctor --live --agent gemini``: the user's own ``gemini`` against a fake Gemini API.

The runner is dp's one live probe (dp/live/probe.py); this module says what is Gemini's: the
fake model (dp/agents/gemini/fake_api.py) makes its calls as Gemini function calls, a probed
alias is one that blocks a tool Gemini has (Gemini rejects an unknown name before any hook), and
``gemini -p`` runs with only dp's hook entries from the user's ``~/.gemini/settings.json``, the
API-key sign-in pinned (headless mode refuses the gateway auth) and the folder trusted.
"""

from __future__ import annotations

import json
from pathlib import Path

from dp.agents.gemini.fake_api import MODEL, FakeGemini, function_call, shell
from dp.live.probe import PROMPT, Probe

AUTH = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
# Gemini validates a call's arguments before any hook: the probe of an alias gives the tool what it requires.
PROBE_ARGS: dict[str, dict] = {"list_directory": {"dir_path": "."}, "read_file": {"file_path": "dp-live-probe.txt"},
              "glob": {"pattern": "*.dp-live-probe"}, "grep_search": {"pattern": "dp-live-probe"},
              "google_web_search": {"query": "dp live probe"}, "web_fetch": {"prompt": "https://example.invalid"},
              "read_many_files": {"include": ["*.dp-live-probe"]}}


class GeminiProbe(Probe):
    program = "gemini"
    package = "@google/gemini-cli"
    signs: tuple[str, ...] = ("dp:", "Tool execution blocked", "modified by a hook")

    def shell_call(self, command: str) -> dict:
        return shell(command)

    def alias_call(self, name: str) -> dict:
        return function_call(name, PROBE_ARGS.get(name, {}))

    def shows_alias(self, rule) -> bool:
        return self.agent.is_own_tool(rule.from_name) and super().shows_alias(rule)

    def called(self, call: dict) -> tuple[str, dict]:
        return call["functionCall"]["name"], call["functionCall"]["args"]

    def fake(self, turns):
        return FakeGemini(turns)

    def prepare(self, home: Path, project: Path, url: str) -> dict:
        (home / ".gemini").mkdir(parents=True)
        (home / ".gemini" / "settings.json").write_text(json.dumps({**AUTH, "hooks": self.entries}))
        return {"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "dp-doctor-live", "GEMINI_CLI_TRUST_WORKSPACE": "true"}

    def command(self, binary: str) -> list:
        return [binary, "-p", PROMPT, "--output-format", "json", "--approval-mode", "yolo", "-m", MODEL]

    def transcript(self, fake):
        return fake.conversation if fake.main_requests else None

    def results(self, transcript, calls: list) -> list[str]:
        """Gemini's function responses carry no call id: the n-th call of a tool reads its n-th result."""
        shown: list[str] = []
        seen: dict[str, int] = {}
        for call in calls:
            name = call["functionCall"]["name"]
            index = seen[name] = seen.get(name, -1) + 1
            results = transcript.results(name)
            shown.append(results[index] if index < len(results) else "")
        return shown

    def opening(self, transcript) -> str:
        return transcript.opening


def run(db_path: Path, rules, agent) -> dict:
    return GeminiProbe(agent).run(db_path, rules)
