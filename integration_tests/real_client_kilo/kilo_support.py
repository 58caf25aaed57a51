"""Driving the real ``kilo run`` (Kilo Code CLI 7.7.7) against the scripted fake Chat Completions API.

A ``KiloUser`` is the plugin user of integration_tests/plugin_users.py (OpenCode's too) with Kilo's names: its
config directory ``~/.config/kilo`` (``.kilo`` in a project), its settings in ``KILO_CONFIG_CONTENT``, its
quiet variables, and the user's own setting that lets ``bash`` run: ``kilo run`` auto-rejects every call its
permission rules ask about, and 7.7.7 asks about every bash call unless told otherwise (observed). A run's
own ``permission`` replaces it (the permission tests).
"""

from __future__ import annotations

from plugin_users import PluginUser

from dp.agents.kilo import live


class KiloUser(PluginUser):
    """A throwaway user account driving the pinned real ``kilo`` (its places follow from its name)."""

    AGENT = PROGRAM = "kilo"
    DEPENDENCIES, QUIET, SETTINGS = live.DEPENDENCIES, live.QUIET, live.SETTINGS
