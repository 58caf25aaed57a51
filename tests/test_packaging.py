"""The installed package is complete: every package found, the agents' files and the migrations shipped."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from seventh_agent import NAME, with_new_agent

ROOT = Path(__file__).resolve().parent.parent


def test_installed_package_ships_its_migrations(tmp_path):
    # Run outside the checkout so that the installed copy is imported.
    code = "from dp.store.migrations import migrations_dir, load_migrations; d = migrations_dir(); print(d); print(len(load_migrations(d)))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    directory, count = proc.stdout.split()
    assert Path(directory, "0001_create_aliases_v3.sql").is_file()
    assert int(count) == len(list((ROOT / "migrations").glob("[0-9][0-9][0-9][0-9]_*.sql")))


def test_the_migrations_are_found_in_one_place_beside_the_package(tmp_path):
    """One lookup (dp/migrations) finds them in the installed package: in a checkout through the link to the
    top-level migrations/, which is the only copy (pyproject.toml maps it into the wheel; no setup.py or
    MANIFEST.in builds it)."""
    code = "import dp; from dp.store.migrations import migrations_dir; print(dp.__file__); print(migrations_dir())"
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    package, directory = proc.stdout.split()
    assert Path(directory) == Path(package).resolve().parent / "migrations"
    assert (ROOT / "dp" / "migrations").resolve() == (ROOT / "migrations").resolve()
    assert not (ROOT / "setup.py").exists() and not (ROOT / "MANIFEST.in").exists()


def _built_wheel(source: Path, out: Path) -> set[str]:
    """The file names in the wheel PyPA's front end builds from ``source`` (without isolation: no index)."""
    proc = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(source)],
                          cwd=source, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_the_wheel_ships_every_package_and_a_new_agents_folder_unlisted(tmp_path):
    """Packages are found, not listed (pyproject.toml's wheel target is dp/), and an agent's non-Python files
    (the Claude Code mod, the OpenCode plugin) ship with them: a seventh agent added as ARCHITECTURE.md says — its folder, a data
    folder inside it, one registry line — is in the wheel with no edit to pyproject.toml."""
    root = with_new_agent(tmp_path)
    (root / "dp" / "agents" / NAME / "plugin").mkdir(exist_ok=True)
    (root / "dp" / "agents" / NAME / "plugin" / "zed-hook.js").write_text("export default {}\n")
    shipped = _built_wheel(root, tmp_path / "dist")
    source = {path.relative_to(root).as_posix() for path in (root / "dp").rglob("*")
              if path.is_file() and "__pycache__" not in path.parts}
    assert source - shipped == set()
    assert {f"dp/agents/{NAME}/wire.py", f"dp/agents/{NAME}/plugin/zed-hook.js"} <= shipped
    migrations = {f"dp/migrations/{path.relative_to(ROOT / 'migrations').as_posix()}"
                  for path in (ROOT / "migrations").rglob("*.sql")}
    assert migrations and migrations <= shipped
    assert "dp/agents/claude/mod/register.ts" in shipped  # dp init --plugin copies the mod from the package
    assert not [name for name in shipped if "__pycache__" in name or name.endswith(".pyc")]
