"""The ``layers`` lines of ``dp doctor``: this repository's project rule files, one line each.

A committed ``.dp/rules.toml`` (and a person's ``.dp/rules.local.toml``) acts
only when trusted and well-formed (dp.layers). Doctor says which layers act,
which wait for ``dp trust`` (a warning: the team's corrections are missing
here), which are broken (an error naming the file, the line and the
problem: the file fails open, so nothing else would say so) and which are
another repository's file reached through a link (an error: it never acts
here, and trusting this repository cannot change that).
"""

from __future__ import annotations

from pathlib import Path

from dp.doctor.findings import ERROR, OK, WARNING, Finding
from dp.layers.effective import BROKEN, OUTSIDE, TRUSTED, notice
from dp.layers.view import layers_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dp.layers.effective import ProjectLayers


def check_layers(db_path: Path, cwd: Path) -> tuple[list[Finding], ProjectLayers | None]:
    """One finding per layer file of ``cwd``'s repository, and its ``ProjectLayers`` (None: no file)."""
    project = layers_for(db_path, str(cwd))
    if project is None:
        return [], None
    findings = []
    for layer in project.layers:
        file = layer.file
        if layer.state == TRUSTED:
            count = len(file.rules)
            findings.append(Finding("layers", OK, f"{file.source}: {file.path} acts ({count} rule"
                                                  f"{'s' if count != 1 else ''}, trusted)", source=file.source))
        elif layer.state == OUTSIDE:
            findings.append(Finding("layers", ERROR, f"{file.source}: {notice(project.root, layer)}",
                                    f"cp --remove-destination {file.real} {file.path}, read it, then "
                                    f"cd {project.root} && dp trust --show && dp trust", source=file.source,
                                    state=layer.state))
        elif layer.state == BROKEN:
            findings.append(Finding("layers", ERROR, f"{file.source}: {notice(project.root, layer)}",
                                    f"edit {file.path} where the message says", source=file.source))
        else:
            findings.append(Finding("layers", WARNING, f"{file.source}: {notice(project.root, layer)}",
                                    f"cd {project.root} && dp trust --show && dp trust", source=file.source,
                                    state=layer.state))
    return findings, project


def rules_to_check(user_rules, project) -> list:
    """The rules ``dp doctor`` checks: those in effect here (the user's with the acting layers laid
    over them) and those of a well-formed layer still waiting for ``dp trust``, so a reviewer
    learns what is wrong with them before trusting."""
    from dp.layers.effective import merge

    rules = merge(user_rules or [], project)
    if project is not None:
        rules += [rule for layer in project.layers if not layer.acts for rule in layer.file.rules]
    return rules


def layer_paths(project) -> dict:
    """``{source: path}`` of the layer files, for naming where a project rule is written."""
    return {layer.file.source: layer.file.path for layer in project.layers} if project is not None else {}
