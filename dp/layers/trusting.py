"""``dp trust`` / ``dp untrust``: letting a repository's rule files, plugins and environment act, or not, for this user.

Trust belongs to one repository (its real root, and what the repository there
is: ``dp.gitdir``) and, for its rule files, to exact content: the SHA-256 of
each layer file as it is now, recorded in the user's store (``dp.store.trust``)
with the repository it was given in; for a plugin it commits for an agent, the
SHA-256 of all the plugin's files (``dp.layers.pins``: dp registers it only
while they are unchanged). The repository itself is trusted too, so project
paving may use its own environment (dp.paving); a repository with no rule file
can be trusted for that alone. A file that is broken cannot be trusted (it
would not act anyway; the error names its line), nor one whose real path
leaves the repository (it never acts there). Everything trusting would let act
is shown in words first (``describe``: the rules and every other table of the
files, the plugin's files, the repository's environment), so the person reads
what they allow, not TOML, before allowing it.
"""

from __future__ import annotations

import os

from dp.errors import DpError
from dp.layers.effective import BROKEN, CHANGED, OUTSIDE, TRUSTED, project_layers
from dp.layers.locate import FILES, repo_root

# The report ``trust`` / ``untrust`` give for the repository itself (its environment, for paving),
# and for a plugin it commits.
REPOSITORY_SOURCE, PLUGIN_SOURCE = "repository", "plugin"


def layers_here(db_path, directory) -> tuple:
    """``(root, ProjectLayers or None)`` for ``directory``; DpError outside a repository."""
    directory = os.path.abspath(str(directory))
    root = repo_root(directory)
    if root is None:
        raise DpError(f"{directory} is not inside a git repository; project rules live in .dp/rules.toml "
                      "at a repository's root")
    from dp.layers.view import layers_for

    return root, layers_for(db_path, directory)


def describe(root: str, project, plugins=(), trusted: bool = False, before: dict | None = None) -> list[str]:
    """Everything trusting ``root`` would let act, in words, as ``dp trust --show`` prints it: each
    layer file with its rules and its other tables, each committed plugin (``plugins``: ``(agent,
    pins.Pinned, state)``) with its files, and the repository itself (``trusted``: already). A file
    that changed since it was trusted shows what changed in its rules, when ``before`` (its path →
    the rules as trusted, ``trusted_before``) has them."""
    lines = []
    for layer in project.layers if project is not None else []:
        lines += _layer_words(layer, (before or {}).get(layer.file.path))
    for agent, pinned, state in plugins:
        lines += _plugin_words(agent, pinned, state)
    lines.append(f"{root} (this repository, {'trusted' if trusted else 'not trusted'}): "
                 f"{'' if trusted else 'after dp trust, '}project paving may run its own programs here "
                 "(its .venv, node_modules/.bin, another runner's tasks)")
    return lines


def _layer_words(layer, old: list | None) -> list[str]:
    """One layer file in words: its state, then its rules and tables, or what changed since it was trusted
    (``old``: its rules then, when dp kept them)."""
    file = layer.file
    stopped = ": none of its rules acts for you until you trust it again" if layer.state == CHANGED else ""
    lines = [f"{file.path} ({_state_words(layer.state)}{stopped}):"]
    if file.problem:
        lines.append(f"  {file.problem}")
    if layer.state == CHANGED and old is not None:
        lines.append("  since you trusted it:")
        lines += [f"  {line}" for line in since_words(old, file.rules)]
        return lines + [f"  line {line}: {text}" for line, text in tables(layer)]
    entries = [(rule.line, in_words(rule)) for rule in file.rules] + tables(layer)
    lines += [f"  line {line}: {text}" for line, text in sorted(entries, key=lambda entry: entry[0])]
    if not entries and not file.problem:
        lines.append("  (no rules)")
    return lines


def _plugin_words(agent: str, pinned, state: str) -> list[str]:
    """A committed plugin in words: who registers it when, and each file the agent would run."""
    lines = [f"{pinned.path} ({agent} plugin, {_state_words(state)}): "
             + (f"{pinned.problem}; dp never registers it" if pinned.problem else
                f"{'after dp trust, ' if state != TRUSTED else ''}dp init registers it for you, and {agent} "
                "runs these files in every session here:")]
    return lines + [f"  {relative} ({size} bytes{', executable' if executable else ''}, sha256 {sha256[:12]}…)"
                    for relative, size, sha256, executable in pinned.files]


def in_words(rule) -> str:
    """One rule of a layer file as ``dp trust --show`` says it: what it is about, then the rule."""
    from dp.rules.wording import rule_line

    return f"{_scope(rule)}{rule_line(rule)}"


def since_words(before: list, after: list) -> list[str]:
    """The change of a file's rules from ``before`` (as trusted) to ``after``, in words (``dp.layers.since``)."""
    from dp.layers.since import changes

    return changes(before, after, in_words)


def trusted_before(db_path, root: str, project) -> dict:
    """``{path: the rules as trusted}`` for each layer of ``project`` that changed since it was trusted and
    whose trusted copy dp kept (``dp.layers.since``); a record made before dp kept copies has none."""
    from dp.layers.since import trusted_rules

    records = _records(db_path, root)
    found = {}
    for layer in project.layers if project is not None else []:
        recorded = records.get(layer.file.real)
        if layer.state == CHANGED and recorded:
            rules = trusted_rules(db_path, recorded)
            if rules is not None:
                found[layer.file.path] = rules
    return found


def show(db_path, directory, plugins=()) -> tuple:
    """What ``dp trust --show`` describes for ``directory``'s repository: ``(root, ProjectLayers or
    None, [(agent, pins.Pinned, state)] for ``plugins`` (``(agent, directory)``), whether the
    repository itself is trusted)``."""
    root, project = layers_here(db_path, directory)
    records = _records(db_path, root)
    from dp.layers import pins
    from dp.store.read import REPOSITORY

    pinned = [(agent, pin, pins.state(records, pin))
              for agent, pin in ((agent, pins.read(path, os.path.realpath(root))) for agent, path in plugins)]
    return root, project, pinned, REPOSITORY in records


def plugin_state(db_path, directory) -> tuple:
    """``(pins.Pinned, state)`` of a plugin directory a repository commits: TRUSTED only while its
    files are the ones this user trusted in this repository."""
    from dp.layers import pins

    root = repo_root(os.path.abspath(str(directory)))
    if root is None:
        raise DpError(f"{directory} is not inside a git repository")
    pinned = pins.read(directory, os.path.realpath(root))
    return pinned, pins.state(_records(db_path, root), pinned)


def _records(db_path, root: str) -> dict:
    """This user's trust records of the repository at ``root`` ({} without a store)."""
    from dp.store.read import read_or_empty, trust_records

    return read_or_empty(db_path, lambda conn: trust_records(conn, os.path.realpath(root))) or {}


def _scope(rule) -> str:
    """What a rule is about, as ``describe`` puts it before the rule in words."""
    return f"{rule.command}: " if rule.command else f"{rule.tool} {rule.param}: " if rule.tool else ""


def tables(layer) -> list[tuple[int, str]]:
    """``(line, what it does)`` for everything a layer file holds besides ``[meta]`` and its rules:
    the team database it suggests (``[team] url``, which dp never connects to by itself), and any
    table or key dp does not read (named, so nothing in the file goes unsaid). Nothing for a file
    that is broken or another repository's."""
    from dp.files import read_regular
    from dp.layers.locate import MAX_BYTES
    from dp.layers.tomlscan import KEYVAL, statements
    from dp.rules.fast_toml import tomllib

    if layer.file.problem or layer.state == OUTSIDE:
        return []
    try:
        text = read_regular(layer.file.path, MAX_BYTES).decode("utf-8")
        document = tomllib.loads(text)
    except (OSError, DpError, ValueError):
        return []
    found, seen, table = [], {"meta", "aliases"}, None
    for statement in statements(text.splitlines(keepends=True)):
        name = statement.name.split(".")[0].strip().strip("\"'")
        if statement.kind != KEYVAL:
            table = name
        if (statement.kind == KEYVAL and table is not None) or name in seen:
            continue
        seen.add(name)
        if name == "team" and statement.kind != KEYVAL:
            found.append((statement.first + 1, _team_words(document.get("team"))))
        else:
            what = "key" if statement.kind == KEYVAL else "table"
            shown = name if what == "key" else f"[{name}]"
            found.append((statement.first + 1, f"{shown}: a {what} dp does not read; it does nothing"))
    return found


def _team_words(team) -> str:
    """``[team]`` in words: the database it suggests, which only the person connects to."""
    url = team.get("url") if isinstance(team, dict) else None
    if not isinstance(url, str) or not url:
        return "[team]: names no team database (dp reads only its url); it does nothing"
    return (f"[team] url = {url}: a team database this file suggests for your captured failures; dp never "
            "connects to it by itself (only once you run dp team connect in this repository)")


def _state_words(state: str) -> str:
    return {TRUSTED: "trusted", BROKEN: "broken", CHANGED: "changed since you trusted it",
            OUTSIDE: "outside this repository: never acts here"}.get(state, "not trusted")


def trust(db_path, directory, plugins=()) -> list[dict]:
    """Trust ``directory``'s repository, every layer file of it and every plugin it commits
    (``plugins``: ``(agent, directory)``) as they are now; one report per file, per plugin, then
    one for the repository. Nothing is trusted when a file is broken or not the repository's, or
    a plugin cannot be pinned."""
    from dp.layers import pins, since
    from dp.store import Store
    from dp.store.trust import FILE, PLUGIN, REPOSITORY, REPOSITORY_KIND, record, records

    root, project = layers_here(db_path, directory)
    layers = project.layers if project is not None else []
    for layer in layers:
        if layer.state in (BROKEN, OUTSIDE):
            problem = layer.file.problem or f"it is a link to {layer.file.real}, outside this repository"
            raise DpError(f"cannot trust {layer.file.path}: {problem} (nothing was trusted; "
                          f"{'fix the file' if layer.state == BROKEN else 'make it a file of this repository'})")
    real_root = os.path.realpath(root)
    pinned = [(agent, pins.read(path, real_root)) for agent, path in plugins]
    for agent, pin in pinned:
        if pin.problem:
            raise DpError(f"cannot trust the {agent} plugin {pin.path}: {pin.problem} (nothing was trusted)")
    with Store.open(db_path) as store:
        was = records(store.conn, real_root)
        record(store, real_root, [(REPOSITORY_KIND, REPOSITORY, ""),
                                  *((FILE, layer.file.real, layer.file.sha256) for layer in layers),
                                  *((PLUGIN, pin.real, pin.sha256) for _, pin in pinned)])
        since.refresh(db_path, store.conn, [(layer.file.real, layer.file.sha256) for layer in layers])
    repository = {"source": REPOSITORY_SOURCE, "path": root, "was": TRUSTED if REPOSITORY in was else "untrusted",
                  "state": TRUSTED}
    plugin_reports = [{"source": PLUGIN_SOURCE, "agent": agent, "path": pin.path, "files": len(pin.files),
                       "sha256": pin.sha256, "was": pins.state(was, pin), "state": TRUSTED} for agent, pin in pinned]
    return [*({**layer.to_dict(), "was": layer.state, "state": TRUSTED} for layer in layers), *plugin_reports,
            repository]


def untrust(db_path, directory) -> list[dict]:
    """Forget every trust given in ``directory``'s repository: itself, its files and its plugins
    (present or not)."""
    from dp.layers import since
    from dp.store import Store
    from dp.store.trust import PLUGIN, REPOSITORY_KIND, forget

    root, _ = layers_here(db_path, directory)
    with Store.open(db_path) as store:
        rows = forget(store, os.path.realpath(root))
        since.refresh(db_path, store.conn, [])
    names = {os.path.realpath(os.path.join(root, relative)): (source, os.path.join(root, relative))
             for source, relative in FILES}
    forgotten = []
    for kind, path in sorted(rows, key=lambda row: row[0] == REPOSITORY_KIND):  # the files first, as dp trust says
        if kind == REPOSITORY_KIND:
            forgotten.append({"source": REPOSITORY_SOURCE, "path": root})
        else:
            source, shown = (PLUGIN_SOURCE, path) if kind == PLUGIN else names.get(path, ("file", path))
            forgotten.append({"source": source, "path": shown})
    return forgotten


def repository_trusted(db_path, directory) -> tuple[str | None, bool]:
    """``(repository root, whether the user trusts it)`` for ``directory`` (root None: in no repository)."""
    from dp.store.read import REPOSITORY

    root = repo_root(os.path.abspath(str(directory)))
    if root is None:
        return None, False
    return root, REPOSITORY in _records(db_path, root)


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
