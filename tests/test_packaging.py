"""The installed package is complete: every subpackage listed, migrations shipped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "dp").rglob("__init__.py")
        if "__pycache__" not in path.parts
    }
    assert on_disk | {"dp.migrations"} == listed


def test_installed_package_ships_its_migrations(tmp_path):
    # Run outside the checkout so that the installed copy is imported.
    code = "from dp.store.migrations import migrations_dir, load_migrations; d = migrations_dir(); print(d); print(len(load_migrations(d)))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    directory, count = proc.stdout.split()
    assert Path(directory, "0001_create_aliases_v3.sql").is_file()
    assert int(count) == len(list((ROOT / "migrations").glob("[0-9][0-9][0-9][0-9]_*.sql")))


def test_the_build_ships_the_agent_plugin_files(tmp_path):
    # dp init --plugin (and --agent opencode) copies these from the installed package: a build without them
    # cannot install the plugin.
    # setuptools' own build_py step, reading pyproject.toml's package data, as a wheel build runs it.
    code = "import setuptools, sys; sys.argv = ['setup.py', '-q', 'build_py', '-d', sys.argv[1]]; setuptools.setup()"
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "lib")], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    shipped = [path.name for path in (ROOT / "dp" / "agents" / "claude" / "mod").iterdir() if path.is_file()]
    assert "register.ts" in shipped
    for name in shipped:
        assert (tmp_path / "lib" / "dp" / "agents" / "claude" / "mod" / name).is_file(), name
    assert (tmp_path / "lib" / "dp" / "agents" / "opencode" / "plugin" / "dp.ts").is_file()
