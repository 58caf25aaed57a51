"""Builds the typer application from the command modules."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Optional

import typer

from dp import __version__
from dp.cli import commands

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


def _global_options(
    ctx: typer.Context,
    db: Optional[Path] = typer.Option(
        None,
        "--db",
        envvar="DP_DB",
        metavar="PATH",
        help="Alias store to use (default ~/.dp/dp.db; env DP_DB).",
    ),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    ctx.obj = {"db": db}


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="dp",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    )
    app.callback()(_global_options)
    for module in pkgutil.iter_modules(commands.__path__):
        importlib.import_module(f"{commands.__name__}.{module.name}").register(app)
    return app
