"""Project paving proven with the REAL package managers.

pnpm (9+ and 6), yarn classic and berry, and bun are installed once from the
npm registry into ~/.cache/dp-tests/pm (bun's npm package ships its native
binary). For fixture projects of each kind, an agent's command is paved by
the real pave-check and then run with the real manager: it must succeed,
leave no foreign lockfile or node_modules layout behind, keep the lockfile
byte-identical for frozen installs, and make the script print exactly what
the agent's original command makes it print.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from paving_projects import git_init
from real_managers import BINARY, TOOLS, install_manager, manager_environment

SHOW = "node -e \"console.log('ARGS:' + JSON.stringify(process.argv.slice(1)))\" --"
SCRIPTS = {"build": f"{SHOW} build", "test": f"{SHOW} test", "start": f"{SHOW} start", "show": SHOW}
LOCKFILE = {"npm": "package-lock.json", "pnpm": "pnpm-lock.yaml", "pnpm-6": "pnpm-lock.yaml",
            "yarn": "yarn.lock", "yarn-berry": "yarn.lock", "bun": "bun.lock"}
# What each manager leaves in node_modules: another's is a foreign layout.
LAYOUT = {"npm": ".package-lock.json", "pnpm": ".pnpm", "yarn": ".yarn-integrity", "bun": ".bun-tag"}
PNPM6_LOCK = """lockfileVersion: 5.3

specifiers:
  left-pad: 1.3.0

dependencies:
  left-pad: 1.3.0
"""
INSTALL = {"npm": ["npm", "install"], "pnpm": ["pnpm", "install"], "pnpm-6": ["pnpm", "install"],
           "yarn": ["yarn", "install"], "yarn-berry": ["yarn", "install"], "bun": ["bun", "install"]}


@pytest.fixture(scope="session")
def manager_paths(tmp_path_factory):
    """kind → PATH with that kind's manager first (yarn classic and berry both are `yarn`)."""
    paths = {}
    base = tmp_path_factory.mktemp("pm-bins")
    for kind in TOOLS:
        bin_dir = base / kind
        bin_dir.mkdir()
        real = install_manager(kind)
        for other in {"pnpm", "yarn", "bun"} - {BINARY[kind]}:
            source = install_manager({"pnpm": "pnpm", "yarn": "yarn", "bun": "bun"}[other]) / other
            (bin_dir / other).symlink_to(source)
        (bin_dir / BINARY[kind]).symlink_to(real / BINARY[kind])
        paths[kind] = f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    paths["npm"] = paths["pnpm"]
    return paths


@pytest.fixture(scope="session")
def manager_env(tmp_path_factory):
    return manager_environment()


@pytest.fixture(scope="session")
def templates(tmp_path_factory, manager_paths, manager_env):
    """One fixture project per kind whose lockfile the real manager wrote."""
    made = {}
    for kind in LOCKFILE:
        directory = tmp_path_factory.mktemp(f"template-{kind}") / "project"
        directory.mkdir()
        manifest = {"name": f"fixture-{kind.replace('-', '')}", "version": "1.0.0", "private": True,
                    "scripts": SCRIPTS, "dependencies": {"left-pad": "1.3.0"}}
        (directory / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
        if kind == "yarn-berry":
            (directory / ".yarnrc.yml").write_text("nodeLinker: node-modules\nenableTelemetry: false\n")
        if kind == "pnpm-6":
            # pnpm 6 cannot reach a registry from Node 20 (ERR_INVALID_THIS); its scripts
            # run without an install, so its lockfile is the one pnpm 6 writes, by hand.
            (directory / LOCKFILE[kind]).write_text(PNPM6_LOCK)
            made[kind] = directory
            continue
        env = {**manager_env, "PATH": manager_paths[kind]}
        proc = subprocess.run(INSTALL[kind], cwd=directory, env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        if kind != "yarn-berry":  # berry needs its install state; the others start clean
            shutil.rmtree(directory / "node_modules", ignore_errors=True)
        assert (directory / LOCKFILE[kind]).is_file(), sorted(os.listdir(directory))
        made[kind] = directory
    return made


# (kind, agent's command). Script commands are also run as typed, for comparison.
COMMANDS = {
    "pnpm": ["npm install", "npm i", "npm ci", "yarn", "yarn install --frozen-lockfile", "bun install",
             "npm run build", "npm run show -- a 'b c'", "npm run show x y", "npm test", "npm test -- --grep x",
             "npm start", "yarn build", "bun run show -- --flag", "npm i -D is-number@7.0.0",
             "npm uninstall left-pad", "npm update left-pad"],
    "pnpm-6": ["npm run show -- --x y", "npm test -- --watch", "npm run build", "yarn run show a",
               "bun run show -- --y", "npm start"],
    "yarn": ["npm install", "npm ci", "pnpm install --frozen-lockfile", "npm run show -- --x 'y z'",
             "npm test", "npm start", "pnpm run show --x", "bun run show -- a", "npm i -D is-number@7.0.0",
             "npm uninstall left-pad"],
    "yarn-berry": ["npm install", "npm ci", "pnpm install --frozen-lockfile", "npm run show -- --x y",
                   "npm run show -- -- a", "npm test -- --grep x", "pnpm run build", "npm i -E is-number@7.0.0",
                   "npm uninstall left-pad"],
    "bun": ["npm install", "npm ci", "yarn install --frozen-lockfile", "npm test", "npm test -- --watch",
            "npm run show -- -- a", "npm start", "pnpm run show --x y", "yarn run show z",
            "npm i -D is-number@7.0.0", "npm remove left-pad"],
    "npm": ["pnpm install", "pnpm install --frozen-lockfile", "yarn", "bun install --frozen-lockfile",
            "pnpm run show --x 'y z'", "yarn test", "pnpm start", "bun run show -- a b", "yarn run build",
            "yarn add -D is-number@7.0.0", "pnpm remove left-pad"],
}
CASES = [(kind, command) for kind, commands in COMMANDS.items() for command in commands]


def test_at_least_sixty_commands():
    assert len(CASES) >= 60


def _pave(pave_check, cwd: Path, command: str, path: str) -> str:
    """The hook's rewrite, with the managers on the hook's PATH (paving swaps only to one PATH finds)."""
    payload = {"session_id": "real", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}}
    proc = pave_check(payload, extra_env={"PATH": path})
    assert proc.returncode == 0 and proc.stdout, (command, proc.stdout, proc.stderr)
    new = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert subprocess.run(["bash", "-n", "-c", new]).returncode == 0
    return new


def _run(command: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _script_output(text: str) -> list:
    return [line for line in text.splitlines() if line.startswith("ARGS:")]


@pytest.mark.parametrize("kind, command", CASES)
def test_paved_command_runs_with_the_project_manager(pave_check, templates, manager_paths, manager_env,
                                                     tmp_path, kind, command):
    project = tmp_path / "project"
    shutil.copytree(templates[kind], project, symlinks=True)
    git_init(project)
    lockfile = (project / LOCKFILE[kind]).read_bytes()
    paved = _pave(pave_check, project, command, manager_paths[kind])
    env = {**manager_env, "PATH": manager_paths[kind]}
    proc = _run(paved, project, env)
    assert proc.returncode == 0, f"{command} → {paved}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"

    own = LOCKFILE[kind]
    foreign = {name for name in LOCKFILE.values() if name != own} | {"bun.lockb", "npm-shrinkwrap.json"}
    assert not [name for name in foreign if (project / name).exists()], (paved, os.listdir(project))
    manager = BINARY.get(kind, "npm") if kind != "npm" else "npm"
    modules = project / "node_modules"
    assert not [marker for owner, marker in LAYOUT.items() if owner != manager and (modules / marker).exists()], paved
    if "frozen" in paved or paved.endswith(" ci") or "--immutable" in paved:
        assert (project / own).read_bytes() == lockfile, f"{paved} changed {own}"
    manifest = json.loads((project / "package.json").read_text())
    if "is-number" in command:
        section = "devDependencies" if "-D" in command else "dependencies"
        assert "is-number" in manifest.get(section, {}), (paved, manifest)
        assert b"is-number" in (project / own).read_bytes()
    if "uninstall" in command or "remove" in command:
        assert "left-pad" not in manifest.get("dependencies", {}), (paved, manifest)

    if _script_output(proc.stdout):
        original = tmp_path / "original"
        shutil.copytree(templates[kind], original, symlinks=True)
        typed = _run(command, original, env)
        assert typed.returncode == 0, typed.stderr[-2000:]
        assert _script_output(proc.stdout) == _script_output(typed.stdout), (command, paved)
