"""All of ``dp doctor``, in the order of its report; each finding says what is wrong and the one
command that fixes it.

Read-only: the store is opened the way the hook opens it (never created or
migrated) and settings files are only parsed. Each subject has its module:
``store``, ``layers`` (the project's rule files), ``settings_files``, ``dangling`` (entries running a dp
program that is gone; ``fix`` repairs it and what else needs no decision), ``hook``, ``collisions``, ``reach`` (entries and
where rules take effect), ``rules``, ``latency``, ``paving``, ``mcp_check``,
``capture``, ``team`` (a team database unreachable with events queued), then each agent's own lines (the "doctor" role of its folder, ``dp/agents/<agent>/doctor.py``:
a plugin, hooks files and their trust, passed in by the command line as ``own_lines``), ``agents`` (the lines every other agent dp is installed for gets);
``findings`` holds what they all return.
"""

from __future__ import annotations

from pathlib import Path

from dp.doctor import reach
from dp.doctor.agents import check_agents, installed_agents
from dp.doctor.capture import check_capture
from dp.doctor.collisions import check_colliding_hooks
from dp.doctor.dangling import check_dangling
from dp.doctor.findings import Finding
from dp.doctor.hook import check_hook, default_agent_present
from dp.doctor.latency import check_latency
from dp.doctor.layers import check_layers, layer_paths, rules_to_check
from dp.doctor.mcp_check import check_mcp
from dp.doctor.paving import check_paving
from dp.doctor.rules import check_rules
from dp.doctor.settings_files import check_settings, installed, settings_files
from dp.doctor.store import check_store
from dp.doctor.team import check_team
from dp.layers.effective import merge


def run_all(db_path: Path, cwd: Path, extra_settings: Path | None = None, own_lines=None) -> list[Finding]:
    """Every finding, in the report's order. ``own_lines(db_path, cwd, rules)`` gives each agent's own lines
    (its "doctor" role): the command line passes it in, as those roles build on this package."""
    layers, project = check_layers(db_path, cwd)
    acting = project.active_rules() if project is not None else []
    findings, rules = check_store(db_path, len(acting))
    findings += layers
    files = settings_files(cwd, extra_settings)
    findings += check_settings(files)
    findings += check_dangling(db_path, cwd)
    findings += check_hook(files, db_path, installed_agents(db_path, cwd))
    findings += check_colliding_hooks(files)
    findings += reach.check_entries(files, db_path)
    checked = rules_to_check(rules, project)
    if checked:
        findings += check_rules(checked, layer_paths(project))
        findings += reach.check_reach(merge(rules or [], project))
    findings.append(check_latency(files, db_path, cwd))
    findings += check_paving(db_path, cwd)
    findings += check_mcp(cwd)
    findings += check_capture(files, db_path, rules, default_here=bool(installed(files)) or default_agent_present())
    findings += check_team(db_path)
    findings += own_lines(db_path, cwd, rules) if own_lines is not None else []
    findings += check_agents(db_path, cwd, rules)
    return findings
