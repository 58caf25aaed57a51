"""``dp doctor --live --agent droid``: the user's own ``droid`` against the local OpenAI-compatible fake.

The runner is dp's one live probe (dp/live/probe.py); this module says what is Droid's: the fake model
(dp/live/openai_compat.py) is a custom model of a scratch ``~/.factory/settings.json`` that holds only
dp's hook entries from the user's (no Factory sign-in is needed for a custom model), and ``droid exec
--auto low`` runs the probe, so a rewrite is answered with dp's refusal carrying the corrected command
and a made-up tool name with dp's correction, both read by the model as the call's result.
"""

from __future__ import annotations

import json
from pathlib import Path

from dp.live.openai_compat import MODEL, shell
from dp.live.probe import CONTEXT_START, PROMPT, CompatProbe

# Droid names a custom model ``custom:<display name>-<index>``.
MODEL_ID = "custom:dp-live-0"


class DroidProbe(CompatProbe):
    program = "droid"
    package = "@factory/cli"
    shell_tool = "Execute"
    signs = ("dp:", "is not a valid tool")  # a blocked tool name reads "Error: <dp's block>", without "dp:"

    def shell_call(self, command: str) -> dict:
        """Droid refuses an Execute call without a summary and the model's own risk level."""
        return shell(command, tool=self.shell_tool, summary="Run the dp live probe", riskLevel="low",
                     riskLevelReason="It runs one local probe command.")

    def prepare(self, home: Path, project: Path, url: str) -> dict:
        model = {"model": MODEL, "displayName": "dp live", "baseUrl": url + "/v1", "apiKey": "dp-doctor-live",
                 "provider": "generic-chat-completion-api"}
        (home / ".factory").mkdir(parents=True)
        (home / ".factory" / "settings.json").write_text(json.dumps({"customModels": [model], "hooks": self.entries}))
        return {}

    def session_start(self, transcript) -> str:
        """SessionStart's context, which Droid sends as a message of its own before the prompt."""
        return next((text.strip() for text in transcript.before_first_turn() if text.startswith(CONTEXT_START)), "")

    def command(self, binary: str) -> list:
        return [binary, "exec", "-m", MODEL_ID, "-o", "json", "--auto", "low", PROMPT]


def run(db_path: Path, rules, agent) -> dict:
    return DroidProbe(agent).run(db_path, rules)
