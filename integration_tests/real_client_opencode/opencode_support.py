"""Driving the real ``opencode run`` against the scripted fake Chat Completions API.

An ``OpenCodeUser`` is one user's machine in a temporary directory: its own
HOME (XDG directories and TMPDIR inside), dp's default store, a project that
is a git repository, and a ``bin`` directory first on PATH for stand-in
programs (and the user's own ``opencode``). ``run()`` starts the fake model
with a list of turns, runs the real binary once and returns an
``OpenCodeSession`` to assert on: what the model was shown (every request
body) and what the binary printed.

The model is an ``@ai-sdk/openai-compatible`` provider whose ``baseURL`` is
the fake, given in ``OPENCODE_CONFIG_CONTENT`` (OpenCode merges it over the
user's own config files, which a test may then hold anything in). With
``OPENCODE_DISABLE_MODELS_FETCH`` and ``OPENCODE_DISABLE_AUTOUPDATE`` the
binary sends nothing but the conversation's requests and a title request
(a side request of the fake: it offers no tools).
"""

from __future__ import annotations

from plugin_users import PluginSession, PluginUser, bash

from dp.agents.opencode.live import DEPENDENCIES, QUIET

__all__ = ["bash"]

OpenCodeSession = PluginSession


class OpenCodeUser(PluginUser):
    """A throwaway user account driving the pinned real ``opencode``."""

    AGENT = PROGRAM = "opencode"
    DEPENDENCIES = DEPENDENCIES
    QUIET = QUIET
