"""Builds the typer application from the command modules."""

from __future__ import annotations

import importlib
import pkgutil

import typer

from dp import __version__, changes
from dp.cli import commands
from dp.cli.help import design
from dp.cli.options import VALUE_OPTIONS, shared

HELP = """Desire paths: pave the tool calls AI coding agents keep getting wrong.

\b
Examples:
  dp init                               # store + Claude Code hook, with a demo
  dp alias read_file Read               # block a hallucinated tool name
  dp alias --cmd grep --replace rg      # rewrite grep to rg in Bash calls
  dp aliases                            # list every rule
"""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dp {__version__}")
        raise typer.Exit()


@shared()
def _global_options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """dp's shared options may also come before the command name."""


def build_app(command: str | None = None) -> typer.Typer:
    """The dp app. Given the invoked command's name, only its module is imported.

    Each module under ``dp.cli.commands`` registers the command named like it
    (``pave_check`` → ``pave-check``), so a run of one command pays for one
    module's imports; ``--help`` and unknown names load them all.
    """
    app = typer.Typer(
        name="dp",
        help=HELP,
        no_args_is_help=True,
        add_completion=True,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    )
    app.callback()(_global_options)
    changes.follow(sync_hooks)  # the one place the CLI follows a rule change (dp.changes)
    names = [module.name for module in pkgutil.iter_modules(commands.__path__)]
    wanted = command.replace("-", "_") if command else None
    for name in [wanted] if wanted in names else names:
        importlib.import_module(f"{commands.__name__}.{name}").register(app)
    design(app)
    return app


def sync_hooks(db_path) -> None:
    """After a committed rule, trust or paving change (``dp.changes``, announced by the store and the
    paving switch; no command calls this itself): the hook's gate, the mod's snapshot and dp's hook
    entries (their ``if`` filters) in every settings file dp installed into, saying which changed; a
    file that cannot be synced is a warning, never a failed command (the change is committed)."""
    from dp.cli.common import note, warning
    from dp.refresh import after_rule_change

    for change in after_rule_change(db_path):
        if change["status"] == "error":
            warning(f"could not update dp's hook entries: {change['error']}")
        else:
            note(f"Hook entries updated in {change['settings']} ({change['scope']} scope)")


def command_word(args: list[str]) -> str | None:
    """The command named in ``args``: the first word after dp's global options."""
    words = iter(args)
    for word in words:
        if word in VALUE_OPTIONS:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None
