"""``dp trust`` / ``dp untrust``: letting a project's rule files act, or not, for this user.

Trust is given to exact content: the SHA-256 of each layer file as it is now,
recorded in the user's store (``dp.store.trust``). A file that is broken
cannot be trusted (it would not act anyway; the error names its line). What
the files would do is shown in words first (``describe``), so the person
reads rules, not TOML, before letting them rewrite their agent's commands.
"""

from __future__ import annotations

import os

from dp.errors import DpError
from dp.layers.effective import BROKEN, TRUSTED, project_layers
from dp.layers.locate import FILES, repo_root


def layers_here(db_path, directory) -> tuple:
    """``(root, ProjectLayers or None)`` for ``directory``; DpError outside a repository."""
    directory = os.path.abspath(str(directory))
    root = repo_root(directory)
    if root is None:
        raise DpError(f"{directory} is not inside a git repository; project rules live in .dp/rules.toml "
                      "at a repository's root")
    from dp.layers.view import layers_for

    return root, layers_for(db_path, directory)


def describe(project) -> list[str]:
    """Each layer file and its rules in words, as ``dp trust --show`` prints them."""
    from dp.rules.wording import rule_line

    lines = []
    for layer in project.layers:
        file = layer.file
        lines.append(f"{file.path} ({_state_words(layer)}):")
        if file.problem:
            lines.append(f"  {file.problem}")
        for rule in file.rules:
            scope = f"{rule.command}: " if rule.command else f"{rule.tool} {rule.param}: " if rule.tool else ""
            lines.append(f"  line {rule.line}: {scope}{rule_line(rule)}")
        if not file.rules and not file.problem:
            lines.append("  (no rules)")
    return lines


def _state_words(layer) -> str:
    return {TRUSTED: "trusted", BROKEN: "broken", "changed": "changed since you trusted it"}.get(
        layer.state, "not trusted")


def trust(db_path, directory) -> list[dict]:
    """Trust every layer file of ``directory``'s repository as it is now; one report per file."""
    from dp.store import Store
    from dp.store.trust import record

    root, project = layers_here(db_path, directory)
    if project is None:
        names = " or ".join(relative for _, relative in FILES)
        raise DpError(f"{root} has no {names}; nothing to trust (write one with dp alias … --project)")
    broken = [layer for layer in project.layers if layer.state == BROKEN]
    if broken:
        raise DpError(f"cannot trust {broken[0].file.path}: {broken[0].file.problem} (nothing was trusted)")
    with Store.open(db_path) as store:
        for layer in project.layers:
            record(store, layer.file.real, layer.file.sha256)
    return [{**layer.to_dict(), "was": layer.state, "state": TRUSTED} for layer in project.layers]


def untrust(db_path, directory) -> list[dict]:
    """Forget the trust in every layer file of ``directory``'s repository (present or not)."""
    from dp.store import Store
    from dp.store.trust import forget

    root, _ = layers_here(db_path, directory)
    forgotten = []
    with Store.open(db_path) as store:
        for source, relative in FILES:
            path = os.path.join(root, relative)
            if forget(store, os.path.realpath(path)):
                forgotten.append({"source": source, "path": path})
    return forgotten


def trusted_rules(conn) -> list:
    """The rules of every file this user trusts whose content is still the trusted one
    (for the hook filters, which are per user, not per project)."""
    return [rule for project in trusted_projects(conn) for rule in project.active_rules()]


def trusted_projects(conn) -> list:
    """The ``ProjectLayers`` of every repository holding a file this user trusts (its
    acting layers are those whose content is still the trusted one)."""
    from dp.store.trust import all_trusted

    projects, roots = [], set()
    for path, _ in all_trusted(conn):
        root = os.path.dirname(os.path.dirname(path))
        if root in roots:
            continue
        roots.add(root)
        project = project_layers(conn, root)
        if project is not None:
            projects.append(project)
    return projects
