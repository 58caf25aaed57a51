"""The rules as Markdown an agent reads (AGENTS.md / CLAUDE.md).

The hook corrects mistakes after the agent makes them; this text prevents
them. Output is deterministic: sections, groups and lines are sorted so that
regenerating the file only changes it when the rules change.
"""

from __future__ import annotations

from pathlib import Path

from dp.rules.model import APPLY_ORDER, TOOL_ALIAS, Rule
from dp.rules.wording import rule_line

TOOL_HEADING = "# Tool Name Corrections"
TOOL_INTRO = "The following tool names are INCORRECT. Use the correct names instead:"
COMMAND_HEADING = "# Command Corrections"
COMMAND_INTRO = "The following commands, flags and values are INCORRECT. Use the corrected form instead:"
EMPTY_NOTE = "No aliases configured. Add some with: dp alias <from> <to>"
def group_heading(rule: Rule) -> str:
    """``## scp`` for a command's rules, ``## Edit (param: file_path)`` for a tool parameter's."""
    if rule.command:
        return f"## {rule.command}"
    return f"## {rule.tool} (param: {rule.param})"


def _group_key(rule: Rule) -> tuple:
    # Command groups first (alphabetical), then tool/param groups.
    return (0, rule.command.lower(), rule.command) if rule.command else (1, rule.tool, rule.param)


def _kind_rank(rule: Rule) -> int:
    return APPLY_ORDER.index(rule.match_kind) if rule.match_kind in APPLY_ORDER else len(APPLY_ORDER)


def ordered(rules: list[Rule]) -> list[tuple[str, str | None, Rule]]:
    """(section heading, group heading or None, rule) in output order.

    Tool aliases sort by name; inside a command group rules follow the
    hook's apply order by kind, then the order they were added.
    """
    tool_aliases = sorted(
        (rule for rule in rules if rule.match_kind == TOOL_ALIAS), key=lambda r: (r.from_name.lower(), r.from_name)
    )
    others = [rule for rule in rules if rule.match_kind != TOOL_ALIAS]
    ordered = sorted(enumerate(others), key=lambda item: (_group_key(item[1]), _kind_rank(item[1]), item[0]))
    result: list[tuple[str, str | None, Rule]] = [(TOOL_HEADING, None, rule) for rule in tool_aliases]
    result += [(COMMAND_HEADING, group_heading(rule), rule) for _, rule in ordered]
    return result


def render(rules: list[Rule]) -> str:
    """The Markdown for ``rules`` ('' when there are none)."""
    lines: list[str] = []
    section = group = None
    for section_heading, group_heading_text, rule in ordered(rules):
        if section_heading != section:
            if lines:
                lines.append("")
            intro = TOOL_INTRO if section_heading == TOOL_HEADING else COMMAND_INTRO
            lines += [section_heading, "", intro, ""]
            section, group = section_heading, None
        if group_heading_text and group_heading_text != group:
            if lines[-1]:
                lines.append("")
            lines += [group_heading_text, ""]
            group = group_heading_text
        lines.append(f"- {rule_line(rule)}")
    return "\n".join(lines) + "\n" if lines else ""


def rule_entries(rules: list[Rule]) -> list[dict]:
    """The ``--json`` view: each rule with where and how it is rendered."""
    entries = []
    for section, group, rule in ordered(rules):
        entry: dict = {"section": section.lstrip("# "), "group": group[3:] if group else None, "line": rule_line(rule)}
        entry.update({key: value for key, value in rule.to_dict().items() if key != "created_at"})
        entry["kind"] = rule.kind_label
        entry["source"] = rule.source
        if rule.line:  # a project file's rule: the line its entry starts on
            entry["source_line"] = rule.line
        entries.append(entry)
    return entries


def generate(rules: list[Rule], extra: str = "", output: Path | None = None, store: Path | None = None) -> dict:
    """Everything ``dp pave --agents-md`` reports, writing dp's block into ``output`` if given.

    ``extra`` (the project's tasks) follows the rules. With ``output`` the
    block is refreshed even when there are no rules left (see
    ``markers.write_block``). ``markdown`` is present only when there is some.
    """
    markdown = render(rules)
    extra = extra.strip("\n")
    if extra:
        markdown = f"{markdown}\n{extra}\n" if markdown else f"{extra}\n"
    result = {"status": "generated" if rules else "no_aliases", "count": len(rules), "rules": rule_entries(rules)}
    if output is not None:
        from dp.install.markers import write_block
        from dp.store.installs import require_recordable

        require_recordable(output)
        result.update({"output": str(output), "action": write_block(output, markdown)})
        if store is not None and result["action"] in ("created", "appended"):
            _record(store, output, created=result["action"] == "created")
    if markdown:
        result["markdown"] = markdown
    return result


def _record(store: Path, output: Path, created: bool) -> None:
    """Remember where dp's block went, so ``dp uninstall`` can take it out again."""
    from dp.store import Store, installs

    with Store.open(store) as opened:
        installs.record(opened, output, installs.BLOCK, created_file=created)
