"""``dp trust`` / ``dp untrust``: letting a repository's rule files and environment act, or not, for this user.

Trust belongs to one repository (its real root, and what the repository there
is: ``dp.gitdir``) and, for its rule files, to
exact content: the SHA-256 of each layer file as it is now, recorded in the
user's store (``dp.store.trust``) with the repository it was given in. The
repository itself is trusted too, so project paving may use its own
environment (dp.paving); a repository with no rule file can be trusted for
that alone. A file that is broken cannot be trusted (it would not act anyway;
the error names its line), nor one whose real path leaves the repository (it
never acts there). What the files would do is shown in words first
(``describe``), so the person reads rules, not TOML, before letting them
rewrite their agent's commands.
"""

from __future__ import annotations

import os

from dp.errors import DpError
from dp.layers.effective import BROKEN, OUTSIDE, TRUSTED, project_layers
from dp.layers.locate import FILES, repo_root

# The report ``trust`` / ``untrust`` give for the repository itself (its environment, for paving).
REPOSITORY_SOURCE = "repository"


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
    return {TRUSTED: "trusted", BROKEN: "broken", "changed": "changed since you trusted it",
            OUTSIDE: "outside this repository: never acts here"}.get(layer.state, "not trusted")


def trust(db_path, directory) -> list[dict]:
    """Trust ``directory``'s repository and every layer file of it as it is now; one report per
    file, then one for the repository. Nothing is trusted when a file is broken or not the repository's."""
    from dp.store import Store
    from dp.store.trust import FILE, REPOSITORY, REPOSITORY_KIND, record, records

    root, project = layers_here(db_path, directory)
    layers = project.layers if project is not None else []
    for layer in layers:
        if layer.state in (BROKEN, OUTSIDE):
            problem = layer.file.problem or f"it is a link to {layer.file.real}, outside this repository"
            raise DpError(f"cannot trust {layer.file.path}: {problem} (nothing was trusted; "
                          f"{'fix the file' if layer.state == BROKEN else 'make it a file of this repository'})")
    real_root = os.path.realpath(root)
    with Store.open(db_path) as store:
        was = records(store.conn, real_root)
        record(store, real_root, [(REPOSITORY_KIND, REPOSITORY, ""),
                                  *((FILE, layer.file.real, layer.file.sha256) for layer in layers)])
    repository = {"source": REPOSITORY_SOURCE, "path": root, "was": TRUSTED if REPOSITORY in was else "untrusted",
                  "state": TRUSTED}
    return [*({**layer.to_dict(), "was": layer.state, "state": TRUSTED} for layer in layers), repository]


def untrust(db_path, directory) -> list[dict]:
    """Forget every trust given in ``directory``'s repository: itself and its files (present or not)."""
    from dp.store import Store
    from dp.store.trust import REPOSITORY_KIND, forget

    root, _ = layers_here(db_path, directory)
    with Store.open(db_path) as store:
        rows = forget(store, os.path.realpath(root))
    names = {os.path.realpath(os.path.join(root, relative)): (source, os.path.join(root, relative))
             for source, relative in FILES}
    forgotten = []
    for kind, path in sorted(rows, key=lambda row: row[0] == REPOSITORY_KIND):  # the files first, as dp trust says
        source, shown = (REPOSITORY_SOURCE, root) if kind == REPOSITORY_KIND else names.get(path, ("file", path))
        forgotten.append({"source": source, "path": shown})
    return forgotten


def repository_trusted(db_path, directory) -> tuple[str | None, bool]:
    """``(repository root, whether the user trusts it)`` for ``directory`` (root None: in no repository)."""
    from dp.store.read import read_or_empty
    from dp.store.trust import repository_trusted as trusted

    root = repo_root(os.path.abspath(str(directory)))
    if root is None:
        return None, False
    return root, bool(read_or_empty(db_path, lambda conn: trusted(conn, os.path.realpath(root))))


def trusted_rules(conn) -> list:
    """The rules of every file this user trusts whose content is still the trusted one
    (for the hook filters, which are per user, not per project)."""
    return [rule for project in trusted_projects(conn) for rule in project.active_rules()]


def trusted_projects(conn) -> list:
    """The ``ProjectLayers`` of every repository holding a file this user trusts (its
    acting layers are those whose content is still the trusted one)."""
    from dp.store.trust import trusted_files

    projects, roots = [], set()
    for root, _, _ in trusted_files(conn):
        if root in roots:
            continue
        roots.add(root)
        project = project_layers(conn, root)
        if project is not None and project.real_root == root:  # not a repository above a vanished one
            projects.append(project)
    return projects
