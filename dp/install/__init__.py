"""Putting dp in place: its hook entries in Claude Code settings, its MCP server registration and
its block in AGENTS.md / CLAUDE.md (``dp init``, ``dp pave``), and taking them out again (``dp uninstall``).

Every file written here is recorded in the store (``dp.store.installs``) so that rule changes, ``dp
doctor`` and ``dp uninstall`` find it again.
"""
