"""Small pieces shared by the command modules: the store path and output."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from dp.store import resolve_db_path

JSON_OPTION = typer.Option(False, "--json", help="Print machine-readable JSON.")


def db_path(ctx: typer.Context) -> Path:
    """The store chosen by --db / DP_DB / the default, for this invocation."""
    root = ctx.find_root()
    explicit = (root.obj or {}).get("db")
    return resolve_db_path(explicit)


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def read_text_argument(source: str, what: str) -> str:
    """The text of a FILE argument, ``-`` meaning stdin; a clear error if unreadable."""
    from dp.errors import DpError

    try:
        if source == "-":
            return sys.stdin.read()
        return Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DpError(f"cannot read {what} {source}: {exc}") from None


def note(message: str) -> None:
    """A human-facing message that is not the command's output (stderr)."""
    print(message, file=sys.stderr)
