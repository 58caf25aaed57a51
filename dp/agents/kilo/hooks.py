"""Kilo Code's install side: no hook entries, dp's OpenCode plugin in Kilo's config directories (its "install"
role, ``install.py``), the payloads that plugin sends (``dp.agents.plugin_files.PluginHooks``, OpenCode's too).
"""

from dp.agents.plugin_files import PluginHooks


class KiloHooks(PluginHooks):
    pass


HOOKS = KiloHooks()
