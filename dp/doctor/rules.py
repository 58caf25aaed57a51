"""The ``rules`` lines of ``dp doctor``: rules that can never fire, or fire where they should not.

Each finding's fix is the exact ``dp alias --delete …`` that removes the rule
(``delete_command``), so a user can paste it.
"""

from __future__ import annotations

import shlex

from dp.agents import tools
from dp.doctor.findings import ERROR, OK, WARNING, Finding
from dp.rules.model import COMMAND, FLAG, RECIPE, REGEX, TOOL_ALIAS, Rule


def check_rules(rules: list[Rule], paths: dict | None = None) -> list[Finding]:
    """Every rule that cannot fire or fires where it should not; ``paths`` maps a project layer's
    source (dp.layers) to its file, so a finding about a project rule names the file and line."""
    findings = []
    alias_names = {rule.from_name for rule in rules if rule.match_kind == TOOL_ALIAS}
    for rule in rules:
        found = _check_rule(rule, alias_names, delete_command(rule))
        if rule.source != "user" and paths and rule.source in paths:
            found = [_in_layer(finding, rule, paths[rule.source]) for finding in found]
        findings += found
    if not findings and rules:
        findings.append(Finding("rules", OK, _all_valid(rules)))
    return findings


def _all_valid(rules: list[Rule]) -> str:
    """The OK line, counted as the client acts: an alias of a tool name Claude Code does not know
    never reaches a PreToolUse hook (the client rejects the call first), so it cannot fire — it
    is only told to the model (the reach lines say how). Claiming "all N can fire" above that
    would contradict them. Rules from project layers (dp.layers) are counted apart."""
    layered = sum(1 for rule in rules if rule.source != "user")
    counted = f"all {len(rules)} rules" + (f" ({layered} from the project layers)" if layered else "")
    told = sum(1 for rule in rules if rule.match_kind == TOOL_ALIAS and not tools.is_possible_tool(rule.from_name))
    if not told:
        return f"{counted} can fire"
    acting = len(rules) - told
    return (f"{counted} are valid: {acting} can fire before the call runs; "
            f"{told} tool-name {'alias is' if told == 1 else 'aliases are'} only told to the model "
            f"(Claude Code rejects {'that name' if told == 1 else 'those names'} before any hook; see reach)")


def _check_rule(rule: Rule, alias_names: set[str], delete: str) -> list[Finding]:
    from dp.rules.build import rule_problem

    findings = []
    problem = rule_problem(rule)
    if problem:
        findings.append(Finding("rules", ERROR, f"can never fire: {problem}", f"{delete}, then add it again fixed"))
    if rule.match_kind == RECIPE:
        findings += _check_raw(rule)
    missing = missing_program(rule)
    if missing is not None:
        findings.append(missing)
    if rule.match_kind == TOOL_ALIAS:
        findings += _check_alias(rule, alias_names, delete)
    elif not rule.command:
        findings += _check_tool_param(rule, delete)
    else:
        findings += _check_rename(rule, delete)
    return findings


def _in_layer(finding: Finding, rule: Rule, path: str) -> Finding:
    """A finding about a rule of a project layer file: where it is written, and the fix made there
    (the committed file through ``--project``; a person's local file by hand)."""
    delete = delete_command(rule)
    fix = finding.fix
    if fix and rule.source == "project":
        fix = fix.replace(delete, f"{delete} --project") if delete in fix else \
            f"{fix} --project" if fix.startswith("dp alias ") else fix
    elif fix:
        fix = f"remove the entry at {path} line {rule.line}{fix.replace(delete, '', 1)}" if delete in fix else \
            f"edit {path} line {rule.line}"
    return Finding(finding.check, finding.status, f"{path} line {rule.line}: {finding.message}", fix,
                   **finding.details, source=rule.source)


def _check_raw(rule: Rule) -> list[Finding]:
    """Every ``|raw`` in a recipe: written when it spliced text unchecked; it no longer does."""
    from dp.rules.recipe import raw_uses

    return [
        Finding("rules", WARNING, f"recipe {rule.from_name!r} uses |raw, which no longer splices the agent's "
                                  f"text unchecked (it prints it as typed, placed as data): {tag}",
                "drop |raw: the placeholder renders as data wherever it stands")
        for tag in raw_uses(rule.to_name)
    ]


def missing_program(rule: Rule, programs=None) -> Finding | None:
    """A command rule or recipe that would run a program that is not there: the hook leaves the
    agent's command as typed until it is (``dp alias`` prints this finding as its warning)."""
    from dp.rules.programs import missing_programs

    missing = missing_programs(rule, programs)
    if not missing:
        return None
    names = ", ".join(missing)
    paths = [name for name in missing if "/" in name]
    one = len(missing) == 1
    what = f"{names} {'is' if one else 'are'} " + (
        ("not an executable file" if one else "not executable files") if paths else "not on PATH")
    if rule.match_kind == COMMAND:
        subject, typed = f"command {rule.command} → {rule.to_name}", f"{rule.command} commands"
        point = (f"install {names}, or give its path: dp alias --cmd {shlex.quote(rule.command)} --replace "
                 f"/path/to/{missing[0].rsplit('/', 1)[-1]}; ")
    else:
        subject, typed = f"recipe {rule.from_name!r}", f"`{rule.from_name}` commands"
        point = f"install {names}; "
    return Finding("rules", WARNING, f"{subject}: {what}, so the hook leaves {typed} as typed",
                   f"{point}or remove the rule: {delete_command(rule)}")


def _check_rename(rule: Rule, delete: str) -> list[Finding]:
    """A command rule between two programs dp has no flag table for."""
    from dp.rules.tables.pairs import renames_only

    if not renames_only(rule):
        return []
    return [
        Finding(
            "rules",
            WARNING,
            f"command {rule.command} → {rule.to_name} only renames: dp has no translation table for "
            f"this pair, so every flag passes through unchanged ({rule.to_name} must accept "
            f"{rule.command}'s flags)",
            f"{delete} (if {rule.to_name} reads some flags differently)",
        )
    ]


def _corrects_default_agent(name: str, target: str) -> bool:
    from dp.agents import get

    return get().corrects(name, target)


def _check_alias(rule: Rule, alias_names: set[str], delete: str) -> list[Finding]:
    name, target = rule.from_name, rule.to_name
    if tools.is_builtin(name) and not _corrects_default_agent(name, target):
        return [Finding("rules", OK, f"alias {name} → {target} is for other agents ({target} is their name for "
                                     f"{name}); Claude Code's own {name} is not blocked")]
    from dp.agents import all_agents

    blocked = [agent.display for agent in all_agents() if agent.is_own_tool(name) and agent.corrects(name, target)]
    if blocked:
        where = "" if blocked == [all_agents()[0].display] else f" in {', '.join(blocked)}"
        return [
            Finding(
                "rules",
                ERROR,
                f"alias {name} → {target} shadows the real tool {name}{where}: every {name} call is blocked",
                delete,
            )
        ]
    if target in alias_names and not tools.is_builtin(target):
        return [
            Finding(
                "rules",
                WARNING,
                f"alias {name} → {target} points to another alias: the agent is sent "
                f"to {target}, which is blocked too",
                f"{delete}, then: dp alias {shlex.quote(name)} <real tool>",
            )
        ]
    if target in tools.RETIRED_TOOLS:
        return [
            Finding(
                "rules",
                WARNING,
                f"alias {name} → {target}: current Claude Code calls it {tools.RETIRED_TOOLS[target]}",
                f"dp alias {shlex.quote(name)} {tools.RETIRED_TOOLS[target]}",
            )
        ]
    from dp.agents import is_agent_tool

    if not tools.is_possible_tool(target) and not is_agent_tool(target):
        return [
            Finding(
                "rules",
                WARNING,
                f"alias {name} → {target}: there is no tool named {target} in any agent dp serves",
                f"dp alias {shlex.quote(name)} <real tool name>",
            )
        ]
    return []


def _check_tool_param(rule: Rule, delete: str) -> list[Finding]:
    tool, param = rule.tool, rule.param
    if tool in tools.RETIRED_TOOLS:
        return [
            Finding(
                "rules",
                WARNING,
                f"rule for {tool}.{param} targets a tool current Claude Code calls {tools.RETIRED_TOOLS[tool]}",
                f"{delete}, then add it for --tool {tools.RETIRED_TOOLS[tool]}",
            )
        ]
    if not tools.is_possible_tool(tool):
        return [
            Finding(
                "rules",
                ERROR,
                f"can never fire: Claude Code has no tool {tool!r} (rule {rule.from_name!r} on {tool}.{param})",
                f"{delete}, then add it for a real tool (Read, Edit, Write, Bash, …)",
            )
        ]
    known = tools.TOOL_PARAMS.get(tool)
    if known and param not in known:
        return [
            Finding(
                "rules",
                WARNING,
                f"rule {rule.from_name!r}: {tool} has no text parameter {param!r} (it has {', '.join(known)})",
                f"{delete}, then add it for the right --param",
            )
        ]
    return []


# The options that identify a rule of each kind to ``dp alias --delete``.
_DELETE_OPTIONS = {
    TOOL_ALIAS: "{old}",
    RECIPE: "--recipe {old}",
    FLAG: "--cmd {command} --flag {old} {new}",
    COMMAND: "--cmd {command} --replace {new}",
}


def delete_command(rule: Rule) -> str:
    """The ``dp alias --delete …`` that removes ``rule``."""
    template = _DELETE_OPTIONS.get(rule.match_kind)
    if template is None:  # literal / regex, on a command or on a tool parameter
        target = "--cmd {command}" if rule.command else "--tool {tool} --param {param}"
        regex = " --regex" if rule.match_kind == REGEX else ""
        separator = "-- " if rule.from_name.startswith("-") else ""
        template = f"{target}{regex} {separator}{{old}}"
    values = {
        "old": rule.from_name,
        "new": rule.to_name,
        "command": rule.command,
        "tool": rule.tool,
        "param": rule.param,
    }
    return "dp alias --delete " + template.format(**{key: shlex.quote(value) for key, value in values.items()})
