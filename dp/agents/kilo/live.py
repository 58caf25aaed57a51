"""``dp doctor --live --agent kilo``: the user's own ``kilo`` against a fake model, end to end.

The probe is the one of every agent running dp's OpenCode plugin (dp/live/plugin_probe.py); this module says
what is Kilo Code's (7.7.7): its program, its config directory (``~/.config/kilo``), the variable its run's
settings come in (``KILO_CONFIG_CONTENT``), what it would fetch on start, and that ``kilo run`` refuses every
call its permission rules ask about (its default for ``bash``), so the scratch settings allow the shell; and
that it answers a made-up tool name itself, so no alias of one is probed.
"""

from __future__ import annotations

from pathlib import Path

from dp.live.plugin_probe import PluginProbe

# What 7.7.7 tries to install into a config directory on start (npm: it has no such release, so the install
# fails after a registry round trip): an empty install keeps the check offline.
DEPENDENCIES = {"@kilocode/plugin": "7.7.7"}
QUIET = {"KILO_DISABLE_AUTOUPDATE": "1", "KILO_DISABLE_MODELS_FETCH": "1", "KILO_DISABLE_SHARE": "1",
         "KILO_DISABLE_SESSION_INGEST": "1", "KILO_TELEMETRY_LEVEL": "off"}
# `kilo run` auto-rejects what its rules ask about, and 7.7.7 asks about every bash call by default.
SETTINGS = {"permission": {"bash": "allow"}}


class KiloProbe(PluginProbe):
    program = "kilo"
    package = "@kilocode/cli"
    timeout = 600
    config_dir = "kilo"
    content_variable = "KILO_CONFIG_CONTENT"
    quiet = QUIET
    dependencies = DEPENDENCIES
    settings = SETTINGS

    def shows_alias(self, rule) -> bool:
        """7.7.7 answers a tool name it does not have itself, before any plugin hook: only an alias of one of its
        own tools reaches the plugin."""
        return self.agent.is_own_tool(rule.from_name) and super().shows_alias(rule)


def run(db_path: Path, rules, agent) -> dict:
    return KiloProbe(agent).run(db_path, rules)
