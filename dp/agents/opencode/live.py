"""``dp doctor --live --agent opencode``: the user's own ``opencode`` against a fake model, end to end.

The probe is the one of every agent running dp's OpenCode plugin (dp/live/plugin_probe.py); this module
says what is OpenCode's: its program, its config directory, the variable its run's settings come in, and
what it would fetch on start.
"""

from __future__ import annotations

from pathlib import Path

from dp.live.plugin_probe import PluginProbe, provider_config, settle

__all__ = ["provider_config", "settle"]

# What OpenCode installs into a config directory on start unless it finds it there (npm, from the registry):
# dp's plugin imports only types from it, so an empty install keeps the check offline.
DEPENDENCIES = {"@opencode-ai/plugin": "1.18.33"}
QUIET = {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_SHARE": "1"}


class OpenCodeProbe(PluginProbe):
    program = "opencode"
    package = "opencode-ai"
    config_dir = "opencode"
    content_variable = "OPENCODE_CONFIG_CONTENT"
    quiet = QUIET
    dependencies = DEPENDENCIES


def run(db_path: Path, rules, agent) -> dict:
    return OpenCodeProbe(agent).run(db_path, rules)
