"""The CLI's view of the layers: the user's rules from the store plus the project layers of a directory."""

from __future__ import annotations

import os
import sqlite3

from dp.layers.effective import merge, project_layers


def in_effect(db_path, directory: str | None = None, tool=None, command=None, kind=None):
    """``(rules in effect, ProjectLayers or None)`` for ``directory`` (default: the working directory),
    filtered like ``dp aliases --tool/--cmd/--kind`` (each None for any)."""
    from dp.store import read_rules

    project = layers_for(db_path, directory)
    rules = merge(read_rules(db_path), project)
    return [rule for rule in rules if _matches(rule, tool, command, kind)], project


def committed(rules) -> tuple[list, list]:
    """``(rules a repository commits, the person's own)``: a rule is committed when it comes from the trusted
    ``.dp/rules.toml`` (source ``project``); the store's (``user``) and ``.dp/rules.local.toml``'s (``local``,
    kept out of git) are one person's. ``dp pave --agents-md --output`` writes the first into a file a team
    commits, the second only with ``--include-personal``: an ``Edit`` path rewrite under one person's home
    is nobody else's rule."""
    from dp.layers.locate import PROJECT

    return [rule for rule in rules if rule.source == PROJECT], [rule for rule in rules if rule.source != PROJECT]


def layers_for(db_path, directory: str | None = None):
    """The project layers for ``directory``, trust read from the store at ``db_path`` (missing: none trusted)."""
    from dp.store import open_readonly

    directory = os.path.abspath(directory or os.getcwd())
    try:
        conn = open_readonly(db_path)
    except sqlite3.Error:
        conn = None
    try:
        return project_layers(conn, directory)
    finally:
        if conn is not None:
            conn.close()


def _matches(rule, tool, command, kind) -> bool:
    if tool is not None and rule.tool != tool:
        return False
    if command is not None and rule.command != command:
        return False
    return kind is None or rule.match_kind == ("" if kind == "alias" else kind)
