"""OpenCode's install side: no hook entries, a plugin file (its "install" role, ``install.py``) that asks dp
for the calls dp's gate says a rule can concern, sending the small JSON ``dp/agents/opencode/wire.py``
describes (``dp.agents.plugin_files.PluginHooks``, shared with the agents built on OpenCode).
"""

from dp.agents.plugin_files import PluginHooks


class OpenCodeHooks(PluginHooks):
    bench_label = "OpenCode (plugin, front door)"


HOOKS = OpenCodeHooks()
