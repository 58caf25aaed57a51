"""Claude Code's install side: its settings files per scope and the entries dp keeps there.

Its payload, answer and capture entries are the defaults (``dp.agents.hookbase``: Claude Code's shapes
are dp's own); what is its own is the ``local`` scope and the ``if`` filters that start pave-check only
for the calls the rules name (``dp/agents/claude/filters.py``), which its client supports from a
release on (``dp/agents/claude/client.py``).
"""

from dp.agents.hookbase import Hooks


class ClaudeCodeHooks(Hooks):
    def bench_installs(self) -> dict:
        """Two installs: the plugin where the client loads mods (its front door starts nothing, captures
        only around failures), the settings hooks elsewhere (if-filtered PreToolUse; dp-capture after each
        call; PostToolBatch's shell guard starts pave-check only after a refused tool name)."""
        return {"claude": ("Claude Code 2.1.330 (plugin, mod front door)", "door", 0),
                "claude-settings": ("Claude Code, settings hooks (no mods, or --no-plugin)", "filters", 1)}

    def config_path(self, scope: str, home=None, project_dir=None):
        from dp.agents.settings import settings_path

        return settings_path(scope, home, project_dir)

    def filter_support(self) -> dict:
        from dp.agents.claude.client import filter_support

        return filter_support()

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        from dp.agents.claude import filters

        return filters.wanted(hook_command, rules, filtered, extra_words)

    def hook_starts(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> str:
        from dp.agents.claude import filters

        rules = list(rules)
        why = filters.bash_filter(rules, extra_words)[1] if filtered else ""
        return filters.starts(filters.wanted(hook_command, rules, filtered, extra_words), why)


HOOKS = ClaudeCodeHooks()
