"""Shared by the pave-check integration tests: a store built once per module by `dp alias`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def isolated_env(root: Path) -> dict:
    """HOME, DP_DB and the bashlex table cache under ``root``; no DP_/CLAUDE variables leak in."""
    (root / "home").mkdir(exist_ok=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE"))}
    env.update({"HOME": str(root / "home"), "DP_DB": str(root / "dp.db"), "XDG_CACHE_HOME": str(root / "cache")})
    return env


def dp_alias(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "dp"), "alias", *args], capture_output=True, text=True, env=env, timeout=60)


def build_store(root: Path, rules) -> dict:
    """Create the rules with `dp alias`; returns the environment that points at the store, whose
    PATH has every program the rules lead to (the hook leaves a command as typed otherwise:
    integration_tests/test_rules_missing_programs.py)."""
    env = isolated_env(root)
    for rule in rules:
        proc = dp_alias(env, *rule)
        assert proc.returncode == 0, proc.stderr
    return with_rule_programs(env, root / "agent-bin")


def with_rule_programs(env: dict, directory: Path) -> dict:
    """``env`` with ``directory`` first on PATH, holding a real program under the name of every
    program the store's command rules and recipes lead to that this machine lacks (``gt``, ``eza``)."""
    import json
    import shutil

    from dp.rules.model import Rule
    from dp.rules.programs import rule_programs

    listed = subprocess.run([str(BIN / "dp"), "aliases", "--json"], capture_output=True, text=True, env=env,
                            timeout=60)
    names = {program for row in json.loads(listed.stdout or "[]") for program in rule_programs(Rule.from_row(row))}
    lacking = sorted(name for name in names if "/" not in name and not shutil.which(name, path=env.get("PATH")))
    programs_dir(directory, **{name: "true" for name in lacking})
    return {**env, "PATH": f"{directory}{os.pathsep}{env.get('PATH', '')}"}


def programs_dir(directory: Path, **links: str) -> Path:
    """A directory of real symlinks for a PATH: ``name=real`` links ``name`` to the real program
    ``real`` (found on this machine's PATH). The hook only asks whether a program is there."""
    import shutil

    directory.mkdir(parents=True, exist_ok=True)
    for name, real in links.items():
        target = shutil.which(real)
        assert target, f"the test needs {real} on this machine's PATH"
        (directory / name).symlink_to(target)
    return directory
