"""Factory Droid's install side: ``~/.factory/settings.json`` or a project's ``.factory/settings.json``.

Droid's hook groups take, besides a tool ``matcher`` (``*``, the exact name, else a JavaScript regular
expression tested against the tool name), a ``commandRegex`` tested against an Execute call's command
(observed in 0.225.2): a group whose expression does not match starts nothing. So dp's PreToolUse entries
name what its rules and paving can concern — Execute commands naming one of their words, as a whole word,
and the tools (or made-up tool names) other rules are about — and any other call starts no dp process.
A rule that can match any command gets the plain Execute group. Every rule change re-writes them
(``dp.install.hook.sync_installed``); Droid 0.225.2 reads both, so the entries never depend on ``filtered``.
"""

import re

from dp.agents.droid.wire import POST_TOOL_USE, PRE_TOOL_USE, REWRITES_AT, SHELL_TOOL, VERSION
from dp.agents.hookbase import Hooks
from dp.rules.model import BASH_PARAM, BASH_TOOL, TOOL_ALIAS

ALL_TOOLS = "*"
HOOK_TIMEOUT_SECONDS = 10
CAPTURE_TIMEOUT_SECONDS = 30  # Droid waits for every hook (0.225.2 runs none in the background)
# Characters around a word that keep it the same program name (``pgrep`` is not ``grep``, ``npm-run`` not ``npm``).
_PART_OF_WORD = r"\w.-"


class FactoryDroidHooks(Hooks):
    folder = ".factory"
    bench_start = "matchers"  # the peer bench tests its groups as Droid does (bench/run_peer_bench.py)
    install_notes = (f"Droid ({VERSION}) runs a rewritten command only at --auto high; at other autonomy levels dp "
                     "refuses the call with the corrected command, which the model reissues under Droid's own "
                     "risk judgement",)

    def sample_payload(self, tool: str, tool_input: dict, cwd) -> dict:
        """As Droid 0.225.2 sends it from ``droid exec --auto high`` (its autonomy level as ``permission_mode``,
        no call id)."""
        return {"session_id": "dp-sample", "transcript_path": "", "cwd": str(cwd), "permission_mode": REWRITES_AT,
                "hook_event_name": PRE_TOOL_USE, "tool_name": tool, "tool_input": tool_input}

    def filter_support(self) -> dict:
        return {"filtered": True, "version": VERSION,
                "reason": f"Droid {VERSION} hook groups take a commandRegex on the Execute command"}

    def hook_entries(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> dict:
        """The groups of ``matchers`` running pave-check (always: every Droid dp serves reads ``commandRegex``)."""
        handler = {"type": "command", "command": hook_command, "timeout": HOOK_TIMEOUT_SECONDS}
        groups = [{**group, "hooks": [dict(handler)]} for group in self.matchers(rules, extra_words)]
        return {PRE_TOOL_USE: groups, "SessionStart": [{"hooks": [dict(handler)]}]}

    def matchers(self, rules, extra_words=()) -> list[dict]:
        """The PreToolUse groups' selectors (without their handlers): the tools pave-check can act on
        (``dp.agents.matchers.tools``), Execute in a group of its own whose ``commandRegex`` names the rules'
        and paving's words, unless a rule can match any command."""
        from dp.agents.matchers import anchored, tools

        rules = list(rules)
        words, every_command = command_words(rules, extra_words)
        every_command = every_command or self.shell_aliased(rules)
        others = [name for name in tools(self.agent, rules) if name != SHELL_TOOL]
        execute = {"matcher": anchored([SHELL_TOOL]), **({} if every_command else {"commandRegex": naming(words)})}
        return [execute, *([{"matcher": anchored(others)}] if others else [])]

    def shell_aliased(self, rules) -> bool:
        """Whether a tool-name alias corrects the shell tool itself (``Execute``, or ``Bash``), so that every
        Execute call is dp's to refuse, whatever its command."""
        agent = self.agent
        return any(rule.match_kind == TOOL_ALIAS and agent.canonical(rule.from_name) == BASH_TOOL
                   and agent.corrects(rule.from_name, rule.to_name) for rule in rules)

    def hook_starts(self, hook_command: str, rules, extra_words=(), filtered: bool = False) -> str | None:
        """The shared reading of the entries' matchers (``dp.agents.matchers.said``), with the words Execute's
        ``commandRegex`` names."""
        rules = list(rules)
        said = super().hook_starts(hook_command, rules, extra_words, filtered)
        words, every_command = command_words(rules, extra_words)
        return said if every_command or self.shell_aliased(rules) or not said else f"{said}; Execute only for commands naming {', '.join(words)}"

    def capture_entries(self, capture_command: str) -> dict:
        handler = {"type": "command", "command": capture_command, "timeout": CAPTURE_TIMEOUT_SECONDS}
        return {POST_TOOL_USE: [{"matcher": ALL_TOOLS, "hooks": [handler]}]}


def command_words(rules, extra_words=()) -> tuple[list[str], bool]:
    """(the command words Execute rules are keyed on, with ``extra_words``; whether a rule needs every command)."""
    words, every_command = set(extra_words), False
    for rule in rules:
        if rule.tool != BASH_TOOL or rule.match_kind == TOOL_ALIAS:
            continue
        if rule.param == BASH_PARAM and rule.command:
            words.add(rule.command)
        else:
            every_command = True  # a parameter rule on the whole command
    return sorted(words), every_command


def naming(words) -> str:
    """A JavaScript regular expression matching a command that names one of ``words`` as a whole word."""
    alternatives = "|".join(re.sub(r"[\\^$.*+?()[\]{}|/-]", r"\\\g<0>", word) for word in words)
    return f"(?:^|[^{_PART_OF_WORD}])(?:{alternatives})(?:$|[^{_PART_OF_WORD}])"


HOOKS = FactoryDroidHooks()
