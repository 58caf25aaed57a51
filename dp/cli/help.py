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


class DpGroup(TyperGroup):
    """A command group whose command list shows each whole description."""

    def format_commands(self, ctx, formatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(WHOLE_LINE)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


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
