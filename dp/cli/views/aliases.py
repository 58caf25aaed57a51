"""``dp aliases`` without a subcommand: the rules as a table (or JSON), then the project's."""

from __future__ import annotations

from dp.cli.common import note, print_json

TO_WIDTH = 40


def show(tool, cmd, kind, opts) -> None:
    """List the rules matching the filters (each None for any); the project rules when unfiltered."""
    from dp.layers.view import in_effect

    rules, project = in_effect(opts.store, str(opts.directory), tool=tool, command=cmd, kind=kind)
    for text in project.notices() if project is not None else ():
        note(f"dp: {text}")
    if opts.json:
        print_json([{**rule.to_dict(), "source": rule.source, **_where(rule)} for rule in rules])
        return
    filtered = tool is not None or cmd is not None or kind is not None
    if not rules:
        note("No aliases match those filters." if filtered else "No aliases configured.")
    else:
        print(render_table(rules))
    if not filtered:
        _project_rules(opts, after_table=bool(rules))


def _where(rule) -> dict:
    """A project rule's file line (``line``), for the JSON rows."""
    return {"line": rule.line} if rule.line else {}


def _project_rules(opts, after_table: bool) -> None:
    """The rules project paving applies in this directory (dp paving), after the user's."""
    import os

    from dp.layers.trusting import repository_trusted
    from dp.paving.report import text_lines

    found = text_lines(str(opts.store.parent), os.getcwd(), repository_trusted(opts.store, os.getcwd()))
    if found:
        print(("\n" if after_table else "") + "\n".join(found))


def render_table(rules) -> str:
    """The rules as a table, built a column at a time (10,000 rules are 70,000 cells)."""
    from dp.cli.table import render_columns

    columns = {
        "FROM": [rule.from_name for rule in rules],
        "TO": [fold(rule.to_name) for rule in rules],
        "TYPE": [rule.kind_label for rule in rules],
        "COMMAND": [rule.command for rule in rules],
    }
    if any(rule.tool and not rule.command for rule in rules):
        columns["TOOL/PARAM"] = [f"{rule.tool}/{rule.param}" if rule.tool and not rule.command else ""
                                 for rule in rules]
    columns["MESSAGE"] = [rule.message for rule in rules]
    columns["CREATED"] = [rule.created_at.replace("T", " ").rstrip("Z") for rule in rules]
    if any(rule.source != "user" for rule in rules):
        columns["SOURCE"] = [_source(rule) for rule in rules]
    return render_columns(list(columns), list(columns.values()))


def _source(rule) -> str:
    """``user``, or the layer file and line a project rule comes from (``project:12``)."""
    return f"{rule.source}:{rule.line}" if rule.line else rule.source


def fold(text: str) -> str:
    """A rule's target on one line, cut to ``TO_WIDTH`` characters."""
    folded = " ".join(text.split())
    return folded if len(folded) <= TO_WIDTH else folded[: TO_WIDTH - 3] + "..."


