"""The ``layers`` lines of ``dp doctor``: this repository's project rule files, one line each.

A committed ``.dp/rules.toml`` (and a person's ``.dp/rules.local.toml``) acts
only when trusted and well-formed (dp.layers). Doctor says which layers act,
which wait for ``dp trust`` (a warning: the team's corrections are missing
here) and which are broken (an error naming the file, the line and the
problem: the file fails open, so nothing else would say so).
"""

from __future__ import annotations

from pathlib import Path

from dp.doctor.findings import ERROR, OK, WARNING, Finding
from dp.layers.effective import BROKEN, TRUSTED, notice
from dp.layers.view import layers_for


def check_layers(db_path: Path, cwd: Path) -> list[Finding]:
    project = layers_for(db_path, str(cwd))
    if project is None:
        return []
    findings = []
    for layer in project.layers:
        file = layer.file
        if layer.state == TRUSTED:
            count = len(file.rules)
            findings.append(Finding("layers", OK, f"{file.source}: {file.path} acts ({count} rule"
                                                  f"{'s' if count != 1 else ''}, trusted)", source=file.source))
        elif layer.state == BROKEN:
            findings.append(Finding("layers", ERROR, f"{file.source}: {notice(project.root, layer)}",
                                    f"edit {file.path} where the message says", source=file.source))
        else:
            findings.append(Finding("layers", WARNING, f"{file.source}: {notice(project.root, layer)}",
                                    f"cd {project.root} && dp trust --show && dp trust", source=file.source,
                                    state=layer.state))
    return findings
