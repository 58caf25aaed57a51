"""Putting dp's OpenCode plugin in place and taking it out again.

OpenCode 1.18.33 loads every ``*.ts``/``*.js`` file in the ``plugin/`` and
``plugins/`` directories of each config directory it reads (observed in the
binary: ``{plugin,plugins}/*.{ts,js}``), among them ``~/.config/opencode``
(``$XDG_CONFIG_HOME/opencode``) for the user and ``.opencode`` in the project.
So dp's install is two files of dp's own, and no file of the user's changes:

* ``plugins/dp.ts``, byte for byte the shipped plugin (``plugin/dp.ts``);
* for a user install, ``plugins/dp-opencode.json`` beside it: the absolute
  ``pave-check`` and ``dp-capture`` commands (with ``--db`` for a store other
  than the default), which OpenCode does not load as a plugin. A project
  install, committed for a team, has none: each person's own dp is found on
  PATH.

Directories dp had to create are recorded and removed again by ``dp
uninstall`` once empty; a ``dp.ts`` that is not dp's is never overwritten.
"""

from __future__ import annotations

from dp.agents.plugin_files import PLUGIN_DIR, SHIPPED, PluginFiles

__all__ = ["PLUGIN_DIR", "SHIPPED"]

# OpenCode's own: ``dp init --agent opencode``'s files (the Install role, ``dp/agents/roles.py``).
OPENCODE = PluginFiles("opencode", "OpenCode", "opencode", ".opencode")
CONFIG_NAME = OPENCODE.config_name
config_home, plugin_path, shipped_text = OPENCODE.config_home, OPENCODE.plugin_path, OPENCODE.shipped_text
install, files, uninstall, state = OPENCODE.install, OPENCODE.files, OPENCODE.uninstall, OPENCODE.state
