"""Putting dp's plugin in Kilo Code's config directories and taking it out again.

Kilo Code CLI 7.7.7 is an OpenCode fork and loads plugins as OpenCode does (``{plugin,plugins}/*.{ts,js}`` in each
config directory it reads), but from its own directories: ``~/.config/kilo`` (``$XDG_CONFIG_HOME/kilo``) for the
user and ``.kilo`` in the project (observed in the binary; it reads no ``.opencode`` directory). The plugin is
OpenCode's own source (``dp/agents/opencode/plugin/dp.ts``) naming Kilo (``pave-check --agent kilo``), with its
commands in ``dp-kilo.json`` beside it for a user install: the same files, lossless install and uninstall, as
OpenCode's (``dp.agents.opencode.install.PluginFiles``).
"""

from __future__ import annotations

from dp.agents.plugin_files import PluginFiles

KILO = PluginFiles("kilo", "Kilo Code", "kilo", ".kilo")
plugin_path, shipped_text = KILO.plugin_path, KILO.shipped_text
install, files, uninstall, state = KILO.install, KILO.files, KILO.uninstall, KILO.state
