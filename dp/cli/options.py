"""dp's shared options — ``--db``, ``--cwd``, ``--json``, ``--quiet`` — defined once.

A command lists the shared options it takes with ``@shared()``
and receives them as one ``opts: Shared`` argument. Each is accepted before the
command name too (``dp --db team.db aliases``) and means the same there; a value
given after the command name wins. So every command spells them the same way,
documents them with the same words, and reads them the same way.
"""

from __future__ import annotations

import functools
import inspect
import os
from dataclasses import replace
from pathlib import Path

import typer

from dp.cli.shared import Shared

_META_KEY = "dp.shared"
_START_KEY = "dp.started_in"  # the directory dp was started in, before any --cwd changed into DIR

# name -> (annotation, the option); the parameter a command gets is "dp_<name>".
_OPTIONS = {
    "db": (
        Path | None,
        typer.Option(
            None, "--db", metavar="PATH",
            help="The alias store (default: $DP_DB, then ~/.dp/dp.db).",
        ),
    ),
    "cwd": (
        Path | None,
        typer.Option(
            None, "--cwd", "-C", metavar="DIR",
            help="Run as if dp was started in DIR (like git -C); relative paths are read from DIR.",
        ),
    ),
    "json": (
        bool,
        typer.Option(False, "--json", help="Print machine-readable JSON (keys listed in the docs)."),
    ),
    "quiet": (
        bool,
        typer.Option(
            False, "--quiet", "-q",
            help="Print only the result: no progress or status lines (errors and warnings still show).",
        ),
    ),
}


def shared():
    """Give the decorated command dp's shared options as ``opts: Shared``.

    Every command takes all of them, after its name as before it, so ``dp -q init`` and ``dp init -q``
    are the same run (an option a command has no use for changes nothing there). The command's
    signature (which typer reads to build the options) gains one parameter per option, plus a context
    parameter to see the values given before the command name; the function keeps its ``opts`` parameter.
    """
    names = tuple(_OPTIONS)

    def decorate(func):
        signature = inspect.signature(func, eval_str=True)
        own = [param for param in signature.parameters.values() if param.name != "opts"]
        context = next((p.name for p in own if p.annotation is typer.Context), None)
        added = [
            inspect.Parameter(f"dp_{name}", inspect.Parameter.KEYWORD_ONLY,
                              default=_OPTIONS[name][1], annotation=_OPTIONS[name][0])
            for name in names
        ]
        if context is None:
            added.append(inspect.Parameter("dp_context", inspect.Parameter.KEYWORD_ONLY,
                                           annotation=typer.Context))
        takes_opts = "opts" in signature.parameters

        @functools.wraps(func)
        def command(*args, **kwargs):
            ctx = kwargs[context] if context else kwargs.pop("dp_context")
            given = {name: kwargs.pop(f"dp_{name}") for name in names}
            opts = _merge(ctx, given)
            if takes_opts:
                kwargs["opts"] = opts
            return func(*args, **kwargs)

        positional = [p for p in own if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        keyword = [p for p in own if p.kind is inspect.Parameter.KEYWORD_ONLY]
        params = [p.replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in positional]
        params += [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in keyword] + added
        command.__signature__ = signature.replace(parameters=params)
        command.__annotations__ = {p.name: p.annotation for p in params}
        return command

    return decorate


def _merge(ctx: typer.Context, given: dict) -> Shared:
    """Values given here over those given before the command name; remembered for subcommands."""
    before = ctx.meta.get(_META_KEY, Shared())
    chosen = {
        name: value
        for name, value in given.items()
        if value not in (None, False) or getattr(before, name) in (None, False)
    }
    opts = replace(before, **chosen)
    ctx.meta[_META_KEY] = opts
    opts.enter(ctx.meta.setdefault(_START_KEY, os.getcwd()))
    from dp.cli import common

    if opts.quiet:
        common.set_quiet(True)
    if opts.json:
        common.set_json(True)
    return opts


def current(ctx: typer.Context) -> Shared:
    """The shared options seen so far in this invocation (for code without ``opts``)."""
    return ctx.meta.get(_META_KEY, Shared())


VALUE_OPTIONS = tuple(
    decl for name in ("db", "cwd") for decl in _OPTIONS[name][1].param_decls or () if decl.startswith("-")
)
"""Shared options that take a value (their next word is not a command name)."""
