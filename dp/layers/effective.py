"""The rules in effect for a directory: the user's store, then the project's file, then the local one.

"Over" is per rule key (``Rule.key``, the store's primary key): a project
rule with the key of a user rule replaces it where it stood, and a local
rule replaces a project (or user) rule the same way; a rule with a new key
is added after the layer below it. So the apply order among a layer's own
rules is its file order, and a person's override never moves a rule.

A project file acts only while its content is the one the user trusted in
this repository (``dp.store.trust``, keyed by the repository's real root and
the file's real path); a file whose real path leaves its repository (a link
to another repository's trusted file) never acts, whatever was trusted where.
An untrusted, changed, outside or broken file is inert, and
``notices`` says so — once, with the command that fixes it — for ``dp
doctor``, ``dp aliases`` and the SessionStart context. Everything here is
agent-neutral: a hook for any agent asks ``project_layers(conn, cwd)`` and
gets the same answer.

Stdlib-only and cheap when there is nothing to find: the hook calls
``project_layers`` on every call that carries a working directory.
"""

from dp.layers.locate import LOCAL, PROJECT, USER, layer_files

TRUSTED = "trusted"
UNTRUSTED = "untrusted"
CHANGED = "changed"
BROKEN = "broken"
OUTSIDE = "outside"  # the file's real path leaves its repository: never acts, dp trust cannot change that


class Layer:
    """One project layer file and whether it acts (``state``)."""

    __slots__ = ("file", "state")

    def __init__(self, file, state: str):
        self.file, self.state = file, state

    @property
    def acts(self) -> bool:
        return self.state == TRUSTED

    def to_dict(self) -> dict:
        return {"source": self.file.source, "path": self.file.path, "state": self.state,
                "rules": len(self.file.rules), "problem": self.file.problem, "sha256": self.file.sha256}


class ProjectLayers:
    """The layer files of one repository (``root``, as walked to; ``real_root``, its real path),
    lowest first, and whether the user trusts the repository itself (``dp trust``)."""

    __slots__ = ("root", "layers", "real_root", "trusted")

    def __init__(self, root: str, layers: list, real_root: str = "", trusted: bool = False):
        self.root, self.layers = root, layers
        self.real_root, self.trusted = real_root or root, trusted

    def active_rules(self) -> list:
        """The rules of the layers that act, project before local."""
        return [rule for layer in self.layers if layer.acts for rule in layer.file.rules]

    def notices(self) -> list[str]:
        """One sentence per layer that does not act, naming the file and what to do."""
        return [notice(self.root, layer) for layer in self.layers if not layer.acts]


def project_layers(conn, directory: str, located=None) -> ProjectLayers | None:
    """The project layers for ``directory`` (absolute), trust checked against the store ``conn``
    (None: no store, nothing trusted); None when the directory's repository has no layer file.
    ``located``: what ``layer_files(directory)`` already returned, so the walk is not repeated."""
    root, found = located or layer_files(directory)
    if not found:
        return None
    import os

    from dp.layers.locate import real_location
    from dp.layers.projectfile import ProjectFile, load
    from dp.store.read import REPOSITORY, trust_records

    real_root = os.path.realpath(root)
    trusted = trust_records(conn, real_root)  # the one query: this repository's records
    layers = []
    for source, path, info in found:
        real, ours = real_location(real_root, path)
        if not ours:  # not even read: it is another repository's file
            layers.append(Layer(ProjectFile(source, path, real), OUTSIDE))
            continue
        file = load(source, path, info)
        file.real = real
        if file.problem:
            state = BROKEN
        else:
            recorded = trusted.get(real)
            state = TRUSTED if recorded == file.sha256 else UNTRUSTED if recorded is None else CHANGED
        layers.append(Layer(file, state))
    return ProjectLayers(root, layers, real_root, REPOSITORY in trusted)


def merge(user_rules, project) -> list:
    """The rules in effect: ``user_rules`` with the acting project rules laid over them by key."""
    return overlay(user_rules, project.active_rules() if project is not None else [])


def overlay(rules, over) -> list:
    """``rules`` with each rule of ``over`` replacing the one with its key in place, or added after."""
    if not over:
        return list(rules)
    merged = list(rules)
    where = {rule.key: index for index, rule in enumerate(merged)}
    for rule in over:
        index = where.get(rule.key)
        if index is None:
            where[rule.key] = len(merged)
            merged.append(rule)
        else:
            merged[index] = rule
    return merged


def for_call(project, tool: str, words) -> list:
    """The acting project rules the hook's store query would return for this call: the tool's
    parameter rules and its command rules for ``words`` (None: every command)."""
    if project is None:
        return []
    return [rule for layer in project.layers if layer.acts for rule in layer.file.for_call(tool, words)]


def tool_alias(project, tool: str):
    """The acting project tool-name alias for ``tool`` (local over project), or None."""
    found = None
    for layer in project.layers if project is not None else ():
        aliases = layer.file.tool_aliases(tool) if layer.acts else []
        if aliases:
            found = aliases[-1]
    return found


def notice(root: str, layer: Layer) -> str:
    """Why ``layer`` does not act and the command that fixes it, in one sentence."""
    file = layer.file
    if layer.state == OUTSIDE:
        return (f"{file.path} is a link to {file.real}, outside this repository ({root}): a rule file acts only "
                f"in its own repository, so its rules never apply here, trusted or not (make it a file of this "
                f"repository: `cp --remove-destination {file.real} {file.path}`, read it, then `dp trust`)")
    if layer.state == BROKEN:
        return (f"{file.path}: {file.problem}; its rules do not apply (fix the file; the other layers still do)")
    rules = f"its rules ({len(file.rules)})"
    if layer.state == CHANGED:
        return (f"{file.path} changed since you trusted it, so {rules} do not apply: read them with "
                f"`dp trust --show` and trust them again with `dp trust` (in {root})")
    return (f"{file.path} is not trusted, so {rules} do not apply: read them with `dp trust --show` "
            f"and let them act with `dp trust` (in {root})")


SOURCES = (USER, PROJECT, LOCAL)
