"""``dp doctor --live --agent qwen``: the user's own ``qwen`` against the local OpenAI-compatible fake.

The runner is dp's one live probe (dp/live/probe.py); this module says what is Qwen Code's: the
fake model (dp/live/openai_compat.py) makes a shell call a rule rewrites (Qwen answers it
with dp's refusal carrying the corrected command) and a call of a tool name an alias corrects
(Qwen rejects it, then PostToolBatch's correction is appended to that result), and ``qwen -p``
runs with only dp's hook entries from the user's ``~/.qwen/settings.json`` and the OpenAI sign-in
pointed at the fake.
"""

from __future__ import annotations

import json
from pathlib import Path

from dp.live.openai_compat import MODEL
from dp.live.probe import PROMPT, CompatProbe, Probe

AUTH = {"security": {"auth": {"selectedType": "openai"}}, "model": {"name": MODEL}}


class QwenProbe(CompatProbe):
    program = "qwen"
    package = "@qwen-code/qwen-code"

    def shows_alias(self, rule) -> bool:
        """Qwen rejects an unknown name and its PostToolBatch hook corrects it: a real tool's alias is not probed."""
        return not self.agent.is_own_tool(rule.from_name) and Probe.shows_alias(self, rule)

    def prepare(self, home: Path, project: Path, url: str) -> dict:
        (home / ".qwen").mkdir(parents=True)
        (home / ".qwen" / "settings.json").write_text(json.dumps({**AUTH, "hooks": self.entries}))
        return {"OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY": "dp-doctor-live", "OPENAI_MODEL": MODEL,
                "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}

    def command(self, binary: str) -> list:
        return [binary, "-p", PROMPT, "--approval-mode", "yolo"]


def run(db_path: Path, rules, agent) -> dict:
    return QwenProbe(agent).run(db_path, rules)
