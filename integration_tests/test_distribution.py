"""The distribution a user installs: desire-paths, built by PyPA's front end, checked, installed outside the clone.

``python -m build`` builds the sdist and then the wheel FROM the unpacked sdist (its default), so
a file the wheel needs but the sdist lacks (migrations/, the translation tables) fails here as it
would fail ``pip install desire-paths`` from the sdist. ``twine check --strict`` checks both as
PyPI would (metadata, the README rendered as the long description).

The wheel is then installed into a new virtualenv in a temporary directory outside the clone,
where a CI job, tox or a throwaway environment puts dp. There ``dp --version`` and ``dp init``
work, and every README and docs example still prints what its page shows: test_readme.py runs
under that virtualenv's Python, so every dp, pave-check and dp-capture it starts is the installed
one — which rightly warns that its hook lies in a temporary directory (test_readme.py takes that
one warning out deliberately, see its INSTALL_WARNING).

The build runs without isolation: the backend (hatchling) comes from the test extra, so these
tests need no package index. For the same reason the virtualenv borrows this environment's
dependencies through a .pth file; dp itself comes only from the wheel.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NAME = "desire-paths"
VERSION = re.search(r'^__version__ = "([^"]+)"$', (ROOT / "dp" / "__init__.py").read_text(), re.M).group(1)
# The store's migrations and the team database's (migrations/postgres/, dp team migrate).
MIGRATIONS = sorted(path.relative_to(ROOT / "migrations").as_posix()
                    for path in (ROOT / "migrations").rglob("[0-9][0-9][0-9][0-9]_*.sql"))
STORE_MIGRATIONS = [name for name in MIGRATIONS if "/" not in name]  # the SQLite store's; postgres/ is the team's
TABLES = sorted(path.name for path in (ROOT / "dp" / "rules" / "tables").glob("*.toml"))
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "dist", "site", "__pycache__",
                                   ".pytest_cache", "node_modules")


def _run(*command, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=900, **kwargs)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel built from it, from a copy of the checkout (the build writes egg-info)."""
    work = tmp_path_factory.mktemp("release")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE, symlinks=True)
    proc = _run(sys.executable, "-m", "build", "--no-isolation", "--outdir", work / "dist", source)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Building wheel from sdist" in proc.stdout + proc.stderr, "the wheel must be built from the sdist"
    built = sorted((work / "dist").iterdir())
    assert [path.name for path in built] == [f"desire_paths-{VERSION}-py3-none-any.whl",
                                             f"desire_paths-{VERSION}.tar.gz"]
    return {"wheel": built[0], "sdist": built[1]}


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory) -> Path:
    """A new virtualenv in the temporary directory with the wheel installed; its bin directory."""
    root = tmp_path_factory.mktemp("venv") / "dp-env"
    assert _run(sys.executable, "-m", "venv", "--without-pip", root).returncode == 0
    site = Path(_run(root / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
                .stdout.strip())
    (site / "borrowed_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    proc = _run(sys.executable, "-m", "pip", "--python", root / "bin" / "python", "install", "--no-deps",
                "--no-index", "--ignore-installed", dist["wheel"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return root / "bin"


def _home_env(home: Path, bin_dir: Path) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DP_", "CLAUDE", "XDG_"))}
    return {**env, "HOME": str(home), "PATH": f"{bin_dir}:/usr/bin:/bin", "NO_COLOR": "1",
            "DP_TESTS_CACHE": os.environ.get("DP_TESTS_CACHE", "")}


def test_twine_check_passes_for_the_sdist_and_the_wheel(dist):
    proc = _run(sys.executable, "-m", "twine", "check", "--strict", dist["sdist"], dist["wheel"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASSED") == 2, proc.stdout


def test_the_sdist_carries_what_the_wheel_build_needs(dist):
    with tarfile.open(dist["sdist"]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    expected = {"pyproject.toml", "README.md", "CHANGELOG.md", "mkdocs.yml", "docs/index.md",
                *(f"migrations/{name}" for name in MIGRATIONS), *(f"dp/rules/tables/{name}" for name in TABLES)}
    assert expected <= names, sorted(expected - names)


def test_the_wheel_is_desire_paths_with_the_dp_commands_and_its_data(dist):
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = set(wheel.namelist())
        info = f"desire_paths-{VERSION}.dist-info"
        metadata = wheel.read(f"{info}/METADATA").decode()
        scripts = wheel.read(f"{info}/entry_points.txt").decode()
    assert f"\nName: {NAME}\n" in metadata and f"\nVersion: {VERSION}\n" in metadata
    assert "# dp — desire paths for AI coding agents" in metadata  # the README is the long description
    for command in ("dp = dp.cli.main:main", "pave-check = dp.hook:main", "dp-capture = dp.capture.hook:main"):
        assert command in scripts
    assert {f"dp/migrations/{name}" for name in MIGRATIONS} <= names
    assert {f"dp/rules/tables/{name}" for name in TABLES} <= names
    assert not any(name.startswith(("tests/", "integration_tests/", "migrations/")) for name in names)


def test_the_installed_wheel_runs_dp_version_and_dp_init(venv, tmp_path):
    env = _home_env(tmp_path / "home", venv)
    (tmp_path / "home" / ".claude").mkdir(parents=True)  # Claude Code has run here: dp init writes its settings
    where = _run(venv / "python", "-c", "import dp; print(dp.__file__)", cwd=tmp_path, env=env)
    assert where.stdout.strip().startswith(str(venv.parent)), where.stdout + where.stderr
    version = _run(venv / "dp", "--version", cwd=tmp_path, env=env)
    assert (version.returncode, version.stdout) == (0, f"dp {VERSION}\n"), version.stderr
    init = _run(venv / "dp", "init", cwd=tmp_path, env=env)
    assert init.returncode == 0, init.stdout + init.stderr
    home = tmp_path / "home"
    assert f"Store: {home}/.dp/dp.db (created, schema {len(STORE_MIGRATIONS)}, 0 rules)" in init.stdout
    hook = os.path.realpath(venv / "pave-check")
    assert f"warning: {hook} is in a temporary directory: the hook breaks when it is cleaned up" in init.stdout
    assert "Live demo" in init.stdout and "runs instead: rg -n TODO src/app.py" in init.stdout


def test_the_readme_and_docs_examples_hold_with_dp_installed_outside_the_clone(venv, tmp_path):
    proc = _run(venv / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "print_what",
                ROOT / "integration_tests" / "test_readme.py", cwd=tmp_path, env={**os.environ, "PYTHONPATH": ""})
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert re.search(r"^\d+ passed", proc.stdout.splitlines()[-1]), proc.stdout[-2000:]
