"""The install side of an agent's hooks, with the defaults every agent's ``hooks.py`` starts from.

Each agent's folder has a ``hooks.py`` (its "hooks" role, ``dp/agents/roles.py``) whose ``HOOKS`` is an
instance of a ``Hooks`` subclass: the agent's config files per scope, the entries dp keeps there, its
before-tool payload and the reading of its answer back. ``dp init``, ``dp pave --hook``, ``dp uninstall``
and ``dp doctor`` ask it (``Agent.hooks()``); the hook's own path never does, so none of it costs a hook
call anything (``integration_tests/test_hook_imports.py``). The defaults here are Claude Code's shapes
(its payload, its ``hookSpecificOutput`` answer, its capture entries), which most agents' hooks speak;
an agent overrides only what its contract does differently, so each shape is written once.
"""

from __future__ import annotations

from pathlib import Path


class Hooks:
    """One agent's install side: subclass it in ``dp/agents/<agent>/hooks.py`` and set ``HOOKS``.

    Class attributes, where the entries go (``config_path``): ``<home>/<folder>/<file>`` for the user,
    ``<project>/<project_folder>/<file>`` for a project (``folder`` when ``project_folder`` is empty).
    ``install_notes`` are the lines the install commands add about the entries (how the agent treats
    them); ``rewrites`` whether the agent reads ``updatedInput`` from a Claude Code-shaped answer.
    """

    folder = ""
    project_folder = ""
    file = "settings.json"
    install_notes: tuple = ()
    rewrites = True
    # What dp's default install in this agent starts for one call, as the peer bench times it
    # (bench/run_peer_bench.py, ``bench_installs``): "door" (a plugin of dp's decides in-process and asks
    # pave-check only for a call a rule or paving word can concern), "filters" (Claude Code's ``if`` conditions
    # start pave-check only for such calls), "matchers" (the agent's own group matchers select the commands
    # and tools rules concern: Factory Droid's commandRegex), "tools" (they select the tools rules concern,
    # so every shell call starts it: dp.agents.matchers), "every" (each call of any tool starts it); and how many
    # dp processes the agent starts after a call (after-tool entries: dp's note, dp-capture).
    bench_start = "every"
    bench_after = 1
    bench_label = ""  # the bench's name for that install (the agent's display name when empty)

    def bench_installs(self) -> dict:
        """The peer bench's rows for this agent's default install: key → (label, how it starts, after)."""
        return {self.agent.name: (self.bench_label or self.agent.display, self.bench_start, self.bench_after)}

    @property
    def agent(self):
        """The adapter of the agent whose folder holds this module (``dp/agents/<agent>/hooks.py``): the name
        comes from the file's place, so a copied folder is a new agent with nothing to rename here."""
        from dp import agents

        return agents.get(type(self).__module__.split(".")[-2])

    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        """A before-tool payload as the agent sends it, for the tool the agent calls ``tool`` (Claude Code's
        shape by default). ``dp init``'s demonstration and ``dp doctor`` run the installed hook with it, so
        they prove the very command the agent will start."""
        return {"session_id": "dp-sample", "transcript_path": "", "cwd": str(cwd), "permission_mode": "default",
                "hook_event_name": self.agent.pre_tool_hook, "tool_name": tool, "tool_input": tool_input,
                "tool_use_id": "toolu_dp_sample"}

    def read_answer(self, status: int, stdout: str, stderr: str):
        """The ``Decision`` an answer in the agent's contract says, the inverse of ``Agent.answer`` for a
        before-tool event (``hookSpecificOutput`` JSON by default, ``updatedInput`` only where ``rewrites``)."""
        from dp.agents.answers import hook_specific_answer

        return hook_specific_answer(status, stdout, stderr, rewrites=self.rewrites)

    def user_folder(self, home=None) -> Path:
        """The folder of the user's file (``home`` given: that home's, for tests and doctor)."""
        return Path(home or Path.home()) / self.folder

    def config_path(self, scope: str, home=None, project_dir=None) -> Path:
        """The settings file dp's hook entries go into for ``scope``; a ``DpError`` for a scope the agent has not."""
        if scope == "user":
            return self.user_folder(home) / self.file
        if scope == "project":
            return Path(project_dir or Path.cwd()) / (self.project_folder or self.folder) / self.file
        from dp.errors import DpError, did_you_mean

        scopes = self.agent.scopes
        raise DpError(f"unknown scope {scope!r} for {self.agent.display}{did_you_mean(scope, scopes)}: "
                      f"use one of {', '.join(scopes)}")

    def filter_support(self) -> dict:
        """Whether dp can install entries that start the hook only for the calls rules name.

        ``{"filtered": bool, "version": str | None, "reason": str}``; agents whose matchers select tools,
        not commands (the default), have no such filters.
        """
        return {"filtered": False, "version": None, "reason": f"{self.agent.display} hooks select tools, not commands"}

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        """Event → hook groups running ``hook_command`` (pave-check) that dp wants in the agent's settings.

        In ``dp.agents.settings.sync_entries`` form. ``rules`` (the store's) and ``extra_words`` (paving's
        command words) matter to agents whose hooks can be filtered (``filtered``, from ``filter_support``).
        An event absent from the result is left as it is in the file.
        """
        raise NotImplementedError

    def hook_starts(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> str | None:
        """Which calls start pave-check under ``hook_entries``' entries, in words, read from the entries
        themselves (their matchers: dp.agents.matchers), so it says what the settings file will hold."""
        from dp.agents.matchers import said

        return said(self.hook_entries(hook_command, rules, extra_words, filtered))

    def capture_entries(self, capture_command: str) -> dict:
        """Event → hook groups running ``capture_command`` (dp-capture) after tool calls (Claude Code's by default)."""
        from dp.agents.settings import capture_entries

        return capture_entries(capture_command)
