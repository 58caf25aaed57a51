"""How ``dp … --help`` pages look: plain text, whole one-line descriptions.

Click cuts a command's description in a group's list to fit one line
(``Run a Makefile target as `make TARGET` (nothing else), list...``); dp lists
the whole first sentence and lets it wrap. Help is plain text everywhere (no
rich rendering, so no colour codes in pipes and no rich import on ``--help``).
"""

from __future__ import annotations

import typer
from typer.core import TyperCommand, TyperGroup

WHOLE_LINE = 10_000
# ``dp --help`` lists the commands by what a person is doing, in the order they are met — not
# alphabetically, where alias/aliases and pave/paving/pave-check stood side by side. A command
# missing here is listed under "More" (integration_tests/test_second_hour_cli.py wants none there).
SECTIONS = (
    ("Set up", ("init", "doctor", "uninstall")),
    ("Rules", ("alias", "aliases", "trust", "untrust")),
    ("Capture", ("desires", "paths", "suggest", "ingest", "team")),
    ("Outcomes", ("stats", "report")),
    ("Project", ("tasks", "run", "script", "make", "git", "paving")),
    ("Recipes", ("recipe",)),
    ("Agents", ("pave", "mcp", "pave-check")),
)


class DpGroup(TyperGroup):
    """A command group whose command list shows each whole description; dp's own list in SECTIONS."""

    def format_commands(self, ctx, formatter) -> None:
        rows = {}
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows[name] = command.get_short_help_str(WHOLE_LINE)
        if not rows:
            return
        with formatter.section("Commands"):
            if ctx.parent is not None:  # a command's own subcommands: one short list
                formatter.write_dl(list(rows.items()))
                return
            placed = {name for _, names in SECTIONS for name in names}
            sections = [*SECTIONS, ("More", tuple(name for name in rows if name not in placed))]
            width = max(map(len, rows))  # one column for every section
            for title, names in sections:
                listed = [(name.ljust(width), rows[name]) for name in names if name in rows]
                if listed:
                    formatter.write_text(f"{title}:")
                    with formatter.indentation():
                        formatter.write_dl(listed)


class DpCommand(TyperCommand):
    """A command whose usage line reads as the README writes it: ``dp run [OPTIONS] TASK [ARGS]``.

    Typer writes a required argument in braces (``{TASK}``), which reads like a set of choices.
    """

    def collect_usage_pieces(self, ctx) -> list[str]:
        return [piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece
                for piece in super().collect_usage_pieces(ctx)]


def design(app: typer.Typer) -> None:
    """Give ``app`` and every group and command added to it dp's help pages."""
    app.info.cls = DpGroup
    app.rich_markup_mode = None
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):
            command.cls = DpCommand
    for group in app.registered_groups:
        group.cls = DpGroup
        if group.typer_instance is not None:
            design(group.typer_instance)
