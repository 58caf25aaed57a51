"""dp run / dp script with the REAL pnpm (9+ and 6), yarn classic and berry, and bun.

The fakes in test_run_javascript.py pin the argv dp builds; these prove that
the real manager then hands the script exactly the arguments the user typed,
the same as npm does: pnpm 6 needs ``--`` before them and later pnpm does
not, yarn and bun pass them straight on, and a leading ``--`` only marks
where they start. No dependencies, so nothing is downloaded but the managers
themselves (cached in ~/.cache/dp-tests/pm, shared with the paving tests).
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from real_managers import BINARY, install_manager, manager_environment
from task_projects import make_repo

SHOW = "node -e \"console.log('ARGS:' + JSON.stringify(process.argv.slice(1)))\" --"
# kind → (lockfile, its text, packageManager field or None, the prefix dp runs).
PROJECTS = {
    "npm": ("package-lock.json", '{"lockfileVersion": 3}', None, "npm run show --"),
    "pnpm": ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n", None, "pnpm run show"),
    "pnpm-6": ("pnpm-lock.yaml", "lockfileVersion: 5.3\n", None, "pnpm run show --"),
    "yarn": ("yarn.lock", "", None, "yarn run show"),
    "yarn-berry": ("yarn.lock", None, "yarn@4.18.1", "yarn run show"),
    "bun": ("bun.lock", "", None, "bun run show"),
}
TYPED = [
    (["--flag", "b c"], ["--flag", "b c"]),
    (["--", "--watch", "x"], ["--watch", "x"]),
]


@pytest.fixture(scope="module")
def environment():
    if shutil.which("npm") is None:
        pytest.skip("LOUD SKIP: npm is not installed: the real-manager tests cannot install pnpm/yarn/bun")
    return manager_environment()


def project_of(kind: str, root, environment) -> dict:
    """A repository using ``kind``; the environment whose PATH reaches its real manager."""
    lockfile, text, declared, _ = PROJECTS[kind]
    make_repo(root)
    manifest = {"name": "demo", "version": "1.0.0", "private": True, "scripts": {"show": SHOW}}
    if declared:
        manifest["packageManager"] = declared
    (root / "package.json").write_text(json.dumps(manifest))
    env = dict(environment)
    if kind != "npm":
        env["PATH"] = f"{install_manager(kind)}:{env.get('PATH', '/usr/bin:/bin')}"
    if kind == "yarn-berry":  # berry runs scripts only in an installed project
        (root / ".yarnrc.yml").write_text("nodeLinker: node-modules\nenableTelemetry: false\n")
        subprocess.run(["yarn", "install"], cwd=root, env=env, capture_output=True, timeout=300, check=True)
    elif text is not None:
        (root / lockfile).write_text(text)
    return env


@pytest.mark.parametrize("kind", PROJECTS)
def test_the_real_manager_hands_the_script_exactly_the_typed_arguments(dp, tmp_path, environment, kind):
    root = tmp_path / kind
    env = project_of(kind, root, environment)
    prefix = PROJECTS[kind][3]
    for typed, received in TYPED:
        for command in ("run", "script"):
            proc = dp(command, "--json", "show", *typed, cwd=root, extra_env=env, timeout=180)
            assert proc.returncode == 0, (kind, typed, proc.stdout, proc.stderr)
            report = json.loads(proc.stdout)
            assert report["runner"] == BINARY.get(kind, "npm")
            assert report["command"].startswith(prefix), report["command"]
            shown = [line for line in report["output"].splitlines() if line.startswith("ARGS:")]
            assert shown == ["ARGS:" + json.dumps(received, separators=(",", ":"))], (kind, typed, report["output"])


@pytest.mark.parametrize("kind", ["pnpm", "yarn", "bun"])
def test_the_scripts_exit_code_is_dps(dp, tmp_path, environment, kind):
    root = tmp_path / kind
    env = project_of(kind, root, environment)
    manifest = json.loads((root / "package.json").read_text())
    manifest["scripts"]["fail"] = "node -e \"process.exit(5)\""
    (root / "package.json").write_text(json.dumps(manifest))
    assert dp("run", "fail", cwd=root, extra_env=env, timeout=180).returncode == 5
