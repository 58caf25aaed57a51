"""The rules in effect for a directory: the user's store, then the project's file, then the local one.

"Over" is per rule key (``Rule.key``, the store's primary key): a project
rule with the key of a user rule replaces it where it stood, and a local
rule replaces a project (or user) rule the same way; a rule with a new key
is added after the layer below it. So the apply order among a layer's own
rules is its file order, and a person's override never moves a rule.

A project file acts only while its content is the one the user trusted
(``dp.store.trust``); an untrusted, changed or broken file is inert, and
``notices`` says so — once, with the command that fixes it — for ``dp
doctor``, ``dp aliases`` and the SessionStart context. Everything here is
agent-neutral: a hook for any agent asks ``project_layers(conn, cwd)`` and
gets the same answer.

Stdlib-only and cheap when there is nothing to find: the hook calls
``project_layers`` on every call that carries a working directory.
"""

from __future__ import annotations

from dp.layers.locate import LOCAL, PROJECT, USER, layer_files

TRUSTED = "trusted"
UNTRUSTED = "untrusted"
CHANGED = "changed"
BROKEN = "broken"


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
    """The layer files of one repository (``root``), lowest first."""

    __slots__ = ("root", "layers")

    def __init__(self, root: str, layers: list):
        self.root, self.layers = root, layers

    def active_rules(self) -> list:
        """The rules of the layers that act, project before local."""
        return [rule for layer in self.layers if layer.acts for rule in layer.file.rules]

    def notices(self) -> list[str]:
        """One sentence per layer that does not act, naming the file and what to do."""
        return [notice(self.root, layer) for layer in self.layers if not layer.acts]


def project_layers(conn, directory: str) -> ProjectLayers | None:
    """The project layers for ``directory`` (absolute), trust checked against the store ``conn``
    (None: no store, nothing trusted); None when the directory's repository has no layer file."""
    root, found = layer_files(directory)
    if not found:
        return None
    from dp.layers.projectfile import load
    from dp.store.trust import trusted_hash

    layers = []
    for source, path, info in found:
        file = load(source, path, info)
        if file.problem:
            state = BROKEN
        else:
            trusted = trusted_hash(conn, file.real)
            state = TRUSTED if trusted == file.sha256 else UNTRUSTED if trusted is None else CHANGED
        layers.append(Layer(file, state))
    return ProjectLayers(root, layers)


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
    return [rule for rule in project.active_rules()
            if rule.tool == tool and (not rule.command or words is None or rule.command in words)]


def tool_alias(project, tool: str):
    """The acting project tool-name alias for ``tool`` (local over project), or None."""
    found = None
    for rule in project.active_rules() if project is not None else ():
        if not rule.match_kind and rule.from_name == tool and not rule.tool and not rule.param and not rule.command:
            found = rule
    return found


def notice(root: str, layer: Layer) -> str:
    """Why ``layer`` does not act and the command that fixes it, in one sentence."""
    file = layer.file
    if layer.state == BROKEN:
        return (f"{file.path}: {file.problem}; its rules do not apply (fix the file; the other layers still do)")
    rules = f"its rules ({len(file.rules)})"
    if layer.state == CHANGED:
        return (f"{file.path} changed since you trusted it, so {rules} do not apply: read them with "
                f"`dp trust --show` and trust them again with `dp trust` (in {root})")
    return (f"{file.path} is not trusted, so {rules} do not apply: read them with `dp trust --show` "
            f"and let them act with `dp trust` (in {root})")


SOURCES = (USER, PROJECT, LOCAL)
