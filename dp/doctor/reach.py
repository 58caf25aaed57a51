"""dp doctor: are dp's hook entries the set the rules call for, and where does each kind of
rule take effect in the installed Claude Code?

Claude Code (observed in 2.1.330) rejects a tool name it does not know before
any PreToolUse hook runs, so such an alias can only be *told*: at session
start and after the failed call (PostToolBatch). Saying so per kind is what
keeps the report honest.
"""

from __future__ import annotations

import copy

from dp.agents import tools
from dp.agents.executable import hook_argv
from dp.agents.settings import dp_hooks, sync_entries
from dp.doctor.findings import OK, WARNING, Finding
from dp.doctor.settings_files import reinstall_command
from dp.rules.model import BASH_TOOL, TOOL_ALIAS


def check_entries(files, db_path) -> list:
    """A settings file whose dp entries are not what the rules call for (stale filters, a missing
    SessionStart/PostToolBatch entry, a hand-narrowed matcher)."""
    from dp.install.hook import wanted_entries
    from dp.store import installs

    recorded = {entry.path: entry for entry in installs.read(db_path, installs.HOOK)}
    findings = []
    for file in files:
        mine = dp_hooks(file.data)
        if not mine:
            continue
        command = next((hook.get("command") for _, _, hook in mine if hook_argv(hook.get("command"))), None)
        if command is None:
            continue
        record = recorded.get(str(file.path))
        filtered = record.details.get("filtered") if record else any(hook.get("if") for _, _, hook in mine)
        trial = copy.deepcopy(file.data)
        if sync_entries(trial, wanted_entries(command, bool(filtered), db_path)) != "already_configured":
            findings.append(Finding(
                "entries", WARNING,
                f"{file.where}: dp's hook entries are stale: they do not match the rules "
                f"({'filtered' if filtered else 'plain'} install)",
                reinstall_command(file),
            ))
        else:
            starts = _starts(command, bool(filtered), db_path, record)  # what the entries do, not what they are called
            kind = "" if starts else "if-filtered " if filtered else "plain "
            findings.append(Finding("entries", OK, f"{file.where}: dp's {kind}hook entries match the rules"
                                    + (f"; {starts}" if starts else "")))
    return findings


def _starts(command: str, filtered: bool, db_path, record) -> str | None:
    """Which calls start pave-check under a file's entries, for the agent the install names."""
    from dp.agents import get
    from dp.install.hook import hook_starts

    name = record.details.get("agent") if record else None
    return hook_starts(command, filtered, db_path, get(name))


def check_reach(rules) -> list:
    """One line per kind of rule present: where it takes effect, and where it cannot."""
    from dp.agents import get

    agent = get()
    version = agent.installed_version()
    client = f"{agent.display} {version}" if version else f"{agent.display} (not found; as observed in {agent.observed})"
    return [Finding("reach", OK, f"{client}: {line}") for line in _reach_lines(rules)]


def _reach_lines(rules) -> list[str]:
    from dp.agents import get

    agent = get()  # aliases between two agents' names of one tool are no correction in Claude Code
    aliases = [r.from_name for r in rules if r.match_kind == TOOL_ALIAS and agent.corrects(r.from_name, r.to_name)]
    unknown = sorted(name for name in aliases if not tools.is_possible_tool(name))
    known = sorted(name for name in aliases if tools.is_possible_tool(name))
    lines = []
    if unknown:
        lines.append(
            f"tool-name aliases for names it does not know ({', '.join(unknown[:5])}"
            f"{', …' if len(unknown) > 5 else ''}) cannot be blocked (it rejects the call before any hook); "
            "they are delivered at session start and after the failed call (PostToolBatch)"
        )
    if known:
        lines.append(f"aliases of tools it has ({', '.join(known[:5])}) are blocked by PreToolUse")
    return lines + _rewrite_lines(rules)


def _rewrite_lines(rules) -> list[str]:
    """What the Bash and tool-parameter rules do here: rewrite, or wait for a program that is missing."""
    bash = [r for r in rules if r.tool == BASH_TOOL and r.match_kind != TOOL_ALIAS]
    params = [r for r in rules if r.tool and r.tool != BASH_TOOL]
    lines = []
    idle = _idle(bash)
    acting = [rule for rule in bash if all(rule is not r for r, _ in idle)]
    if acting:
        lines.append(
            f"{_count(acting, 'Bash rule rewrites', 'Bash rules rewrite')} the command before it runs "
            "(PreToolUse updatedInput), and the model is told what changed; listed at session start too"
        )
    if idle:
        programs = ", ".join(dict.fromkeys(program for _, missing in idle for program in missing))
        lines.append(f"{_count(idle, 'Bash rule', 'Bash rules')} cannot act here: {programs} "
                     f"{'is' if ',' not in programs else 'are'} not installed, so the hook leaves "
                     f"{'that command' if len(idle) == 1 else 'those commands'} as typed (see rules)")
    if params:
        lines.append(f"{_count(params, 'tool-parameter rule rewrites', 'tool-parameter rules rewrite')} "
                     "the input before the call runs")
    return lines


def _idle(rules) -> list:
    """(rule, its missing programs) for each rule that would put a program into the command that is not
    on this PATH (``dp.rules.programs``): the hook leaves their commands as typed, so they rewrite nothing."""
    from dp.rules.programs import missing_programs

    return [(rule, missing) for rule in rules for missing in [missing_programs(rule)] if missing]


def _count(items, one: str, many: str) -> str:
    return f"{len(items)} {one if len(items) == 1 else many}"
